// The player's page: the felt, the player's boxes, chips, decisions and results.
// State: the last snapshot with each later event applied (state.js); everything on the page is
// drawn from it. Commands and replies: protocol.js (docs/protocol.md).

import { cardRow, setupFourColour } from "./cards.js";
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
import { $, fill, h, Messages, renderStatus, secondsLeft, setText, show } from "./ui.js";
import { describeEvent, errorText } from "./words.js";
import { renderNotices } from "./notices.js";

const app = $("#app");
const tableId = Number(app.dataset.tableId);
const me = app.dataset.user || null;
const recallUrl = app.dataset.recallUrl;
const messages = new Messages($("#notice"), $("#announce"));
const CHIPS = [100, 500, 2500, 10000, 50000];
const BOX_NUMBERS = [1, 2, 3, 4, 5, 6];
const BET_WAGERS = ["ante", ...OPTIONAL];
const LOG_LIMIT = 60;

let S = null; // the table state
let chip = 500;
const drafts = new Map(); // box -> wagers being built and not yet placed
const lastBets = new Map(); // box -> wagers of the last round that was dealt
let busy = false;
let lastRoundNo = null;
let announcedTurn = null;

const conn = new TableConnection(`/ws/tables/${tableId}/`, {
  onSnapshot(snap) {
    S = snap;
    if (S.round && S.round.round !== lastRoundNo) newRound();
    if (S.round && S.round.phase !== "betting") rememberBets();
    render();
  },
  onEvents(frame) {
    if (!S) return;
    let resync = false;
    for (const ev of frame.events) {
      if (ev.kind === "betting_closed") rememberBets();
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
    show($("#superseded"), status.state === "superseded");
  },
  onNotice(code, message) {
    if (code !== "second_connection") messages.error(errorText({ code, message })); // the banner says it
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
      { class: "box", id: `box-${number}`, dataset: { box: String(number) } },
      h(
        "div",
        { class: "box-head" },
        h("span", { class: "box-no", text: String(number), "aria-hidden": "true" }),
        h("span", { class: "visually-hidden", text: `Box ${number}: ` }),
        h("span", { class: "box-player" }),
        h("button", { type: "button", class: "btn sit", onclick: () => sit(number), "aria-label": `Sit at box ${number}` }, "Sit here"),
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
          onclick: () => {
            chip = cents;
            for (const b of rack.querySelectorAll(".chip")) {
              b.setAttribute("aria-pressed", b.dataset.cents === String(cents) ? "true" : "false");
            }
            renderControls();
          },
        },
        chipDollars(cents),
      ),
    );
  }
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
    messages.error(errorText(err));
    return null;
  } finally {
    busy = false;
    renderControls();
  }
}

