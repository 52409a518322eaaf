// The websocket protocol of docs/protocol.md, for the player page and the dealer console.
//
// - one socket, reconnected with exponential backoff (and jitter) when it drops;
// - version tracking: a public "events" frame with version > last + 1 means frames were
//   missed, so the client asks for a snapshot and ignores frames until it arrives; a private
//   frame carries the version of the public frame that follows it and does not advance it;
// - ping every 15 s, round-trip time reported to the page;
// - every command gets a ref (to match its reply) and an idempotency key
//   (crypto.randomUUID()), so a command re-sent after a reconnect is applied at most once.

/** Refusals of player protection the bar answers (table/protection/guard.py). */
const PROTECTION_CODES = new Set(["reality_check", "session_idle", "session_ended"]);

const PING_EVERY_MS = 15000;
const REPLY_TIMEOUT_MS = 15000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 15000;
// Safety net while the table waits on the house (see watchStalls).
const STALL_FIRST_MS = 2000;
const STALL_MAX_MS = 15000;
// Close codes after which reconnecting would not help (docs/protocol.md).
const FINAL_CLOSES = {
  4403: "You may not open this connection (dealers only).",
  4404: "There is no such table.",
  4409: "This table was opened in another tab or window; this one is paused.",
};

export function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // Pages served over plain http from a non-local host are not a secure context.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

export class CommandError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class TableConnection {
  /**
   * @param {string} path  e.g. "/ws/tables/1/" or "/ws/tables/1/dealer/"
   * @param {object} handlers  onSnapshot(snap), onEvents(frame, {private}), onStatus(status),
   *                           onNotice(code, message) for errors no command asked for.
   */
  constructor(path, handlers) {
    this.url = socketUrl(path);
    this.h = handlers;
    this.version = null; // the last public version applied
    this.resyncing = false;
    this.ws = null;
    this.refSeq = 0;
    this.pending = new Map(); // ref -> {frame, resolve, reject, timer}
    this.attempt = 0;
    this.rtt = null;
    this.offset = 0; // server clock minus client clock, ms
    this.state = "connecting";
    this.stopped = false;
    this.pingTimer = null;
    this.retryTimer = null;
    this.lastHeard = 0; // client ms of the last snapshot or events frame
    this.stallDelay = STALL_FIRST_MS;
  }

  /**
   * Safety net: while `isWaiting()` says the next step is the house's (the dealer's or the
   * automatic dealer's clock) and nothing has arrived for a while, ask for a snapshot, backing
   * off from 2 s to 15 s. Events from a process that shares no channel layer with this server
   * (an automatic dealer without Redis) are then still seen, a little late.
   */
  watchStalls(isWaiting) {
    clearInterval(this.stallTimer);
    this.stallTimer = setInterval(() => {
      if (this.state !== "open" || this.resyncing || this.version === null) return;
      if (!isWaiting()) {
        this.stallDelay = STALL_FIRST_MS;
        return;
      }
      if (Date.now() - this.lastHeard < this.stallDelay) return;
      this.stallDelay = Math.min(STALL_MAX_MS, this.stallDelay * 2);
      this.lastHeard = Date.now();
      this.requestSnapshot();
    }, 500);
  }

