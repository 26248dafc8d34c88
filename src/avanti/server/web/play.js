// The table page: one seat's share of a game, live over the WebSocket.
//
// The seat's token comes from the address's fragment (/play/{id}#{token}; a browser never sends
// a fragment to a server), which the page then keeps in localStorage["avanti.seat." + id] and
// removes from the address, or from that stored entry; with neither the page is a spectator's.
// The page shows only what the server sends this seat: its picture, its legal commands, the
// events it may see, in words. It never decides what is legal: every click and every key becomes
// a command that the server checks, and a refusal is shown as the server gave it, with its rule.
//
// This is the page's core: the socket, the seat, the steps the picture is drawn in and the
// status. The rest of the page hears it through events on `document` (see docs/browser.md):
// every message of the one socket is told as "avanti:message", the seat as "avanti:seated", and
// after every change "avanti:render" carries what the page shows now. The commands
// (commands.js) answer with "avanti:command", any script sends on the socket with
// "avanti:send", and "avanti:say" shows a note. The moves are drawn by motion.js, the end
// screen by ending.js, the chat and the clock by chat.js and clock.js.
import {el, explain, request, ServerError} from "/static/common.js";
import {animate, cashOf, drawPicture, places} from "/static/motion.js";
import {seatKey as keyOf, store, stored, storedSeat as seatOf, keepSeat} from "/static/seats.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const seatKey = keyOf(gameId);
const storedSeat = () => seatOf(gameId);
const tablePath = `/games/${encodeURIComponent(gameId)}`;

/** The fragment's token (kept, then removed from the address), else the stored one. */
function findToken() {
  if (location.hash.length > 1) {
    const token = decodeURIComponent(location.hash.slice(1));
    const known = storedSeat();
    const same = known && known.token === token;
    keepSeat(gameId, same ? known.seat : null, token, same ? known.name : null);
    window.history.replaceState(null, "", location.pathname + location.search);
    return token;
  }
  const known = storedSeat();
  return known ? known.token : null;
}

const token = findToken();

const main = document.getElementById("table");
const picture = document.getElementById("picture");
const history = document.getElementById("history");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const heading = document.getElementById("heading");
const paceChoice = document.getElementById("pace");
const soundChoice = document.getElementById("sound");
const notifyButton = document.getElementById("notify");
const notifyState = document.getElementById("notify-state");

const state = {
  game: "",            // the game's name in the catalog
  title: "",           // the game's title, from the catalog
  seat: null,          // this page's seat (null: a spectator)
  names: [],           // the players' names, by seat
  sides: [],           // the players' sides, where the game has sides
  version: -1,         // the newest version the server sent
  shown: -1,           // the version the picture and history show
  heard: 0,            // the history holds the events before this position
  legal: [],           // this seat's legal commands: [{command, notation}]
  labels: new Map(),   // each legal command's words (what it does, what it costs), by notation
  confirms: new Map(), // the question to ask before sending a legal command ("" for none), by notation
  standings: null,     // the finished game's standings as the server sent them, else null
  money: {prefix: "", scale: 1},  // how the game writes an amount of money (the catalog's)
  waiting: [],
  outcome: null,
  view: null,          // the newest view the server sent (public facts for the end screen)
  socket: null,
  pending: false,      // a command was sent and its answer has not come
  retry: 250,
  mine: false,         // the page showed "Your move" last time it was drawn
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
  return state.names[seat] !== undefined ? state.names[seat] : `seat ${seat + 1}`;
}

// -- the picture and the history, step by step ----------------------------------------------------
//
// Each update the socket brings is one step (the server sends one per change; a slow connection
// may get several changes in one, which is then one step). Steps are shown in turn, each on the
// screen for the pace chosen before the next replaces it, so a person sees every bot move; the
// pieces move from their old places to their new ones as motion.js draws them.

