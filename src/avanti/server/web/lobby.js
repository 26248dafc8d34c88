// The lobby: find a table and take a seat by name, or create one (seats for people, bots or
// left open), hand out an invite link, fill the open seats with bots and start.
import {el, explain, request, ServerError} from "/static/common.js";
import {keepSeat, rememberName, rememberedName, storedSeat} from "/static/seats.js";

function age(seconds) {
  const gone = Math.max(0, Date.now() / 1000 - seconds);
  if (gone < 60) return "just now";
  if (gone < 3600) return `${Math.floor(gone / 60)} min ago`;
  return `${Math.floor(gone / 3600)} h ago`;
}

function titleOf(name) {
  return (catalog.games.find((g) => g.name === name) || {title: name}).title;
}

/** Take the next open seat of a table as `name`, keep its token, open the table. */
async function takeSeat(gameId, name, problem) {
  problem.hidden = true;
  try {
    const taken = await request(`/games/${encodeURIComponent(gameId)}/seats`,
      {method: "POST", body: {name}});
    rememberName(name);
    keepSeat(gameId, taken.seat, taken.token, name);
    location.assign(`/play/${encodeURIComponent(gameId)}`);
  } catch (error) {
    problem.textContent = error instanceof ServerError ? explain(error.detail) : String(error);
    problem.hidden = false;
  }
}

/** A small form: a name and a "Take a seat" button for one table. */
function seatForm(gameId, label) {
  const id = `sit-${gameId}`;
  const name = el("input", {id, name: "name", required: true, maxlength: 40,
    value: rememberedName(), placeholder: "your name", class: "sit-name"});
  const problem = el("span", {class: "error", role: "alert", hidden: true});
  const form = el("form", {class: "sit row", "data-table": gameId, autocomplete: "off"},
    el("label", {for: id, class: "sr-only"}, `Your name at ${label}`), name,
    el("button", {type: "submit", class: "take"}, "Take a seat"), problem);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    takeSeat(gameId, name.value.trim(), problem);
  });
  return form;
}

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
      value: names[seat] || game.default_players[seat] || `Seat ${seat + 1}`,
    });
    const kind = el("select", {id: `player-${seat}`, name: `player-${seat}`, class: "kind"},
      el("option", {value: ""}, "a person"),
      el("option", {value: "open"}, "open: whoever sits down"),
      ...catalog.bots.map((bot) => el("option", {value: bot}, `a ${bot} bot`)));
    kind.value = kinds[seat] !== undefined ? kinds[seat] : "";
    kind.addEventListener("change", () => { name.disabled = kind.value === "open"; });
    name.disabled = kind.value === "open";
    const row = el("div", {class: "seat row"},
      el("label", {for: `name-${seat}`}, `Seat ${seat + 1}`), name,
      el("label", {for: `player-${seat}`, class: "sr-only"}, `Seat ${seat + 1} is played by`), kind);
    if (game.sides && game.sides.length) {  // each player backs a side
      const side = el("select", {id: `side-${seat}`, name: `side-${seat}`, class: "side"},
        ...game.sides.map((name) => el("option", {value: name}, `backs the ${name}`)));
      side.value = sides[seat] || game.sides[seat % game.sides.length];
      row.append(el("label", {for: `side-${seat}`, class: "sr-only"}, `Seat ${seat + 1}'s side`), side);
    }
    seats.append(row);
  }
}

function showLinks(reply) {
  const links = document.getElementById("links");
  links.replaceChildren();
  const mine = reply.seats.find((seat) => seat.token);
  const opened = document.getElementById("opened");
  opened.hidden = !reply.open;
  if (reply.open && mine) {  // the creator sits at the first seat they named
    keepSeat(reply.id, mine.seat, mine.token, mine.name);
    rememberName(mine.name);
    const invite = new URL(reply.invite, location.href).href;
    const link = document.getElementById("invite");
    link.href = invite;
    link.textContent = invite;
    document.getElementById("mine").href = `/play/${encodeURIComponent(reply.id)}`;
    document.getElementById("start").onclick = () => startTable(reply.id, mine.token);
  }
  for (const seat of reply.seats) {
    if (seat.open) {
      links.append(el("li", {"data-seat": seat.seat},
        el("span", {class: "who"}, `Seat ${seat.seat + 1}: `), "open, for whoever takes it"));
    } else if (seat.token) {
      const href = `/play/${encodeURIComponent(reply.id)}#${encodeURIComponent(seat.token)}`;
      links.append(el("li", {"data-seat": seat.seat},
        el("span", {class: "who"}, `${seat.name} (seat ${seat.seat + 1}): `),
        el("a", {href, class: "join", target: "_blank", rel: "noopener noreferrer"}, "join")));
    } else {
      links.append(el("li", {"data-seat": seat.seat},
        el("span", {class: "who"}, `${seat.name} (seat ${seat.seat + 1}): `), `a ${seat.bot} bot`));
    }
  }
  const watch = document.getElementById("watch");
  watch.href = `/play/${encodeURIComponent(reply.id)}`;
  const created = document.getElementById("created");
  created.hidden = false;
  // the panel comes below the form, often below the fold: show it and move the focus there,
  // or "Create the game" seems to do nothing
  created.focus({preventScroll: true});
  created.scrollIntoView({block: "start"});
}

async function startTable(gameId, token) {
  const problem = document.getElementById("start-error");
  problem.hidden = true;
  try {
    const bot = document.getElementById("start-bot").value;
    await request(`/games/${encodeURIComponent(gameId)}/start`, {method: "POST", token, body: {bot}});
    location.assign(`/play/${encodeURIComponent(gameId)}`);
  } catch (error) {
    problem.textContent = error instanceof ServerError ? explain(error.detail) : String(error);
    problem.hidden = false;
  }
}

