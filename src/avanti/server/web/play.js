// The table page: one seat's share of a game, live over the WebSocket.
//
// The seat's token comes from the address's fragment (/play/{id}#{token}; a browser never sends
// a fragment to a server), which the page then keeps in localStorage["avanti.seat." + id] and
// removes from the address, or from that stored entry; with neither the page is a spectator's.
// The page shows only what the server sends this seat: its picture, its legal commands, the
// events it may see, in words. It never decides what is legal: every click and every key becomes
// a command that the server checks, and a refusal is shown as the server gave it, with its rule.
//
// Other scripts of the page hear every message of the one socket as an "avanti:message" event,
// learn the seat from "avanti:seated", and send on the socket with an "avanti:send" event.
import {el, explain, request, ServerError} from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const seatKey = `avanti.seat.${gameId}`;
const tablePath = `/games/${encodeURIComponent(gameId)}`;

/** A stored setting (localStorage may be refused: the default then). */
function stored(key, fallback = null) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : text;
  } catch {
    return fallback;
  }
}

function store(key, text) {
  try { localStorage.setItem(key, text); } catch { /* not remembered */ }
}

/** The seat's entry in the browser's storage: {token, seat, name}, or null. */
function storedSeat() {
  try {
    const entry = JSON.parse(stored(seatKey, "null"));
    return entry && typeof entry.token === "string" && entry.token ? entry : null;
  } catch {
    return null;
  }
}

/** The fragment's token (kept, then removed from the address), else the stored one. */
function findToken() {
  if (location.hash.length > 1) {
    const token = decodeURIComponent(location.hash.slice(1));
    const known = storedSeat();
    const same = known && known.token === token;
    store(seatKey, JSON.stringify({token, seat: same ? known.seat : null, name: same ? known.name : null}));
    window.history.replaceState(null, "", location.pathname + location.search);
    return token;
  }
  const known = storedSeat();
  return known ? known.token : null;
}

const token = findToken();

const main = document.getElementById("table");
const picture = document.getElementById("picture");
const commands = document.getElementById("commands");
const history = document.getElementById("history");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const result = document.getElementById("result");
const notationInput = document.getElementById("notation");
const heading = document.getElementById("heading");
const confirmLine = document.getElementById("confirm");
const paceChoice = document.getElementById("pace");
const soundChoice = document.getElementById("sound");
const notifyButton = document.getElementById("notify");
const notifyState = document.getElementById("notify-state");

const state = {
  game: "",            // the game's name in the catalog
  title: "Avanti",     // the game's title
  seat: null,          // this page's seat (null: a spectator)
  names: [],           // the players' names, by seat
  sides: [],           // the players' sides, where the game has sides
  version: -1,         // the newest version the server sent
  shown: -1,           // the version the picture and history show
  heard: 0,            // the history holds the events before this position
  legal: [],           // this seat's legal commands: [{command, notation}]
  labels: new Map(),   // each legal command's words (what it does, what it costs), by notation
  waiting: [],
  outcome: null,
  view: null,          // the newest view the server sent (public facts for the end screen)
  choices: null,       // the legal commands a click narrowed the buttons to, or null
  armed: null,         // the notation of the command selected and waiting for its confirmation
  socket: null,
  pending: false,      // a command was sent and its answer has not come
  retry: 250,
  mine: false,         // the page showed "Your move" last time it was drawn
  rematch: null,       // the rematch game's id, once the server told of one
  open: false,         // the table waits for players: its game has not started yet
  bots: [],            // the bots the server offers (to fill a waiting table's open seats)
};

// -- settings: the pace of the moves, a sound, notifications ------------------------------------

const PACE = "avanti.pace";
const SOUND = "avanti.sound";
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

/** How long each step of an update stays on the screen before the next, in milliseconds. */
function pace() {
  if (reduced.matches) return 0;
  const chosen = Number(stored(PACE, "600"));
  return Number.isFinite(chosen) && chosen >= 0 ? Math.min(chosen, 5000) : 600;
}

