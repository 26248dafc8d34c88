// The seats this browser holds, shared by the lobby and the table page: each is kept in
// localStorage["avanti.seat." + id] as {token, seat, name}, never in an address, so a table
// opened later at /play/{id} finds its seat, and the lobby knows the tables it sits at.
// localStorage may be refused (a private window, a setting): nothing is then remembered.

const PREFIX = "avanti.seat.";
const NAME = "avanti.name";

/** A stored text (the fallback when there is none, or storage is refused). */
export function stored(key, fallback = null) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : text;
  } catch {
    return fallback;
  }
}

/** Keep a text (not remembered when storage is refused). */
export function store(key, text) {
  try { localStorage.setItem(key, text); } catch { /* not remembered */ }
}

/** The storage key of a table's seat. */
export function seatKey(gameId) {
  return `${PREFIX}${gameId}`;
}

/** A table's seat in this browser: {token, seat, name}, or null. */
export function storedSeat(gameId) {
  try {
    const entry = JSON.parse(stored(seatKey(gameId), "null"));
    return entry && typeof entry.token === "string" && entry.token ? entry : null;
  } catch {
    return null;
  }
}

/** Keep a table's seat where the table page and the lobby find it. */
export function keepSeat(gameId, seat, token, name) {
  store(seatKey(gameId), JSON.stringify({token, seat, name}));
}

/** The name this browser last sat down with ("" if none). */
export function rememberedName() {
  return stored(NAME, "");
}

export function rememberName(name) {
  store(NAME, name);
}