/** The words of one lobby entry: what players care about, never an event count. */
export function describe(game) {
  if (game.state === "open") {
    const options = game.options ? ", rule options set" : "";
    const clock = game.seconds_per_move ? `, ${game.seconds_per_move} s a move` : "";
    return `${game.taken} of ${game.seats} seats taken${options}${clock}, ${age(game.created)}`;
  }
  if (game.state === "finished") {
    const winners = game.winners || [];
    return winners.length ? `finished: ${winners.join(" and ")} won` : "finished: a draw";  // no side won
  }
  const turn = game.turn && game.turn.length ? `${game.turn.join(" and ")} to move` : "in play";
  return game.round ? `${turn}, round ${game.round}` : turn;
}

/** A waiting table this browser already sits at (its seat kept by seats.js): no seat to take
 * (the server would refuse a second one), but how many it waits for and its invite link. */
function yourTable(game) {
  const open = game.seats - game.taken;
  const invite = new URL(`/?join=${encodeURIComponent(game.id)}`, location.href).href;
  return el("span", {class: "yours", "data-table": game.id},
    `your table \u2014 waiting for ${open} more player${open === 1 ? "" : "s"}: `,
    el("a", {href: invite, class: "invite-link"}, "invite link"), " \u00b7 ",
    el("a", {href: `/play/${encodeURIComponent(game.id)}`, class: "your-seat"}, "open your seat"));
}

/** Seat numbers for people, from 1: "seats 2 and 3". */
function seatList(seats) {
  const words = seats.map((seat) => String(seat + 1));
  const listed = words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
  return `${words.length === 1 ? "seat" : "seats"} ${listed}`;
}

async function listGames() {
  const lists = {
    open: document.getElementById("open-tables"),
    playing: document.getElementById("games"),
    finished: document.getElementById("finished"),
  };
  try {
    const {games} = await request("/games?limit=30");
    for (const list of Object.values(lists)) list.replaceChildren();
    for (const game of games) {
      const title = titleOf(game.game);
      const players = game.players.map((name) => name === null ? "(open)" : name).join(", ");
      const item = el("li", {"data-game": game.id, "data-state": game.state},
        el("a", {href: `/play/${encodeURIComponent(game.id)}`}, `${title}: ${players}`),
        el("span", {class: "state"}, ` (${describe(game)})`));
      if (game.state === "open") item.append(storedSeat(game.id) ? yourTable(game) : seatForm(game.id, title));
      if (game.state === "finished") item.append(el("a", {href: `/replay/${encodeURIComponent(game.id)}`, class: "replay"}, "Watch the replay"));
      (lists[game.state] || lists.playing).append(item);
    }
    for (const [state, list] of Object.entries(lists)) {
      if (!list.children.length) {
        list.append(el("li", {class: "muted"}, state === "open" ? "no table waits for players" : "none yet"));
      }
    }
  } catch (error) {
    lists.playing.replaceChildren(el("li", {class: "error"}, `The games could not be listed: ${error.message}`));
  }
}

/** `/?join={id}`: the invited person types a name and takes the table's next open seat. */
async function showInvite() {
  const gameId = new URLSearchParams(location.search).get("join");
  if (!gameId) return;
  const panel = document.getElementById("join");
  try {
    const table = await request(`/games/${encodeURIComponent(gameId)}`);
    const title = titleOf(table.game);
    if (table.state !== "open") {
      panel.append(el("p", {}, `That ${title} table has started: `,
        el("a", {href: `/play/${encodeURIComponent(gameId)}`}, "watch it")));
    } else {
      const players = Array.isArray(table.players) ? table.players : [];
      const host = typeof table.host === "number" ? players[table.host] : null;
      const sitting = players.map((name, seat) => [name, seat]).filter(([name]) => name !== null)
        .map(([name, seat]) => `${name} (seat ${seat + 1})`);
      const open = players.map((name, seat) => [name, seat]).filter(([name]) => name === null).map(([, seat]) => seat);
      panel.append(
        el("h2", {id: "join-heading"}, host ? `${host} invites you to a table of ${title}` : `A table of ${title} has a seat for you`),
        el("p", {class: "sitting"}, `Sitting: ${sitting.join(", ") || "nobody yet"}. Open: ${seatList(open)}.`),
        storedSeat(gameId)
          ? el("p", {}, "You sit at this table already: ", el("a", {href: `/play/${encodeURIComponent(gameId)}`}, "open your seat"),
            ", and send this page's address to whoever should take the next seat.")
          : el("p", {class: "muted"}, `${describe(table)}. Type your name and take the next open seat.`));
      if (!storedSeat(gameId)) panel.append(seatForm(gameId, title));
    }
  } catch (error) {
    panel.append(el("p", {class: "error"}, `That table cannot be joined: ${error.message}`));
  }
  panel.hidden = false;
  const input = panel.querySelector("input");
  if (input) input.focus();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  problem.hidden = true;
  const count = Number(countSelect.value);
  const players = [];
  const bots = {};
  for (let seat = 0; seat < count; seat++) {
    const kind = document.getElementById(`player-${seat}`).value;
    players.push(kind === "open" ? null : document.getElementById(`name-${seat}`).value.trim());
    if (kind && kind !== "open") bots[String(seat)] = kind;
  }
  const body = {game: gameSelect.value, players, bots};
  const clock = document.getElementById("clock-seconds").value;
  if (clock) body.seconds_per_move = Number(clock);
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
  for (const bot of catalog.bots) document.getElementById("start-bot").append(el("option", {value: bot}, `${bot} bots`));
  await showInvite();
  document.body.dataset.ready = "true";
  listGames();
}

start();