paceChoice.value = String(pace());
if (![...paceChoice.options].some((option) => option.value === paceChoice.value)) {
  paceChoice.append(el("option", {value: paceChoice.value}, `${Number(paceChoice.value) / 1000} s a step`));
  paceChoice.value = String(pace());
}
paceChoice.addEventListener("change", () => store(PACE, paceChoice.value));
soundChoice.checked = stored(SOUND, "off") === "on";
soundChoice.addEventListener("change", () => store(SOUND, soundChoice.checked ? "on" : "off"));

function showNotifyState() {
  const known = "Notification" in window ? Notification.permission : "unsupported";
  main.dataset.notify = known;
  notifyButton.hidden = known !== "default";
  notifyState.textContent = {
    granted: "Notifications on: one comes when it is your move and this tab is hidden.",
    denied: "Notifications are blocked in this browser's settings.",
    unsupported: "This browser shows no notifications.",
    default: "",
  }[known];
}

notifyButton.addEventListener("click", async () => {
  if ("Notification" in window) await Notification.requestPermission();
  showNotifyState();
});
showNotifyState();

let audio = null;

/** A short beep (WebAudio, no file), when the person turned the sound on. */
function beep() {
  if (!soundChoice.checked) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.08, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    main.dataset.beeps = String(Number(main.dataset.beeps || "0") + 1);
  } catch { /* no sound on this browser */ }
}

/** The tab's title, the sound and the notification when this seat's move begins. */
function yourTurn(mine) {
  document.title = mine ? `(\u2022) Your move \u00b7 ${state.title}` : plainTitle();
  if (mine && !state.mine) {
    beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(`Your move \u00b7 ${state.title}`, {body: `${who(state.seat)}, it is your move.`, tag: seatKey});
      } catch { /* a browser that only notifies from a service worker */ }
    }
  }
  state.mine = mine;
}

function plainTitle() {
  return `${state.title}: ${state.seat === null ? "watching" : who(state.seat)}`;
}

function say(text, kind = "error") {
  message.textContent = text;
  message.className = kind;
  message.hidden = !text;
}

function who(seat) {
  return state.names[seat] !== undefined ? state.names[seat] : `seat ${seat}`;
}

// -- the picture and the history, step by step ----------------------------------------------------
//
// Each update the socket brings is one step (the server sends one per change; a slow connection
// may get several changes in one, which is then one step). Steps are shown in turn, each on the
// screen for the pace chosen before the next replaces it, so a person sees every bot move. The
// new picture is drawn exactly as the server sent it; Web Animations then move each piece
// (an element with data-piece) from where the old picture had it (along its data-path, the
// JSON list of the points it passed, for a car's hops), which changes no attribute: once the
// animations end the page's picture is the server's, node for node.

const steps = [];
let stepping = false;
let lastStepAt = 0;
let lasting = [];     // the highlights of the last step's pieces, kept until the next step

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function queueStep(update) {
  steps.push(update);
  if (!stepping) runSteps();
}

async function runSteps() {
  stepping = true;
  try {
    while (steps.length > 0) {
      const gap = pace() - (performance.now() - lastStepAt);
      if (state.shown >= 0 && gap > 0) await wait(gap);
      const update = steps.shift();
      showTable(update.table, update.legal, update.view);
      lastStepAt = performance.now();
      render();
    }
  } finally {
    stepping = false;
  }
}

/** Draw an update's table (the seat's picture and its new history): every update carries it,
 * because the hello asked for it, so the page fetches nothing per change. */
function showTable(table, legal, view) {
  if (!table || table.version < state.shown) return;
  if (legal) {
    state.labels = new Map(legal.map((choice, index) => [choice.notation, table.labels[index]]));
  }
  const before = places();
  const cash = state.shownView ? cashOf(state.shownView) : null;
  drawPicture(table.svg);
  if (state.shown >= 0) animate(before, cash, view ? cashOf(view) : null);
  state.shownView = view || state.shownView;
  for (const line of table.history) {
    if (line.position < state.heard) continue;
    history.append(el("li", {value: line.position + 1}, line.text));
    state.heard = line.position + 1;
  }
  history.scrollTop = history.scrollHeight;
  state.shown = table.version;
}

function drawPicture(text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = parsed.documentElement;
  if (svg.nodeName !== "svg") return;
  const width = svg.getAttribute("width");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  picture.replaceChildren(document.importNode(svg, true));
  const drawn = picture.firstElementChild;
  if (width) drawn.style.maxWidth = `${Number(width)}px`;
}

