// The player's page: the felt, the player's boxes, chips, decisions and results.
// State: the last snapshot with each later event applied (state.js); everything on the page is
// drawn from it. Commands and replies: protocol.js (docs/protocol.md).

import { cardRow, setupFourColour, speakable } from "./cards.js";
import { TableConnection } from "./protocol.js";
import {
  applyEvent,
  waitingOnHouse,
  chipDollars,
  dollars,
  findBox,
  myBoxes,
  offers,
  OPTIONAL,
  phaseName,
  RESYNC_AFTER,
  seatOf,
  SHORT_WAGER_NAMES,
  WAGER_NAMES,
} from "./state.js";
import { $, ClockWarnings, confirmDialog, fill, h, Messages, renderStatus, secondsLeft, setText, show } from "./ui.js";
import { describeEvent, errorText, explainLine, leaveCost, logTime, plainWords, resultHeadline } from "./words.js";
import { renderNotices } from "./notices.js";

const app = $("#app");
const tableId = Number(app.dataset.tableId);
const me = app.dataset.user || null;
const recallUrl = app.dataset.recallUrl;
const messages = new Messages($("#notice"), $("#announce"));
const warnings = new ClockWarnings(messages);
let extendedRound = null; // the round and box that had their extra time
// Single-key shortcuts can be turned off (WCAG 2.1.4): a speech-input user's words must not
// fold a hand. The choice is kept in this browser.
const SINGLE_KEYS = "frenzy.singleKeys";
let singleKeys = true;
try {
  singleKeys = localStorage.getItem(SINGLE_KEYS) !== "off";
} catch {
  singleKeys = true;
}
const CHIPS = [100, 500, 2500, 10000, 50000];
const BOX_NUMBERS = [1, 2, 3, 4, 5, 6];
const BET_WAGERS = ["ante", ...OPTIONAL];
const LOG_LIMIT = 60;
//: Chips on the layout are the bet: a change is placed this long after the last chip ...
const AUTO_PLACE_MS = 700;
//: ... and whatever is still unplaced is placed this long before betting closes.
const FLUSH_BEFORE_CLOSE_MS = 2500;
const REBET_KEY = `frenzy.rebet.${tableId}.${me || ""}`;
const CHIP_KEYS = { 1: 100, 2: 500, 3: 2500, 4: 10000, 5: 50000 };
const SPOT_KEYS = { a: "ante", p: "prime", b: "four_card_bonus", s: "all_six" };

let S = null; // the table state
let chip = 500;
const drafts = new Map(); // box -> wagers being built and not yet placed
const lastBets = loadRebet(); // box -> wagers of the last round that was dealt (kept over reloads)
const undoStack = []; // [box, wagers before the change] pairs, newest last
let autoTimer = null;
let flushedRound = null; // the round whose unplaced chips were placed at the close
let leftTable = false; // this page's player pressed "Leave the table"
let revealScrolled = null; // the round whose reveal was brought into view
let busy = false;
let lastRoundNo = null;
let announcedTurn = null;

let handedOver = false; // another game's felt module draws this page

/**
 * A table whose game this file does not draw (its felt_module is not table.js): its felt
 * module (the game's own, or felt_generic.js) takes the page and the connection over,
 * drawing from the round view. Frames that come while the module loads wait for it.
 */
function handOver(snap) {
  const game = snap.table?.game;
  if (!game || snap.table.felt?.felt_module === "table/table.js") return false;
  if (handedOver) return true;
  handedOver = true;
  const pending = [];
  const later = (name) => (frame) => pending.push(() => conn.h[name]?.(frame));
  conn.h = { ...conn.h, onSnapshot: later("onSnapshot"), onEvents: later("onEvents"), onView: later("onView"), onMeter: later("onMeter") };
  const named = snap.table.felt?.felt_module;
  const file = /^[a-z0-9_]+\.js$/.test(named || "") ? named : "felt_generic.js";
  import(`./${file}`)
    .then((module) => module.mount({ app, conn, snapshot: snap, me, pending }))
    .catch((err) => messages.error(`This table's felt could not be loaded: ${err.message}`))
    .finally(() => app.removeAttribute("data-awaiting-felt"));
  return true;
}

const conn = new TableConnection(`/ws/tables/${tableId}/`, {
  onSnapshot(snap) {
    if (handOver(snap)) return;
    S = snap;
    if (S.round && S.round.round !== lastRoundNo) newRound();
    if (S.round && S.round.phase !== "betting") rememberBets();
    render();
  },
  onEvents(frame) {
    if (!S) return;
    let resync = false;
    for (const ev of frame.events) {
      if (ev.kind === "betting_closed") {
        reportUnplaced();
        rememberBets();
      }
      resync = applyEvent(S, ev.kind, ev.data) || resync;
      if (ev.kind === "round_opened") newRound();
      logEvent(ev.kind, ev.data);
      react(ev.kind, ev.data);
    }
    render();
    if (resync) conn.requestSnapshot();
  },
  onStatus(status) {
    renderStatus($("#conn"), status);
    const paused = status.state === "superseded";
    show($("#superseded"), paused);
    document.title = (paused ? "Paused — " : "") + document.title.replace(/^Paused — /, "");
    if (paused) $("#reconnect").focus({ preventScroll: true });
  },
  onNotice(code, message) {
    if (code !== "second_connection") messages.error(plainWords(errorText({ code, message }))); // the banner says it
  },
});

// --- the felt ------------------------------------------------------------------------------

const boxEls = new Map();

