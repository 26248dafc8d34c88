// The seat's commands: buttons, clicks on the picture, keys, the command box, and the
// confirmation an irreversible command asks for.
//
// This script draws from what the page's core tells it in an "avanti:render" event (the seat,
// its legal commands and their words, whether a command is under way) and never sends on the
// socket itself: a chosen command goes back to the core as an "avanti:command" event ({command}
// or {notation}), a note for the person as "avanti:say" ({text, kind}). It never decides what is
// legal: a click the picture names but no legal command fits is still sent, and refused.
//
// "Think before you click": a command that cannot be taken back once the game has it (laying a
// card face down, quitting a run, passing, skipping a move, offering, bidding, playing an
// advisor) is only selected by its first click or key; a second click on it (or on the same
// place of the picture), or Enter, sends it; Esc or a click elsewhere cancels. Which commands
// these are is read from the first word of their notation, per game:
import {el} from "/static/common.js";

const CONFIRM = {
  avanti: new Set(["play", "quit"]),          // A: lay a card face down (A8), quit the run (A14)
  mare: new Set(["skip"]),                    // M: give up the fish move
  autorama: new Set(["pass", "bid", "offer", "play"]),  // F: pass, bid, offer face down, advisor
};

const main = document.getElementById("table");
const picture = document.getElementById("picture");
const commands = document.getElementById("commands");
const confirmLine = document.getElementById("confirm");
const notationInput = document.getElementById("notation");

let table = null;       // what the core last told: see play.js's render()
let choices = null;     // the legal commands a click narrowed the buttons to, or null
let armed = null;       // the notation of the command selected and waiting for its confirmation
let latest = null;      // the version the buttons were drawn for

function tell(name, detail) {
  document.dispatchEvent(new CustomEvent(name, {detail}));
}

function say(text, kind = "error") {
  tell("avanti:say", {text, kind});
}

function send(what) {
  choices = null;
  armed = null;
  tell("avanti:command", what);
}

function needsConfirm(choice) {
  const words = table && CONFIRM[table.game];
  return Boolean(words && words.has(choice.notation.split(" ")[0]));
}

/** Choose a legal command: send it, or select it first when it needs a confirmation. */
function choose(choice) {
  if (needsConfirm(choice) && armed !== choice.notation) {
    armed = choice.notation;
    draw();
    const button = commands.querySelector("button.armed");
    if (button) button.focus();
    return;
  }
  send({command: choice.command});
}

function disarm() {
  if (armed === null) return;
  armed = null;
  draw();
}

/** A value of a data-* attribute as the command's JSON writes it. */
function value(text) {
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

function matches(command, fields) {
  return Object.entries(fields).every(([key, wanted]) => {
    const have = command[key];
    return Array.isArray(have) ? have.includes(wanted) : have === wanted;
  });
}

/** The data-* attributes that say what a piece is, never what a click does. */
const PIECE_FIELDS = new Set(["piece", "path"]);

/** A click on the picture: the data-* attributes of what was clicked (nearest first) name a
 * command, or narrow the buttons to the legal commands that fit. */
picture.addEventListener("click", (event) => {
  const fields = {};
  for (let node = event.target; node && node !== picture; node = node.parentNode) {
    if (!node.dataset) continue;
    for (const [key, text] of Object.entries(node.dataset)) {
      if (PIECE_FIELDS.has(key)) continue;
      const name = key === "command" ? "type" : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (name !== "seat" && !(name in fields)) fields[name] = value(text);
    }
  }
  if (Object.keys(fields).length === 0) { disarm(); return; }
  // A picture still catching up (a move being drawn) or a command under way takes no click,
  // as the buttons are disabled then: a narrowing made on a picture older than the legal
  // commands would outlive the click (the buttons stayed narrowed once the drawing caught up).
  if (!table || table.pending || !table.ready) return;
  if (table.seat === null) {
    say("A spectator sends no commands: open a seat's join link to play.");
    return;
  }
  const fitting = table.legal.filter((choice) => matches(choice.command, fields));
  if (fitting.length === 1) {
    choose(fitting[0]);
  } else if (fitting.length > 1) {
    choices = fitting;
    armed = null;
    draw();
    commands.querySelector("button")?.focus();
  } else if ("type" in fields) {
    armed = null;
    send({command: {...fields, seat: table.seat}});
  } else {
    say("That is not something you can do now.", "note");
  }
});

/** A click anywhere but on a command or the picture cancels a selection. */
document.addEventListener("click", (event) => {
  if (armed === null) return;
  const target = event.target instanceof Element ? event.target : null;
  // a button redrawn by its own click has left the page: that click was a choice, not elsewhere
  if (!target || !target.isConnected || target.closest("#commands button") || target.closest("#picture")) return;
  disarm();
});

document.getElementById("say").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = notationInput.value.trim();
  if (!text) return;
  notationInput.value = "";
  send({notation: text});
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement
    || event.target instanceof HTMLSelectElement;
  if (event.key === "Escape") {
    if (typing) event.target.blur();
    choices = null;
    armed = null;
    draw();
    return;
  }
  if (typing || !table) return;
  if (event.key === "Enter" && armed !== null && !(event.target instanceof HTMLButtonElement)) {
    const chosen = table.legal.find((choice) => choice.notation === armed);
    if (chosen) {
      event.preventDefault();
      send({command: chosen.command});
    }
  } else if (event.key === "/") {
    event.preventDefault();
    notationInput.focus();
  } else if (/^[1-9]$/.test(event.key)) {
    const button = commands.querySelectorAll("button.command:not(.all)")[Number(event.key) - 1];
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  }
});

