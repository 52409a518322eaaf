// The dealer console: the phase and its one next action, every box, the irregularity
// controls, the shoe and the round log. The console gets public events only: it never sees a
// card before the table does.

import { cardRow, setupFourColour, speakable } from "./cards.js";
import { TableConnection } from "./protocol.js";
import { applyEvent, dollars, phaseName, SHORT_WAGER_NAMES, waitingOnHouse } from "./state.js";
import {
  $,
  confirmDialog,
  fill,
  h,
  Messages,
  renderStatus,
  secondsLeft,
  setText,
  show,
  timeAgo,
} from "./ui.js";
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
// A game whose console module is not this file: that module draws the round part from the
// round view (console_generic.js unless the game names its own); dealer.js keeps the rest.
let gameConsole = null;
let gameConsoleLoading = false;
let viewVersion = 0;
// The round log as the players' logs have it (issue 28: the console's stayed empty while theirs
// were full): on its first snapshot the console fills it with the table's recent events, up to
// that snapshot's version (the live frames after it log themselves), once its words are loaded.
let backlogFrom = null; // the first snapshot's version, until the backlog is asked for
let backlogAsked = false;

// A game whose round part a console module draws (every game whose console_module is not
// this file).
function hasGameConsole(snap) {
  const game = snap?.table?.game;
  return Boolean(game) && snap.table.felt?.console_module !== "table/dealer.js";
}

