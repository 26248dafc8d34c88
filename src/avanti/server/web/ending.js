// The end of a game: the standings as the server sends them (every total broken down into its
// parts with their rules, and the rule that broke a tie: the game's presentation says all of
// it, so this script knows no game), a rematch for a seat and the way back to the lobby.
//
// It needs only public facts: the standings and the outcome, as the page's core tells them in
// its "avanti:render" event; a rematch the server announces arrives as an "avanti:message".
import {el, explain, request, ServerError} from "/static/common.js";
import {keepSeat} from "/static/seats.js";

const result = document.getElementById("result");

let table = null;     // what the core last told: see play.js's render()
let rematchId = null; // the rematch game's id, once the server told of one
let shown = null;     // the words of the end screen drawn, so it is drawn once

function who(seat) {
  return table.names[seat] !== undefined ? table.names[seat] : `seat ${seat + 1}`;
}

/** A total's parts, one a line: what it is, what it adds, the rule it follows. Folded on a
 * phone's narrow screen, so that the whole end screen fits there; a tap unfolds it. */
function adding(parts) {
  const wide = window.matchMedia("(min-width: 761px)").matches;
  return el("details", {class: "parts", open: wide},
    el("summary", {}, parts.length === 1 ? "1 part" : `${parts.length} parts`),
    el("ul", {}, ...parts.map((part) => el("li", {},
      `${part.words}: ${part.shown}`, part.rule ? el("span", {class: "rule"}, ` ${part.rule}`) : ""))));
}

/** The standings, best first: the order of seats, the head of the table, its rows of cells and
 * the notes under it, all from the server's standings (the winners alone before they came). */
function standings() {
  const sent = table.standings;
  if (sent && Array.isArray(sent.seats)) {
    const what = sent.total ? `${sent.total[0].toUpperCase()}${sent.total.slice(1)}` : "Total";
    return {
      order: sent.seats.map((standing) => standing.seat),
      head: ["Player", what, "How it adds up"],
      rows: sent.seats.map((standing) => [
        who(standing.seat), standing.shown, adding(standing.parts)]),
      places: sent.seats.map((standing) => standing.place),
      notes: sent.decided ? [sent.decided] : [],
    };
  }
  const seats = table.names.map((_, seat) => seat);
  const winners = table.outcome.winners;
  const order = [...winners, ...seats.filter((seat) => !winners.includes(seat))];
  return {order, head: ["Player"], rows: order.map((seat) => [who(seat)]),
    places: order.map((seat) => (winners.includes(seat) ? 1 : winners.length + 1)), notes: []};
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
    el("th", {scope: "row"}, `${drawn.places[index]}. ${cells[0]}`), ...cells.slice(1).map((cell) => el("td", {}, cell))));
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