function buildBoxes() {
  const list = $("#boxes");
  for (const number of BOX_NUMBERS) {
    const circles = {};
    const circleRow = (wagers, cls) =>
      h(
        "div",
        { class: `circles ${cls}` },
        wagers.map((wager) => {
          const btn = h(
            "button",
            {
              type: "button",
              class: `spot spot-${wager}`,
              dataset: { wager, box: String(number) },
              onclick: (ev) => (ev.shiftKey ? removeChip(number, wager) : addChip(number, wager)),
              oncontextmenu: (ev) => {
                ev.preventDefault();
                removeChip(number, wager);
              },
            },
            h("span", { class: "spot-name", text: SHORT_WAGER_NAMES[wager] }),
            h("span", { class: "spot-amount" }),
          );
          circles[wager] = btn;
          return btn;
        }),
      );
    const li = h(
      "li",
      { class: "box", id: `box-${number}`, tabindex: "-1", dataset: { box: String(number) } },
      h(
        "div",
        { class: "box-head" },
        h("span", { class: "box-no", text: String(number), "aria-hidden": "true" }),
        h("span", { class: "visually-hidden", text: `Box ${number}: ` }),
        h("span", { class: "box-player" }),
        h("button", { type: "button", class: "btn sit", onclick: () => sit(number), "aria-label": `Sit here: box ${number}` }, "Sit here"),
        h("span", { class: "box-badge" }),
      ),
      h("div", { class: "box-cards" }),
      h("p", { class: "box-hand" }),
      circleRow(["ante", "odds", "raise"], "main"),
      circleRow(OPTIONAL, "optional"),
      h("ul", { class: "box-results" }),
    );
    $("#stand-buttons").append(
      h("button", { type: "button", class: "btn subtle stand", id: `stand-${number}`, hidden: true, onclick: () => stand(number) }, `Stand up from box ${number}`),
    );
    list.append(li);
    boxEls.set(number, {
      li,
      player: li.querySelector(".box-player"),
      badge: li.querySelector(".box-badge"),
      cards: li.querySelector(".box-cards"),
      hand: li.querySelector(".box-hand"),
      circles,
      results: li.querySelector(".box-results"),
      sit: li.querySelector(".sit"),
      stand: $(`#stand-${number}`),
    });
  }
}

function buildChips() {
  const rack = $("#chips");
  for (const cents of CHIPS) {
    rack.append(
      h(
        "button",
        {
          type: "button",
          class: `chip chip-${cents}`,
          "aria-pressed": cents === chip ? "true" : "false",
          "aria-label": `${chipDollars(cents)} chip`,
          dataset: { cents: String(cents) },
          onclick: () => pickChip(cents),
        },
        chipDollars(cents),
      ),
    );
  }
}

function pickChip(cents) {
  chip = cents;
  for (const b of document.querySelectorAll("#chips .chip")) {
    b.setAttribute("aria-pressed", b.dataset.cents === String(cents) ? "true" : "false");
  }
  render();
}

// --- commands -------------------------------------------------------------------------------

async function command(cmd, fields = {}, options = {}) {
  busy = true;
  renderControls();
  try {
    const reply = await conn.send(cmd, fields, options);
    if ($("#notice").dataset.kind === "error") messages.clear();
    return reply;
  } catch (err) {
    // The server's refusals may cite the rule (for the console and the record): the player
    // reads the words alone.
    messages.error(plainWords(errorText(err)));
    return null;
  } finally {
    busy = false;
    renderControls();
  }
}

async function sit(box) {
  if (!me) {
    location.href = app.dataset.loginUrl;
    return;
  }
  const reply = await command("sit", { box });
  // The "Sit here" button is gone: keep the keyboard on the box just taken.
  if (reply) {
    leftTable = false;
    render();
    boxEls.get(box)?.li.focus();
  }
}

function maySit(box) {
  // Up to N adjacent boxes (Rules Submission): offer only boxes that keep the player's
  // boxes adjacent and within N.
  const mine = myBoxes(S);
  if (leftTable) return !mine.length; // left: the seats held until the round ends are not "yours"
  if (!mine.length) return true;
  if (mine.length >= (S.table.rules.adjacent_boxes || 1)) return false;
  return box === mine[0] - 1 || box === mine[mine.length - 1] + 1;
}

function stand(box) {
  drafts.delete(box);
  command("stand", { box });
}

function bettingOpen() {
  return S?.round?.phase === "betting";
}

function placed(box) {
  const b = findBox(S, box);
  return b ? b.wagers : {};
}

function draftOf(box) {
  if (!drafts.has(box)) {
    const p = placed(box);
    drafts.set(box, Object.fromEntries(BET_WAGERS.map((w) => [w, p[w] || 0])));
  }
  return drafts.get(box);
}

function remember(box) {
  undoStack.push([box, { ...draftOf(box) }]);
}

function changed() {
  flushedRound = null;
  render();
  clearTimeout(autoTimer);
  autoTimer = setTimeout(() => placeDrafts({ final: false }), AUTO_PLACE_MS);
}

function addChip(box, wager) {
  if (!canBetOn(box) || !BET_WAGERS.includes(wager)) return;
  remember(box);
  const d = draftOf(box);
  d[wager] += chip;
  changed();
  const total = d[wager];
  messages.announce(
    `${WAGER_NAMES[wager]} on box ${box}: ${dollars(total)}${wager === "ante" ? `, Odds ${dollars(total)}` : ""}`,
  );
}

function removeChip(box, wager) {
  if (!canBetOn(box) || !BET_WAGERS.includes(wager)) return;
  remember(box);
  const d = draftOf(box);
  d[wager] = Math.max(0, d[wager] - chip);
  changed();
}

/** Whether a box's chips make a bet the table takes (so they can be placed on their own). */
function draftValid(box) {
  const d = drafts.get(box);
  const rules = S.table.rules;
  if (!d) return false;
  if (!d.ante) return !OPTIONAL.some((w) => d[w]); // nothing: a withdrawal
  if (d.ante < rules.ante_min || d.ante > rules.ante_max) return false;
  return OPTIONAL.every((w) => !d[w] || (offers(rules, w) && d[w] >= rules[`${w}_min`] && d[w] <= rules[`${w}_max`]));
}

