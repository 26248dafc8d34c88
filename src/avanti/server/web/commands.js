// The seat's commands: buttons, clicks on the picture, keys, the command box, and the
// confirmation an irreversible command asks for.
//
// This script draws from what the page's core tells it in an "avanti:render" event (the seat,
// its legal commands and their words, whether a command is under way) and never sends on the
// socket itself: a chosen command goes back to the core as an "avanti:command" event ({command}
// or {notation}), a note for the person as "avanti:say" ({text, kind}). It never decides what is
// legal: a click the picture names but no legal command fits is still sent, and refused.
//
// "Think before you click": a command that cannot be taken back once the game has it is only
// selected by its first click or key; a second click on it (or on the same place of the
// picture), or Enter, sends it; Esc or a click elsewhere cancels. Which commands these are, and
// the question each asks, the server says beside each legal command (the table's `confirm`,
// from the game's presentation): this script knows no game.
import {el} from "/static/common.js";

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

/** The question the game asks before `choice` is sent (the server's `confirm`); "" for none. */
function question(choice) {
  return (table && table.confirms && table.confirms.get(choice.notation)) || "";
}

function needsConfirm(choice) {
  return question(choice) !== "";
}

/** Choose a legal command: send it, or select it first when it needs a confirmation. */
function choose(choice) {
  if (needsConfirm(choice) && armed !== choice.notation) {
    armed = choice.notation;
    draw();
    const selected = commands.querySelector("button.armed");
    if (selected && !(document.activeElement instanceof HTMLInputElement)) selected.focus();
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
  if (!target || !target.isConnected || target.closest("#commands") || target.closest("#picture")) return;
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
    const item = commands.querySelectorAll(":scope > button.command:not(.all), :scope > form.pick")[Number(event.key) - 1];
    if (item instanceof HTMLFormElement) {  // a number to choose: into its field
      event.preventDefault();
      item.querySelector("input").focus();
    } else if (item && !item.disabled) {
      event.preventDefault();
      item.click();
    }
  }
});

// -- numbers: commands whose notation differs only in one number -------------------------------
//
// A marker that may go on any of 34 spaces ("marker 0" ... "marker 33"), a bid that may be
// any of 30 amounts ("bid 0" ... "bid 28000"): a button each would fill the screen.
// So the legal commands whose notations are the same words around one number that varies are
// drawn as one field with the legal range and a stepper, confirmed with Enter or its button.
// The grouping is read from the notations the server sends, for every game alike.

/** A group of fewer commands than this stays as buttons (the keys reach nine of them). */
const GROUP = 10;
const NUMBER = /\d+/g;

/** The legal commands to draw, in order: {choice} for a button, {numbers} for a field. */
function arrange(legal) {
  const keys = new Map();  // "words # words" -> [[choice, number], ...]
  for (const choice of legal) {
    for (const match of choice.notation.matchAll(NUMBER)) {
      const key = `${choice.notation.slice(0, match.index)}#${choice.notation.slice(match.index + match[0].length)}`;
      if (!keys.has(key)) keys.set(key, []);
      keys.get(key).push([choice, Number(match[0])]);
    }
  }
  const taken = new Map();  // choice -> its group's key
  const chosen = [...keys.entries()].filter(([, members]) => members.length >= GROUP)
    .sort((a, b) => b[1].length - a[1].length);
  for (const [key, members] of chosen) {
    const free = members.filter(([choice]) => !taken.has(choice));
    if (free.length < GROUP) continue;
    keys.set(key, free);
    for (const [choice] of free) taken.set(choice, key);
  }
  const items = [];
  const placed = new Set();
  for (const choice of legal) {
    const key = taken.get(choice);
    if (key === undefined) {
      items.push({choice});
    } else if (!placed.has(key)) {
      placed.add(key);
      const members = keys.get(key).slice().sort((a, b) => a[1] - b[1]);
      items.push({key, members: members.map(([member, number]) => ({choice: member, number}))});
    }
  }
  return items;
}

/** The steps between a group's numbers (their greatest common divisor), for the field. */
function stepOf(numbers) {
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  let step = 0;
  for (let index = 1; index < numbers.length; index++) step = gcd(step, numbers[index] - numbers[index - 1]);
  return step || 1;
}

const picks = new Map();  // a group's key -> the number in its field, kept across redraws

