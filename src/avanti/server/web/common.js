// Helpers shared by the lobby and the table page.

/** Make an element: el("li", {class: "x"}, "text", child). Text is always set as text. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An error the server answered with: {"error": {"kind", "message", ...}}. */
export class ServerError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : `the server answered ${status}`);
    this.status = status;
    this.kind = error && error.kind ? error.kind : "unknown";
    this.detail = error || {};
  }
}

/** Fetch JSON from this server; a ServerError for an error answer. */
export async function request(path, {method = "GET", token = null, body = undefined} = {}) {
  const headers = {"Accept": "application/json"};
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const reply = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store", referrerPolicy: "no-referrer",
  });
  let data = null;
  try { data = await reply.json(); } catch { data = null; }
  if (!reply.ok) throw new ServerError(reply.status, data && data.error);
  return data;
}

/** An error's words for a person, with the rule it names if any. */
export function explain(error) {
  const rule = error.rule ? ` (rule ${error.rule})` : "";
  return `${error.message}${rule}`;
}

/** An amount of money in words, written as the game writes it (the catalog's `money`: a
 * prefix, then the amount times the scale). "?" when the amount is not known. */
export function money(amount, unit = {prefix: "", scale: 1}) {
  if (typeof amount !== "number") return "?";
  const sign = amount < 0 ? "-" : "";
  return `${sign}${unit.prefix}${(Math.abs(amount) * unit.scale).toLocaleString("en-US")}`;
}