function stakeOf(wagers) {
  return BET_WAGERS.reduce((sum, w) => sum + (wagers[w] || 0), 0) + (wagers.ante || 0); // + Odds
}

function canBetOn(box) {
  return Boolean(me && bettingOpen() && seatOf(S, box)?.player === me);
}

function differs(box) {
  const d = drafts.get(box);
  if (!d) return false;
  const p = placed(box);
  return BET_WAGERS.some((w) => (d[w] || 0) !== (p[w] || 0));
}

/**
 * Place the chips on the layout. Chips placed are bets, as at a live table: a change is
 * placed by itself once it makes a valid bet (``final`` false), and when the countdown ends
 * whatever is still there is placed (``final`` true; a refusal then says why).
 */
async function placeDrafts({ final }) {
  clearTimeout(autoTimer);
  if (!S || !bettingOpen()) return;
  if (busy) {
    autoTimer = setTimeout(() => placeDrafts({ final }), 150);
    return;
  }
  for (const box of myBoxes(S)) {
    if (!differs(box)) {
      if (drafts.has(box) && !final) continue;
      drafts.delete(box);
      continue;
    }
    if (!final && !draftValid(box)) continue;
    const d = drafts.get(box);
    const sent = { ...d };
    const reply = d.ante || OPTIONAL.some((w) => d[w])
      ? await command("act", { move: "bet", box, args: sent })
      : await command("act", { move: "withdraw", box });
    // Chips added while the command was on its way stay to be placed next.
    if (reply && drafts.get(box) && BET_WAGERS.every((w) => (drafts.get(box)[w] || 0) === (sent[w] || 0))) {
      drafts.delete(box);
    }
    if (!reply) break; // keep the rest of the drafts as they are; the message says why
  }
  render();
}

function placeBets() {
  return placeDrafts({ final: true });
}

function clearBets() {
  for (const box of myBoxes(S)) {
    remember(box);
    drafts.set(box, Object.fromEntries(BET_WAGERS.map((w) => [w, 0])));
  }
  changed();
}

function undoBets() {
  const last = undoStack.pop();
  if (!last || !canBetOn(last[0])) return;
  drafts.set(last[0], last[1]);
  changed();
}

function loadRebet() {
  try {
    const saved = JSON.parse(localStorage.getItem(REBET_KEY) || "{}");
    return new Map(Object.entries(saved).map(([box, w]) => [Number(box), w]));
  } catch {
    return new Map();
  }
}

function saveRebet() {
  try {
    localStorage.setItem(REBET_KEY, JSON.stringify(Object.fromEntries(lastBets)));
  } catch {
    /* private mode: rebet lasts as long as the page */
  }
}

/** Rebet: the last round's wagers, placed at once (one tap). */
function repeatBets() {
  const mine = myBoxes(S);
  const last = [...lastBets.entries()].sort((a, b) => a[0] - b[0]);
  // The same boxes if the player still holds them, otherwise their boxes in order.
  const sameBoxes = last.every(([box]) => mine.includes(box));
  last.forEach(([box, wagers], i) => {
    const target = sameBoxes ? box : mine[i];
    if (target === undefined) return;
    remember(target);
    drafts.set(target, { ...wagers });
  });
  render();
  placeDrafts({ final: true });
}

/** Double every wager on the player's boxes, within the table's limits and the balance. */
function doubleBets() {
  const rules = S.table.rules;
  let extra = 0;
  const next = new Map();
  for (const box of myBoxes(S)) {
    const d = draftOf(box);
    if (!d.ante && !OPTIONAL.some((w) => d[w])) continue;
    const doubled = {};
    for (const w of BET_WAGERS) doubled[w] = Math.min((d[w] || 0) * 2, d[w] ? rules[`${w}_max`] : 0);
    extra += stakeOf(doubled) - stakeOf(d);
    next.set(box, doubled);
  }
  if (!next.size) return;
  const balance = S.me?.balance ?? 0;
  if (extra > balance) {
    // Capped by the balance: each wager grows by the same share of what doubling would add,
    // in whole dollars.
    if (balance < 200) {
      messages.error(`Doubling needs ${dollars(extra)} more and your balance is ${dollars(balance)}.`);
      return;
    }
    const share = balance / extra;
    for (const [box, doubled] of next) {
      const d = draftOf(box);
      for (const w of BET_WAGERS) doubled[w] = (d[w] || 0) + Math.floor((((doubled[w] || 0) - (d[w] || 0)) * share) / 100) * 100;
    }
    messages.notice(`Doubled as far as your balance (${dollars(balance)}) allows.`);
  }
  for (const [box, doubled] of next) {
    remember(box);
    drafts.set(box, doubled);
  }
  render();
  placeDrafts({ final: true });
}

/** At "no more bets": chips that never reached the table are said so, never dropped silently. */
function reportUnplaced() {
  const lost = myBoxes(S).filter(differs);
  if (lost.length) {
    messages.error(
      `Betting closed before your chips on box ${lost.join(", ")} were placed: they did not play and nothing was taken from your balance.`,
    );
  }
  drafts.clear();
}

async function withdrawBets() {
  for (const box of myBoxes(S)) {
    drafts.delete(box);
    if (findBox(S, box)) {
      if (!(await command("act", { move: "withdraw", box }))) return;
    }
  }
  render();
}

async function decide(raise) {
  const box = S?.round?.to_act;
  if (!box) return;
  // The view's decide move offers {"raise": 0-3}: sent back as an act frame (protocol v2).
  await command("act", { move: "decide", box, args: { raise } });
  // The decision panel is gone: the keyboard goes to the box just played, not to the top of
  // the page (the next Tab goes on from the felt, not from the page's first link).
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected || active.closest("[hidden]")) {
    const next = $("#decision");
    (next && !next.hidden ? next : boxEls.get(box)?.li)?.focus({ preventScroll: true });
  }
}

