// The rules lab: build a position, play it under two readings, keep the answer.
// The page decides nothing: every change goes to POST /lab/compare, and the library's answer
// (or its refusal, naming the rule) is drawn. Text is always set as text.
import {el, request} from "/static/common.js";

const $ = (id) => document.getElementById(id);

const STARTS = {
  avanti: {
    game: "avanti", question: "A21: does the last car collect the lots past the leader?",
    players: ["Jack", "Isabella", "Tina", "Steve", "William"], seed: 1,
    setup: {scenario: {marker: 22, distances: [29, 15, 28, 30, 31], hands: [[], [], [], [], []],
      quit: [false, true, false, true, false], laid: [[0, 1], null, [18, 3], null, [19, 3]],
      phase: "driving", round: 5}},
    readings: [{name: "The last car counts the leader", options: {atm_last_car_wraps: true}},
               {name: "The last car has no car behind it", options: {atm_last_car_wraps: false}}],
    commands: ["drive", "drive", "drive"],
  },
  autorama: {
    game: "autorama", question: "F6: is the winner of a Sales Associate refunded?",
    players: ["Isaac", "Becky", "Chloe"], seed: 1,
    setup: {scenario: {phase: "hiring", round: 1, advisor_deck: [1, 2, 3], vehicle_deck: [1, 2, 3],
      check_deck: [0, 0, 2], cash: [], advisors: [], vehicles: [], checks: [], kept: []}},
    readings: [{name: "Only those who pass", options: {sales_associate_refunds_winner: false}},
               {name: "The winner too", options: {sales_associate_refunds_winner: true}}],
    commands: ["bid 4000", "pass", "pass"],
  },
  mare: {
    game: "mare", question: "M7: what does a caught fish's colour do?",
    players: ["Ann", "Bob"], seed: 0,
    setup: {first: 0, scenario: {boat: 2, fish: [12, 0, 6, 8]}},
    readings: [{name: "It moves the boat", options: {caught_fish_roll: "boat"}},
               {name: "It does nothing", options: {caught_fish_roll: "nothing"}}],
    commands: ["roll"],
  },
};

let saved = null;     // the steps of an opened saved game
let at = 0;
let asked = 0;        // the number of the latest question: an older answer is never drawn
let opened = 0;       // the number of the latest saved-game request, likewise
let chosen = null;    // the piece picked on the board picture ("car-2"), to move by a click

// What the board picture lets a click move, per game: which pieces, onto which places, and the
// field the move changes. The library checks the new position like a typed one.
const MOVES = {
  avanti: {
    piece: (name) => /^(car|figure)-\d+$/.test(name) || name === "marker",
    place: (target, name) => (name.startsWith("figure-")
      ? target.closest("rect.island-space") : target.closest("[data-space]")),
    hint: "Click a car, the event marker or a figure on the picture, then the road space or island space it goes to (A4, A5).",
    words(name) {
      if (name === "marker") return "The event marker";
      const who = playerNames()[Number(name.split("-")[1])] || name;
      return name.startsWith("car-") ? `${who}'s car` : `${who}'s figure`;
    },
    layer: avantiLayer,
    move(name, place) {
      if (name.startsWith("figure-")) {
        const seat = Number(name.slice(7));
        const spot = [...$("board").querySelectorAll("rect.island-space")].indexOf(place);
        const input = $(fieldId("scenario.island")) || addField("scenario.island",
          playerNames().map(() => 0));
        const island = JSON.parse(input.value) ?? playerNames().map(() => 0);
        island[seat] = spot;
        input.value = JSON.stringify(island);
        return;
      }
      const length = new Set([...$("board").querySelectorAll("[data-space]")]
        .map((node) => node.dataset.space)).size;
      const space = Number(place.dataset.space);
      const markerInput = $(fieldId("scenario.marker"));
      const marker = JSON.parse(markerInput.value);
      const input = $(fieldId("scenario.distances"));
      const distances = JSON.parse(input.value);
      const from = (road, start) => (((road - start) % length) + length) % length;
      // A distance counts from the marker (A4); laps stay as typed.
      const laps = (distance) => Math.floor(distance / length) * length;
      if (name === "marker") {
        // Moving the marker leaves every car on its road space: each distance counts anew.
        input.value = JSON.stringify(distances.map((distance) =>
          laps(distance) + from((marker + distance) % length, space)));
        markerInput.value = JSON.stringify(space);
        return;
      }
      const seat = Number(name.slice(4));
      distances[seat] = laps(distances[seat]) + from(space, marker);
      input.value = JSON.stringify(distances);
    },
  },
  autorama: {
    hint: "Click a card in the rows under the picture, then the row it goes to or the card it goes before (F1).",
  },
  mare: {
    piece: (name) => name === "boat" || /^fish-/.test(name),
    place: (target) => target.closest("[data-place]"),
    hint: "Click a fish or the boat on the picture, then a river piece, the sea or the boat (M1, M5).",
    words: (name) => (name === "boat" ? "The boat" : `The ${name.slice(5)} fish`),
    layer: mareLayer,
    move(name, place) {
      const where = Number(place.dataset.place);
      if (name === "boat") {
        // The boat stands just before the piece clicked: the pieces before it are taken (M5).
        $(fieldId("scenario.boat")).value = JSON.stringify(Math.max(0, Math.min(where, 12) - 1));
        return;
      }
      const input = $(fieldId("scenario.fish"));
      const fish = JSON.parse(input.value);
      fish[MARE_FISH.indexOf(name.slice(5))] = where;
      input.value = JSON.stringify(fish);
    },
  },
};