function sit(box) {
  if (!me) {
    location.href = app.dataset.loginUrl;
    return;
  }
  command("sit", { box });
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

function addChip(box, wager) {
  if (!canBetOn(box) || !BET_WAGERS.includes(wager)) return;
  const d = draftOf(box);
  d[wager] += chip;
  render();
  const total = d[wager];
  messages.announce(
    `${WAGER_NAMES[wager]} on box ${box}: ${dollars(total)}${wager === "ante" ? `, Odds ${dollars(total)}` : ""} (not placed yet)`,
  );
}

function removeChip(box, wager) {
  if (!canBetOn(box) || !BET_WAGERS.includes(wager)) return;
  const d = draftOf(box);
  d[wager] = Math.max(0, d[wager] - chip);
  render();
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

async function placeBets() {
  for (const box of myBoxes(S)) {
    if (!differs(box)) {
      drafts.delete(box);
      continue;
    }
    const d = drafts.get(box);
    const reply = d.ante || OPTIONAL.some((w) => d[w])
      ? await command("bet", { box, wagers: { ...d } })
      : await command("withdraw", { box });
    if (reply) drafts.delete(box);
    else return; // keep the rest of the drafts as they are; the message says why
  }
  render();
}

function clearBets() {
  for (const box of myBoxes(S)) drafts.set(box, Object.fromEntries(BET_WAGERS.map((w) => [w, 0])));
  render();
}

function repeatBets() {
  for (const box of myBoxes(S)) {
    const last = lastBets.get(box);
    if (last) drafts.set(box, { ...last });
  }
  render();
}

async function withdrawBets() {
  for (const box of myBoxes(S)) {
    drafts.delete(box);
    if (findBox(S, box)) {
      if (!(await command("withdraw", { box }))) return;
    }
  }
  render();
}

function decide(raise) {
  const box = S?.round?.to_act;
  if (!box) return;
  command("decide", { box, raise });
}

// --- events -------------------------------------------------------------------------------------

function newRound() {
  lastRoundNo = S.round?.round ?? null;
  drafts.clear();
  announcedTurn = null;
}

function rememberBets() {
  for (const box of myBoxes(S)) {
    const b = findBox(S, box);
    if (b && b.wagers.ante) {
      lastBets.set(box, Object.fromEntries(BET_WAGERS.map((w) => [w, b.wagers[w] || 0])));
    }
  }
}

function logEvent(kind, data) {
  const text = describeEvent(kind, data);
  if (!text || kind === "hole_cards") return;
  const log = $("#log");
  log.prepend(h("li", {}, h("time", { text: new Date().toLocaleTimeString() }), " ", text));
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
      messages.announce(describeEvent(kind, data));
      break;
    case "round_settled": {
      const mine = me && data.players?.[me];
      if (mine) messages.announce(`Round over: ${netWords(mine.net)}.`);
      loadRecall();
      break;
    }
    case "round_void":
      messages.announce(describeEvent(kind, data));
      loadRecall();
      break;
    default:
      break;
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
  show($("#leave"), myBoxes(S).length > 0);
  renderPaytables();
  renderPhase();
  renderDealer();
  for (const number of BOX_NUMBERS) renderBox(number);
  renderMyHands();
  renderControls();
  renderResult();
  renderNotices(S); // an irregular outcome and a rules change (notices.js)
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
        h("caption", {}, sign.wager, " ", h("span", { class: "pt-name", text: sign.name })),
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
  }
  setText($("#countdown"), text);
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
  el.li.classList.toggle("mine", mine);
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
  if (b && r && r.phase === "void") badge = "Void";
  else if (r && r.phase === "decisions" && r.to_act === number) badge = "To act";
  else if (b && b.decision === 0) badge = "Folded";
  else if (b && b.decision) badge = `Raised ${b.decision}x`;
  else if (b && b.abandoned) badge = "Left";
  else if (seat && !seat.connected) badge = "Away";
  setText(el.badge, badge);
  el.badge.hidden = !badge;

  // Cards: the owner sees them; everyone else sees backs until settlement turns them up.
  if (b && b.cards) {
    fill(el.cards, cardRow({ codes: b.cards, bestFour: b.best_four, size: "sm" }));
  } else if (b && b.dealt && r && r.phase !== "void") {
    const mucked = r.phase === "settled" && b.results;
    fill(el.cards, mucked ? h("span", { class: "mucked", text: "Folded — cards mucked" }) : cardRow({ count: 5, back: r.deck_back, size: "sm" }));
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
      `${WAGER_NAMES[wager]}, box ${number}: ${amount ? dollars(amount) : "no wager"}${pending ? " (not placed yet)" : ""}` +
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
        h("span", { class: "amt", text: dollars(x.net, { signed: true }) }),
      ),
    ),
    b && b.net !== undefined && b.net !== null && results.length
      ? h("li", { class: "box-net" }, h("span", { text: "Net" }), h("span", { class: "amt", text: dollars(b.net, { signed: true }) }))
      : null,
  );

  el.sit.hidden = Boolean(seat || !S.table.is_open);
  el.sit.disabled = busy;
  const inPlay = Boolean(b && r && !["settled", "void"].includes(r.phase) && r.phase !== "betting");
  el.stand.hidden = !mine;
  el.stand.disabled = busy || inPlay;
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
  show($("#betting"), Boolean(me && mine.length));
  show($("#bet-tools"), betting);
  for (const id of ["#place-bets", "#clear-bets", "#repeat-bets", "#withdraw-bets"]) {
    $(id).disabled = busy || !betting;
  }
  $("#place-bets").disabled = busy || !betting || !mine.some(differs);
  $("#repeat-bets").disabled = busy || !betting || !mine.some((b) => lastBets.has(b));
  $("#withdraw-bets").disabled = busy || !betting || !mine.some((b) => findBox(S, b));
  for (const c of document.querySelectorAll(".chip")) c.disabled = !betting;

  let hint = "";
  if (!me) hint = "";
  else if (!mine.length) hint = S.table.is_open ? "Choose a free box on the felt to sit down." : "The table is closed.";
  else if (betting) {
    const rules = S.table.rules;
    hint = `Pick a chip, then press a spot on your box (Shift or right-click takes one off; Clear starts over). Ante ${dollars(rules.ante_min)}–${dollars(rules.ante_max)}; the Odds is always equal to the Ante.`;
    if (mine.some(differs)) hint += " Press “Place bets” to confirm.";
  } else if (r && r.phase === "decisions") hint = "Betting is closed: decisions now.";
  else if (!r || r.phase === "settled" || r.phase === "void") hint = "Waiting for the dealer to open betting.";
  else hint = "Betting is closed.";
  setText($("#bet-hint"), hint);

  // Decision: the box to act is one of mine.
  const toAct = r && r.phase === "decisions" && r.to_act && mine.includes(r.to_act) ? findBox(S, r.to_act) : null;
  const panel = $("#decision");
  panel.hidden = !toAct;
  if (toAct) {
    setText($("#decision-box"), `Your turn — box ${toAct.box}`);
    setText($("#decision-hand"), toAct.hand ? raiseHint(toAct) : "Raise or fold.");
    for (const btn of panel.querySelectorAll("button")) {
      const m = Number(btn.dataset.raise);
      btn.disabled = busy || (m > 1 && (toAct.max_raise || 1) < m);
      btn.textContent = m === 0 ? `Fold (lose ${dollars((toAct.wagers.ante || 0) * 2)})` : `Raise ${m}x (${dollars(m * (toAct.wagers.ante || 0))})`;
    }
    if (announcedTurn !== toAct.box) {
      announcedTurn = toAct.box;
      messages.announce(`Your turn on box ${toAct.box}: ${raiseHint(toAct)}.`);
      const rect = panel.getBoundingClientRect();
      if (rect.bottom > window.innerHeight || rect.top < 0) {
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
    el.hidden = false;
    el.dataset.net = String(p.net);
    el.className = `round-result ${p.net > 0 ? "won" : p.net < 0 ? "lost" : "even"}`;
    fill(
      el,
      h("span", { text: p.net > 0 ? "You won " : p.net < 0 ? "You lost " : "Even " }),
      h("strong", { text: dollars(p.net, { signed: true }) }),
      p.payout_limit_applied ? h("span", { text: ` · payout limit: ${dollars(p.withheld)} withheld` }) : null,
      r.main_game_void ? h("span", { text: " · main game void: Ante, Odds and Raise returned" }) : null,
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
            h("span", { text: `Box ${b.box}${b.decision === 0 ? " (folded)" : b.decision ? ` (raised ${b.decision}x)` : ""}` }),
            b.cards ? cardRow({ codes: b.cards, bestFour: b.best_four, size: "xs" }) : null,
          ),
        ),
      );
    }),
  );
}

// --- start ---------------------------------------------------------------------------------------

buildBoxes();
buildChips();
setupFourColour($("#four-colour"));
$("#place-bets").addEventListener("click", placeBets);
$("#clear-bets").addEventListener("click", clearBets);
$("#repeat-bets").addEventListener("click", repeatBets);
$("#withdraw-bets").addEventListener("click", withdrawBets);
$("#leave").addEventListener("click", () => command("leave"));
$("#reconnect").addEventListener("click", () => conn.connect());
for (const btn of document.querySelectorAll("#decision button")) {
  btn.addEventListener("click", () => decide(Number(btn.dataset.raise)));
}
setInterval(tick, 250);
conn.watchStalls(() => waitingOnHouse(S, conn.now()));
conn.connect();
// For the browser console and the tests: the connection and the state it keeps.
window.frenzy = { connection: conn, state: () => S };
loadRecall();