/** Where each piece of the picture on the page is: {piece: {box, text}} in the page's pixels. */
function places() {
  const found = new Map();
  for (const node of picture.querySelectorAll("[data-piece]")) {
    found.set(node.dataset.piece, {box: node.getBoundingClientRect(), text: node.textContent});
  }
  return found;
}

/** Each seat's cash in a view as far as the view shows it: {seat: amount}. */
function cashOf(view) {
  const cash = {};
  if (Array.isArray(view.cash)) {
    view.cash.forEach((amount, seat) => { if (typeof amount === "number") cash[seat] = amount; });
  } else if (typeof view.cash === "number" && view.seat !== null && view.seat !== undefined) {
    cash[view.seat] = view.cash;
  }
  return cash;
}

function animate(before, cashBefore, cashAfter) {
  for (const highlight of lasting) highlight.cancel();
  lasting = [];
  const time = pace();
  const moving = [];
  main.dataset.moved = "";
  if (time === 0) return;
  const duration = Math.max(150, Math.min(time * 0.8, 900));
  const svg = picture.querySelector("svg");
  const matrix = svg && svg.getScreenCTM();
  const scale = matrix ? matrix.a : 1;
  for (const node of picture.querySelectorAll("[data-piece]")) {
    const old = before.get(node.dataset.piece);
    const box = node.getBoundingClientRect();
    let moved = false;
    if (old) {
      const dx = old.box.x - box.x;
      const dy = old.box.y - box.y;
      if (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5) {
        moved = true;
        node.animate(path(node, dx, dy, scale, placed(node)), {duration, easing: "ease-in-out"});
      } else if (old.text !== node.textContent && !node.getAttribute("transform")) {
        moved = true;  // turned over or changed in place: a card turns, a bid appears
        const turn = (x) => ({transform: `${placed(node)} scaleX(${x})`, transformBox: "fill-box", transformOrigin: "center"});
        node.animate([turn(0), turn(1)], {duration: duration / 2, easing: "ease-out"});
      }
    } else if (before.size > 0) {
      moved = true;  // a new piece: it appears
      node.animate([{opacity: 0}, {opacity: 1}], {duration: duration / 2});
    }
    if (moved) {
      moving.push(node.dataset.piece);
      lasting.push(node.animate([{filter: "drop-shadow(0 0 3px #edae49) drop-shadow(0 0 2px #edae49)"}],
        {duration: 1, fill: "forwards"}));
    }
  }
  main.dataset.moved = moving.join(" ");  // what the step moved, for the tests and styles
  if (cashBefore && cashAfter) money(cashBefore, cashAfter, duration);
}

/** The keyframes of a piece that moved by (dx, dy) pixels: through every point of its
 * data-path (user units of the picture) when it has one, a leapfrog's hop by hop, else straight. */
function path(node, dx, dy, scale, base) {
  let points = [];
  try { points = JSON.parse(node.dataset.path || "[]"); } catch { points = []; }
  const frames = [{transform: `translate(${dx / scale}px, ${dy / scale}px) ${base}`}];
  if (Array.isArray(points) && points.length > 1) {
    const [endX, endY] = points[points.length - 1];
    for (const [x, y, leap] of points.slice(1, -1)) {  // a leapfrog jumps: the car grows there
      frames.push({transform: `translate(${x - endX}px, ${y - endY}px) ${base}${leap ? " scale(1.6)" : ""}`});
    }
  }
  frames.push({transform: `translate(0px, 0px) ${base}`});
  if (!base) {  // grown about its own centre
    for (const frame of frames) Object.assign(frame, {transformBox: "fill-box", transformOrigin: "center"});
  }
  return frames;
}

/** A piece's own transform attribute as CSS (an animation's transform replaces it while it runs). */
function placed(node) {
  return (node.getAttribute("transform") || "")
    .replace(/translate\(\s*([-\d.e]+)[\s,]+([-\d.e]+)\s*\)/g, "translate($1px, $2px)")
    .replace(/translate\(\s*([-\d.e]+)\s*\)/g, "translate($1px)");
}

/** Money that changed hands: a "-3 / +3" token travels from the seat that paid to the seat
 * that got it (or rises at a seat whose cash changed alone); it leaves the page when done. */