  /** Server time now, in epoch ms (deadlines in frames are server times). */
  now() {
    return Date.now() + this.offset;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.status("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.closingWords = null; // a closing frame of this socket, if one comes
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.resyncing = true; // the server sends a snapshot on connect
      this.status("open");
      this.ping();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
      // Commands that never got an answer go again with the same key: applied at most once.
      for (const p of this.pending.values()) ws.send(JSON.stringify(p.frame));
    });
    ws.addEventListener("message", (msg) => this.receive(msg.data));
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (FINAL_CLOSES[ev.code]) {
        this.stopped = true;
        // A refused handshake says why in the closing frame before the close (bad_origin,
        // no_such_table, forbidden: docs/protocol.md); the code's words otherwise.
        const said = this.closingWords;
        const words = said ? `${said.charAt(0).toUpperCase()}${said.slice(1)}.` : FINAL_CLOSES[ev.code];
        this.status(ev.code === 4409 ? "superseded" : "refused", words);
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(new CommandError("disconnected", words));
        }
        this.pending.clear();
        return;
      }
      if (!this.stopped) this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    this.attempt += 1;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.attempt - 1));
    const delay = Math.round(base / 2 + Math.random() * (base / 2));
    this.status("reconnecting", `Connection lost; trying again in ${Math.ceil(delay / 1000)} s`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  close() {
    this.stopped = true;
    clearInterval(this.stallTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close(1000);
  }

  status(state, detail = "") {
    this.state = state;
    this.h.onStatus?.({ state, detail, rtt: this.rtt, attempt: this.attempt });
  }

  ping() {
    this.raw({ cmd: "ping", t: Date.now() });
  }

  raw(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  requestSnapshot() {
    if (this.resyncing) return;
    this.resyncing = true;
    if (!this.raw({ cmd: "snapshot" })) this.resyncing = false;
  }

  /**
   * Send a command; resolves with the `ok` reply's result, rejects with a CommandError
   * carrying the error frame's code and message.
   * @param {boolean} withVersion  send the last version seen: the command is refused with
   *   `stale_version` if the table has moved on (used where the action depends on what the
   *   user was looking at).
   */
  send(cmd, fields = {}, { withVersion = false } = {}) {
    const ref = `c${++this.refSeq}`;
    const frame = { cmd, ref, key: newKey(), ...fields };
    if (withVersion && this.version !== null) frame.version = this.version;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(ref);
        reject(new CommandError("timeout", "No answer from the table. Check your connection."));
      }, REPLY_TIMEOUT_MS);
      this.pending.set(ref, { frame, resolve, reject, timer });
      if (!this.raw(frame) && this.stopped) {
        clearTimeout(timer);
        this.pending.delete(ref);
        reject(new CommandError("disconnected", "Not connected to the table."));
      }
    });
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    switch (frame.type) {
      case "snapshot":
        this.resyncing = false;
        this.lastHeard = Date.now();
        if (frame.version !== this.version) this.stallDelay = STALL_FIRST_MS;
        this.version = frame.version;
        if (typeof frame.now === "number") this.offset = frame.now - Date.now();
        this.h.onSnapshot?.(frame);
        break;
      case "events":
        this.events(frame);
        break;
      case "presence":
        // A player came or went: outside the version sequence (not a table change).
        if (this.version !== null && !this.resyncing) this.h.onEvents?.(frame, { private: false });
        break;
      case "view":
        // Protocol v2 (a felt drawn from views): the round as this socket may see it, when
        // it did not ride in its version's events frame (a view built for this socket
        // alone); a snapshot on its way brings the round too.
        if (this.version !== null && !this.resyncing) this.h.onView?.(frame);
        break;
      case "meter":
        // A linked progressive meter changed (outside the table's versions).
        this.h.onMeter?.(frame);
        break;
      case "meters":
        // Several linked meters moved within one display interval: each as its own frame.
        for (const meter of frame.meters || []) this.h.onMeter?.(meter);
        break;
      case "pong":
        if (typeof frame.t === "number") {
          const now = Date.now();
          this.rtt = now - frame.t;
          if (typeof frame.server === "number") this.offset = frame.server - (frame.t + now) / 2;
          this.status(this.state);
        }
        break;
      case "ok":
      case "error": {
        const p = frame.ref ? this.pending.get(frame.ref) : null;
        if (p) {
          clearTimeout(p.timer);
          this.pending.delete(frame.ref);
          if (frame.type === "ok") p.resolve(frame);
          else p.reject(new CommandError(frame.code, frame.message));
        } else if (frame.type === "error") {
          this.h.onNotice?.(frame.code, frame.message);
        }
        if (frame.type === "error" && frame.code === "stale_version") this.requestSnapshot();
        // Player protection refused it (a reality check waits, the session is idle): the
        // bar's dialogs look again at once (static/table/protection.js).
        if (frame.type === "error" && PROTECTION_CODES.has(frame.code)) {
          window.dispatchEvent(new Event("protection:refresh"));
        }
        break;
      }
      case "superseded":
      case "closing":
        this.closingWords = frame.message;
        this.h.onNotice?.(frame.code, frame.message);
        break;
      default:
        break;
    }
  }

  events(frame) {
    if (this.version === null || this.resyncing) return; // a snapshot is on its way
    const isPrivate = frame.private === true;
    if (frame.version <= this.version) return; // already in the snapshot we hold
    if (frame.version > this.version + 1) {
      this.requestSnapshot(); // we missed something
      return;
    }
    // version === last + 1: a private frame comes first and does not advance the version.
    if (!isPrivate) this.version = frame.version;
    this.lastHeard = Date.now();
    this.stallDelay = STALL_FIRST_MS;
    // A balance comes with the player's figures since login (§814a.1(e)(1)-(2)): the player
    // bar shows them at once (static/table/protection.js), on whatever page holds this socket.
    for (const ev of frame.events || []) {
      if (ev.kind === "balance" && ev.data && ev.data.since_login) {
        window.dispatchEvent(new CustomEvent("protection:since-login", { detail: ev.data.since_login }));
      }
    }
    this.h.onEvents?.(frame, { private: isPrivate });
    // The round view of this version most often rides in its public frame (one message in
    // place of two): taken after the frame's events, as a view frame that came alone.
    if (!isPrivate && frame.view) this.h.onView?.(frame.view);
  }
}
