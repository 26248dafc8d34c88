// The clock of a timed table: each update may carry {"seat", "deadline", "seconds"} (or null);
// the countdown of the seat to move is drawn into #clock, as text.
const clock = document.getElementById("clock");
let names = [];
let current = null;
let timer = null;

function draw() {
  if (!clock) return;
  if (!current) {
    clock.textContent = "";
    clock.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(current.deadline - Date.now() / 1000));
  const who = names[current.seat] || `Seat ${current.seat + 1}`;
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  clock.textContent = `${who}: ${minutes}:${seconds} left`;
  clock.hidden = false;
  clock.dataset.seat = String(current.seat);
}

document.addEventListener("avanti:seated", (event) => {
  names = event.detail.names || [];
  draw();
});
document.addEventListener("avanti:message", (event) => {
  const message = event.detail;
  if (!message || message.type !== "update" || !("clock" in message)) return;
  current = message.clock;
  if (timer === null) timer = setInterval(draw, 1000);
  draw();
});