function money(before, after, duration) {
  const changes = Object.keys(after)
    .map((seat) => [Number(seat), after[seat] - (before[seat] ?? after[seat])])
    .filter(([, change]) => change !== 0);
  if (changes.length === 0) return;
  const payers = changes.filter(([, change]) => change < 0);
  const place = (seat) => {
    const node = picture.querySelector(`[data-piece="cash-${seat}"]`) || picture.querySelector(`[data-seat="${seat}"]`);
    const frame = picture.getBoundingClientRect();
    if (!node) return {x: frame.width / 2, y: frame.height / 2};
    const box = node.getBoundingClientRect();
    return {x: box.x - frame.x + box.width / 2, y: box.y - frame.y + box.height / 2};
  };
  const words = (amount) => money$(Math.abs(amount), state.game === "autorama");
  for (const [seat, change] of changes) {
    if (change < 0 && changes.length > 1) continue;  // shown travelling to the seats that got it
    const from = change > 0 && payers.length === 1 ? place(payers[0][0]) : null;
    const to = place(seat);
    const text = from ? `\u2212${words(change)} / +${words(change)}` : `${change > 0 ? "+" : "\u2212"}${words(change)}`;
    const token = el("span", {class: `money ${change > 0 ? "gain" : "loss"}`, "aria-hidden": "true"}, text);
    token.style.left = `${to.x}px`;
    token.style.top = `${to.y}px`;
    picture.append(token);
    const start = from ? `translate(${from.x - to.x}px, ${from.y - to.y}px)` : "translate(0, 0.5rem)";
    const moving = token.animate(
      [{transform: start, opacity: 1}, {transform: "translate(0, 0)", opacity: 1}, {transform: "translate(0, -0.6rem)", opacity: 0}],
      {duration: duration * 1.5, easing: "ease-in-out"});
    moving.onfinish = () => token.remove();
    moving.oncancel = () => token.remove();
  }
}

// -- the commands -------------------------------------------------------------------------------
//
// "Think before you click": a command that cannot be taken back once the game has it (laying a
// card face down, quitting a run, passing, skipping a move, offering, bidding, playing an
// advisor) is only selected by its first click or key; a second click on it (or on the same
// place of the picture), or Enter, sends it; Esc or a click elsewhere cancels. Which commands
// these are is read from the first word of their notation, per game:
const CONFIRM = {
  avanti: new Set(["play", "quit"]),          // A: lay a card face down (A8), quit the run (A14)
  mare: new Set(["skip"]),                    // M: give up the fish move
  autorama: new Set(["pass", "bid", "offer", "play"]),  // F: pass, bid, offer face down, advisor
};

function needsConfirm(choice) {
  const words = CONFIRM[state.game];
  return Boolean(words && words.has(choice.notation.split(" ")[0]));
}

/** Choose a legal command: send it, or select it first when it needs a confirmation. */
function choose(choice) {
  if (needsConfirm(choice) && state.armed !== choice.notation) {
    state.armed = choice.notation;
    render();
    const armed = commands.querySelector("button.armed");
    if (armed) armed.focus();
    return;
  }
  send({command: choice.command});
}

function disarm() {
  if (state.armed === null) return;
  state.armed = null;
  render();
}

// -- a table that waits for players --------------------------------------------------------------

const waitingPanel = document.getElementById("waiting");

/** A table with open seats, as its `table` message or `GET /games/{id}` tells it: who sits
 * where, an invite link a friend opens to take the next open seat, and for the table's creator
 * a button that fills the open seats with bots and starts the game. */
