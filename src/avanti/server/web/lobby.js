// The lobby: create a game with bots in some seats, hand out a join link per seat.
import {el, explain, request, ServerError} from "/static/common.js";

const form = document.getElementById("create");
const gameSelect = document.getElementById("game");
const countSelect = document.getElementById("count");
const seats = document.getElementById("seats");
const problem = document.getElementById("create-error");
let catalog = {games: [], bots: []};

function current() {
  return catalog.games.find((game) => game.name === gameSelect.value);
}

function fillCounts() {
  const game = current();
  const previous = Number(countSelect.value) || 3;
  countSelect.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) {
    countSelect.append(el("option", {value: n}, n));
  }
  countSelect.value = String(Math.min(Math.max(previous, game.min_players), game.max_players));
  fillSeats();
}

function fillSeats() {
  const game = current();
  const count = Number(countSelect.value);
  const names = [...seats.querySelectorAll("input")].map((input) => input.value);
  const kinds = [...seats.querySelectorAll("select.kind")].map((select) => select.value);
  const sides = [...seats.querySelectorAll("select.side")].map((select) => select.value);
  seats.querySelectorAll(".seat").forEach((row) => row.remove());
  for (let seat = 0; seat < count; seat++) {
    const name = el("input", {
      id: `name-${seat}`, name: `name-${seat}`, required: true, maxlength: 40,
      value: names[seat] || game.default_players[seat] || `Seat ${seat}`,
    });
    const kind = el("select", {id: `player-${seat}`, name: `player-${seat}`, class: "kind"},
      el("option", {value: ""}, "a person"),
      ...catalog.bots.map((bot) => el("option", {value: bot}, `a ${bot} bot`)));
    kind.value = kinds[seat] !== undefined ? kinds[seat] : "";
    const row = el("div", {class: "seat row"},
      el("label", {for: `name-${seat}`}, `Seat ${seat}`), name,
      el("label", {for: `player-${seat}`, class: "sr-only"}, `Seat ${seat} is played by`), kind);
    if (game.sides && game.sides.length) {  // M2: each player backs a side
      const side = el("select", {id: `side-${seat}`, name: `side-${seat}`, class: "side"},
        ...game.sides.map((name) => el("option", {value: name}, `backs the ${name}`)));
      side.value = sides[seat] || game.sides[seat % game.sides.length];
      row.append(el("label", {for: `side-${seat}`, class: "sr-only"}, `Seat ${seat}'s side`), side);
    }
    seats.append(row);
  }
}

function showLinks(reply) {
  const links = document.getElementById("links");
  links.replaceChildren();
  for (const seat of reply.seats) {
    if (seat.token) {
      const href = `/play/${encodeURIComponent(reply.id)}#${encodeURIComponent(seat.token)}`;
      links.append(el("li", {"data-seat": seat.seat},
        el("span", {class: "who"}, `${seat.name} (seat ${seat.seat}): `),
        el("a", {href, class: "join", target: "_blank", rel: "noopener noreferrer"}, "join")));
    } else {
      links.append(el("li", {"data-seat": seat.seat},
        el("span", {class: "who"}, `${seat.name} (seat ${seat.seat}): `), `a ${seat.bot} bot`));
    }
  }
  const watch = document.getElementById("watch");
  watch.href = `/play/${encodeURIComponent(reply.id)}`;
  document.getElementById("created").hidden = false;
}

async function listGames() {
  const list = document.getElementById("games");
  try {
    const {games} = await request("/games?limit=20");
    list.replaceChildren();
    if (games.length === 0) list.append(el("li", {class: "muted"}, "none yet"));
    for (const game of games) {
      const title = (catalog.games.find((g) => g.name === game.game) || {title: game.game}).title;
      const state = game.over ? "over" : `${game.version} events`;
      list.append(el("li", {},
        el("a", {href: `/play/${encodeURIComponent(game.id)}`}, `${title}: ${game.players.join(", ")}`),
        ` (${state})`));
    }
  } catch (error) {
    list.replaceChildren(el("li", {class: "error"}, `The games could not be listed: ${error.message}`));
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  problem.hidden = true;
  const count = Number(countSelect.value);
  const players = [];
  const bots = {};
  for (let seat = 0; seat < count; seat++) {
    players.push(document.getElementById(`name-${seat}`).value.trim());
    const kind = document.getElementById(`player-${seat}`).value;
    if (kind) bots[String(seat)] = kind;
  }
  const body = {game: gameSelect.value, players, bots};
  const sides = [...seats.querySelectorAll("select.side")].map((select) => select.value);
  if (sides.length === count) body.sides = sides;
  const text = document.getElementById("options").value.trim();
  if (text) {
    try {
      body.options = JSON.parse(text);
    } catch (error) {
      problem.textContent = `The options are not JSON: ${error.message}`;
      problem.hidden = false;
      return;
    }
  }
  try {
    showLinks(await request("/games", {method: "POST", body}));
    listGames();
  } catch (error) {
    problem.textContent = error instanceof ServerError ? explain(error.detail) : String(error);
    problem.hidden = false;
  }
});

async function start() {
  catalog = await request("/catalog");
  for (const game of catalog.games) gameSelect.append(el("option", {value: game.name}, game.title));
  gameSelect.addEventListener("change", () => {
    seats.querySelectorAll(".seat").forEach((row) => row.remove());  // the new game's names
    fillCounts();
  });
  countSelect.addEventListener("change", fillSeats);
  fillCounts();
  document.body.dataset.ready = "true";
  listGames();
}

start();
