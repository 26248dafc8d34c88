// The rules lab: build a position, play it under two readings, keep the answer.
// The page decides nothing and knows no game: it builds its forms from the description the
// server sends (GET /lab/forms: per game, the position's fields and their kinds, the options a
// reading changes, the cards in the box, the random draws a case may name), and every change
// goes to POST /lab/compare, whose answer (or refusal, naming the rule) is drawn. Text is
// always set as text.
import {el, request} from "/static/common.js";

const $ = (id) => document.getElementById(id);

let games = [];       // the games and their forms, as GET /lab/forms sends them
let game = null;      // the chosen one
let kase = null;      // the case the form shows: {game, question, players, seed, values, set,
                      // extra, readings, outcomes, commands}
let saved = null;     // the steps of an opened saved game
let at = 0;
let asked = 0;        // the number of the latest question: an older answer is never drawn
let opened = 0;       // the number of the latest saved-game request, likewise

const SEATED = new Set(["seat-counts", "seat-flags", "seat-choices", "seat-cards", "seat-laid"]);
const copy = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
const fieldId = (path, ...more) => ["f", path.replaceAll(".", "-"), ...more].join("-");

function getPath(object, path) {
  let node = object;
  for (const key of path.split(".")) {
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function setPath(object, path, value) {
  const keys = path.split(".");
  let node = object;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== "object" || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  node[keys[keys.length - 1]] = value;
}

function dropPath(object, path) {
  const keys = path.split(".");
  const parent = getPath(object, keys.slice(0, -1).join(".")) ?? (keys.length === 1 ? object : undefined);
  if (parent && typeof parent === "object") delete parent[keys[keys.length - 1]];
}

// A field's value for a new case, or for a table of `seats` seats.
function fresh(field, seats) {
  return SEATED.has(field.kind) ? Array.from({length: seats}, () => copy(field.item)) : copy(field.default);
}

// -- the cards in the box ----------------------------------------------------------------------

function boxCards(deck) { return game.form.box[deck] || []; }
function words(deck, card) {
  const found = boxCards(deck).find((item) => item.card === card);
  return found ? found.words : String(card);
}

// Every card of `deck` the case names, field by field, leaving out the field `but` (its rest).
function named(deck, but = null) {
  const cards = [];
  for (const field of game.form.fields) {
    if (field.deck !== deck || field.path === but || !isSet(field)) continue;
    const value = kase.values[field.path];
    if (field.kind === "cards") cards.push(...value);
    else if (field.kind === "seat-cards") for (const hand of value) cards.push(...hand);
    else if (field.kind === "seat-laid") for (const laid of value) if (laid) cards.push(laid[0]);
  }
  return cards;
}

// The cards of `deck` still in the box once `cards` are taken out, in the box's order.
function leftOf(deck, cards) {
  const count = new Map();
  for (const card of cards) count.set(card, (count.get(card) || 0) + 1);
  const left = [];
  for (const {card} of boxCards(deck)) {
    if (count.get(card)) count.set(card, count.get(card) - 1);
    else left.push(card);
  }
  return left;
}

const isSet = (field) => !field.optional || kase.set[field.path];

// -- a case in, a case out ---------------------------------------------------------------------

function openCase(data) {
  game = games.find((item) => item.name === data.game);
  if (!game) throw new Error(`the lab has no form for the game ${JSON.stringify(data.game)}`);
  const setup = copy(data.setup || {});
  const players = [...(data.players || [])];
  kase = {game: game.name, question: data.question || "", players, seed: data.seed ?? 1,
    values: {}, set: {}, extra: setup, outcomes: copy(data.outcomes || {}),
    commands: [...(data.commands || [])], readings: []};
  for (const field of game.form.fields) {
    const value = getPath(setup, field.path);
    dropPath(setup, field.path);
    kase.set[field.path] = value !== undefined;
    kase.values[field.path] = value !== undefined ? value : fresh(field, players.length);
  }
  for (const key of Object.keys(setup)) {
    if (setup[key] && typeof setup[key] === "object" && !Object.keys(setup[key]).length) delete setup[key];
  }
  // A pile whose tail is the rest of the box in order shows only the cards chosen on top.
  for (const field of game.form.fields) {
    if (field.kind !== "cards" || !field.rest) continue;
    const pile = kase.values[field.path];
    const others = named(field.deck, field.path);
    for (let top = 0; top <= pile.length; top += 1) {
      const rest = leftOf(field.deck, [...others, ...pile.slice(0, top)]);
      if (JSON.stringify(rest) === JSON.stringify(pile.slice(top))) {
        kase.values[field.path] = pile.slice(0, top);
        break;
      }
    }
  }
  kase.readings = (data.readings || [{}, {}]).slice(0, 2).map((reading) => {
    const options = copy(reading.options || {});
    const values = {};
    for (const field of game.form.options) {
      values[field.path] = field.path in options ? options[field.path] : copy(field.default);
      delete options[field.path];
    }
    return {name: reading.name || "", values, extra: options};
  });
}

function read() {
  const setup = copy(kase.extra);
  for (const field of game.form.fields) {
    if (!isSet(field)) continue;
    let value = copy(kase.values[field.path]);
    if (field.kind === "cards" && field.rest) {
      if (!value.length) continue;  // nothing chosen on top: the game's own pile
      value = [...value, ...leftOf(field.deck, [...named(field.deck, field.path), ...value])];
    }
    setPath(setup, field.path, value);
  }
  const outcomes = {};
  for (const [name, results] of Object.entries(kase.outcomes)) if (results.length) outcomes[name] = [...results];
  return {
    game: kase.game, question: kase.question, players: [...kase.players], seed: kase.seed, setup,
    readings: kase.readings.map((reading) => ({name: reading.name, options: {...copy(reading.extra), ...copy(reading.values)}})),
    commands: [...kase.commands],
    ...(Object.keys(outcomes).length ? {outcomes} : {}),
  };
}

// The table grows or shrinks to `count` seats: every list of the position follows.
function seat(count) {
  const names = game.default_players.filter((name) => !kase.players.includes(name));
  while (kase.players.length < count) kase.players.push(names.shift() || `Player ${kase.players.length + 1}`);
  kase.players.length = count;
  for (const field of game.form.fields) {
    const value = kase.values[field.path];
    if (SEATED.has(field.kind)) {
      while (value.length < count) value.push(copy(field.item));
      value.length = count;
    } else if (field.kind === "seat" && value >= count) {
      kase.values[field.path] = 0;
    }
  }
}

// -- the form ----------------------------------------------------------------------------------

function numberInput(id, value, field, onChange) {
  const input = el("input", {id, type: "number", step: "1", min: field.least, max: field.most || null, value: String(value)});
  input.addEventListener("change", () => {
    const number = Number(input.value);
    if (input.value.trim() === "" || !Number.isInteger(number)) { input.value = String(value); return; }
    onChange(number);
  });
  return input;
}

function selectInput(id, choices, value, onChange) {
  const select = el("select", {id}, ...choices.map(([key, text]) => el("option", {value: key}, text)));
  select.value = value;
  select.addEventListener("change", () => onChange(select.value));
  return select;
}

function seatName(seat) { return kase.players[seat] || `seat ${seat + 1}`; }

// A row of cards (a pile or a hand): each card a button that takes it out, then a list of the
// cards left in the box to add one.
function cardsInput(id, field, cards, onChange) {
  const row = el("div", {class: "card-list", id, "data-deck": field.deck});
  cards.forEach((card, index) => {
    const button = el("button", {type: "button", class: "card", "data-card": card, "data-index": index,
      title: "take this card out"}, `${words(field.deck, card)} ×`);
    button.addEventListener("click", () => { const next = [...cards]; next.splice(index, 1); onChange(next); });
    row.append(button);
  });
  const full = field.kind === "seat-cards" && field.most && cards.length >= field.most;
  if (!full) {
    const left = [...new Set(leftOf(field.deck, named(field.deck)))];
    const add = selectInput(`${id}-add`, [["", "add a card…"], ...left.map((card) => [String(card), words(field.deck, card)])], "",
      (value) => { if (value !== "") onChange([...cards, Number(value)]); });
    add.classList.add("add");
    row.append(add);
  }
  return row;
}

function laidInput(id, field, laid, onChange) {
  const span = el("span", {class: "laid"});
  const [card, number] = laid || [null, null];
  const left = [...new Set(leftOf(field.deck, named(field.deck)))];
  if (card !== null && !left.includes(card)) left.unshift(card);
  span.append(selectInput(`${id}-card`, [["", "none"], ...left.map((item) => [String(item), words(field.deck, item)])],
    card === null ? "" : String(card), (value) => {
      if (value === "") { onChange(null); return; }
      const numbers = boxCards(field.deck).find((item) => item.card === Number(value))?.numbers || [];
      onChange([Number(value), numbers[0] ?? 0]);
    }));
  if (card !== null) {
    const numbers = boxCards(field.deck).find((item) => item.card === card)?.numbers || [];
    span.append(selectInput(`${id}-number`, numbers.map((item) => [String(item), String(item)]), String(number),
      (value) => onChange([card, Number(value)])));
  }
  return span;
}

// The input (or inputs) of one field; `get()` is its value now and `change(value, redraw)`
// stores a new one (a part changed is put into the value as it is then, never as drawn).
function inputsOf(field, get, id, change) {
  const value = get();
  switch (field.kind) {
    case "count": return numberInput(id, value, field, (v) => change(v));
    case "choice": return selectInput(id, field.choices.map((c) => [c, c]), value, (v) => change(v));
    case "flag": return selectInput(id, [["true", "yes"], ["false", "no"]], String(value), (v) => change(v === "true"));
    case "seat": return selectInput(id, kase.players.map((_, s) => [String(s), seatName(s)]), String(value), (v) => change(Number(v)));
    case "choices": return el("span", {class: "choices"}, ...field.choices.map((choice) => {
      const box = el("input", {type: "checkbox", id: `${id}-${choice}`, checked: value.includes(choice)});
      box.addEventListener("change", () => change(field.choices.filter((c) => (c === choice ? box.checked : get().includes(c)))));
      return el("label", {}, box, ` ${choice}`);
    }));
    case "counts": return el("span", {class: "counts"}, ...field.labels.map((label, index) => el("label", {},
      `${label} `, numberInput(`${id}-${index}`, value[index], field, (v) => { const next = [...get()]; next[index] = v; change(next); }))));
    case "cards": return cardsInput(id, field, value, (v) => change(v, true));
    default: return seatInputs(field, get, id, change);
  }
}

function seatInputs(field, get, id, change) {
  const table = el("div", {class: "seat-rows"});
  get().forEach((item, seat) => {
    const put = (v, redraw) => { const next = copy(get()); next[seat] = v; change(next, redraw); };
    const sid = `${id}-${seat}`;
    let input;
    if (field.kind === "seat-counts") input = numberInput(sid, item, field, put);
    else if (field.kind === "seat-flags") {
      input = el("input", {type: "checkbox", id: sid, checked: Boolean(item)});
      input.addEventListener("change", () => put(input.checked));
    } else if (field.kind === "seat-choices") input = selectInput(sid, field.choices.map((c) => [c, c]), item, put);
    else if (field.kind === "seat-cards") input = cardsInput(sid, field, item, (v) => put(v, true));
    else input = laidInput(sid, field, item, (v) => put(v, true));
    table.append(el("div", {class: "seat-row"}, el("label", {for: input.tagName === "SPAN" || input.tagName === "DIV" ? null : sid}, seatName(seat)), input));
  });
  return table;
}

function drawField(field) {
  const id = fieldId(field.path);
  const title = field.rule ? `${field.label} (${field.rule})` : field.label;
  const box = el("div", {class: "field", "data-path": field.path, "data-kind": field.kind});
  const head = el("div", {class: "field-head"}, el("label", {for: id}, title));
  box.append(head);
  if (field.optional) {
    const on = el("input", {type: "checkbox", id: `${id}-set`, checked: Boolean(kase.set[field.path])});
    on.addEventListener("change", () => { kase.set[field.path] = on.checked; changed(true); });
    head.append(el("label", {class: "set"}, on, " set"));
    if (!kase.set[field.path]) { box.append(el("span", {class: "muted unset"}, field.unset)); return box; }
  }
  box.append(inputsOf(field, () => kase.values[field.path], id, (value, redraw) => {
    kase.values[field.path] = value;
    changed(Boolean(redraw) || field.kind === "seat-laid");
  }));
  return box;
}

function drawOutcomes() {
  const box = $("outcomes");
  const outcomes = game.form.outcomes;
  box.hidden = !outcomes.length;
  box.replaceChildren(el("legend", {}, "What chance brings next (the lab plays the first seed from yours that gives it)"));
  for (const outcome of outcomes) {
    const results = kase.outcomes[outcome.name] || [];
    const id = `o-${outcome.name}`;
    const row = el("div", {class: "field", "data-outcome": outcome.name},
      el("div", {class: "field-head"}, el("span", {}, outcome.rule ? `${outcome.label} (${outcome.rule})` : outcome.label)));
    const list = el("div", {class: "seat-rows"});
    results.forEach((result, index) => {
      const put = (value) => {
        const next = [...(kase.outcomes[outcome.name] || [])];
        if (value === "") next.splice(index, 1); else next[index] = value;
        kase.outcomes[outcome.name] = next;
        changed(value === "");
      };
      list.append(el("div", {class: "seat-row"}, el("label", {for: `${id}-${index}`}, index === 0 ? "next" : `then (${index + 1})`),
        selectInput(`${id}-${index}`, [...outcome.choices.map((c) => [c, c]), ["", "(take out)"]], result, put)));
    });
    row.append(list);
    if (results.length < outcome.most) {
      const add = el("button", {type: "button", id: `${id}-add`}, results.length ? "and then…" : "choose the next result");
      add.addEventListener("click", () => { kase.outcomes[outcome.name] = [...results, outcome.choices[0]]; changed(true); });
      row.append(add);
    }
    box.append(row);
  }
}

function drawReadings() {
  kase.readings.forEach((reading, index) => {
    $(`name-${index}`).value = reading.name;
    $(`options-${index}`).replaceChildren(...game.form.options.map((field) => {
      const id = `opt-${index}-${field.path}`;
      const input = inputsOf(field, () => reading.values[field.path], id, (value) => { reading.values[field.path] = value; changed(false); });
      const book = field.kind === "flag" ? (field.default ? "yes" : "no") : [field.default].flat().join(", ");
      return el("div", {class: "field", "data-option": field.path},
        el("label", {for: id}, `${field.label} (${field.rule}; the library: ${book})`), input);
    }));
  });
}

function drawPlayers() {
  const count = $("player-count");
  count.replaceChildren(...Array.from({length: game.max_players - game.min_players + 1},
    (_, index) => el("option", {value: String(game.min_players + index)}, String(game.min_players + index))));
  count.value = String(kase.players.length);
  $("players").replaceChildren(...kase.players.map((name, index) => {
    const input = el("input", {id: `player-${index}`, value: name, size: 12, "aria-label": `seat ${index + 1}'s name`});
    input.addEventListener("change", () => { kase.players[index] = input.value.trim(); changed(true); });
    return el("span", {class: "seat-name"}, el("span", {class: "muted"}, `${index}`), input);
  }));
}

// The whole form, from the case (after a change of its shape: a seat, a card, a game).
function drawForm() {
  $("game").value = kase.game;
  $("question").value = kase.question;
  $("seed").value = String(kase.seed);
  drawPlayers();
  seers();
  const kept = Object.keys(kase.extra).flatMap((key) => (kase.extra[key] && typeof kase.extra[key] === "object"
    && !Array.isArray(kase.extra[key]) ? Object.keys(kase.extra[key]).map((inner) => `${key}.${inner}`) : [key]));
  $("fields").replaceChildren(el("legend", {}, "Where everything stands (the library checks every change)"),
    ...game.form.fields.map(drawField),
    ...(kept.length ? [el("p", {class: "muted", id: "kept"}, `Kept as the case gave them: ${kept.join(", ")}.`)] : []));
  drawOutcomes();
  drawReadings();
  $("commands").value = kase.commands.join("\n");
}

function changed(redraw) {
  if (redraw) drawForm();
  play();
}

function seers() {
  const select = $("seen-by");
  const was = select.value || "0";
  const names = kase.players;
  select.replaceChildren(el("option", {value: "spectator"}, "the spectator (no hand)"),
    ...names.map((name, seat) => el("option", {value: String(seat)}, `${name} (seat ${seat + 1})`)));
  select.value = was === "spectator" || Number(was) < names.length ? was : "0";
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
  const body = read();
  const mine = ++asked;
  try {
    const seer = encodeURIComponent($("seen-by").value || "0");
    const answer = await request(`/lab/compare?seen_by=${seer}`, {method: "POST", body});
    if (mine !== asked) return;
    const first = answer.trials[0];
    if (first.steps.length) drawBoard(first.steps[0].picture);
    else $("board").replaceChildren();
    $("board-refusal").hidden = !(first.refusal !== null && first.refused_at === null);
    $("board-refusal").textContent = $("board-refusal").hidden ? "" : `Refused: ${first.refusal}`;
    answer.trials.forEach((trial, index) => drawSide(index, trial, answer.differences));
    $("verdict").textContent = verdict(answer);
    $("verdict").dataset.same = String(answer.same_events);
    const played = $("seed-played");
    played.hidden = !body.outcomes;
    played.textContent = answer.seed === null ? "No seed gives the results chosen."
      : `Played with seed ${answer.seed}: the first from ${body.seed} that gives the results chosen.`;
    keep(answer);
    document.body.dataset.played = String(Number(document.body.dataset.played || 0) + 1);
  } catch (problem) {
    if (mine !== asked) return;
    error.textContent = problem.message;
    error.hidden = false;
  }
}

// The verdict in words: the readings agree on every event, or where they part.
function verdict(answer) {
  if (answer.same_events) {
    if (answer.trials[0].refusal !== null) return "Both readings give the same events, and the same refusal.";
    return answer.same ? "Both readings give the same events."
      : "Both readings give the same events; only the pictures differ.";
  }
  const parts = answer.differences.filter((d) => d.first.length || d.second.length).length;
  const [one, two] = answer.trials;
  if (!parts) {
    return one.refusal === two.refusal ? "The readings part where one is refused: see the refusals."
      : "The readings part at the refusal: the library refuses one and not the other.";
  }
  return `The readings part at ${parts} step${parts === 1 ? "" : "s"}: the marked lines.`;
}

function drawBoard(svgText) {
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  $("board").replaceChildren(document.importNode(svg, true));
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
      ...saved.players.map((name, seat) => el("option", {value: String(seat)}, `${name} (seat ${seat + 1})`)));
    select.value = saved.seen_by === null ? "spectator" : String(saved.seen_by);
    $("stepper").hidden = false;
    drawSaved();
  } catch (problem) {
    if (mine !== opened) return;
    error.textContent = problem.message;
    error.hidden = false;
  }
}