// The lab's own handle on the Avanti picture's event marker: a ring as wide as a finger over
// the dashed one the library draws, so the marker can be picked without hiding the space.
function avantiLayer(svg) {
  const marker = svg.querySelector("circle.marker");
  if (!marker) return;
  const ring = document.createElementNS(SVG, "circle");
  for (const key of ["cx", "cy", "r"]) ring.setAttribute(key, marker.getAttribute(key));
  for (const [key, value] of Object.entries({class: "lab-marker", "data-piece": "marker", fill: "none",
    stroke: "transparent", "stroke-width": "10", "pointer-events": "stroke"})) ring.setAttribute(key, value);
  const title = document.createElementNS(SVG, "title");
  title.textContent = marker.querySelector("title")?.textContent || "the event marker";
  ring.append(title);
  svg.append(ring);
}

// The lab's own click targets over the mare picture, in its coordinates (avanti.mare.svg): the
// river pieces 1-11 (taken ones in the boat's wake), the sea (12) and the boat (0, caught).
const MARE_FISH = ["blue", "orange", "yellow", "pink"];
const SVG = "http://www.w3.org/2000/svg";
function mareLayer(svg) {
  const boat = Number(JSON.parse($(fieldId("scenario.boat")).value));
  const [left, top, band, boatWidth, piece] = [20, 84, 128, 84, 52];
  const sea = left + boatWidth + 11 * piece;
  const layer = document.createElementNS(SVG, "g");
  layer.setAttribute("class", "lab-places");
  const target = (place, x, width, words) => {
    const rect = document.createElementNS(SVG, "rect");
    for (const [key, value] of Object.entries({x, y: top, width, height: band, "data-place": place})) {
      rect.setAttribute(key, String(value));
    }
    const title = document.createElementNS(SVG, "title");
    title.textContent = words;
    rect.append(title);
    layer.append(rect);
  };
  for (let number = 1; number <= 11; number += 1) {
    const x = number <= boat ? left + (number - 1) * piece : left + boatWidth + (number - 1) * piece;
    target(number, x, piece, `river piece ${number}`);
  }
  target(12, sea, 800 - left - sea, "the sea");
  target(0, left + boat * piece, boatWidth, "the boat");
  svg.append(layer);
}

// For Sale: Autorama's position is its cards, so the lab draws them as rows under the picture:
// each deck (its top card first), each seat's advisors, kept advisors (F12), vehicles and
// checks, and the cards out of the game (F1: those the position names nowhere). Click a card,
// then a row (it goes last) or a card (it goes just before it); a card moves only among rows
// of its own kind. The library sorts hands, so only a deck's order counts.
const DECKS = [["advisor", "advisor_deck", "the advisor deck"], ["vehicle", "vehicle_deck", "the vehicle deck"],
  ["check", "check_deck", "the check deck"]];