/** Whether the picture has a place to click for `choice` (as a click on it would read it). */
function onBoard(choice) {
  for (const node of picture.querySelectorAll("*")) {
    const fields = {};
    for (const [key, text] of Object.entries(node.dataset || {})) {
      if (PIECE_FIELDS.has(key) || key === "seat") continue;
      fields[key === "command" ? "type" : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value(text);
    }
    if (Object.keys(fields).length > 0 && matches(choice.command, fields)) return true;
  }
  return false;
}

/** Words a command's label adds to its notation ("" when none). */
function more(choice) {
  const label = table.labels.get(choice.notation);
  if (!label || label === choice.notation) return "";
  return label.startsWith(choice.notation) ? label.slice(choice.notation.length).replace(/^[:\s]+/, "") : label;
}

/** A field for a group of commands that differ in one number: the legal range, a stepper to
 * the next legal number either way, Enter (or its button) to choose the number in it. A number
 * outside the legal ones is sent as its notation all the same: the server says why not. */
function numberField(item, index, disabled) {
  const numbers = item.members.map((member) => member.number);
  const [before, after] = item.key.split("#");
  const id = `pick-${index}`;
  const kept = Number(picks.get(item.key));
  const start = numbers.includes(kept) ? kept : numbers[0];
  const input = el("input", {type: "number", id, class: "number", min: numbers[0], max: numbers[numbers.length - 1],
    step: stepOf(numbers), value: start, inputmode: "numeric", disabled, "data-part": "field",
    "aria-describedby": `${id}-range`});
  const go = el("button", {type: "submit", class: "go", "data-part": "go", disabled});
  const range = el("span", {id: `${id}-range`, class: "range muted"});
  const form = el("form", {class: "pick", "data-key": item.key, autocomplete: "off", novalidate: true,
    "data-notations": JSON.stringify(item.members.map((member) => member.choice.notation)),
    "data-values": JSON.stringify(numbers)});
  const member = () => item.members.find((one) => one.number === Number(input.value)) || null;
  const notation = () => `${before}${input.value.trim()}${after}`;
  const show = () => {
    picks.set(item.key, input.value);
    const found = member();
    const text = notation();
    const selected = found !== null && armed === found.choice.notation;
    go.className = selected ? "go armed" : "go";
    go.dataset.notation = text;
    go.replaceChildren(index < 9 ? el("kbd", {}, String(index + 1)) : "", index < 9 ? " " : "", text);
    const words = found ? more(found.choice) : "";
    if (words) go.append(el("span", {class: "label"}, ` (${words})`));
    if (selected) go.append(el("span", {class: "again"}, " \u2714 again to confirm"));
    if (found && needsConfirm(found.choice)) go.setAttribute("aria-pressed", String(selected));
  };
  const stepper = (sign, words) => {
    const made = el("button", {type: "button", class: "step", "aria-label": words, disabled,
      "data-part": sign > 0 ? "up" : "down"}, sign > 0 ? "+" : "\u2212");
    made.addEventListener("click", () => {
      const now = Number(input.value);
      const next = sign > 0 ? numbers.find((n) => n > now) : [...numbers].reverse().find((n) => n < now);
      if (next !== undefined) input.value = String(next);
      show();
    });
    return made;
  };
  input.addEventListener("input", show);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const found = member();
    if (found) choose(found.choice);
    else if (input.value.trim()) send({notation: notation()});
  });
  const board = onBoard(item.members[0].choice) ? "; or click its place on the board" : "";
  const [first, last] = [numbers[0], numbers[numbers.length - 1]];
  const gaps = numbers.length !== (last - first) / stepOf(numbers) + 1 ? ", some left out" : "";
  range.textContent = `${first} to ${last}${gaps}${board}`;
  form.append(el("label", {for: id}, `${before.trim() || after.trim()}`), stepper(-1, "the next number down"),
    input, stepper(1, "the next number up"), go, range);
  show();
  return form;
}

/** One legal command's button: its notation, its words (the price before the choice),
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
  if (label && label !== choice.notation) made.title = label;
  const words = more(choice);
  if (words) made.append(el("span", {class: "label"}, ` (${words})`));
  if (selected) made.append(el("span", {class: "again"}, " \u2714 again to confirm"));
  made.addEventListener("click", () => choose(choice));
  return made;
}

/** What names a button or field across redraws: its notation, or its group and part. */
function mark(node) {
  const form = node.closest("form.pick");
  return form ? `${form.dataset.key}@${node.dataset.part}` : node.dataset.notation || null;
}

/** Draw the buttons and fields and the confirmation line from the last thing the core told. */
function draw() {
  if (!table) return;
  if (!table.legal.some((choice) => choice.notation === armed)) armed = null;
  const disabled = table.pending || !table.ready;
  const items = arrange(choices || table.legal);
  const drawn = items.map((item, index) => (item.choice ? button(item.choice, index) : numberField(item, index, disabled)));
  if (choices) {
    const all = el("button", {type: "button", class: "command all"}, "every command");
    all.addEventListener("click", () => { choices = null; draw(); });
    drawn.push(all);
  }
  const focused = commands.contains(document.activeElement) ? mark(document.activeElement) : null;
  commands.replaceChildren(...drawn);
  if (focused) {  // keep the keyboard where it was
    const again = [...commands.querySelectorAll("button, input")].find((node) => !node.disabled && mark(node) === focused);
    if (again) again.focus();
  }
  if (armed !== null) {
    const chosen = table.legal.find((choice) => choice.notation === armed);
    const asked = chosen ? question(chosen) : "";
    confirmLine.textContent = `${asked} Click it again or press Enter to do it; Esc cancels.`.trim();
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
    picks.clear();
  }
  draw();
});