function choose(data) {
  openCase(data);
  drawForm();
}

async function start() {
  try {
    games = (await request("/lab/forms")).games;
  } catch (problem) {
    $("case-error").textContent = `The lab's forms did not come: ${problem.message}`;
    $("case-error").hidden = false;
    return;
  }
  $("game").replaceChildren(...games.map((item) => el("option", {value: item.name}, item.title)));
  let data = games[0].form.example;
  if (location.hash.length > 1) {
    try { data = fromFragment(location.hash.slice(1)); } catch {
      $("case-error").textContent = "The link holds no case; here is an example instead.";
      $("case-error").hidden = false;
    }
  }
  try { choose(data); } catch (problem) {
    $("case-error").textContent = `${problem.message}; here is an example instead.`;
    $("case-error").hidden = false;
    choose(games[0].form.example);
  }
  $("case").addEventListener("submit", (event) => { event.preventDefault(); play(); });
  $("game").addEventListener("change", () => {
    choose(games.find((item) => item.name === $("game").value).form.example);
    play();
  });
  $("player-count").addEventListener("change", () => { seat(Number($("player-count").value)); changed(true); });
  $("question").addEventListener("change", () => { kase.question = $("question").value; play(); });
  $("seed").addEventListener("change", () => {
    const seed = Number($("seed").value);
    if (Number.isInteger(seed) && $("seed").value.trim() !== "") { kase.seed = seed; play(); } else $("seed").value = String(kase.seed);
  });
  $("seen-by").addEventListener("change", () => play());
  for (const index of [0, 1]) {
    $(`name-${index}`).addEventListener("change", () => { kase.readings[index].name = $(`name-${index}`).value; play(); });
  }
  $("commands").addEventListener("change", () => {
    kase.commands = $("commands").value.split("\n").map((line) => line.trim()).filter(Boolean);
    play();
  });
  $("load-json").addEventListener("click", () => {
    try { choose(JSON.parse($("json").value)); play(); } catch (problem) {
      $("case-error").textContent = problem instanceof SyntaxError ? "That is not a case in JSON." : problem.message;
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