const HANDS = [["advisor", "advisors", "advisors in hand"], ["advisor", "kept", "advisors kept (F12)"],
  ["vehicle", "vehicles", "vehicles"], ["check", "checks", "checks won"]];
let box = null;       // the cards in the game's box by kind, as the server sends them (F1)
let picked = null;    // the card picked in the rows: {row, index, card}

function fieldValue(path, fallback) {
  const input = $(fieldId(path));
  return input ? JSON.parse(input.value) : fallback;
}

function cardRows() {
  const n = playerNames().length;
  const rows = DECKS.map(([kind, key, words]) => ({
    id: `scenario.${key}`, kind, words: `${words} (top first)`, cards: [...fieldValue(`scenario.${key}`, [])],
  }));
  const names = playerNames();
  names.forEach((name, seat) => {
    for (const [kind, key, words] of HANDS) {
      const hands = fieldValue(`scenario.${key}`, []);
      rows.push({id: `scenario.${key}.${seat}`, kind, words: `${name}: ${words}`,
        cards: [...((hands.length ? hands : Array(n).fill([]))[seat] || [])]});
    }
  });
  for (const [kind, plural] of [["advisor", "advisors"], ["vehicle", "vehicles"], ["check", "checks"]]) {
    const left = new Map();
    for (const {card} of box[kind]) left.set(card, (left.get(card) || 0) + 1);
    for (const row of rows) {
      if (row.kind !== kind) continue;
      for (const card of row.cards) left.set(card, (left.get(card) || 0) - 1);
    }
    const out = [...left].flatMap(([card, count]) => Array(Math.max(0, count)).fill(card));
    rows.push({id: `out.${kind}`, kind, words: `${plural} out of the game (F1)`, cards: out});
  }
  return rows;
}

function writeRow(row) {
  const [where, key, seat] = row.id.split(".");
  if (where === "out") return;
  const path = `${where}.${key}`;
  const input = $(fieldId(path)) || addField(path, []);
  if (seat === undefined) { input.value = JSON.stringify(row.cards); return; }
  const n = playerNames().length;
  const hands = JSON.parse(input.value);
  const all = hands.length ? hands : Array(n).fill([]);
  all[Number(seat)] = [...row.cards].sort((a, b) => a - b);
  input.value = JSON.stringify(all);
}

function drawCards() {
  const cards = $("cards");
  cards.hidden = $("game").value !== "autorama" || box === null;
  if (cards.hidden) { cards.replaceChildren(); return; }
  let rows;
  try { rows = cardRows(); } catch { cards.replaceChildren(el("p", {class: "error"},
    "The position's fields are not JSON; fix them to move cards by clicks.")); return; }
  const words = new Map(Object.entries(box).map(([kind, list]) => [kind,
    new Map(list.map((item) => [item.card, item.words]))]));
  cards.replaceChildren(...rows.map((row) => el("div", {class: `card-row kind-${row.kind}${row.id.startsWith("out.") ? " out" : ""}`,
    "data-row": row.id, "data-kind": row.kind},
    el("span", {}, row.words),
    ...row.cards.map((card, index) => el("button", {type: "button", "data-card": String(card),
      "data-index": String(index), title: words.get(row.kind).get(card) || String(card),
      class: picked && picked.row === row.id && picked.index === index ? "chosen" : ""},
      row.kind === "check" ? `$${card}k` : String(card))))));
  cards.classList.toggle("choosing", picked !== null);
}

