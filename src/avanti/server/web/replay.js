// The replay page: a finished game, step by step, as one seat or the spectator saw it.
// The steps come from GET /games/{id}/replay?seen_by=..., each step's picture from
// GET /games/{id}/replay/{version}?seen_by=... (one at a time, the newest wish first, the next
// step fetched ahead). The page decides nothing and knows no game; text is always set as text.
// Its address keeps whose replay and which step it shows (?seen_by=1&at=12), to share a moment.
import {el, request} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const replayPath = `/games/${encodeURIComponent(gameId)}/replay`;
const narrowScreen = matchMedia("(max-width: 560px)");
const main = $("replay");

let replay = null;          // the answer of GET .../replay for the seat shown
let at = 0;                 // the step shown, by its index
let names = [];             // the players' names, by seat
const pictures = new Map(); // "seenBy|layout|version" -> svg text
let fetching = false;       // a picture request is under way
let loaded = 0;             // the number of the latest replay request: an older answer is dropped
let titles = {};            // the games' titles by name, from GET /catalog

const seenByText = (seenBy) => (seenBy === null ? "spectator" : String(seenBy));
const layout = () => (narrowScreen.matches ? "narrow" : "wide");
const key = (seenBy, version) => `${seenByText(seenBy)}|${layout()}|${version}`;