async function leave() {
  const ok = await confirmDialog($("#leave-dialog"), leaveCost(S, me), "Leave the table");
  if (!ok) return;
  drafts.clear();
  if (await command("leave")) {
    leftTable = true;
    render();
    messages.notice("You left the table. " + (myBoxes(S).length ? "Your boxes are freed once this round is over." : ""));
  }
}

/** Keys: chips 1-5 and A/P/B/S while betting, F and 1-3 on the player's turn. */
function onKey(ev) {
  if (!S || !singleKeys || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
  if (ev.target.closest?.("input, select, textarea, dialog")) return;
  const key = ev.key.toLowerCase();
  const r = S.round;
  const mine = myBoxes(S);
  const toAct = r && r.phase === "decisions" && mine.includes(r.to_act) ? findBox(S, r.to_act) : null;
  if (toAct) {
    const multiple = key === "f" ? 0 : ["1", "2", "3"].includes(key) ? Number(key) : null;
    const btn = multiple === null ? null : $(`#decision [data-raise="${multiple}"]`);
    if (btn && !btn.disabled) {
      ev.preventDefault();
      btn.click();
    }
    return;
  }
  if (!mine.some(canBetOn)) return;
  const focusedBox = Number(document.activeElement?.closest?.(".box")?.dataset.box);
  const box = mine.includes(focusedBox) ? focusedBox : mine[0];
  const action = {
    u: undoBets,
    c: clearBets,
    r: () => !$("#repeat-bets").disabled && repeatBets(),
    d: () => !$("#double-bets").disabled && doubleBets(),
  }[key];
  if (CHIP_KEYS[key]) pickChip(CHIP_KEYS[key]);
  else if (SPOT_KEYS[key] && offers(S.table.rules, SPOT_KEYS[key])) addChip(box, SPOT_KEYS[key]);
  else if (action) action();
  else return;
  ev.preventDefault();
}

// --- events -------------------------------------------------------------------------------------

function newRound() {
  lastRoundNo = S.round?.round ?? null;
  drafts.clear();
  undoStack.length = 0;
  announcedTurn = null;
}

function rememberBets() {
  const bets = myBoxes(S)
    .map((box) => findBox(S, box))
    .filter((b) => b && b.wagers.ante);
  if (!bets.length) return;
  lastBets.clear();
  for (const b of bets) lastBets.set(b.box, Object.fromEntries(BET_WAGERS.map((w) => [w, b.wagers[w] || 0])));
  saveRebet();
}

function logEvent(kind, data) {
  // A void's explanation, an exposed card's reason and a rules change come in the engine's
  // words, with its citations (the console shows them): the player's log leaves them out.
  const text = plainWords(describeEvent(kind, data));
  if (!text || kind === "hole_cards") return;
  const log = $("#log");
  const now = new Date();
  log.prepend(h("li", {}, h("time", { datetime: now.toISOString(), text: logTime(now) }), " ", speakable(text)));
  while (log.children.length > LOG_LIMIT) log.lastChild.remove();
}

function react(kind, data) {
  switch (kind) {
    case "round_opened":
      messages.announce(`Round ${data.round}: place your bets.`);
      break;
    case "betting_closed":
      drafts.clear();
      messages.announce("No more bets.");
      break;
    case "turn":
      announcedTurn = null; // renderControls announces the player's own turn
      break;
    case "dealer_revealed":
      messages.announce(plainWords(describeEvent(kind, data)));
      bringRevealIntoView();
      break;
    case "round_settled": {
      if (leftTable && myBoxes(S).length) command("leave"); // nothing in play now: free the seats
      const mine = me && data.players?.[me];
      if (mine) messages.announce(`Round over: ${netWords(mine.net)}.`);
      bringRevealIntoView();
      loadRecall();
      break;
    }
    case "round_void":
      if (leftTable && myBoxes(S).length) command("leave");
      messages.announce(plainWords(describeEvent(kind, data)));
      bringRevealIntoView(); // the void's reason on the felt (notices.js), not under the pinned bar
      loadRecall();
      break;
    default:
      break;
  }
}

/**
 * At the reveal the dealer's hand and the player's boxes come into view (on a phone the page
 * is usually down at the player's own hand); the pinned bar keeps the result in view.
 */
function bringRevealIntoView() {
  const r = S?.round;
  const key = r ? `${r.round}:${r.phase}` : null;
  if (!r || revealScrolled === key || !myBoxes(S).some((n) => findBox(S, n))) return;
  revealScrolled = key;
  // After this frame's render: the pinned bar grows when the result appears. At settlement
  // the page may still be gliding from the reveal: jump, so the result does not cover it.
  const instant = r.phase === "settled" || r.phase === "void";
  requestAnimationFrame(() => scrollToDealer(instant));
}

function scrollToDealer(instant) {
  // The felt's notices (a void's reason, a rules change: notices.js) sit above the dealer's
  // hand: bring them into view too, not under the pinned bar.
  const notice = [...document.querySelectorAll(".felt .felt-notice")].find((n) => !n.hidden);
  const top = (notice ?? $(".dealer-area")).getBoundingClientRect().top;
  const pinned = $("#pinned").getBoundingClientRect().bottom;
  if (top < pinned || top > window.innerHeight * 0.5) {
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({ top: top - pinned - 8, behavior: reduce || instant ? "instant" : "smooth" });
  }
}

function netWords(net) {
  if (net > 0) return `you won ${dollars(net)}`;
  if (net < 0) return `you lost ${dollars(-net)}`;
  return "you broke even";
}

function raiseHint(b) {
  const max = b.max_raise || 1;
  return `${b.hand} — you may raise ${max > 1 ? `up to ${max}x` : "1x only"}`;
}

// --- rendering ----------------------------------------------------------------------------------

function render() {
  if (!S) return;
  app.dataset.ready = "1";
  app.dataset.version = String(conn.version);
  const rules = S.table.rules;
  setText($("#ante-limits"), `${dollars(rules.ante_min)} – ${dollars(rules.ante_max)}`);
  setText($("#adjacent"), String(rules.adjacent_boxes));
  setText($("#table-open"), S.table.is_open ? "open" : "closed");
  setText($("#payout-limit"), rules.payout_limit === null ? "no limit" : dollars(rules.payout_limit));
  if (S.me) {
    const bal = $("#balance");
    setText(bal, dollars(S.me.balance));
    bal.dataset.cents = String(S.me.balance);
  }
  show($("#spectator"), !S.me);
  show($("#leave"), myBoxes(S).length > 0 && !leftTable);
  renderPaytables();
  renderPhase();
  renderDealer();
  for (const number of BOX_NUMBERS) renderBox(number);
  renderMyHands();
  renderMyResult();
  renderControls();
  renderResult();
  renderNotices(S); // an irregular outcome and a rules change (notices.js)
  tellRulesNotice();
}

let rulesNoticeTold = "";

/**
 * A rules change announced mid-round sits at the top of the felt: on a phone scrolled down to
 * the player's hand it is out of sight (or under the pinned bar), so it is also told in the
 * message bar, once, where the player looks.
 */
function tellRulesNotice() {
  const el = $("#rules-notice");
  const text = el.hidden ? "" : el.textContent;
  if (text === rulesNoticeTold) return;
  const told = $("#notice");
  // The message bar still telling the old words ("From the next round") would contradict the felt.
  if (!told.hidden && rulesNoticeTold && told.textContent.includes(rulesNoticeTold)) told.hidden = true;
  if (text) {
    const rect = el.getBoundingClientRect();
    const bar = $("#pinned").getBoundingClientRect().bottom;
    if (rect.top < bar - 1 || rect.bottom > window.innerHeight) messages.notice(text);
  }
  rulesNoticeTold = text;
}

let paytablesFor = null;

function renderPaytables() {
  const key = `${S.table.rules_name}|${JSON.stringify(S.table.rules)}`;
  if (paytablesFor === key) return;
  paytablesFor = key;
  fill(
    $("#paytables"),
    S.table.paytables.map((sign) =>
      h(
        "table",
        { class: "paytable" },
        h("caption", {}, sign.wager, " ", h("span", { class: "pt-name", text: signName(sign.name) })),
        h(
          "tbody",
          {},
          sign.rows.map(([hand, payout]) =>
            h("tr", {}, h("th", { scope: "row", text: hand }), h("td", { text: payout })),
          ),
        ),
      ),
    ),
  );
  show($("#all-six-spot"), offers(S.table.rules, "all_six"));
}

/**
 * A sign's name for the player: a paytable's letter says which one ("paytable A"); the
 * regulation's section (the posted Ante and Odds signs, §684a.12(a),(b)) says nothing to a
 * player and is left out (felt_generic.js names its signs alike).
 */
function signName(name) {
  const plain = plainWords(name);
  return /^[A-Z]$/.test(plain) ? `paytable ${plain}` : plain;
}

function renderPhase() {
  const r = S.round;
  setText($("#round-no"), r ? `Round ${r.round}` : "");
  let phase = S.table.is_open ? phaseName(r) : "Table closed";
  if (r && r.phase === "decisions") {
    const b = r.to_act ? findBox(S, r.to_act) : null;
    phase = b ? `Box ${b.box} (${b.player}) to act` : "Decisions made — waiting for the reveal";
  } else if (r && (r.phase === "settled" || r.phase === "void")) {
    phase = `${phaseName(r)} — next round soon`;
  } else if (r && r.phase === "closed") {
    phase = "No more bets — dealing";
  }
  setText($("#phase"), phase);
  $("#app").dataset.phase = r ? r.phase : "none";
  tick();
}

function tick() {
  if (!S) return;
  const now = conn.now();
  const r = S.round;
  let text = "";
  if (r && r.phase === "betting" && S.betting_deadline) {
    const s = secondsLeft(S.betting_deadline, now);
    text = s > 0 ? `Bets close in ${s} s` : "Betting time is up";
  } else if (r && r.phase === "decisions" && r.to_act && S.turn_deadline) {
    const s = secondsLeft(S.turn_deadline, now);
    text = s > 0 ? `${s} s to decide` : "Decision time is up";
    if (myBoxes(S).includes(r.to_act)) warnings.check(`${r.round}:${r.to_act}`, s, `to decide on box ${r.to_act}`);
  }
  setText($("#countdown"), text);
  // The countdown is ending: chips still on the layout are placed now (never dropped).
  if (r && r.phase === "betting" && S.betting_deadline && flushedRound !== r.round && S.betting_deadline - now < FLUSH_BEFORE_CLOSE_MS && myBoxes(S).some(differs)) {
    flushedRound = r.round;
    placeDrafts({ final: true });
  }
  const clock = $("#decision-clock");
  if (clock) setText(clock, r && r.phase === "decisions" ? text : "");
}

function renderDealer() {
  const r = S.round;
  const back = r?.deck_back || "red";
  const cards = $("#dealer-cards");
  const hand = $("#dealer-hand");
  const six = $("#all-six-card");
  if (r && r.dealer) {
    fill(cards, cardRow({ codes: r.dealer.cards, bestFour: r.dealer.best_four, size: "md" }));
    setText(hand, `${r.dealer.hand} — ${r.dealer.qualifies ? "qualifies" : "does not qualify"}`);
    fill(six, r.dealer.all_six_card ? cardRow({ codes: [r.dealer.all_six_card], size: "md" }) : "");
  } else if (r && r.dealt && r.phase !== "void") {
    fill(cards, cardRow({ count: 5, back, size: "md" }));
    setText(hand, "");
    const sixDealt = r.all_six ?? r.boxes.some((b) => b.dealt && b.wagers.all_six);
    fill(six, sixDealt ? cardRow({ count: 1, back, size: "md" }) : "");
  } else {
    fill(cards, emptySpots(5));
    setText(hand, "");
    fill(six, emptySpots(1));
  }
}

function emptySpots(n) {
  return h("span", { class: "empty-row", "aria-hidden": "true" }, Array.from({ length: n }, () => h("span", { class: "empty-spot" })));
}

function renderBox(number) {
  const el = boxEls.get(number);
  const seat = seatOf(S, number);
  const b = findBox(S, number);
  const r = S.round;
  const mine = Boolean(me && seat && seat.player === me);
  el.li.classList.toggle("mine", mine && !leftTable);
  el.li.classList.toggle("left", Boolean((b && b.abandoned) || (mine && leftTable)));
  el.li.classList.toggle("empty", !seat && !b);
  el.li.classList.toggle("to-act", Boolean(r && r.phase === "decisions" && r.to_act === number));
  el.li.classList.toggle("folded", Boolean(b && b.decision === 0));
  const player = seat?.player || b?.player || "";
  setText(el.player, player);
  el.player.hidden = !player;
  el.player.title = mine ? "your box" : "";
  el.player.classList.toggle("offline", Boolean(seat && !seat.connected));
  if (seat && !seat.connected) el.player.title = "disconnected";

  let badge = "";
  const left = Boolean((b && b.abandoned) || (mine && leftTable));
  if (b && r && r.phase === "void") badge = "Void";
  else if (left) badge = b && b.decision === 0 ? "Left — folded" : "Left";
  else if (r && r.phase === "decisions" && r.to_act === number) badge = "To act";
  else if (b && b.decision === 0) badge = "Folded";
  else if (b && b.decision) badge = `Raised ${b.decision}x`;
  else if (seat && !seat.connected) badge = "Away";
  setText(el.badge, badge);
  el.badge.hidden = !badge;

  // Cards: the owner sees them; everyone else sees backs until settlement turns them up.
  if (b && b.cards) {
    fill(el.cards, cardRow({ codes: b.cards, bestFour: b.best_four, size: "sm" }));
  } else if (b && b.dealt && r && r.phase !== "void") {
    // §684a.11(b)(2): a fold with no optional wager goes to the discard rack unseen at once.
    const mucked = b.mucked || (r.phase === "settled" && b.results);
    fill(el.cards, mucked ? h("span", { class: "mucked", text: "Folded — cards to the discard rack" }) : cardRow({ count: 5, back: r.deck_back, size: "sm" }));
  } else {
    fill(el.cards);
  }
  setText(el.hand, b && b.cards && b.hand ? b.hand : "");

  const betting = canBetOn(number);
  const d = drafts.get(number);
  const p = b ? b.wagers : {};
  for (const [wager, btn] of Object.entries(el.circles)) {
    const offered = offers(S.table.rules, wager);
    btn.hidden = !offered;
    const draftAmount = d && BET_WAGERS.includes(wager) ? d[wager] : null;
    let amount = p[wager] || 0;
    if (d && wager === "odds") amount = d.ante;
    else if (draftAmount !== null) amount = draftAmount;
    const pending = Boolean(d && differs(number) && (BET_WAGERS.includes(wager) || wager === "odds") && amount !== (p[wager] || 0));
    btn.classList.toggle("has-chips", amount > 0);
    btn.classList.toggle("pending", pending);
    setText(btn.querySelector(".spot-amount"), amount ? chipDollars(amount) : "");
    const clickable = betting && BET_WAGERS.includes(wager);
    btn.disabled = !clickable;
    btn.setAttribute(
      "aria-label",
      // The name a speech-input user says is the one on the spot ("4-Card"), then in full.
      `${SHORT_WAGER_NAMES[wager]}${amount ? ` ${chipDollars(amount)}` : ""}${SHORT_WAGER_NAMES[wager].toLowerCase() === WAGER_NAMES[wager].toLowerCase() ? "" : ` (${WAGER_NAMES[wager]})`}, box ${number}: ${amount ? dollars(amount) : "no wager"}${pending ? " (not placed yet)" : ""}` +
        (clickable ? `. Press to add a ${chipDollars(chip)} chip, Shift+press to take one off` : wager === "odds" ? " (always equal to the Ante)" : ""),
    );
    const result = b?.results?.find((x) => x.wager === wager);
    btn.dataset.outcome = result ? result.outcome : "";
  }

  const results = b?.results || [];
  fill(
    el.results,
    results.map((x) =>
      h(
        "li",
        { class: `outcome-${x.outcome}` },
        h("span", {}, h("span", { class: "res-wager", text: SHORT_WAGER_NAMES[x.wager] || x.wager }), " ", h("span", { class: "res-outcome", text: x.outcome })),
        h("span", { class: "amt", text: x.net === 0 ? x.outcome : dollars(x.net, { signed: true }) }),
      ),
    ),
    b && b.net !== undefined && b.net !== null && results.length
      ? h("li", { class: "box-net" }, h("span", { text: "Net" }), h("span", { class: "amt", text: dollars(b.net, { signed: true }) }))
      : null,
  );

  el.sit.hidden = Boolean(seat || !S.table.is_open || !maySit(number));
  el.sit.disabled = busy;
  const inPlay = Boolean(b && r && !["settled", "void"].includes(r.phase) && r.phase !== "betting");
  el.stand.hidden = !mine || leftTable;
  el.stand.disabled = busy || inPlay;
}

/** Every wager of the player's boxes, with the reason it won, pushed or lost. */
function renderMyResult() {
  const r = S.round;
  const panel = $("#my-result");
  const boxes = r && r.phase === "settled" && me ? r.boxes.filter((b) => b.player === me && b.results) : [];
  panel.hidden = !boxes.length;
  fill(
    panel,
    boxes.map((b) =>
      h(
        "div",
        { class: "my-result-box", dataset: { box: String(b.box) } },
        h("p", { class: "my-hand-title", text: `Your result — box ${b.box}${b.hand ? `: ${b.hand}` : ""}` }),
        h(
          "ul",
          { class: "result-lines" },
          b.results.map((x) =>
            h(
              "li",
              { class: `outcome-${x.outcome}` },
              h("span", { class: "res-wager", text: WAGER_NAMES[x.wager] || x.wager }),
              h("span", { class: "res-why", text: explainLine(x, b, r, S.table.paytables) }),
              h("span", { class: "amt", text: x.net === 0 ? x.outcome : dollars(x.net, { signed: true }) }),
            ),
          ),
        ),
      ),
    ),
  );
}

function renderMyHands() {
  const r = S.round;
  const boxes = myBoxes(S)
    .map((n) => findBox(S, n))
    .filter((b) => b && b.cards && r && r.phase !== "settled" && r.phase !== "void");
  fill(
    $("#my-hands"),
    boxes.map((b) =>
      h(
        "div",
        { class: "my-hand", dataset: { box: String(b.box) } },
        h("p", { class: "my-hand-title", text: `Your hand — box ${b.box}` }),
        cardRow({ codes: b.cards, bestFour: b.best_four, size: "lg" }),
        h("p", { class: "my-hand-name", text: handStatus(b) }),
      ),
    ),
  );
}

function handStatus(b) {
  if (b.decision === 0) return `${b.hand} — folded`;
  if (b.decision) return `${b.hand} — raised ${b.decision}x (${dollars(b.wagers.raise || 0)})`;
  if (S.round?.to_act === b.box) return b.hand; // the decision panel beside it says the rest
  return raiseHint(b);
}

function renderControls() {
  if (!S) return;
  const r = S.round;
  const mine = myBoxes(S);
  const betting = Boolean(me && bettingOpen() && mine.length);
  show($("#betting"), Boolean(me && mine.length && !leftTable));
  show($("#bet-tools"), betting);
  show($("#bet-keys"), betting);
  const hasChips = mine.some((n) => {
    const w = drafts.get(n) || placed(n);
    return BET_WAGERS.some((k) => w[k]);
  });
  $("#place-bets").disabled = busy || !betting || !mine.some(differs);
  $("#repeat-bets").disabled = busy || !betting || !lastBets.size;
  $("#double-bets").disabled = busy || !betting || !hasChips;
  $("#undo-bets").disabled = busy || !betting || !undoStack.length;
  $("#clear-bets").disabled = busy || !betting || !hasChips;
  $("#withdraw-bets").disabled = busy || !betting || !mine.some((b) => findBox(S, b));
  setText($("#repeat-bets"), lastBets.size ? `Rebet ${dollars([...lastBets.values()].reduce((sum, w) => sum + stakeOf(w), 0))}` : "Rebet");
  for (const c of document.querySelectorAll(".chip")) c.disabled = !betting;

  let hint = "";
  if (!me) hint = "";
  else if (!mine.length) hint = S.table.is_open ? "Choose a free box on the felt to sit down." : "The table is closed.";
  else if (betting) {
    const rules = S.table.rules;
    hint = `Pick a chip, then press a spot on your box: chips on the layout are your bet (Shift or right-click takes one off, Undo takes back the last). Ante ${dollars(rules.ante_min)}–${dollars(rules.ante_max)}; the Odds is always equal to the Ante.`;
    if (mine.some(differs)) hint += " Your new chips are placed in a moment, or when the countdown ends; “Place bets” places them now.";
  } else if (r && r.phase === "decisions") hint = "Betting is closed: decisions now.";
  else if (!r || r.phase === "settled" || r.phase === "void") hint = "Waiting for the dealer to open betting.";
  else hint = "Betting is closed.";
  setText($("#bet-hint"), hint);

  // Decision: the box to act is one of mine.
  const toAct = r && r.phase === "decisions" && r.to_act && mine.includes(r.to_act) ? findBox(S, r.to_act) : null;
  const panel = $("#decision");
  // The panel goes once the decision is made (the round's events say so): if it had the
  // keyboard, the box just played takes it, not the page's body (the next Tab would start
  // at the top of the page, mid-round).
  const hadFocus = !panel.hidden && panel.contains(document.activeElement);
  const played = Number(panel.dataset.box) || null;
  panel.hidden = !toAct;
  panel.dataset.box = toAct ? String(toAct.box) : "";
  if (!toAct && hadFocus && played) boxEls.get(played)?.li.focus({ preventScroll: true });
  if (toAct) {
    setText($("#decision-box"), `Your turn — box ${toAct.box}`);
    setText($("#decision-hand"), toAct.hand ? raiseHint(toAct) : "Raise or fold.");
    const more = $("#more-time");
    more.hidden = extendedRound === `${r.round}:${toAct.box}`;
    more.disabled = busy;
    for (const btn of panel.querySelectorAll("button[data-raise]")) {
      const m = Number(btn.dataset.raise);
      btn.disabled = busy || (m > 1 && (toAct.max_raise || 1) < m);
      btn.textContent = m === 0 ? `Fold (lose ${dollars((toAct.wagers.ante || 0) * 2)})` : `Raise ${m}x (${dollars(m * (toAct.wagers.ante || 0))})`;
    }
    if (announcedTurn !== toAct.box) {
      announcedTurn = toAct.box;
      // Said at once, with the time left (the clock then warns at 10 and 5 seconds).
      const left = S.turn_deadline ? secondsLeft(S.turn_deadline, conn.now()) : null;
      messages.urgent(`Your turn on box ${toAct.box}: ${raiseHint(toAct)}.${left ? ` ${left} seconds to decide.` : ""}${singleKeys ? " Keys: F fold, 1 2 3 raise." : ""}`);
      // The keyboard goes to the decision (Tab then reaches Fold and the raises at once).
      if (!$("#leave-dialog").open) panel.focus({ preventScroll: true });
      const rect = panel.getBoundingClientRect();
      const pinned = $("#pinned").getBoundingClientRect().bottom;
      if (rect.bottom > window.innerHeight || rect.top < pinned) {
        panel.scrollIntoView({ block: "nearest", behavior: "smooth" });
      }
    }
  }
}

function renderResult() {
  const r = S.round;
  const el = $("#round-result");
  if (!r || !me) {
    el.hidden = true;
    return;
  }
  if (r.phase === "settled" && r.players && r.players[me]) {
    const p = r.players[me];
    const boxes = r.boxes.filter((b) => b.player === me && b.results);
    el.hidden = false;
    el.dataset.net = String(p.net);
    el.className = `round-result ${p.net > 0 ? "won" : p.net < 0 ? "lost" : "even"}`;
    // No double negatives: "You lost $15.00", never "You lost −$15.00".
    fill(
      el,
      h("span", { text: p.net > 0 ? "You won " : p.net < 0 ? "You lost " : "You broke even" }),
      p.net ? h("strong", { text: dollars(Math.abs(p.net)) }) : null,
      h("span", { class: "why", text: ` · ${resultHeadline(boxes, r)}` }),
      p.payout_limit_applied ? h("span", { text: ` · payout limit: ${dollars(p.withheld)} withheld` }) : null,
    );
  } else if (r.phase === "void" && r.boxes.some((b) => b.player === me)) {
    el.hidden = false;
    el.dataset.net = "0";
    el.className = "round-result even";
    fill(el, h("strong", { text: "Void" }), h("span", { text: " · your stakes were returned" }));
  } else {
    el.hidden = true;
  }
}

// --- game recall --------------------------------------------------------------------------------

async function loadRecall() {
  if (!me) return;
  try {
    const res = await fetch(recallUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!res.ok) return;
    const data = await res.json();
    renderRecall(data.rounds || []);
  } catch {
    /* the panel keeps what it had */
  }
}

function renderRecall(rounds) {
  const list = $("#recall");
  if (!rounds.length) {
    fill(list, h("li", { class: "hint", text: "None yet." }));
    return;
  }
  fill(
    list,
    rounds.map((rd) => {
      const mine = rd.boxes.filter((b) => b.mine);
      const net = rd.players?.[me]?.net ?? mine.reduce((sum, b) => sum + (b.net || 0), 0);
      return h(
        "li",
        { class: "recall-item" },
        h(
          "a",
          { href: rd.url },
          h("span", { class: "recall-no", text: `Round ${rd.number}` }),
          h("span", { class: `recall-net ${net > 0 ? "won" : net < 0 ? "lost" : ""}`, text: rd.phase === "void" ? "void" : dollars(net, { signed: true }) }),
        ),
        ...mine.map((b) =>
          h(
            "div",
            { class: "recall-box" },
            // The decision in the game's words (recall's decision_text: "fold", "raise 2x").
            h("span", { text: `Box ${b.box}${b.decision_text === "fold" ? " (folded)" : b.decision_text ? ` (${b.decision_text})` : ""}` }),
            b.cards ? cardRow({ codes: b.cards, bestFour: b.best_four, size: "xs" }) : null,
          ),
        ),
      );
    }),
  );
}

// --- start ---------------------------------------------------------------------------------------

function setupSingleKeys(checkbox) {
  const apply = () => {
    for (const hint of document.querySelectorAll(".hint.keys")) hint.classList.toggle("keys-off", !singleKeys);
  };
  apply();
  if (!checkbox) return;
  checkbox.checked = singleKeys;
  checkbox.addEventListener("change", () => {
    singleKeys = checkbox.checked;
    try {
      localStorage.setItem(SINGLE_KEYS, singleKeys ? "on" : "off");
    } catch {
      /* private mode: the choice lasts for this page */
    }
    apply();
  });
}

buildBoxes();
buildChips();
setupFourColour($("#four-colour"));
setupSingleKeys($("#single-keys"));
$("#place-bets").addEventListener("click", placeBets);
$("#clear-bets").addEventListener("click", clearBets);
$("#repeat-bets").addEventListener("click", repeatBets);
$("#withdraw-bets").addEventListener("click", withdrawBets);
$("#leave").addEventListener("click", leave);
$("#undo-bets").addEventListener("click", undoBets);
$("#double-bets").addEventListener("click", doubleBets);
document.addEventListener("keydown", onKey);
$("#reconnect").addEventListener("click", () => conn.connect());
for (const btn of document.querySelectorAll("#decision button[data-raise]")) {
  btn.addEventListener("click", () => decide(Number(btn.dataset.raise)));
}
$("#more-time").addEventListener("click", async () => {
  const box = S?.round?.to_act;
  if (!box) return;
  const reply = await command("more_time", { box });
  if (reply) {
    extendedRound = `${S.round.round}:${box}`;
    messages.urgent(`20 more seconds on box ${box}.`);
    render();
  }
});
setInterval(tick, 250);
conn.watchStalls(() => waitingOnHouse(S, conn.now()));
conn.connect();
// For the browser console and the tests: the connection and the state it keeps.
window.frenzy = { connection: conn, state: () => S };
loadRecall();