function clickCards(event) {
  const rowNode = event.target.closest("[data-row]");
  if (!rowNode) return;
  const button = event.target.closest("button[data-card]");
  const rows = cardRows();
  const row = rows.find((item) => item.id === rowNode.dataset.row);
  const hint = MOVES.autorama.hint;
  if (picked === null) {
    if (!button) return;
    picked = {row: row.id, index: Number(button.dataset.index), card: button.dataset.card};
    $("chosen").textContent = `${button.title} chosen: click the row it goes to, or the card it goes before.`;
    drawCards();
    return;
  }
  if (button && picked.row === row.id && picked.index === Number(button.dataset.index)) {
    picked = null;
    $("chosen").textContent = hint;
    drawCards();
    return;
  }
  const from = rows.find((item) => item.id === picked.row);
  const card = from ? from.cards[picked.index] : undefined;
  if (card === undefined || String(card) !== picked.card) {
    // The rows are read from the fields: one edited since the pick moved the cards under it.
    dropPick();
    return;
  }
  const name = box[from.kind].find((item) => item.card === card)?.words || String(card);
  if (row.kind !== from.kind) {
    $("chosen").textContent = `${name} is a card of the ${from.kind} deck: it goes only to a row of ${from.kind}s.`;
    return;
  }
  let at = button ? Number(button.dataset.index) : row.cards.length;
  from.cards.splice(picked.index, 1);
  if (from === row && picked.index < at) at -= 1;
  row.cards.splice(at, 0, card);
  picked = null;
  writeRow(from);
  if (row !== from) writeRow(row);
  $("chosen").textContent = `${name} moved. ${hint}`;
  drawCards();
  play();
}

function dropPick() {
  picked = null;
  $("chosen").textContent = `The position changed since the card was picked: pick it again. ${MOVES.autorama.hint}`;
  drawCards();
}

function toFragment(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromFragment(fragment) {
  const text = fragment.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(text + "=".repeat((4 - (text.length % 4)) % 4));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
}

function image(svg, label) {
  const data = btoa(String.fromCharCode(...new TextEncoder().encode(svg)));
  return el("img", {src: `data:image/svg+xml;base64,${data}`, alt: label, class: "picture"});
}

function fieldId(path) {
  return `field-${path.replaceAll(".", "-")}`;
}

function fieldRow(path, value) {
  const id = fieldId(path);
  return el("div", {class: "field"},
    el("label", {for: id}, path),
    el("input", {id, "data-path": path, value: JSON.stringify(value), spellcheck: "false"}));
}

function playerNames() {
  return $("players").value.split(",").map((name) => name.trim()).filter(Boolean);
}

function addField(path, value) {
  const row = fieldRow(path, value);
  $("fields").append(row);
  return row.querySelector("input");
}

function show(kase) {
  $("game").value = kase.game;
  $("question").value = kase.question || "";
  $("players").value = kase.players.join(", ");
  $("seed").value = String(kase.seed);
  const fields = $("fields");
  fields.replaceChildren(fields.querySelector("legend") || el("legend", {}, "Where everything stands"));
  for (const [key, value] of Object.entries(kase.setup || {})) {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, item] of Object.entries(value)) fields.append(fieldRow(`${key}.${inner}`, item));
    } else {
      fields.append(fieldRow(key, value));
    }
  }
  kase.readings.forEach((reading, index) => {
    $(`name-${index}`).value = reading.name;
    $(`options-${index}`).value = JSON.stringify(reading.options || {});
  });
  $("commands").value = kase.commands.join("\n");
  seers();
  chosen = null;
  picked = null;
  if (kase.game !== "autorama") box = null;
  drawCards();
  $("chosen").textContent = (MOVES[kase.game] || {}).hint || "Type the position in the fields below.";
}

function seers() {
  const select = $("seen-by");
  const was = select.value || "0";
  const names = playerNames();
  select.replaceChildren(el("option", {value: "spectator"}, "the spectator (no hand)"),
    ...names.map((name, seat) => el("option", {value: String(seat)}, `${name} (seat ${seat})`)));
  select.value = was === "spectator" || Number(was) < names.length ? was : "0";
}

function drawBoard(svgText) {
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const shown = document.importNode(svg, true);
  try { MOVES[$("game").value]?.layer?.(shown); } catch { /* fields not JSON: no click layer */ }
  $("board").replaceChildren(shown);
  markChosen();
}

function markChosen() {
  for (const node of $("board").querySelectorAll(".chosen")) node.classList.remove("chosen");
  if (chosen) $("board").querySelector(`[data-piece="${chosen}"]`)?.classList.add("chosen");
  $("board").classList.toggle("choosing", chosen !== null);
}