function showWaiting(table) {
  state.open = true;
  main.dataset.open = "true";
  const players = Array.isArray(table.players) ? table.players : [];
  statusLine.textContent = `Waiting for players: ${table.taken} of ${table.seats} seats taken.`;
  const seats = el("ol", {class: "seats", start: 0},
    ...players.map((name, seat) => el("li", {"data-seat": seat},
      name === null ? "(open)" : seat === state.seat ? `${name} (you)` : name)));
  const link = `${location.origin}/?join=${encodeURIComponent(gameId)}`;
  const invite = el("input", {id: "invite", class: "invite", readonly: true, value: link,
    "aria-label": "Invite link"});
  const copy = el("button", {type: "button", class: "quiet"}, "Copy");
  copy.addEventListener("click", () => {
    invite.select();
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
  });
  const parts = [el("p", {}, "Seats:"), seats,
    el("p", {}, el("label", {for: "invite"}, "Invite a friend with this link: "), invite, " ", copy)];
  if (state.seat !== null && table.host === state.seat && state.bots.length) {
    const kind = el("select", {id: "fill-bot", "aria-label": "Bot"},
      ...state.bots.map((bot) => el("option", {value: bot}, `${bot} bots`)));
    const fill = el("button", {type: "button", id: "fill"}, "Fill the open seats and start");
    const problem = el("span", {class: "error", role: "alert", hidden: true});
    fill.addEventListener("click", async () => {
      fill.disabled = true;
      try {
        await request(`${tablePath}/start`, {method: "POST", token, body: {bot: kind.value}});
      } catch (error) {
        problem.textContent = error instanceof ServerError ? explain(error.detail) : String(error);
        problem.hidden = false;
        fill.disabled = false;
      }
    });
    parts.push(el("p", {}, "Or play now: ", kind, " ", fill, " ", problem));
  }
  waitingPanel.replaceChildren(...parts);
  waitingPanel.hidden = false;
}

/** The table's game started: read the seat's share of it again (its names, sides, header). */
async function started() {
  state.open = false;
  main.dataset.open = "false";
  waitingPanel.hidden = true;
  waitingPanel.replaceChildren();
  try {
    describeSeat(await request(tablePath, {token}));
    // the page's other scripts learn the players' names, unknown while the table waited
    tell("avanti:seated", {gameId, seat: state.seat, token: state.seat === null ? null : token, names: state.names});
  } catch { /* the header keeps the waiting words until the next load */ }
  render();
}

function render() {
  if (state.open) return;
  const mine = state.seat !== null && state.legal.length > 0 && state.shown === state.version;
  const over = state.outcome !== null && state.shown === state.version;
  if (!state.legal.some((choice) => choice.notation === state.armed)) state.armed = null;
  if (over) {
    statusLine.textContent = "The game is over.";
  } else if (state.seat === null) {
    statusLine.textContent = `Watching. Waiting for ${state.waiting.map(who).join(" and ")}.`;
  } else if (mine) {
    statusLine.textContent = "Your move.";
  } else {
    statusLine.textContent = `Waiting for ${state.waiting.map(who).join(" and ") || "the server"}.`;
  }
  yourTurn(mine && !over);
  const shown = state.choices || state.legal;
  const buttons = shown.map((choice, index) => {
    const key = index < 9 ? el("kbd", {}, String(index + 1)) : null;
    const armed = state.armed === choice.notation;
    const button = el("button", {
      type: "button", class: armed ? "command armed" : "command", "data-notation": choice.notation,
      "data-confirm": needsConfirm(choice) ? "true" : null,
      "aria-pressed": needsConfirm(choice) ? String(armed) : null,
      disabled: state.pending || state.shown < state.version,
    });
    if (key) button.append(key, " ");
    button.append(choice.notation);
    const label = state.labels.get(choice.notation);
    if (label && label !== choice.notation) {  // the price before the choice (A22)
      button.title = label;
      const more = label.startsWith(choice.notation)
        ? label.slice(choice.notation.length).replace(/^[:\s]+/, "") : label;
      if (more) button.append(el("span", {class: "label"}, ` (${more})`));
    }
    if (armed) button.append(el("span", {class: "again"}, " \u2714 again to confirm"));
    button.addEventListener("click", () => choose(choice));
    return button;
  });
  if (state.choices) {
    const all = el("button", {type: "button", class: "command all"}, "every command");
    all.addEventListener("click", () => { state.choices = null; render(); });
    buttons.push(all);
  }
  const focused = commands.contains(document.activeElement) ? document.activeElement.dataset.notation : null;
  commands.replaceChildren(...buttons);
  if (focused) {  // keep the keyboard where it was
    const again = buttons.find((button) => button.dataset.notation === focused && !button.disabled);
    if (again) again.focus();
  }
  if (state.seat !== null && !mine && !over) commands.append(el("p", {class: "muted"}, "Nothing to do now."));
  if (state.armed !== null) {
    const label = state.labels.get(state.armed) || state.armed;
    confirmLine.textContent = `Selected: ${label}. Click it again or press Enter to do it; Esc cancels.`;
    confirmLine.hidden = false;
  } else {
    confirmLine.hidden = true;
    confirmLine.textContent = "";
  }
  if (over) endScreen();
  main.dataset.over = String(over);
  main.dataset.pending = String(state.pending);
  main.dataset.version = String(state.shown === state.version && steps.length === 0 ? state.version : -1);
  main.dataset.shown = String(state.shown);
  main.dataset.latest = String(state.version);
  main.dataset.armed = state.armed === null ? "" : state.armed;
  main.dataset.mine = String(mine && !over);
}

