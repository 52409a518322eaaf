// The dealer console's page: who deals, the table's controls and drills, the shoe and the
// round log. The round itself (the phase and its one next action, every box, the dealer's
// cards, the voids) is the game's console module's, drawn from the round view as the dealer
// sees it (console_generic.js unless the game names its own, FeltParts.console_module). The
// console gets public events only: it never sees a card before the table does.

import { setupFourColour, speakable } from "./cards.js";
import { TableConnection } from "./protocol.js";
import { applyEvent, phaseName, TABLE_EVENTS, waitingOnHouse } from "./state.js";
import { $, confirmDialog, fill, h, Messages, renderStatus, setText, show, timeAgo } from "./ui.js";
import { describeEvent, errorText, FAULT_NAMES, logTime } from "./words.js";

const root = $("#console");
const tableId = Number(root.dataset.tableId);
const messages = new Messages($("#notice"), $("#announce"));
const LOG_LIMIT = 200;
// The shoe panel only comes with a snapshot: ask for one after these.
const SHOE_EVENTS = new Set([
  "round_opened",
  "cards_dealt",
  "round_settled",
  "round_void",
  "shoe_fault_armed",
  "decks_changed",
  "deck_removed",
  "stub_counted",
  "table_opened",
  "table_closed",
  "dealing",
]);

let S = null;
let busy = false;
let snapshotAt = 0; // client ms when the snapshot arrived
// The game's console module: it draws the round part from the round view.
let gameConsole = null;
let gameConsoleLoading = false;
let viewVersion = 0;
// The round log as the players' logs have it (issue 28: the console's stayed empty while theirs
// were full): on its first snapshot the console fills it with the table's recent events, up to
// that snapshot's version (the live frames after it log themselves), once its words are loaded.
let backlogFrom = null; // the first snapshot's version, until the backlog is asked for
let backlogAsked = false;

function fillBacklog() {
  if (backlogAsked || backlogFrom === null) return;
  if (!gameConsole) return; // its words first
  backlogAsked = true;
  fetch(`/tables/${tableId}/dealer/log.json?upto=${backlogFrom}`, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : { events: [] }))
    .then(({ events }) => {
      // Newest first, each below the lines already there (they are newer still).
      for (const ev of [...events].reverse()) {
        try {
          log(ev.kind, ev.data, new Date(ev.created), true);
        } catch {
          /* an event of the game's own shape: the view shows what it did */
        }
      }
    })
    .catch(() => {}); // the live lines still come: an older line missing is no fault
}

function loadGameConsole(snap) {
  if (gameConsole || gameConsoleLoading) return;
  gameConsoleLoading = true;
  const named = snap.table.felt?.console_module;
  const file = /^[a-z0-9_]+\.js$/.test(named || "") ? named : "console_generic.js";
  import(`./${file}`)
    .then((module) => {
      gameConsole = module.install({
        $,
        autodealerDeals,
        command: async (cmd, fields, { confirm } = {}) => {
          if (confirm && !(await confirmDialog($("#confirm"), confirm, "Void the round"))) return null;
          return command(cmd, fields, { withVersion: true });
        },
      });
      fillBacklog();
      render();
    })
    .catch((err) => messages.error(`This game's console could not be loaded: ${err.message}`));
}

const conn = new TableConnection(`/ws/tables/${tableId}/dealer/`, {
  onSnapshot(snap) {
    S = snap;
    snapshotAt = Date.now();
    viewVersion = snap.version;
    loadGameConsole(snap);
    if (backlogFrom === null) backlogFrom = snap.version;
    fillBacklog();
    render();
  },
  onView(frame) {
    // Protocol v2: the round as the dealer sees it, with the dealer's moves.
    if (!S || frame.version < viewVersion) return;
    viewVersion = frame.version;
    S.round = frame.round;
    render();
  },
  onEvents(frame) {
    if (!S) return;
    let resync = false;
    for (const ev of frame.events) {
      // The round comes whole in the next view: only the table's events apply.
      if (TABLE_EVENTS.has(ev.kind)) applyEvent(S, ev.kind, ev.data);
      resync = SHOE_EVENTS.has(ev.kind) || resync;
      try {
        log(ev.kind, ev.data);
      } catch {
        /* an event of the game's own shape: the view shows what it did */
      }
    }
    render();
    if (resync) conn.requestSnapshot();
  },
  onStatus(status) {
    renderStatus($("#conn"), status);
    show($("#superseded"), status.state === "superseded");
  },
  onNotice(code, message) {
    if (code !== "second_connection") messages.error(errorText({ code, message })); // the banner says it
  },
});