function clickBoard(event) {
  const moves = MOVES[$("game").value];
  if (!moves || !moves.piece) return;
  const piece = event.target.closest("[data-piece]");
  if (piece && moves.piece(piece.dataset.piece)) {
    chosen = chosen === piece.dataset.piece ? null : piece.dataset.piece;
    $("chosen").textContent = chosen ? `${moves.words(chosen)} chosen: click where it goes.` : moves.hint;
    markChosen();
    return;
  }
  const place = chosen && moves.place(event.target, chosen);
  if (!chosen || !place) return;
  const error = $("case-error");
  try { moves.move(chosen, place); } catch {
    error.textContent = "The position's fields are not JSON; fix them to move by clicks.";
    error.hidden = false;
    return;
  }
  $("chosen").textContent = `${moves.words(chosen)} moved. ${moves.hint}`;
  chosen = null;
  play();
}

function read() {
  const setup = {};
  for (const input of $("fields").querySelectorAll("input[data-path]")) {
    const path = input.dataset.path;
    let value;
    try { value = JSON.parse(input.value); } catch { throw new Error(`${path}: not a JSON value`); }
    const [key, inner] = path.split(".");
    if (inner === undefined) setup[key] = value;
    else (setup[key] = setup[key] || {})[inner] = value;
  }
  const readings = [0, 1].map((index) => {
    let options;
    try { options = JSON.parse($(`options-${index}`).value || "{}"); } catch {
      throw new Error(`reading ${index + 1}: the options are not JSON`);
    }
    return {name: $(`name-${index}`).value, options};
  });
  return {
    game: $("game").value, question: $("question").value,
    players: playerNames(),
    seed: Number($("seed").value), setup, readings,
    commands: $("commands").value.split("\n").map((line) => line.trim()).filter(Boolean),
  };
}

function drawSide(index, trial, differences) {
  const side = $(`side-${index}`);
  const marked = new Map(differences.map((d) => [d.step, [...(index === 0 ? d.first : d.second)]]));
  side.replaceChildren(el("h3", {}, trial.reading.name));
  if (trial.steps.length) {
    const last = trial.steps[trial.steps.length - 1];
    side.append(image(last.picture, `the table under ${trial.reading.name}`));
  }
  const list = el("ol", {class: "events"});
  trial.steps.forEach((step, number) => {
    if (number === 0) return;
    const rest = marked.get(number) || [];
    const lines = el("ul");
    for (const line of step.lines) {
      const where = rest.indexOf(line);
      if (where >= 0) { rest.splice(where, 1); lines.append(el("li", {class: "differs"}, el("mark", {}, line))); }
      else lines.append(el("li", {}, line));
    }
    list.append(el("li", {"data-step": number}, el("code", {}, step.command), lines));
  });
  side.append(list);
  if (trial.refusal !== null) {
    const where = trial.refused_at === null ? "the position" : `command ${trial.refused_at + 1}`;
    side.append(el("p", {class: "refusal", role: "alert"}, `Refused (${where}): ${trial.refusal}`));
  }
}

function keep(answer) {
  $("json").value = JSON.stringify(answer.case, null, 2);
  $("test").value = answer.test || "";
  if (answer.fragment) {
    const link = `${location.origin}/lab#${answer.fragment}`;
    $("link").href = link;
    $("link").textContent = link.length > 80 ? `${link.slice(0, 77)}...` : link;
    history.replaceState(null, "", `#${answer.fragment}`);
  }
  const old = $("download").href;
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
  $("download").href = URL.createObjectURL(new Blob([answer.test || ""], {type: "text/x-python"}));
}

let playing = false;
let playAgain = false;

// One question at a time (the server works on one lab job per address at once): a change made
// while an answer is on its way is asked for once that answer is in, with the form as it is then.
async function play() {
  if (playing) {
    playAgain = true;
    return;
  }
  playing = true;
  try {
    await playOnce();
  } finally {
    playing = false;
    if (playAgain) {
      playAgain = false;
      play();
    }
  }
}