// -- the end of a game ----------------------------------------------------------------------------

function money$(amount, thousands) {
  if (typeof amount !== "number") return "?";
  // Autorama counts in thousands of dollars (F2): 3 is $3,000
  return thousands ? `$${(amount * 1000).toLocaleString("en-US")}` : amount.toLocaleString("en-US");
}

/** The standings as the outcome gives them, best first: [[seat, words], ...], and the game's
 * own breakdown as rows of cells. Only public facts: the outcome and the final view. */
function standings() {
  const outcome = state.outcome;
  const view = state.shownView || {};
  const seats = state.names.map((_, seat) => seat);
  if (state.game === "avanti" && Array.isArray(outcome.ranking)) {
    const last = Array.isArray(view.ranking) && view.ranking.length ? view.ranking[0] : null;
    return {
      order: outcome.ranking,
      head: ["Player", "Island space", "Cash"],
      rows: outcome.ranking.map((seat) => [who(seat), String(outcome.island[seat]),
        money$(Array.isArray(view.cash) ? view.cash[seat] : null, false)]),
      notes: last === null ? [] : [`${who(last)} won the last run.`],
    };
  }
  if (state.game === "autorama" && Array.isArray(outcome.scores)) {
    const scores = [...outcome.scores].sort((a, b) => b.total - a.total || a.seat - b.seat);
    return {
      order: scores.map((score) => score.seat),
      head: ["Player", "Checks", "Bonus", "Cash", "Total"],
      rows: scores.map((score) => [who(score.seat),
        `${score.checks.map((check) => `$${check}k`).join(" ")} = ${money$(score.check_total, true)}`,
        score.bonus ? `+${money$(score.bonus, true)}` : "\u2013",
        money$(score.cash, true), money$(score.total, true)]),
      notes: [],
    };
  }
  if (state.game === "mare") {
    const winners = new Set(outcome.winners);
    const order = [...seats.filter((seat) => winners.has(seat)), ...seats.filter((seat) => !winners.has(seat))];
    const side = (seat) => (state.sides[seat] || "").replace(/-/g, " ");
    return {
      order,
      head: ["Player", "Side", ""],
      rows: order.map((seat) => [who(seat), side(seat), winners.has(seat) ? "won" : ""]),
      notes: [`Fish in the sea: ${outcome.free}. Fish caught: ${outcome.caught}.`],
    };
  }
  const order = [...outcome.winners, ...seats.filter((seat) => !outcome.winners.includes(seat))];
  return {order, head: ["Player"], rows: order.map((seat) => [who(seat)]), notes: []};
}

let endShown = null;