/** One legal command's button: its notation, its words (the price before the choice, A22),
 * and whether it is selected. */
function button(choice, index) {
  const key = index < 9 ? el("kbd", {}, String(index + 1)) : null;
  const selected = armed === choice.notation;
  const made = el("button", {
    type: "button", class: selected ? "command armed" : "command", "data-notation": choice.notation,
    "data-confirm": needsConfirm(choice) ? "true" : null,
    "aria-pressed": needsConfirm(choice) ? String(selected) : null,
    disabled: table.pending || !table.ready,
  });
  if (key) made.append(key, " ");
  made.append(choice.notation);
  const label = table.labels.get(choice.notation);
  if (label && label !== choice.notation) {
    made.title = label;
    const more = label.startsWith(choice.notation)
      ? label.slice(choice.notation.length).replace(/^[:\s]+/, "") : label;
    if (more) made.append(el("span", {class: "label"}, ` (${more})`));
  }
  if (selected) made.append(el("span", {class: "again"}, " \u2714 again to confirm"));
  made.addEventListener("click", () => choose(choice));
  return made;
}

/** Draw the buttons and the confirmation line from the last thing the core told. */
function draw() {
  if (!table) return;
  if (!table.legal.some((choice) => choice.notation === armed)) armed = null;
  const shown = choices || table.legal;
  const buttons = shown.map(button);
  if (choices) {
    const all = el("button", {type: "button", class: "command all"}, "every command");
    all.addEventListener("click", () => { choices = null; draw(); });
    buttons.push(all);
  }
  const focused = commands.contains(document.activeElement) ? document.activeElement.dataset.notation : null;
  commands.replaceChildren(...buttons);
  if (focused) {  // keep the keyboard where it was
    const again = buttons.find((made) => made.dataset.notation === focused && !made.disabled);
    if (again) again.focus();
  }
  if (table.seat !== null && !table.mine && !table.over) commands.append(el("p", {class: "muted"}, "Nothing to do now."));
  if (armed !== null) {
    const label = table.labels.get(armed) || armed;
    confirmLine.textContent = `Selected: ${label}. Click it again or press Enter to do it; Esc cancels.`;
    confirmLine.hidden = false;
  } else {
    confirmLine.hidden = true;
    confirmLine.textContent = "";
  }
  main.dataset.armed = armed === null ? "" : armed;
}

document.addEventListener("avanti:render", (event) => {
  table = event.detail;
  if (table.latest !== latest) {  // new legal commands: a narrowing of older ones is gone
    latest = table.latest;
    choices = null;
  }
  draw();
});
