// The table's chat: messages arrive as "avanti:message" events from the table page's socket and
// are sent as "avanti:send" events. Every text is set as text (textContent), never as markup.
// A seat may mute the chat; the choice is kept in this browser (localStorage).
import {el} from "/static/common.js";

const MUTED = "avanti.chat.muted";
const MOST = 500;

function build(box) {
  const list = el("ol", {id: "chat-messages", class: "chat-messages", "aria-live": "polite"});
  const mute = el("input", {type: "checkbox", id: "chat-mute"});
  const input = el("input", {id: "chat-text", name: "text", maxlength: MOST, autocomplete: "off",
    placeholder: "say something", spellcheck: "true"});
  const problem = el("p", {id: "chat-error", class: "error", role: "alert", hidden: true});
  const form = el("form", {id: "chat-form", class: "say chat-form", autocomplete: "off", hidden: true},
    el("label", {for: "chat-text", class: "sr-only"}, "Chat message"), input,
    el("button", {type: "submit"}, "Say"));
  const note = el("p", {id: "chat-note", class: "muted", hidden: true}, "Spectators read the chat; seats write in it.");
  const muted = el("p", {id: "chat-muted", class: "muted", hidden: true}, "The chat is muted.");
  box.replaceChildren(
    el("h2", {}, "Chat"),
    el("div", {class: "row"}, mute, el("label", {for: "chat-mute"}, "Mute the chat")),
    muted, list, form, note, problem);
  return {list, mute, input, form, note, problem, muted};
}

function start() {
  const box = document.getElementById("chat");
  if (!box) return;
  document.head.append(el("link", {rel: "stylesheet", href: "/static/table.css"}));
  const parts = build(box);
  const seen = new Set();
  let pending = false;

  function applyMute() {
    const on = localStorage.getItem(MUTED) === "true";
    parts.mute.checked = on;
    parts.list.hidden = on;
    parts.muted.hidden = !on;
    box.dataset.muted = String(on);
  }
  parts.mute.addEventListener("change", () => {
    localStorage.setItem(MUTED, String(parts.mute.checked));
    applyMute();
  });
  applyMute();

  function show(message) {
    if (seen.has(message.id)) return;
    seen.add(message.id);
    const who = message.system ? "" : `${message.name === null ? "?" : message.name}: `;
    const item = el("li", {"data-id": message.id, class: message.system ? "system" : ""},
      el("span", {class: "who"}, who), el("span", {class: "text"}, message.text));
    parts.list.append(item);
    parts.list.scrollTop = parts.list.scrollHeight;
  }

  document.addEventListener("avanti:seated", (event) => {
    const seated = event.detail.seat !== null && event.detail.seat !== undefined;
    parts.form.hidden = !seated;
    parts.note.hidden = seated;
  });
  document.addEventListener("avanti:message", (event) => {
    const message = event.detail;
    if (message && message.type === "chat" && Array.isArray(message.messages)) {
      for (const one of message.messages) show(one);
      if (pending) { pending = false; parts.problem.hidden = true; }
    } else if (message && message.type === "error" && pending && message.error &&
      ["rate-limited", "invalid-request", "conflict"].includes(message.error.kind)) {
      pending = false;
      parts.problem.textContent = message.error.message;
      parts.problem.hidden = false;
    }
  });
  parts.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = parts.input.value;
    if (!text.trim()) return;
    pending = true;
    document.dispatchEvent(new CustomEvent("avanti:send", {detail: {type: "chat", text}}));
    parts.input.value = "";
  });
  box.dataset.ready = "true";
}

start();