function endScreen() {
  const winners = state.outcome.winners.map(who);
  const words = winners.length === 0 ? "Nobody wins." : `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"}.`;
  const you = state.seat !== null && state.outcome.winners.includes(state.seat) ? " You won!" : "";
  const key = `${words}|${state.rematch}`;
  if (endShown === key) return;
  endShown = key;
  const table = standings();
  const rows = table.rows.map((cells, index) => el("tr", {"data-seat": table.order[index]},
    el("th", {scope: "row"}, `${index + 1}. ${cells[0]}`), ...cells.slice(1).map((cell) => el("td", {}, cell))));
  const board = el("table", {class: "standings", "data-order": JSON.stringify(table.order)},
    el("thead", {}, el("tr", {}, ...table.head.map((cell) => el("th", {scope: "col"}, cell)))),
    el("tbody", {}, ...rows));
  const buttons = el("div", {class: "row end-buttons"});
  if (state.seat !== null && state.rematch === null) {
    const again = el("button", {type: "button", id: "rematch"}, "Rematch");
    again.addEventListener("click", () => rematch(again));
    buttons.append(again);
  }
  if (state.rematch !== null) {
    const join = el("button", {type: "button", id: "join-rematch"}, "Join the rematch");
    join.addEventListener("click", () => (state.seat === null
      ? location.assign(`/play/${encodeURIComponent(state.rematch)}`) : rematch(join)));
    buttons.append(join);
  }
  buttons.append(el("a", {href: `/replay/${encodeURIComponent(gameId)}${state.seat === null ? "" : `?seen_by=${state.seat}`}`, id: "replay", class: "button"}, "Watch the replay"));
  buttons.append(el("a", {href: "/", id: "lobby", class: "button"}, "Back to the lobby"));
  result.replaceChildren(
    el("p", {class: "verdict"}, `Game over: ${words}${you}`),
    board, ...table.notes.map((note) => el("p", {class: "note-line"}, note)), buttons);
  result.hidden = false;
}

/** Ask for this seat's place in the rematch, keep its token as the lobby does, and go there. */
async function rematch(button) {
  button.disabled = true;
  try {
    const answer = await request(`${tablePath}/rematch`, {method: "POST", token, body: {}});
    store(`avanti.seat.${answer.game_id}`, JSON.stringify({token: answer.token, seat: answer.seat, name: who(answer.seat)}));
    location.assign(`/play/${encodeURIComponent(answer.game_id)}`);
  } catch (error) {
    button.disabled = false;
    say(error instanceof ServerError ? explain(error.detail.message ? error.detail : {message: error.message}) : String(error));
  }
}

/** Send a command (its JSON, or its notation) on the socket; the server decides. */
function send(what) {
  if (state.seat === null) {
    say("A spectator sends no commands: open a seat's join link to play.");
    return;
  }
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
    say("Not connected to the server; trying again…");
    return;
  }
  say("");
  state.pending = true;
  state.choices = null;
  state.armed = null;
  state.socket.send(JSON.stringify({type: "command", expected_version: state.version, ...what}));
  render();
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
  if (state.pending || state.shown < state.version) return;
  if (state.seat === null) {
    say("A spectator sends no commands: open a seat's join link to play.");
    return;
  }
  const fitting = state.legal.filter((choice) => matches(choice.command, fields));
  if (fitting.length === 1) {
    choose(fitting[0]);
  } else if (fitting.length > 1) {
    state.choices = fitting;
    state.armed = null;
    render();
    commands.querySelector("button")?.focus();
  } else if ("type" in fields) {
    state.armed = null;
    send({command: {...fields, seat: state.seat}});
  } else {
    say("That is not something you can do now.", "note");
  }
});