async function playOnce() {
  const error = $("case-error");
  error.hidden = true;
  let kase;
  try { kase = read(); } catch (problem) { error.textContent = problem.message; error.hidden = false; return; }
  const mine = ++asked;
  try {
    const seer = encodeURIComponent($("seen-by").value || "0");
    const answer = await request(`/lab/compare?seen_by=${seer}`, {method: "POST", body: kase});
    if (mine !== asked) return;
    const first = answer.trials[0];
    if (first.steps.length) drawBoard(first.steps[0].picture);
    $("board-refusal").hidden = !(first.refusal !== null && first.refused_at === null);
    $("board-refusal").textContent = $("board-refusal").hidden ? "" : `Refused: ${first.refusal}`;
    answer.trials.forEach((trial, index) => drawSide(index, trial, answer.differences));
    const parts = answer.differences.filter((d) => d.first.length || d.second.length).length;
    $("verdict").textContent = answer.same ? "Both readings give the same events."
      : `The readings part at ${parts} step${parts === 1 ? "" : "s"}: the marked lines.`;
    $("verdict").dataset.same = String(answer.same);
    keep(answer);
    box = answer.box ?? null;
    drawCards();
    document.body.dataset.played = String(Number(document.body.dataset.played || 0) + 1);
  } catch (problem) {
    if (mine !== asked) return;
    error.textContent = problem.message;
    error.hidden = false;
  }
}

function drawSaved() {
  const step = saved.steps[at];
  $("at").textContent = `version ${step.version} (step ${at + 1} of ${saved.steps.length})`;
  $("saved-picture").replaceChildren(image(step.picture, `the table at version ${step.version}`));
  $("saved-picture").dataset.version = String(step.version);
  $("saved-picture").dataset.seenBy = saved.seen_by === null ? "spectator" : String(saved.seen_by);
  $("saved-lines").replaceChildren(...step.lines.map((line) => el("li", {}, line)));
  $("back").disabled = at === 0;
  $("forward").disabled = at === saved.steps.length - 1;
}

async function openSaved(keepStep = false) {
  const error = $("saved-error");
  error.hidden = true;
  const seer = encodeURIComponent((keepStep && $("saved-seen-by").value) || "spectator");
  const mine = ++opened;
  try {
    const answer = await request(`/lab/replay?seen_by=${seer}`, {method: "POST", body: {document: $("saved").value}});
    if (mine !== opened) return;
    const step = keepStep && saved ? at : 0;
    saved = answer;
    at = Math.min(step, saved.steps.length - 1);
    const select = $("saved-seen-by");
    select.replaceChildren(el("option", {value: "spectator"}, "the spectator (no hand)"),
      ...saved.players.map((name, seat) => el("option", {value: String(seat)}, `${name} (seat ${seat})`)));
    select.value = saved.seen_by === null ? "spectator" : String(saved.seen_by);
    $("stepper").hidden = false;
    drawSaved();
  } catch (problem) {
    if (mine !== opened) return;
    error.textContent = problem.message;
    error.hidden = false;
  }
}

function start() {
  let kase = STARTS.avanti;
  if (location.hash.length > 1) {
    try { kase = fromFragment(location.hash.slice(1)); } catch {
      $("case-error").textContent = "The link holds no case; here is an example instead.";
      $("case-error").hidden = false;
    }
  }
  show(kase);
  $("case").addEventListener("submit", (event) => { event.preventDefault(); play(); });
  $("case").addEventListener("change", (event) => {
    if (event.target.id === "players") seers();
    if (picked !== null && event.target.id !== "game") dropPick();
    if (event.target.id !== "game") play();
  });
  $("board").addEventListener("click", clickBoard);
  $("cards").addEventListener("click", clickCards);
  $("game").addEventListener("change", () => { show(STARTS[$("game").value]); play(); });
  $("load-json").addEventListener("click", () => {
    try { show(JSON.parse($("json").value)); play(); } catch {
      $("case-error").textContent = "That is not a case in JSON.";
      $("case-error").hidden = false;
    }
  });
  $("open-saved").addEventListener("click", () => openSaved());
  $("saved-seen-by").addEventListener("change", () => openSaved(true));
  $("saved-file").addEventListener("change", async () => {
    const file = $("saved-file").files[0];
    if (file) { $("saved").value = await file.text(); await openSaved(); }
  });
  $("back").addEventListener("click", () => { if (at > 0) { at -= 1; drawSaved(); } });
  $("forward").addEventListener("click", () => { if (at < saved.steps.length - 1) { at += 1; drawSaved(); } });
  play();
}

start();
