// The moves of one step, drawn on the table's picture.
//
// The new picture is drawn exactly as the server sent it; Web Animations then move each piece
// (an element with data-piece) from where the old picture had it (along its data-path, the JSON
// list of the points it passed, for a car's hops), which changes no attribute: once the
// animations end the page's picture is the server's, node for node. Money that changed hands
// travels as a token from the seat that paid to the seat that got it.
import {el, money} from "/static/common.js";

let lasting = [];  // the highlights of the last step's pieces, kept until the next step

/** Draw the server's SVG text into `picture`, scaled to its box (no wider than drawn). */
export function drawPicture(picture, text) {
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

/** Where each piece of the picture is: {piece: {box, text}} in the page's pixels. */
export function places(picture) {
  const found = new Map();
  for (const node of picture.querySelectorAll("[data-piece]")) {
    found.set(node.dataset.piece, {box: node.getBoundingClientRect(), text: node.textContent});
  }
  return found;
}

/** Each seat's cash in a view as far as the view shows it: {seat: amount}. */
export function cashOf(view) {
  const cash = {};
  if (Array.isArray(view.cash)) {
    view.cash.forEach((amount, seat) => { if (typeof amount === "number") cash[seat] = amount; });
  } else if (typeof view.cash === "number" && view.seat !== null && view.seat !== undefined) {
    cash[view.seat] = view.cash;
  }
  return cash;
}

/** Move every piece of the newly drawn picture from where `before` had it, over `time`
 * milliseconds (0: nothing moves); the pieces that moved, by name. `unit`: how the game
 * writes an amount of money (the catalog's `money`). */
export function animate(picture, before, cashBefore, cashAfter, {time, unit}) {
  for (const highlight of lasting) highlight.cancel();
  lasting = [];
  const moving = [];
  if (time === 0) return moving;
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
  if (cashBefore && cashAfter) travel(picture, cashBefore, cashAfter, duration, unit);
  return moving;
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
function travel(picture, before, after, duration, unit) {
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
  const words = (amount) => money(Math.abs(amount), unit);
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