/** A click anywhere but on a command or the picture cancels a selection. */
document.addEventListener("click", (event) => {
  if (state.armed === null) return;
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
    state.choices = null;
    state.armed = null;
    render();
    return;
  }
  if (typing) return;
  if (event.key === "Enter" && state.armed !== null && !(event.target instanceof HTMLButtonElement)) {
    const chosen = state.legal.find((choice) => choice.notation === state.armed);
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

// -- the socket ---------------------------------------------------------------------------------

function take(update) {
  state.version = update.version;
  state.legal = update.legal;
  if (update.waiting) state.waiting = update.waiting;
  if ("outcome" in update) state.outcome = update.outcome;
  state.choices = null;
}

/** Tell the page's other scripts (chat, clock) of a message or of the seat. */
function tell(name, detail) {
  document.dispatchEvent(new CustomEvent(name, {detail}));
}

/** Another script of the page sends on the socket: an "avanti:send" event's detail, as JSON. */
document.addEventListener("avanti:send", (event) => {
  const socket = state.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN || !event.detail || typeof event.detail !== "object") return;
  socket.send(JSON.stringify(event.detail));
});

/** A screen narrower than this asks for the picture's narrow layout, drawn for a phone's width
 * (every text of it at least 11 CSS pixels high there); the page asks again when it crosses. */
const narrowScreen = matchMedia("(max-width: 560px)");
narrowScreen.addEventListener("change", () => {
  const old = state.socket;
  if (!old || old.readyState !== WebSocket.OPEN) return;
  connect();  // the new connection's first update carries the picture in the other layout
  old.close();
});

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${tablePath}/stream`);
  state.socket = socket;
  let greeted = false;
  socket.addEventListener("open", () => {
    const layout = narrowScreen.matches ? "narrow" : "wide";
    main.dataset.layout = layout;
    const table = layout === "narrow" ? {layout} : true;
    socket.send(JSON.stringify({token, after: Math.max(state.heard, 0), table}));
  });
  socket.addEventListener("message", (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (!data || typeof data !== "object") return;
    state.retry = 250;
    if (data.type === "table") {
      showWaiting(data);
      tell("avanti:message", data);
      return;
    }
    if (data.type === "update" && state.open) started();
    if (data.type === "update") {
      if (data.version >= state.version) take(data);
      queueStep(data);
      if (Array.isArray(data.results)) state.pending = false;  // it answers our command
    } else if (data.type === "result") {
      state.pending = false;
    } else if (data.type === "rematch" && typeof data.game_id === "string") {
      state.rematch = data.game_id;
    } else if (data.type === "error") {
      state.pending = false;
      const error = data.error || {message: "the server refused"};
      if (error.kind === "version-conflict") {
        say("The game moved on before your command arrived: look again and choose again.");
      } else {
        say(explain(error));
      }
    }
    render();
    tell("avanti:message", data);
    if (data.type === "update" && !greeted) {
      greeted = true;
      tell("avanti:seated", {gameId, seat: state.seat, token: state.seat === null ? null : token, names: state.names});
    }
  });
  socket.addEventListener("close", () => {
    state.pending = false;
    if (state.socket !== socket || state.outcome !== null) return;
    statusLine.textContent = "Connection lost; connecting again…";
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  });
}

setInterval(() => {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify({type: "ping"}));
  }
}, 20000);

/** Show whose page this is (the seat, its name and side, or a spectator's) from the game as
 * `GET /games/{id}` gives it. */
function describeSeat(game) {
  state.seat = game.seat;
  state.names = (game.public_setup && game.public_setup.players) || [];
  const sides = (game.public_setup && game.public_setup.sides) || [];
  state.sides = sides;
  const backing = state.seat !== null && sides[state.seat] ? `, backing the ${sides[state.seat]}` : "";
  const seatWords = state.seat === null ? "watching" : `playing ${who(state.seat)} (seat ${state.seat})${backing}`;
  document.getElementById("who").textContent = `${state.title}: ${seatWords}`;
  document.title = plainTitle();
  main.dataset.seat = state.seat === null ? "" : String(state.seat);
  if (state.seat === null) {
    watching();
  } else if (token) {
    store(seatKey, JSON.stringify({token, seat: state.seat, name: who(state.seat)}));
  }
}

async function start() {
  try {
    const [game, served] = await Promise.all([request(tablePath, {token}), request("/catalog")]);
    state.game = game.game;
    state.title = (served.games.find((known) => known.name === game.game) || {title: game.game}).title;
    state.bots = Array.isArray(served.bots) ? served.bots : [];
    if (game.state === "open") {
      state.seat = game.seat;
      document.getElementById("who").textContent = `${state.title}: waiting for players`;
      document.title = plainTitle();
      showWaiting(game);
    } else {
      describeSeat(game);
    }
  } catch (error) {
    const words = error instanceof ServerError && error.kind === "unauthorized"
      ? "This link's token is no seat of this game: ask for your seat's link again."
      : error instanceof ServerError && error.kind === "unknown-game"
        ? "There is no such game on this server."
        : `The game could not be read: ${error.message}`;
    statusLine.textContent = words;
    main.dataset.failed = "true";
    return;
  }
  connect();
}

/** A spectator's page: no command box, no "Your move", no keyboard hints. */
function watching() {
  heading.textContent = "Watching";
  for (const id of ["commands", "say", "keys", "confirm", "notify", "notify-state"]) {
    document.getElementById(id).hidden = true;
  }
  soundChoice.closest(".row").hidden = true;
  main.dataset.watching = "true";
}

start();