function showProblem(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

function drawPicture(text) {
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return;
  const width = svg.getAttribute("width");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const drawn = document.importNode(svg, true);
  if (width) drawn.style.maxWidth = `${Number(width)}px`;
  $("picture").replaceChildren(drawn);
}

/** Names in words: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
function listed(words) {
  return words.length < 3 ? words.join(" and ") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Who the replay is seen by, in words. */
function seer(seenBy) {
  return seenBy === null ? "the spectator" : `${names[seenBy] ?? `seat ${seenBy + 1}`}`;
}

function outcomeWords() {
  const winners = (replay.outcome && replay.outcome.winners) || [];
  if (!winners.length) return "Game over: nobody wins.";
  const who = winners.map((seat) => names[seat] ?? `seat ${seat + 1}`);
  return `Game over: ${listed(who)} ${who.length === 1 ? "wins" : "win"}.`;
}

/** The step's words, the game so far, the buttons and the address; then its picture. */
function show() {
  const steps = replay.steps;
  const step = steps[at];
  const last = steps.length - 1;
  main.dataset.step = String(at);
  main.dataset.version = String(step.version);
  $("at").textContent = `step ${at + 1} of ${steps.length} (version ${step.version})`;
  $("slider").max = String(last);
  $("slider").value = String(at);
  $("first").disabled = $("back").disabled = at === 0;
  $("forward").disabled = $("last").disabled = at === last;
  const waiting = step.waiting.map((seat) => names[seat] ?? `seat ${seat + 1}`);
  $("status").textContent = at === last ? outcomeWords()
    : at === 0 ? `The start, as ${seer(replay.seen_by)} saw it.`
    : waiting.length ? `${listed(waiting)} to move next.` : "";
  $("lines").replaceChildren(...(step.lines.length
    ? step.lines.map((line, index) => el("li", {"data-position": step.events[index].position}, line))
    : [el("li", {class: "muted"}, "nothing this seat could see")]));
  const told = [];
  steps.slice(0, at + 1).forEach((earlier, number) => {
    earlier.lines.forEach((line, index) => told.push(el("li", {
      value: earlier.events[index].position + 1, class: number === at ? "now" : null,
    }, line)));
  });
  $("history").replaceChildren(...told);
  $("history").scrollTop = $("history").scrollHeight;
  const address = `?seen_by=${seenByText(replay.seen_by)}&at=${step.version}`;
  if (location.search !== address) history.replaceState(null, "", `${location.pathname}${address}`);
  wantPicture();
}

/** Draw the shown step's picture, fetching it first if need be; then fetch the next ahead. */
async function wantPicture() {
  const seenBy = replay.seen_by;
  const version = replay.steps[at].version;
  const found = pictures.get(key(seenBy, version));
  if (found !== undefined) {
    drawPicture(found);
    main.dataset.drawn = `${seenByText(seenBy)}|${version}`;
    ahead();
    return;
  }
  if (fetching) return;  // the fetch under way calls again when it ends
  fetching = true;
  try {
    const shape = layout();
    const step = await request(`${replayPath}/${version}?seen_by=${seenByText(seenBy)}&layout=${shape}`);
    pictures.set(`${seenByText(seenBy)}|${shape}|${version}`, step.svg);
    showProblem("");
  } catch (problem) {
    showProblem(`The picture could not be drawn: ${problem.message}`);
    fetching = false;
    return;
  }
  fetching = false;
  wantPicture();  // the step wished for now, which may be another by now
}

/** Fetch the next step's picture while nothing else is asked. */
async function ahead() {
  if (fetching || !replay || at + 1 >= replay.steps.length) return;
  const seenBy = replay.seen_by;
  const version = replay.steps[at + 1].version;
  const wanted = key(seenBy, version);
  if (pictures.has(wanted)) return;
  fetching = true;
  try {
    const step = await request(`${replayPath}/${version}?seen_by=${seenByText(seenBy)}&layout=${layout()}`);
    pictures.set(wanted, step.svg);
  } catch {
    // the step is fetched again when it is shown
  }
  fetching = false;
  if (main.dataset.drawn !== `${seenByText(replay.seen_by)}|${replay.steps[at].version}`) wantPicture();
}

function go(index) {
  if (!replay) return;
  const next = Math.max(0, Math.min(replay.steps.length - 1, index));
  if (next === at && main.dataset.step === String(at)) return;
  at = next;
  show();
}

/** Load the replay as `seenBy` saw it, at the step that ends at `version` (or the nearest). */
async function load(seenBy, version) {
  const mine = ++loaded;
  main.dataset.seenBy = "";
  try {
    const answer = await request(`${replayPath}?seen_by=${seenByText(seenBy)}`);
    if (mine !== loaded) return;
    replay = answer;
    names = answer.players;
    const found = answer.steps.findIndex((step) => step.version >= version);
    at = version === null ? 0 : found === -1 ? answer.steps.length - 1 : found;
    fillSeats();
    main.dataset.seenBy = seenByText(answer.seen_by);
    showProblem("");
    show();
  } catch (problem) {
    if (mine !== loaded) return;
    $("status").textContent = problem.kind === "not-over"
      ? "This game is not over yet: its replay opens once it is."
      : problem.kind === "unknown-game" ? "There is no such game." : "The replay could not be loaded.";
    showProblem(problem.message);
  }
}

function fillSeats() {
  const select = $("seen-by");
  select.replaceChildren(el("option", {value: "spectator"}, "the spectator (what everyone saw)"),
    ...names.map((name, seat) => el("option", {value: String(seat)}, `${name} (seat ${seat + 1})`)));
  select.value = seenByText(replay.seen_by);
  const title = titles[replay.game] || replay.game;
  $("who").textContent = `the replay of ${title}: ${names.join(", ")}`;
  document.title = `avanti: the replay of ${title}`;
}

$("seen-by").addEventListener("change", () => {
  const value = $("seen-by").value;
  const version = replay ? replay.steps[at].version : null;
  load(value === "spectator" ? null : Number(value), version);
});
$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(at - 1));
$("forward").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(Infinity));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;  // their own keys
  const moves = {ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0), End: () => go(Infinity)};
  if (moves[event.key]) {
    event.preventDefault();
    moves[event.key]();
  }
});
narrowScreen.addEventListener("change", () => { if (replay) wantPicture(); });

$("table-link").href = `/play/${encodeURIComponent(gameId)}`;
try {
  titles = Object.fromEntries((await request("/catalog")).games.map((game) => [game.name, game.title]));
} catch {
  // the games' own names stand in for their titles
}
const query = new URLSearchParams(location.search);
const asked = query.get("seen_by");
const askedAt = query.get("at");
load(asked === null || asked === "spectator" || !/^[0-9]+$/.test(asked) ? null : Number(asked),
  askedAt !== null && /^[0-9]+$/.test(askedAt) ? Number(askedAt) : null);