const steps = [];
let stepping = false;
let lastStepAt = 0;

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
    const asks = Array.isArray(table.confirm) ? table.confirm : [];
    state.confirms = new Map(legal.map((choice, index) => [choice.notation, asks[index] || ""]));
  }
  state.standings = table.standings || null;
  const before = places(picture);
  const cash = state.shownView ? cashOf(state.shownView) : null;
  drawPicture(picture, table.svg);
  if (state.shown >= 0) {
    const moved = animate(picture, before, cash, view ? cashOf(view) : null,
      {time: pace(), unit: state.money});
    main.dataset.moved = moved.join(" ");  // what the step moved, for the tests and styles
  }
  state.shownView = view || state.shownView;
  for (const line of table.history) {
    if (line.position < state.heard) continue;
    history.append(el("li", {value: line.position + 1}, line.text));
    state.heard = line.position + 1;
  }
  history.scrollTop = history.scrollHeight;
  state.shown = table.version;
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
  const seats = el("ol", {class: "seats", start: 1},
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

/** The step the game is at, as its view names it (" Round 2, hiring."; "" when it names none):
 * read from the view's own words, the same for every game. */
function stepWords(view) {
  if (!view) return "";
  const parts = [];
  if (typeof view.round === "number") parts.push(`round ${view.round}`);
  for (const key of ["phase", "step"]) {
    if (typeof view[key] === "string" && view[key]) parts.push(view[key].replace(/[-_]/g, " "));
  }
  if (parts.length === 0) return "";
  const words = parts.join(", ");
  return ` ${words[0].toUpperCase()}${words.slice(1)}.`;
}

/** Show the status, and tell the page's other scripts what it shows now ("avanti:render"):
 * the commands (commands.js) and the end screen (ending.js) are drawn from it. */
function render() {
  if (state.open) return;
  const ready = state.shown === state.version;
  const mine = state.seat !== null && state.legal.length > 0 && ready;
  const over = state.outcome !== null && ready;
  const others = state.waiting.map(who);
  const step = stepWords(state.shownView);
  if (over) {
    heading.textContent = "Game over";
    statusLine.textContent = "The game is over.";
  } else if (state.seat === null) {
    statusLine.textContent = `Watching. Waiting for ${others.join(" and ")}.${step}`;
  } else if (mine) {
    heading.textContent = "Your move";
    statusLine.textContent = step.trim() || "Your move.";
  } else {
    // whose move it is, in the heading too: "Nothing to do now" said nothing while waiting
    heading.textContent = others.length === 0 ? "Waiting" : others.length === 1 ? `${others[0]}’s move` : `${others.join(" and ")} to move`;
    statusLine.textContent = `Waiting for ${others.join(" and ") || "the server"}.${step}`;
  }
  yourTurn(mine && !over);
  tell("avanti:render", {
    gameId, token: state.seat === null ? null : token, game: state.game, seat: state.seat,
    names: state.names, sides: state.sides, legal: state.legal, labels: state.labels,
    confirms: state.confirms, standings: state.standings, money: state.money,
    waiting: state.waiting, outcome: state.outcome, shownView: state.shownView,
    pending: state.pending, ready, mine: mine && !over, over, latest: state.version,
  });
  main.dataset.over = String(over);
  main.dataset.pending = String(state.pending);
  main.dataset.version = String(ready && steps.length === 0 ? state.version : -1);
  main.dataset.shown = String(state.shown);
  main.dataset.latest = String(state.version);
  main.dataset.mine = String(mine && !over);
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
  state.socket.send(JSON.stringify({type: "command", expected_version: state.version, ...what}));
  render();
}

/** A command chosen by the commands' script: {command} or {notation}. */
document.addEventListener("avanti:command", (event) => {
  if (event.detail && typeof event.detail === "object") send(event.detail);
});

/** A note for the person from another script of the page: {text, kind}. */
document.addEventListener("avanti:say", (event) => {
  if (event.detail && typeof event.detail.text === "string") say(event.detail.text, event.detail.kind);
});

// -- the socket ---------------------------------------------------------------------------------

function take(update) {
  state.version = update.version;
  state.legal = update.legal;
  if (update.waiting) state.waiting = update.waiting;
  if ("outcome" in update) state.outcome = update.outcome;
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
  const seatWords = state.seat === null ? "watching" : `playing ${who(state.seat)} (seat ${state.seat + 1})${backing}`;
  document.getElementById("who").textContent = `${state.title}: ${seatWords}`;
  document.title = plainTitle();
  main.dataset.seat = state.seat === null ? "" : String(state.seat);
  if (state.seat === null) {
    watching();
  } else if (token) {
    keepSeat(gameId, state.seat, token, who(state.seat));
  }
}

async function start() {
  try {
    const [game, served] = await Promise.all([request(tablePath, {token}), request("/catalog")]);
    state.game = game.game;
    const known = served.games.find((entry) => entry.name === game.game);
    state.title = known ? known.title : game.game;
    if (known && known.money) state.money = known.money;
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
