// The table page: one seat's share of a game, live over the WebSocket.
//
// The seat's token is the address's fragment (/play/{id}#{token}); a browser never sends a
// fragment to a server. The page shows only what the server sends this seat: its picture, its
// legal commands, the events it may see, in words. It never decides what is legal: every click
// and every key becomes a command that the server checks, and a refusal is shown as the server
// gave it, with the rule it names.
import {el, explain, request, ServerError} from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
const tablePath = `/games/${encodeURIComponent(gameId)}`;

const main = document.getElementById("table");
const picture = document.getElementById("picture");
const commands = document.getElementById("commands");
const history = document.getElementById("history");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const result = document.getElementById("result");
const notationInput = document.getElementById("notation");

const state = {
  seat: null,          // this page's seat (null: a spectator)
  names: [],           // the players' names, by seat
  version: -1,         // the newest version the server sent
  shown: -1,           // the version the picture and history show
  heard: 0,            // the history holds the events before this position
  legal: [],           // this seat's legal commands: [{command, notation}]
  labels: new Map(),   // each legal command's words (what it does, what it costs), by notation
  waiting: [],
  outcome: null,
  choices: null,       // the legal commands a click narrowed the buttons to, or null
  socket: null,
  pending: false,      // a command was sent and its answer has not come
  retry: 250,
};

function say(text, kind = "error") {
  message.textContent = text;
  message.className = kind;
  message.hidden = !text;
}

function who(seat) {
  return state.names[seat] !== undefined ? state.names[seat] : `seat ${seat}`;
}

// -- the picture and the history --------------------------------------------------------------

/** Draw an update's table (the seat's picture and its new history): every update carries it,
 * because the hello asked for it, so the page fetches nothing per change. */
function showTable(table, legal) {
  if (!table || table.version < state.shown) return;
  if (legal) {
    state.labels = new Map(legal.map((choice, index) => [choice.notation, table.labels[index]]));
  }
  drawPicture(table.svg);
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

// -- the commands -------------------------------------------------------------------------------

function render() {
  const mine = state.seat !== null && state.legal.length > 0;
  const over = state.outcome !== null;
  if (over) {
    statusLine.textContent = "The game is over.";
  } else if (state.seat === null) {
    statusLine.textContent = `Watching. Waiting for ${state.waiting.map(who).join(" and ")}.`;
  } else if (mine) {
    statusLine.textContent = "Your move.";
  } else {
    statusLine.textContent = `Waiting for ${state.waiting.map(who).join(" and ") || "the server"}.`;
  }
  const shown = state.choices || state.legal;
  const buttons = shown.map((choice, index) => {
    const key = index < 9 ? el("kbd", {}, String(index + 1)) : null;
    const button = el("button", {
      type: "button", class: "command", "data-notation": choice.notation,
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
    button.addEventListener("click", () => send({command: choice.command}));
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
  if (!mine && !over) commands.append(el("p", {class: "muted"}, "Nothing to do now."));
  if (over) {
    const winners = state.outcome.winners.map(who);
    const words = winners.length === 0 ? "Nobody wins." : `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"}.`;
    const you = state.seat !== null && state.outcome.winners.includes(state.seat) ? " You won!" : "";
    result.textContent = `Game over: ${words}${you}`;
    result.hidden = false;
  }
  main.dataset.over = String(over);
  main.dataset.pending = String(state.pending);
  main.dataset.version = String(state.shown === state.version ? state.version : -1);
  main.dataset.shown = String(state.shown);
  main.dataset.latest = String(state.version);
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

/** A click on the picture: the data-* attributes of what was clicked (nearest first) name a
 * command, or narrow the buttons to the legal commands that fit. */
picture.addEventListener("click", (event) => {
  const fields = {};
  for (let node = event.target; node && node !== picture; node = node.parentNode) {
    if (!node.dataset) continue;
    for (const [key, text] of Object.entries(node.dataset)) {
      const name = key === "command" ? "type" : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (name !== "seat" && !(name in fields)) fields[name] = value(text);
    }
  }
  if (Object.keys(fields).length === 0) return;
  if (state.seat === null) {
    say("A spectator sends no commands: open a seat's join link to play.");
    return;
  }
  const fitting = state.legal.filter((choice) => matches(choice.command, fields));
  if (fitting.length === 1) {
    send({command: fitting[0].command});
  } else if (fitting.length > 1) {
    state.choices = fitting;
    render();
    commands.querySelector("button")?.focus();
  } else if ("type" in fields) {
    send({command: {...fields, seat: state.seat}});
  } else {
    say("That is not something you can do now.", "note");
  }
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
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
  if (event.key === "Escape") {
    if (typing) event.target.blur();
    state.choices = null;
    render();
    return;
  }
  if (typing) return;
  if (event.key === "/") {
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

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${tablePath}/stream`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({token, after: Math.max(state.heard, 0), table: true}));
  });
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    state.retry = 250;
    if (data.type === "update") {
      if (data.version >= state.version) take(data);
      showTable(data.table, data.legal);
    } else if (data.type === "result") {
      state.pending = false;
    } else if (data.type === "error") {
      state.pending = false;
      const error = data.error;
      if (error.kind === "version-conflict") {
        say("The game moved on before your command arrived: look again and choose again.");
      } else {
        say(explain(error));
      }
      if (socket.readyState !== WebSocket.OPEN) return;
      render();
    }
    render();
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

async function start() {
  try {
    const [game, served] = await Promise.all([request(tablePath, {token}), request("/catalog")]);
    state.seat = game.seat;
    state.names = (game.public_setup && game.public_setup.players) || [];
    const title = (served.games.find((known) => known.name === game.game) || {title: game.game}).title;
    const sides = (game.public_setup && game.public_setup.sides) || [];
    const backing = state.seat !== null && sides[state.seat] ? `, backing the ${sides[state.seat]}` : "";
    const seatWords = state.seat === null ? "watching" : `playing ${who(state.seat)} (seat ${state.seat})${backing}`;
    document.getElementById("who").textContent = `${title}: ${seatWords}`;
    document.title = `${title}: ${state.seat === null ? "watching" : who(state.seat)}`;
    main.dataset.seat = state.seat === null ? "" : String(state.seat);
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

start();
