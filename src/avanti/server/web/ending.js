// The end of a game: the standings in the order of the game's outcome, each game's own
// breakdown, a rematch for a seat and the way back to the lobby for everyone.
//
// It needs only public facts: the outcome and the final view, as the page's core tells them in
// its "avanti:render" event; a rematch the server announces arrives as an "avanti:message".
import {el, explain, money, request, ServerError} from "/static/common.js";
import {keepSeat} from "/static/seats.js";

const result = document.getElementById("result");

let table = null;     // what the core last told: see play.js's render()
let rematchId = null; // the rematch game's id, once the server told of one
let shown = null;     // the words of the end screen drawn, so it is drawn once

function who(seat) {
  return table.names[seat] !== undefined ? table.names[seat] : `seat ${seat + 1}`;
}

/** The standings as the outcome gives them, best first: [[seat, words], ...], and the game's
 * own breakdown as rows of cells. Only public facts: the outcome and the final view. */
function standings() {
  const outcome = table.outcome;
  const view = table.shownView || {};
  const seats = table.names.map((_, seat) => seat);
  if (table.game === "avanti" && Array.isArray(outcome.ranking)) {
    const last = Array.isArray(view.ranking) && view.ranking.length ? view.ranking[0] : null;
    return {
      order: outcome.ranking,
      head: ["Player", "Island space", "Cash"],
      rows: outcome.ranking.map((seat) => [who(seat), String(outcome.island[seat]),
        money(Array.isArray(view.cash) ? view.cash[seat] : null, false)]),
      notes: last === null ? [] : [`${who(last)} won the last run.`],
    };
  }
  if (table.game === "autorama" && Array.isArray(outcome.scores)) {
    const scores = [...outcome.scores].sort((a, b) => b.total - a.total || a.seat - b.seat);
    return {
      order: scores.map((score) => score.seat),
      head: ["Player", "Checks", "Bonus", "Cash", "Total"],
      rows: scores.map((score) => [who(score.seat),
        `${score.checks.map((check) => `$${check}k`).join(" ")} = ${money(score.check_total, true)}`,
        score.bonus ? `+${money(score.bonus, true)}` : "\u2013",
        money(score.cash, true), money(score.total, true)]),
      notes: [],
    };
  }
  if (table.game === "mare") {
    const winners = new Set(outcome.winners);
    const order = [...seats.filter((seat) => winners.has(seat)), ...seats.filter((seat) => !winners.has(seat))];
    const side = (seat) => (table.sides[seat] || "").replace(/-/g, " ");
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

function endScreen() {
  const winners = table.outcome.winners.map(who);
  const words = winners.length === 0 ? "Nobody wins." : `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"}.`;
  const you = table.seat !== null && table.outcome.winners.includes(table.seat) ? " You won!" : "";
  const key = `${words}|${rematchId}`;
  if (shown === key) return;
  shown = key;
  const drawn = standings();
  const rows = drawn.rows.map((cells, index) => el("tr", {"data-seat": drawn.order[index]},
    el("th", {scope: "row"}, `${index + 1}. ${cells[0]}`), ...cells.slice(1).map((cell) => el("td", {}, cell))));
  const board = el("table", {class: "standings", "data-order": JSON.stringify(drawn.order)},
    el("thead", {}, el("tr", {}, ...drawn.head.map((cell) => el("th", {scope: "col"}, cell)))),
    el("tbody", {}, ...rows));
  const buttons = el("div", {class: "row end-buttons"});
  if (table.seat !== null && rematchId === null) {
    const again = el("button", {type: "button", id: "rematch"}, "Rematch");
    again.addEventListener("click", () => rematch(again));
    buttons.append(again);
  }
  if (rematchId !== null) {
    const join = el("button", {type: "button", id: "join-rematch"}, "Join the rematch");
    join.addEventListener("click", () => (table.seat === null
      ? location.assign(`/play/${encodeURIComponent(rematchId)}`) : rematch(join)));
    buttons.append(join);
  }
  const seenBy = table.seat === null ? "" : `?seen_by=${table.seat}`;
  buttons.append(el("a", {href: `/replay/${encodeURIComponent(table.gameId)}${seenBy}`, id: "replay", class: "button"}, "Watch the replay"));
  buttons.append(el("a", {href: "/", id: "lobby", class: "button"}, "Back to the lobby"));
  result.replaceChildren(
    el("p", {class: "verdict"}, `Game over: ${words}${you}`),
    board, ...drawn.notes.map((note) => el("p", {class: "note-line"}, note)), buttons);
  result.hidden = false;
}

/** Ask for this seat's place in the rematch, keep its token as the lobby does, and go there. */
async function rematch(button) {
  button.disabled = true;
  try {
    const path = `/games/${encodeURIComponent(table.gameId)}/rematch`;
    const answer = await request(path, {method: "POST", token: table.token, body: {}});
    keepSeat(answer.game_id, answer.seat, answer.token, who(answer.seat));
    location.assign(`/play/${encodeURIComponent(answer.game_id)}`);
  } catch (error) {
    button.disabled = false;
    const text = error instanceof ServerError ? explain(error.detail.message ? error.detail : {message: error.message}) : String(error);
    document.dispatchEvent(new CustomEvent("avanti:say", {detail: {text, kind: "error"}}));
  }
}

document.addEventListener("avanti:render", (event) => {
  table = event.detail;
  if (table.over) endScreen();
});

document.addEventListener("avanti:message", (event) => {
  const message = event.detail;
  if (message && message.type === "rematch" && typeof message.game_id === "string") {
    rematchId = message.game_id;
    if (table && table.over) endScreen();
  }
});