// --- commands -------------------------------------------------------------------------------

async function command(cmd, fields = {}, options = {}) {
  busy = true;
  render();
  try {
    const reply = await conn.send(cmd, fields, options);
    if (cmd === "count_stub" && reply?.result) {
      const { count, correct } = reply.result;
      messages.notice(correct ? `Stub count: ${count} cards — correct.` : `Stub count: ${count} cards — not 52.`, correct ? "info" : "error");
    } else if (cmd === "open_betting" && reply?.result?.opened === false) {
      messages.notice(`No round opened: ${reply.result.deck_removed}`, "error");
    }
    return reply;
  } catch (err) {
    messages.error(errorText(err));
    return null;
  } finally {
    busy = false;
    render();
  }
}

/** Whether an automatic dealer deals this table now (the console then only watches). */
function autodealerDeals() {
  const d = S.dealing;
  return Boolean(d && d.kind === "autodealer" && d.alive && d.clock_owner === d.by);
}

/** Who deals: the line, and the take-over / hand-back buttons. */
function renderDealing() {
  const d = S.dealing;
  const line = $("#dealing");
  const me = S.me ? `dealer:${S.me.username}` : null;
  let text = "Nobody in particular deals: the console's buttons move the round on.";
  let kind = "";
  if (d && d.kind === "autodealer" && autodealerDeals()) {
    kind = "autodealer";
    // Its process id (autodealer-13389@host) is for the logs, not for the dealer (issue 28).
    text = `The automatic dealer deals this table: it opens betting, closes it when the countdown ends, deals, reveals and settles. Take over to deal from this console.`;
  } else if (d && d.kind === "autodealer") {
    text = `The automatic dealer stopped${d.heartbeat_age !== null ? ` (last heard ${timeAgo(d.heartbeat_age)} ago)` : ""}: the console deals.`;
  } else if (d && d.kind === "dealer") {
    kind = d.by === me ? "me" : "dealer";
    const clock = d.clock_owner && d.alive ? " The automatic dealer keeps only the decision clock." : "";
    text = d.by === me ? `You deal this table.${clock}` : `${d.name} deals this table (taken over at a console).${clock}`;
  }
  setText(line, text);
  line.dataset.kind = kind;
  const takeOver = $("#take-over");
  takeOver.hidden = !(d && d.by !== me && (autodealerDeals() || d.kind === "dealer"));
  setText(takeOver, d && d.kind === "dealer" ? `Take over from ${d.name}` : "Take over from the automatic dealer");
  takeOver.disabled = busy;
  const handBack = $("#hand-back");
  handBack.hidden = !(d && d.by === me);
  handBack.disabled = busy;
}

// --- rendering -------------------------------------------------------------------------------

function render() {
  if (!S) return;
  root.dataset.ready = "1";
  root.dataset.version = String(conn.version);
  const r = S.round;
  setText($("#rules-name"), `Rules Submission: ${S.table.rules_name}${S.table.pending_rules ? ` (next: ${S.table.pending_rules})` : ""}`);
  setText($("#round-no"), r ? `Round ${r.round}` : "No round yet");
  setText($("#deck-line"), r ? `${r.deck_back} deck` : "");
  setText($("#phase"), S.table.is_open ? phaseName(r) : "Table closed");
  root.dataset.phase = r ? r.phase : "none";
  root.dataset.game = S.table.game;
  gameConsole?.render(S, busy); // the round's part, once its module is loaded
  renderShoe();
  renderDealing();
  tick();
  renderTableControls();
}

function renderTableControls() {
  const r = S.round;
  const oc = $("#open-close");
  setText(oc, S.table.is_open ? "Close table" : "Open table");
  oc.disabled = busy;
  $("#change-decks").disabled = busy || Boolean(r && ["closed", "decisions", "setting", "revealed"].includes(r.phase));
  // No stub before a deal; with the dealer's hand face up the round is settled first (§684a.11(c)).
  $("#count-stub").disabled = busy || !(r && r.dealt) || r.phase === "revealed";
  for (const b of document.querySelectorAll(".fault")) b.disabled = busy;
}

function tick() {
  if (!S) return;
  const now = conn.now();
  gameConsole?.tick(S, now);
  tickDecks(now);
}

function tickDecks(now) {
  // Deck ages move on between snapshots.
  for (const row of document.querySelectorAll("#deck-rows tr")) {
    const since = Number(row.dataset.since);
    const changeAt = Number(row.dataset.changeAt);
    setText(row.querySelector(".age"), timeAgo(Math.max(0, Math.round((now - since) / 1000))));
    const left = Math.max(0, Math.round((changeAt - Date.now()) / 1000));
    setText(row.querySelector(".change"), left > 0 ? timeAgo(left) : "now — change decks");
  }
}