function fillBacklog() {
  if (backlogAsked || backlogFrom === null) return;
  if (hasGameConsole(S) && !gameConsole) return; // its words first
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
  if (!hasGameConsole(snap) || gameConsole || gameConsoleLoading) return;
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
      $("#irregularities-note").hidden = true;
      $("#generic-voids").hidden = false;
      setText($("#irr-h"), "Irregularities");
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
      // Another game's round comes whole in the next view: only the table's events apply.
      const applies = !gameConsole || !S.table.game || ["seated", "stood", "player_left", "connection", "table_opened", "table_closed", "betting_clock"].includes(ev.kind);
      resync = (applies && applyEvent(S, ev.kind, ev.data)) || SHOE_EVENTS.has(ev.kind) || resync;
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

/** The one next action for the phase: [cmd, label, enabled, detail]. */
function nextAction() {
  const [cmd, label, enabled, detail] = phaseAction();
  if (autodealerDeals() && ["open_betting", "no_more_bets", "deal", "reveal", "settle"].includes(cmd)) {
    return [cmd, label, false, `${detail} The automatic dealer does this: take over to do it yourself.`];
  }
  return [cmd, label, enabled, detail];
}

function phaseAction() {
  const r = S.round;
  if (!S.table.is_open) return ["open_table", "Open the table", true, "The table is closed."];
  if (!r || r.phase === "settled" || r.phase === "void") {
    return ["open_betting", "Open betting", true, "Shuffle the next deck and take bets."];
  }
  const inPlay = r.boxes.filter((b) => b.wagers.ante).length;
  switch (r.phase) {
    case "betting":
      return [
        "no_more_bets",
        "No more bets",
        inPlay > 0,
        inPlay ? `${inPlay} box${inPlay === 1 ? "" : "es"} with Ante and Odds.` : "Waiting for a first bet.",
      ];
    case "closed":
      return ["deal", "Deal", true, `Deal ${inPlay} box${inPlay === 1 ? "" : "es"} and the dealer.`];
    case "decisions":
      if (r.to_act) {
        const b = r.boxes.find((x) => x.box === r.to_act);
        return ["reveal", `Waiting for box ${r.to_act}`, false, `Box ${r.to_act}${b ? ` (${b.player})` : ""} is deciding.`];
      }
      return ["reveal", "Reveal", true, "Every box has decided."];
    case "revealed":
      return ["settle", "Settle", true, "Pay and take, from the dealer's right."];
    default:
      return [null, "…", false, ""];
  }
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
  if (gameConsole) {
    root.dataset.game = S.table.game;
    gameConsole.render(S, busy);
    renderShoe();
    renderDealing();
    tick();
    renderTableControls();
    return;
  }
  const [cmd, label, enabled, detail] = nextAction();
  const next = $("#next-action");
  setText(next, label);
  next.dataset.cmd = cmd || "";
  next.disabled = busy || !enabled;
  setText($("#phase-detail"), detail);
  renderBoxes();
  renderDealer();
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
  if (gameConsole) gameConsole.tick(S, now);
  else tickRound(now);
  tickDecks(now);
}

function tickRound(now) {
  const r = S.round;
  let text = "";
  const timeOut = $("#time-out");
  let canTimeOut = false;
  if (r && r.phase === "betting" && S.betting_deadline) {
    const s = secondsLeft(S.betting_deadline, now);
    text = s > 0 ? `Betting clock: ${s} s` : "Betting clock ran out";
  } else if (r && r.phase === "decisions" && r.to_act && S.turn_deadline) {
    const s = secondsLeft(S.turn_deadline, now);
    text = s > 0 ? `Box ${r.to_act}: ${s} s to decide` : `Box ${r.to_act}: decision time ran out`;
    // The server times out only once commands sent in time have had the lag allowance.
    canTimeOut = now >= S.turn_deadline + (S.lag_allowance_ms || 0);
  }
  setText($("#countdown"), text);
  const showTimeOut = Boolean(r && r.phase === "decisions" && r.to_act);
  timeOut.hidden = !showTimeOut;
  if (showTimeOut) setText(timeOut, `Time out box ${r.to_act} (fold)`);
  timeOut.disabled = busy || !canTimeOut;
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

function renderBoxes() {
  const r = S.round;
  const rows = [];
  for (let number = 1; number <= 6; number++) {
    const seat = S.seats.find((s) => s.box === number);
    const b = r ? r.boxes.find((x) => x.box === number) : null;
    if (!seat && !b) {
      rows.push(h("tr", { class: "free", dataset: { box: String(number) } }, h("th", { scope: "row", text: String(number) }), h("td", { colspan: "5", class: "hint", text: "open" })));
      continue;
    }
    const wagers = b
      ? ["ante", "odds", "raise", "prime", "four_card_bonus", "all_six"]
        .filter((w) => b.wagers[w])
        .map((w) => `${SHORT_WAGER_NAMES[w]} ${dollars(b.wagers[w])}`)
        .join(", ")
      : "";
    let cards = "";
    if (b && b.cards) cards = cardRow({ codes: b.cards, bestFour: b.best_four, size: "sm" });
    else if (b && b.dealt && r.phase !== "void") cards = r.phase === "settled" || b.mucked ? "mucked" : "dealt, face down"; // §684a.11(b)(2)
    let decision = "—";
    if (b && r.phase === "void") decision = "void";
    else if (b && r.phase === "decisions" && r.to_act === number) decision = "to act";
    else if (b && b.decision === 0) decision = b.abandoned ? "folded (left)" : "folded";
    else if (b && b.decision) decision = `raised ${b.decision}x`;
    else if (b && b.abandoned) decision = "left: folds on turn";
    else if (b && b.dealt && r.main_game_void) decision = "none: main game void"; // §684a.13(d): no decision is asked for
    else if (b && b.dealt && r.phase === "decisions") decision = "waiting";
    const staked = b ? Object.values(b.wagers).reduce((sum, v) => sum + v, 0) : 0;
    const result = b && r.phase === "void"
      ? h("span", {}, h("strong", { text: dollars(0, { signed: true }) }), " ", h("span", { class: "hint", text: `${dollars(staked)} returned` }))
      : b && b.results
      ? h(
        "span",
        {},
        h("strong", { text: dollars(b.net, { signed: true }) }),
        " ",
        h("span", { class: "hint", text: b.results.map((x) => `${SHORT_WAGER_NAMES[x.wager] || x.wager} ${x.outcome}`).join(", ") }),
      )
      : "";
    const player = seat?.player || b?.player || "";
    rows.push(
      h(
        "tr",
        {
          class: [r && r.to_act === number && r.phase === "decisions" ? "to-act" : "", b && b.decision === 0 ? "folded" : ""].join(" ").trim() || null,
          dataset: { box: String(number) },
        },
        h("th", { scope: "row", text: String(number) }),
        h(
          "td",
          {},
          h("span", { class: `presence ${seat && !seat.connected ? "off" : "on"}`, "aria-hidden": "true" }),
          player,
          seat && !seat.connected ? h("span", { class: "hint", text: " (disconnected)" }) : null,
        ),
        h("td", { text: wagers || "no wagers" }),
        h("td", {}, cards),
        h("td", { text: decision }),
        h("td", {}, result),
      ),
    );
  }
  fill($("#box-rows"), rows);
}

function renderDealer() {
  const r = S.round;
  if (r && r.dealer) {
    fill($("#dealer-cards"), cardRow({ codes: r.dealer.cards, bestFour: r.dealer.best_four, size: "sm" }));
    setText($("#dealer-hand"), `${r.dealer.hand} — ${r.dealer.qualifies ? "qualifies" : "does not qualify"}`);
    fill($("#all-six-card"), r.dealer.all_six_card ? cardRow({ codes: [r.dealer.all_six_card], size: "sm" }) : h("span", { class: "hint", text: "none dealt" }));
  } else if (r && r.dealt && r.phase !== "void") {
    fill($("#dealer-cards"), cardRow({ count: 5, back: r.deck_back, size: "sm" }));
    setText($("#dealer-hand"), "face down until the reveal");
    const six = r.all_six ?? r.boxes.some((b) => b.dealt && b.wagers.all_six);
    fill($("#all-six-card"), six ? cardRow({ count: 1, back: r.deck_back, size: "sm" }) : h("span", { class: "hint", text: "none dealt" }));
  } else {
    fill($("#dealer-cards"), h("span", { class: "hint", text: "no cards" }));
    setText($("#dealer-hand"), "");
    fill($("#all-six-card"), h("span", { class: "hint", text: "—" }));
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
