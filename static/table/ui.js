// Small DOM helpers shared by the player page and the dealer console.

import { spokenCards } from "./cards.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** Replace a node's children (only for parts that hold nothing focusable). */
export function fill(node, ...children) {
  node.replaceChildren(
    ...children.flat().filter((c) => c !== null && c !== undefined && c !== false),
  );
}

export function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

export function show(node, visible) {
  if (node) node.hidden = !visible;
}

/** Seconds left until a server-time deadline, never negative. */
export function secondsLeft(deadline, serverNow) {
  if (!deadline) return null;
  return Math.max(0, Math.ceil((deadline - serverNow) / 1000));
}

/** The connection indicator: a dot and words, with the ping round-trip in ms. */
export function renderStatus(node, { state, detail, rtt }) {
  const words = {
    connecting: "Connecting…",
    open: "Connected",
    reconnecting: "Reconnecting…",
    superseded: "Paused (open in another tab)",
    refused: "Not connected",
  }[state] || state;
  node.dataset.state = state;
  const latency = state === "open" && rtt !== null && rtt !== undefined ? ` · ${rtt} ms` : "";
  setText(node.querySelector(".conn-text") || node, words + latency);
  node.title = detail || words;
}

/** How long an announcement stays in its live region (screen readers have read it by then;
 * the region must not grow without end). */
const ANNOUNCED_MS = 20000;

/**
 * Messages: `notice` (role=alert) for refused actions and problems, `announce`
 * (aria-live=polite) for what happens at the table, `urgent` (aria-live=assertive, the page's
 * `#announce-now`) for the player's own turn and the clock running out. Notices fade after a
 * while but stay in the log.
 *
 * Announcements queue: each is a new line added to its live region (screen readers read
 * additions in order), never a rewrite of the last one, which a reader may not have reached
 * yet ("Your turn…" then "No more bets." in the same moment: both are read).
 */
export class Messages {
  constructor(noticeEl, announceEl, urgentEl = document.getElementById("announce-now")) {
    this.noticeEl = noticeEl;
    this.textEl = noticeEl.querySelector(".notice-text") || noticeEl;
    this.announceEl = announceEl;
    this.urgentEl = urgentEl || announceEl;
    this.timer = null;
    noticeEl.querySelector(".notice-close")?.addEventListener("click", () => this.clear());
  }

  clear() {
    clearTimeout(this.timer);
    this.noticeEl.hidden = true;
  }

  error(text) {
    this.notice(text, "error");
  }

  notice(text, kind = "info") {
    clearTimeout(this.timer);
    this.noticeEl.dataset.kind = kind;
    this.noticeEl.hidden = false;
    setText(this.textEl, text);
    this.timer = setTimeout(() => {
      this.noticeEl.hidden = true;
    }, 12000);
  }

  announce(text) {
    this.#add(this.announceEl, text);
  }

  /** Said at once, interrupting: the player's own turn, the clock about to run out. */
  urgent(text) {
    this.#add(this.urgentEl, text);
  }

  #add(region, text) {
    if (!region || !text) return;
    const line = document.createElement("p");
    line.textContent = spokenCards(text); // cards in words, not "black spade suit"

    region.append(line);
    setTimeout(() => line.remove(), ANNOUNCED_MS);
  }
}

/**
 * The decision clock's warnings: said once each as the player's own clock passes 10 and 5
 * seconds (WCAG 2.2.1: the player hears that time is running out, not only sees it).
 * ``key`` names the turn (round and box): a new turn warns again.
 */
export class ClockWarnings {
  constructor(messages, marks = [10, 5]) {
    this.messages = messages;
    this.marks = [...marks].sort((a, b) => a - b); // the nearest mark first
    this.said = new Set();
  }

  check(key, seconds, what) {
    if (!key || seconds === null || seconds <= 0) return;
    for (const mark of this.marks) {
      const id = `${key}:${mark}`;
      if (seconds <= mark && !this.said.has(id)) {
        // Passing both marks at once (a late page): only the nearer is said.
        for (const m of this.marks) if (m >= mark) this.said.add(`${key}:${m}`);
        this.messages.urgent(`${seconds} seconds left ${what}.`);
        return;
      }
    }
  }
}

/** A modal confirmation with a real <dialog>; resolves true on confirm. */
export function confirmDialog(dialog, message, confirmLabel = "Confirm") {
  return new Promise((resolve) => {
    dialog.querySelector(".confirm-text").textContent = message;
    const ok = dialog.querySelector(".confirm-ok");
    ok.textContent = confirmLabel;
    const done = (value) => {
      dialog.removeEventListener("close", onClose);
      ok.removeEventListener("click", onOk);
      if (dialog.open) dialog.close();
      resolve(value);
    };
    const onOk = (ev) => {
      ev.preventDefault();
      done(true);
    };
    const onClose = () => done(false);
    ok.addEventListener("click", onOk);
    dialog.addEventListener("close", onClose);
    dialog.showModal();
    dialog.querySelector(".confirm-cancel").focus();
  });
}

export function timeAgo(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