function renderShoe() {
  const shoe = S.shoe;
  if (!shoe) return;
  setText($("#deck-in-play"), shoe.deck_in_play || "—");
  setText($("#cards-dealt"), String(shoe.cards_dealt));
  setText($("#since-stub"), String(shoe.rounds_since_stub_count));
  const count = shoe.shuffler_count;
  setText($("#shuffler-count"), count ? `${count.count} cards (${count.deck} deck, last shuffle)${count.count === 52 ? "" : " — deck removed"}` : "no shuffle yet");
  setText($("#stub-note"), shoe.stub_count_required ? "" : shoe.stub_count_note);
  setText($("#armed"), shoe.armed_faults.length ? shoe.armed_faults.map((f) => FAULT_NAMES[f] || f).join(", ") : "none");
  // Only the drills this game's deal knows (a game may have no exposed dealer card).
  for (const b of document.querySelectorAll(".fault")) b.hidden = Boolean(shoe.drills) && !shoe.drills.includes(b.dataset.fault);
  // Drills only at a test table (issue 28): a live table's console does not offer them.
  const faults = document.querySelector("fieldset.faults");
  if (faults) faults.hidden = !S.table?.is_test;
  fill(
    $("#deck-rows"),
    shoe.decks.map((d) =>
      h(
        "tr",
        { dataset: { since: String(d.in_play_since), changeAt: String(snapshotAt + d.change_in_seconds * 1000) } },
        h("th", { scope: "row" }, `${d.back}${d.next ? " (next)" : ""}`),
        h("td", { class: "age", text: timeAgo(d.age_seconds) }),
        h("td", { class: "change", text: timeAgo(d.change_in_seconds) }),
        h("td", { text: String(d.rounds) }),
      ),
    ),
  );
}

function log(kind, data, when = new Date(), older = false) {
  const own = gameConsole?.describe ? gameConsole.describe(kind, data) : undefined;
  const text = own === undefined ? describeEvent(kind, data) : own;
  if (!text) return;
  const list = $("#log");
  // A line from the backlog (the table's public events before this console opened) says so.
  const line = h("li", { dataset: older ? { kind, backlog: "1" } : { kind } }, h("time", { datetime: when.toISOString(), text: logTime(when, root.dataset.casinoZone) }), " ", speakable(text));
  if (older) list.append(line);
  else list.prepend(line);
  while (list.children.length > LOG_LIMIT) list.lastChild.remove();
}

// --- wiring -----------------------------------------------------------------------------------

$("#next-action").addEventListener("click", () => {
  const cmd = $("#next-action").dataset.cmd;
  if (cmd) command(cmd);
});
$("#time-out").addEventListener("click", () => command("time_out"));
for (const btn of document.querySelectorAll(".fault")) {
  btn.addEventListener("click", async () => {
    // The armed drill is told to this console only (players never see it): its own answer
    // and a fresh shoe panel say so.
    if (await command("arm_fault", { fault: btn.dataset.fault })) {
      messages.announce(`Drill armed: ${FAULT_NAMES[btn.dataset.fault] || btn.dataset.fault}.`);
      conn.requestSnapshot();
    }
  });
}
$("#count-stub").addEventListener("click", () => command("count_stub"));
$("#take-over").addEventListener("click", async () => {
  const from = S?.dealing?.kind === "dealer" ? S.dealing.name : "the automatic dealer";
  if (await confirmDialog($("#confirm"), `Take this table over from ${from}? From now on only this console moves the rounds on; the decision clock keeps running.`, "Take over")) {
    command("take_over", {}, { withVersion: true });
  }
});
$("#hand-back").addEventListener("click", () => command("hand_back"));
$("#change-decks").addEventListener("click", async () => {
  if (await confirmDialog($("#confirm"), "Take both decks out of play and bring new ones in?", "Change decks")) {
    command("change_decks", {}, { withVersion: true });
  }
});
$("#open-close").addEventListener("click", async () => {
  if (S?.table.is_open) {
    if (await confirmDialog($("#confirm"), "Close the table? A round still taking bets is voided and its wagers returned.", "Close the table")) {
      command("close_table", {}, { withVersion: true });
    }
  } else {
    command("open_table");
  }
});
$("#reconnect").addEventListener("click", () => conn.connect());
setupFourColour(null);
setInterval(tick, 500);
conn.watchStalls(() => waitingOnHouse(S, conn.now()));
conn.connect();
// For the browser console and the tests: the connection and the state it keeps.
window.frenzy = { connection: conn, state: () => S };
