// The felt of every game, drawn from the round view the server sends (docs/protocol.md, protocol v2): the snapshot's `round`, then
// a `view` frame after each change. Nothing here knows a game's rules: the boxes, wagers and
// cards are the view's, and what the player may do is the view's `moves` (a bet form from a
// move's `amounts`, buttons from its `choices`), sent back as `act` commands. game_words.js
// puts the results in sentences.
//
// table.js, the page's bootstrap, mounts it from the first snapshot (a game may name a felt of
// its own instead; none does).
//
// Why one module past 500 lines: it is one render of one view, the boxes, the bet form, the
// turn panel, the result and the betting tools (Rebet, Double, Undo, the single keys) reading
// and changing the same state between two frames; its words are game_words.js's.

import { cardName, cardRow, setupFourColour, speakable } from "./cards.js";
import { applyEvent, chipDollars, dollars, TABLE_EVENTS } from "./state.js";
import { $, ClockWarnings, confirmDialog, fill, h, Messages, renderStatus, secondsLeft, setText, show } from "./ui.js";
import { describeEvent, errorText, logTime } from "./words.js";
import { renderNotices } from "./notices.js";
import {
  boxLines,
  dealerWords,
  decisionWords,
  describeGameEvent,
  foldWords,
  humanize,
  leaveWords,
  ownHandWords,
  payLegend,
  phaseWords,
  plainWords,
  readBet,
  resultParts,
  settingTotals,
  wagerName,
} from "./game_words.js";

const BOX_NUMBERS = [1, 2, 3, 4, 5, 6];
const LOG_LIMIT = 60;
// Events that change the table rather than the round (TABLE_EVENTS): the state keeps them
// (state.js); the round itself always comes whole, in the next view.
const RESYNC_EVENTS = new Set(["round_opened", "rules_changed", "rules_pending"]);

export function mount({ app, conn, snapshot, me, pending = [] }) {
  const template = document.getElementById("felt-generic");
  app.replaceChildren(template.content.cloneNode(true));
  app.classList.add("generic-felt");
  const messages = new Messages($("#notice"), $("#announce"));
  const warnings = new ClockWarnings(messages);
  let S = snapshot;
  let busy = false;
  let viewVersion = snapshot.version;
  let formKey = "";
  let announcedTurn = null;
  const extendedTurns = new Set(); // "round:box" that had their extra time
  let revealScrolled = null; // the round and phase the dealer's hand was last brought into view for
  const meters = new Map(); // meter id -> newest frame
  for (const m of snapshot.table.meters || []) meters.set(m.meter, m);
  // Rebet: each box's wagers of the last round that was dealt, kept over reloads in this
  // browser; placed again with one press, as far as the bet move's amounts take them.
  const rebetKey = `frenzy.rebet.${app.dataset.tableId}.${me || ""}`;
  let lastBets = loadRebet();
  let rememberedRound = null;
  let leftMidRound = false; // left while a box was in play: the seats go once the round is over
  let recallFor = null; // the round the recall panel was last loaded after
  // Single-key shortcuts (on unless turned off; WCAG 2.1.4: the choice outlives a reload).
  const SINGLE_KEYS = "frenzy.singleKeys";
  let singleKeys = true;
  try {
    singleKeys = localStorage.getItem(SINGLE_KEYS) !== "off";
  } catch {
    /* private mode: on, for this page */
  }
  // The amounts the number keys pick, and the one picked (put down by "A").
  const KEY_AMOUNTS = [100, 500, 2500, 10000, 50000];
  let keyAmount = 500;

  // --- frames --------------------------------------------------------------------------------

  conn.h = {
    onSnapshot(snap) {
      S = snap;
      viewVersion = snap.version;
      for (const m of snap.table.meters || []) keepMeter(m);
      render();
      recallOnceFinished(); // a resync or a gap can be the first word of a finished round
    },
    onEvents(frame) {
      let resync = false;
      for (const ev of frame.events || []) {
        if (TABLE_EVENTS.has(ev.kind)) applyEvent(S, ev.kind, ev.data);
        if (ev.kind === "round_opened" && ev.data) S.betting_deadline = ev.data.deadline ?? S.betting_deadline;
        if (ev.data && typeof ev.data.deadline === "number" && ev.kind !== "round_opened" && ev.kind !== "betting_clock") {
          S.turn_deadline = ev.data.deadline;
        }
        resync = RESYNC_EVENTS.has(ev.kind) || resync;
        log(ev.kind, ev.data || {});
      }
      render();
      if (resync) conn.requestSnapshot();
    },
    onView(frame) {
      // A view is at least as new as its version; a later one replaces it.
      if (frame.version < viewVersion) return;
      viewVersion = frame.version;
      // A refusal said for the last step is old news once the round moves on.
      if (S.round?.phase !== frame.round?.phase && $("#notice").dataset.kind === "error") messages.clear();
      S.round = frame.round;
      rememberBets();
      render();
      bringRevealIntoView();
      if (leftMidRound && finished() && myBoxes().length) {
        leftMidRound = false;
        command("leave"); // nothing in play now: free the seats
      }
      recallOnceFinished();
    },
    onMeter(frame) {
      keepMeter(frame);
      renderMeters();
    },
    onStatus(status) {
      renderStatus($("#conn"), status);
      show($("#superseded"), status.state === "superseded");
    },
    onNotice(code, message) {
      if (code !== "second_connection") messages.error(plainWords(errorText({ code, message })));
    },
  };

  function keepMeter(frame) {
    const known = meters.get(frame.meter);
    if (known && known.version > frame.version) return;
    meters.set(frame.meter, { ...frame, changed: Boolean(known && known.amount !== frame.amount) });
  }

  // --- commands --------------------------------------------------------------------------------

  async function command(cmd, fields = {}) {
    busy = true;
    renderMoves();
    try {
      const reply = await conn.send(cmd, fields);
      if ($("#notice").dataset.kind === "error") messages.clear();
      return reply;
    } catch (err) {
      messages.error(plainWords(errorText(err)));
      return null;
    } finally {
      busy = false;
      render();
    }
  }

  function act(move, box, args = {}) {
    return command("act", { move, box, args });
  }

  /** A decision or a setting: once made, its panel is gone; the keyboard goes to the next
   * turn's panel if there is one, else to the box just played (not to the top of the page). */
  async function decide(move, box, args) {
    const reply = await act(move, box, args);
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected || active.closest("[hidden]")) {
      const panel = $("#my-turn");
      (panel && !panel.hidden ? panel : boxEl(box).li).focus({ preventScroll: true });
    }
    return reply;
  }

  // --- helpers ---------------------------------------------------------------------------------

  const round = () => S.round;
  const labels = () => S.table.felt?.labels || {};
  const seatOf = (n) => S.seats.find((s) => s.box === n) || null;
  const boxOf = (n) => round()?.boxes.find((b) => b.box === n) || null;
  const myBoxes = () => (me ? S.seats.filter((s) => s.player === me).map((s) => s.box).sort((a, b) => a - b) : []);
  const moves = () => round()?.moves || [];
  const finished = () => !round() || ["settled", "void"].includes(round().phase);

  // --- rendering -------------------------------------------------------------------------------

  /** The rules the layout prints under the game's name, in the game's words (FeltParts.printed:
   * e.g. the dealer qualifying), one line each; none: nothing printed. */
  function renderPrinted() {
    const el = $(".g-printed");
    const lines = S.table.felt?.printed || [];
    const key = lines.join("\n");
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    fill(el, lines.map((text) => h("span", { class: "qualify", text })));
    el.hidden = !lines.length;
  }

  function render() {
    if (!S) return;
    app.dataset.ready = "1";
    app.dataset.game = S.table.game;
    app.dataset.phase = round() ? round().phase : "none";
    app.dataset.version = String(conn.version);
    const title = S.table.game_title || humanize(S.table.game);
    for (const el of app.querySelectorAll(".g-game-title")) setText(el, title);
    document.title = `${S.table.name} · ${title}`;
    renderPrinted();
    renderHead();
    renderDealer();
    for (const n of BOX_NUMBERS) renderBox(n);
    renderMyHands();
    renderMoves();
    renderResult();
    renderMeters();
    renderSigns();
    tick();
  }

  function renderHead() {
    // The limits line is the page's (the table's Rules Submission, as at the first felt);
    // only whether the table is open changes here.
    setText(app.querySelector(".g-open"), S.table.is_open ? "open" : "closed");
    const r = round();
    setText($("#round-no"), r ? `Round ${r.round}` : "");
    setText($("#phase"), S.table.is_open ? phaseWords(r) : "Table closed");
    const balance = $("#balance");
    if (S.me) {
      setText(balance, dollars(S.me.balance));
      balance.dataset.cents = String(S.me.balance);
    }
    show($("#spectator"), !me);
    // What ended the round irregularly, and a change of the table's rules before the betting
    // window it applies to, in words without the regulation's sections (notices.js).
    renderNotices(S);
    tellRulesNotice();
  }

  /** A rules change sits at the top of the felt: on a phone scrolled down to the hand it is
   * out of sight (or under the pinned bar), so it is told once in the message bar too. */
  let rulesNoticeTold = "";
  function tellRulesNotice() {
    const el = $("#rules-notice");
    const text = el.hidden ? "" : el.textContent;
    if (text === rulesNoticeTold) return;
    const told = $("#notice");
    // The bar still telling the old words ("From the next round") would contradict the felt.
    if (!told.hidden && rulesNoticeTold && told.textContent.includes(rulesNoticeTold)) told.hidden = true;
    if (text) {
      const rect = el.getBoundingClientRect();
      const bar = $("#pinned").getBoundingClientRect().bottom;
      if (rect.top < bar - 1 || rect.bottom > window.innerHeight) messages.notice(text);
    }
    rulesNoticeTold = text;
  }

  function emptySpots(n) {
    return h("span", { class: "empty-row", "aria-hidden": "true" }, Array.from({ length: n }, () => h("span", { class: "empty-spot" })));
  }

  function renderDealer() {
    const r = round();
    const back = r?.deck_back || "red";
    if (r && r.dealer && r.dealer.cards) {
      fill($("#dealer-cards"), cardRow({ codes: r.dealer.cards, bestFour: r.dealer.best_four || null, size: "md" }));
    } else if (r && r.dealt && r.phase !== "void") {
      fill($("#dealer-cards"), cardRow({ count: 5, back, size: "md" }));
    } else {
      fill($("#dealer-cards"), emptySpots(5));
    }
    const dealerText = dealerWords(r);
    const dealerHand = $("#dealer-hand");
    if (dealerHand.dataset.text !== dealerText) {
      dealerHand.dataset.text = dealerText;
      fill(dealerHand, speakable(dealerText)); // the cards in words for screen readers
    }
    // A shared card's spot (the view's shared_card, with its label; e.g. a Six Card Bonus card,
    // §657a.10(b)).
    const six = r?.shared_card ?? r?.six_card_bonus;
    const spot = $("#extra-spot");
    show(spot, Boolean(six && six.dealt));
    if (six && six.dealt) {
      setText(app.querySelector(".g-extra-label"), six.label || "Six Card Bonus card");
      fill($("#extra-card"), six.card ? cardRow({ codes: [six.card], size: "md" }) : cardRow({ count: 1, back, size: "md" }));
    }
  }

  const boxEls = new Map();

  function boxEl(n) {
    let el = boxEls.get(n);
    if (el) return el;
    const li = h(
      "li",
      { class: "box", id: `box-${n}`, tabindex: "-1", dataset: { box: String(n) } },
      h(
        "div",
        { class: "box-head" },
        h("span", { class: "box-no", text: String(n), "aria-hidden": "true" }),
        h("span", { class: "visually-hidden", text: `Box ${n}: ` }),
        h("span", { class: "box-player" }),
        h("button", { type: "button", class: "btn sit", onclick: () => sit(n), "aria-label": `Sit here: box ${n}` }, "Sit here"),
        h("span", { class: "box-badge" }),
      ),
      h("div", { class: "box-cards" }),
      h("p", { class: "box-hand" }),
      h("div", { class: "g-setting" }),
      h("ul", { class: "g-wagers", "aria-label": `Wagers on box ${n}` }),
      h("ul", { class: "box-results" }),
    );
    $("#boxes").append(li);
    $("#stand-buttons").append(h("button", { type: "button", class: "btn subtle stand", id: `stand-${n}`, hidden: true, onclick: () => command("stand", { box: n }) }, `Stand up from box ${n}`));
    el = {
      li,
      player: li.querySelector(".box-player"),
      badge: li.querySelector(".box-badge"),
      sit: li.querySelector(".sit"),
      cards: li.querySelector(".box-cards"),
      hand: li.querySelector(".box-hand"),
      setting: li.querySelector(".g-setting"),
      wagers: li.querySelector(".g-wagers"),
      results: li.querySelector(".box-results"),
      stand: $(`#stand-${n}`),
    };
    boxEls.set(n, el);
    return el;
  }

  function settingRow(setting) {
    return h(
      "span",
      { class: "g-setting-row" },
      h("span", { class: "g-hand-part" }, h("span", { class: "g-part-name", text: "High" }), cardRow({ codes: setting.high, size: "xs" }), h("strong", { text: ` ${setting.high_total}` })),
      h("span", { class: "g-hand-part" }, h("span", { class: "g-part-name", text: "Low" }), cardRow({ codes: setting.low, size: "xs" }), h("strong", { text: ` ${setting.low_total}` })),
    );
  }

  function renderBox(n) {
    const el = boxEl(n);
    const r = round();
    const seat = seatOf(n);
    const b = boxOf(n);
    const left = Boolean(b && b.abandoned);
    const mine = Boolean(me && !left && ((seat && seat.player === me) || (b && b.player === me)));
    el.li.classList.toggle("mine", mine);
    el.li.classList.toggle("empty", !seat && !b);
    const acting = Boolean(r && (r.to_act === n || (r.phase === "setting" && (r.setting_pending || []).includes(n))));
    el.li.classList.toggle("to-act", acting && !finished());
    el.li.classList.toggle("folded", Boolean(b && decisionWords(b) === "Folded"));
    const player = seat?.player || b?.player || "";
    setText(el.player, player);
    el.player.hidden = !player;
    el.player.classList.toggle("offline", Boolean(seat && !seat.connected));
    let badge = "";
    if (b && r?.phase === "void") badge = "Void";
    else if (left) badge = b.folded ? "Left — folded" : "Left";
    else if (r && r.phase === "decisions" && r.to_act === n) badge = "To act";
    else if (r && r.phase === "setting" && (r.setting_pending || []).includes(n)) badge = "Setting";
    else if (b) badge = decisionWords(b);
    setText(el.badge, badge);
    el.badge.hidden = !badge;
    // Cards: the owner sees them; the others see backs until settlement turns them up.
    if (b && b.cards) {
      fill(el.cards, cardRow({ codes: b.cards, bestFour: b.best_four || null, size: "sm" }));
    } else if (b && b.discarded && b.dealt) {
      fill(el.cards, h("span", { class: "mucked", text: "Folded — cards to the discard rack" }));
    } else if (b && b.dealt && r && r.phase !== "void") {
      fill(el.cards, cardRow({ count: 5, back: r.deck_back, size: "sm" }));
    } else {
      fill(el.cards);
    }
    setText(el.hand, b && b.cards ? ownHandWords(b) : "");
    fill(el.setting, b && b.setting ? settingRow(b.setting) : null);
    const names = labels();
    fill(
      el.wagers,
      b
        ? Object.entries(b.wagers)
          .filter(([, cents]) => cents > 0)
          .map(([wager, cents]) => h("li", { class: "g-chip", dataset: { wager } }, h("span", { class: "g-chip-name", text: wagerName(wager, names) }), h("span", { class: "g-chip-amt", text: chipDollars(cents) })))
        : [],
    );
    const lines = b && b.results ? boxLines(b, r, names) : [];
    fill(
      el.results,
      lines.map((x) => h("li", { class: `outcome-${x.outcome}` }, h("span", { class: "res-wager", text: x.name }), h("span", { class: "amt", text: x.amount }))),
      b && b.results && typeof b.net === "number" ? h("li", { class: "box-net" }, h("span", { text: "Net" }), h("span", { class: "amt", text: dollars(b.net, { signed: true }) })) : null,
    );
    // A box of a finished round is free once its seat is (the round keeps showing its result);
    // a spectator's "Sit here" leads to the login.
    el.sit.hidden = Boolean(seat || (b && !finished()) || !S.table.is_open || !maySit(n));
    el.sit.disabled = busy;
    el.stand.hidden = !(seat && seat.player === me);
    el.stand.disabled = busy || Boolean(b && !finished() && r.phase !== "betting");
  }

  function renderMyHands() {
    const r = round();
    const boxes = (r?.boxes || []).filter((b) => b.player === me && b.cards && !finished());
    fill(
      $("#my-hands"),
      boxes.map((b) =>
        h(
          "div",
          { class: "my-hand", dataset: { box: String(b.box) } },
          h("p", { class: "my-hand-title", text: `Your hand — box ${b.box}` }),
          cardRow({ codes: b.cards, bestFour: b.best_four || null, size: "lg" }),
          h("p", { class: "my-hand-name", text: [ownHandWords(b), decisionWords(b)].filter(Boolean).join(" — ") }),
          b.setting ? h("div", { class: "g-my-setting" }, h("span", { class: "hint", text: "Set: " }), settingRow(b.setting)) : null,
        ),
      ),
    );
  }

  // --- the moves -------------------------------------------------------------------------------

  function renderMoves() {
    if (!S) return;
    renderTurn();
    renderBetForm();
    const mine = myBoxes();
    const r = round();
    let hint = "";
    if (!me) hint = "";
    else if (!mine.length) hint = S.table.is_open ? "Choose a free box on the felt and sit down to play." : "The table is closed.";
    else if (r && r.phase === "betting") hint = moves().some((m) => m.move === "bet") ? "" : "Your boxes take no more wagers this round.";
    else if (finished()) hint = "Waiting for the dealer to open betting.";
    else if (!moves().length) hint = "Betting is closed: waiting for the other boxes and the dealer.";
    setText($("#play-hint"), hint);
    const leave = $("#leave");
    // Left mid-round: the seats are held until the round is over, but are no longer in play.
    const gone = !finished() && mine.length && mine.every((n) => boxOf(n)?.abandoned);
    leave.hidden = !mine.length || Boolean(gone);
    leave.disabled = busy;
  }

  /** The player's decision or setting: one panel, buttons from the move's choices. */
  function renderTurn() {
    const panel = $("#my-turn");
    const move = moves().find((m) => m.move === "decide" || m.move === "set_hands");
    // Gone with the keyboard in it (a time-out, the other panel's step): the box takes it.
    const hadFocus = !panel.hidden && panel.contains(document.activeElement);
    const played = Number(panel.dataset.box) || null;
    panel.hidden = !move;
    panel.dataset.box = move ? String(move.box) : "";
    if (!move) {
      panel.dataset.key = "";
      if (hadFocus && played) boxEl(played).li.focus({ preventScroll: true });
      return;
    }
    const extended = extendedTurns.has(`${round().round}:${move.box}`);
    const key = `${round().round}:${move.move}:${move.box}:${busy}:${extended}:${singleKeys}`;
    if (panel.dataset.key === key) return; // keep the keyboard where it is
    panel.dataset.key = key;
    const b = boxOf(move.box);
    const title = h("p", { class: "decision-title" }, h("strong", { text: `Your turn — box ${move.box}: ${move.label}` }), " ", h("span", { id: "turn-clock", class: "countdown", role: "timer" }));
    const hand = b && b.cards ? h("p", { class: "decision-hand", text: ownHandWords(b) }) : null;
    if (move.move === "set_hands") {
      // Point values (§663a.6(a)), the one choice (§663a.11(d)) and how Ante and Play are
      // settled (§663a.11(g)), in words: no citation for the player.
      const values = "Cards count their number; 10, J, Q and K count 10; an ace counts 11";
      const settle = "Ante and Play win when your high total is higher AND your low total is lower than the dealer's; if only one of them is, they are returned. A tie counts for the dealer.";
      const help = move.choices.length > 1
        ? `Choose how your five cards split: three in the high hand, two in the low hand. ${values}. An ace may count as 1 in your low hand (only one ace). ${settle}`
        : `Your five cards split one way only: the three highest in the high hand, the two lowest in the low hand. ${values} in the high hand, 1 in the low hand. ${settle}`;
      fill(panel, title, hand, h("p", { class: "hint g-set-help", text: help }), settingChoices(move, b), turnKeys(move), moreTimeButton(move, extended));
    } else {
      fill(panel, title, hand, decideButtons(move, b), turnKeys(move), moreTimeButton(move, extended), b && b.settings ? settingsPreview(b) : null);
    }
    if (announcedTurn !== key.split(":").slice(0, 3).join(":")) {
      announcedTurn = key.split(":").slice(0, 3).join(":");
      // Said at once, with the time left; the clock then warns at 10 and 5 seconds.
      const left = S.turn_deadline ? secondsLeft(S.turn_deadline, conn.now()) : null;
      messages.urgent(`Your turn on box ${move.box}: ${move.label}.${left ? ` ${left} seconds ${move.move === "set_hands" ? "to set your hands" : "to decide"}.` : ""}`);
      panel.focus({ preventScroll: true });
      const rect = panel.getBoundingClientRect();
      if (rect.bottom > window.innerHeight || rect.top < $("#pinned").getBoundingClientRect().bottom) {
        panel.scrollIntoView({ block: "nearest", behavior: "smooth" });
      }
    }
  }

  function decideButtons(move, b) {
    const buttons = move.choices.map((c) =>
      h("button", { type: "button", class: `btn ${isFold(c) ? "fold" : "raise primary"}`, disabled: busy, dataset: { choice: c.label }, onclick: () => decide(move.move, move.box, c.args) }, c.label),
    );
    // A free amount between limits (e.g. a Play of 1x to 3x the Ante with aces or better).
    const free = move.amounts.map((a) => {
      const input = h("input", { type: "number", class: "g-amount", id: `amount-${move.box}-${a.arg}`, min: String(a.low / 100), max: String(a.high / 100), step: String((S.table?.betting_unit || 100) / 100), value: String(a.low / 100) });
      return h(
        "span",
        { class: "g-free-amount" },
        h("label", { for: input.id, text: `${a.label} (${dollars(a.low)} – ${dollars(a.high)}) $` }),
        input,
        h("button", { type: "button", class: "btn", disabled: busy, onclick: () => decide(move.move, move.box, { [a.arg]: Math.round(Number(input.value) * 100) }) }, `${a.label} this amount`),
      );
    });
    const warning = move.choices.some(isFold) ? foldWords(S.table.felt?.fold_keeps, b, labels()) : "";
    // Why the decision offered is what it is (e.g. a Play of 1x only, or up to 3x): the game's
    // words, in the view (table/games/words.py).
    const why = b?.play_options?.words || "";
    return h(
      "div",
      {},
      why ? h("p", { class: "hint g-play-why", text: why }) : null,
      h("div", { class: "decision-buttons" }, buttons, free),
      warning ? h("p", { class: "hint g-fold-cost", text: warning }) : null,
    );
  }

  /** More time on the player's own clock, once a round (WCAG 2.2.1; the server holds the
   * allowance: services/more_time.py). */
  function moreTimeButton(move, extended) {
    if (extended) return null;
    const ask = async () => {
      if (await command("more_time", { box: move.box })) {
        extendedTurns.add(`${round().round}:${move.box}`);
        messages.urgent(`20 more seconds on box ${move.box}.`);
        render();
        $("#my-turn").focus({ preventScroll: true });
      }
    };
    return h("p", { class: "more-time-row" }, h("button", { type: "button", class: "btn subtle more-time", disabled: busy, onclick: ask }, "More time (+20 s, once a round)"));
  }

  function spokenList(codes) {
    return (codes || []).map(cardName).join(", ");
  }

  function isFold(choice) {
    return /^fold/i.test(choice.label);
  }

  /** A hand set high and low: the settings the hand allows, shown before the decision
   * (§663a.11(d)), each named by the game (its `title`: what it does with the aces) and with
   * both totals. */
  function settingsPreview(b) {
    const n = b.settings.length;
    return h(
      "div",
      { class: "g-preview" },
      h("p", { class: "hint", text: n > 1 ? "If you play, you then choose one of these ways to set your hands:" : "If you play, your hands are set this way:" }),
      h(
        "ul",
        { class: "g-preview-list" },
        b.settings.map((s) =>
          h(
            "li",
            { class: "g-preview-option", dataset: { aceLow: String(Boolean(s.ace_low)) } },
            h("p", { class: "g-option-title" }, h("strong", { text: s.title || "Your setting" }), h("span", { text: ` — ${settingTotals(s)}` })),
            settingRow(s),
          ),
        ),
      ),
    );
  }

  /** The set_hands move's choices, side by side: each a high and a low hand with totals. */
  function settingChoices(move, b) {
    const offered = b?.settings || [];
    const same = (x, y) => x.length === y.length && x.every((c, i) => c === y[i]);
    return h(
      "div",
      { class: "g-settings", role: "group", "aria-label": "The ways to set your hand" },
      move.choices.map((c, i) => {
        const s = offered.find((o) => same(o.high, c.args.high) && same(o.low, c.args.low));
        const high = s ? s.high_total : null;
        const low = s ? s.low_total : null;
        return h(
          "div",
          { class: "g-setting-choice", dataset: { index: String(i) } },
          h("p", { class: "g-choice-title", text: s?.title || "Your setting" }),
          h("div", { class: "g-choice-hand" }, h("span", { class: "g-part-name", text: "High hand" }), cardRow({ codes: c.args.high, size: "md" }), h("span", { class: "g-total", text: high === null ? "" : `= ${high}` })),
          h("div", { class: "g-choice-hand" }, h("span", { class: "g-part-name", text: "Low hand" }), cardRow({ codes: c.args.low, size: "md" }), h("span", { class: "g-total", text: low === null ? "" : `= ${low}` })),
          h(
            "button",
            {
              type: "button",
              class: "btn primary",
              disabled: busy,
              // The cards in words, as the cards themselves are named; the button's own words first.
              "aria-label": `Set these hands: high hand ${spokenList(c.args.high)}${high === null ? "" : `, total ${high}`}; low hand ${spokenList(c.args.low)}${low === null ? "" : `, total ${low}`}`,
              onclick: () => decide(move.move, move.box, c.args),
            },
            "Set these hands",
          ),
        );
      }),
    );
  }

  /** The bet form: per box of mine with a bet move, an input per amount, within its limits. */
  function renderBetForm() {
    const form = $("#bet-form");
    const mine = myBoxes();
    const bets = moves().filter((m) => m.move === "bet" && mine.includes(m.box));
    renderRebet(bets);
    renderBetTools(bets);
    renderBetKeys(bets);
    const withdraws = new Set(moves().filter((m) => m.move === "withdraw").map((m) => m.box));
    form.hidden = !bets.length;
    const key = `${round()?.round}:${bets.map((m) => `${m.box}/${m.amounts.map((a) => `${a.arg}${a.low}-${a.high}`).join(",")}`).join(";")}:${[...withdraws].join(",")}`;
    if (form.dataset.key !== key) {
      form.dataset.key = key;
      fill(form, bets.map((m) => betBox(m, withdraws.has(m.box))));
    }
    for (const btn of form.querySelectorAll("button")) btn.disabled = busy;
    for (const m of bets) {
      const placed = boxOf(m.box)?.wagers || {};
      syncBetFields(form, m, placed);
      const text = Object.entries(placed).filter(([, c]) => c > 0).map(([w, c]) => `${wagerName(w, labels())} ${dollars(c)}`).join(", ");
      setText(form.querySelector(`[data-placed="${m.box}"]`), text ? `On the felt: ${text}.` : "No wagers yet.");
    }
  }

  /** When a box's wagers on the felt change (placed, doubled, undone, rebet), its fields show
   * them; what the player is typing is left alone until then. */
  const seenWagers = new Map(); // box -> the wagers its fields last showed
  function syncBetFields(form, move, placed) {
    const key = `${round()?.round}:${JSON.stringify(placed)}`;
    const fieldset = form.querySelector(`fieldset[data-box="${move.box}"]`);
    if (!fieldset || seenWagers.get(move.box) === key) return;
    const fresh = !seenWagers.has(move.box) || seenWagers.get(move.box).split(":")[0] !== String(round()?.round);
    seenWagers.set(move.box, key);
    if (fresh) return; // just drawn from the view
    for (const a of move.amounts) {
      const input = fieldset.querySelector(`#bet-${move.box}-${a.arg}`);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = Boolean(placed[a.arg]);
      else input.value = placed[a.arg] ? String(placed[a.arg] / 100) : a.required ? String(a.low / 100) : "";
    }
  }

  // --- wagers put down this betting phase: undo, double -----------------------------------------

  let betSteps = { round: null, steps: [] }; // each put: the box and its wagers before it
  function steps() {
    const r = round()?.round ?? null;
    if (betSteps.round !== r) betSteps = { round: r, steps: [] };
    return betSteps.steps;
  }
  const myBetMoves = () => moves().filter((m) => m.move === "bet" && myBoxes().includes(m.box));
  /** The box's wagers that its bet move takes (a wager the game derives, e.g. one equal to
   * the Ante, follows them). */
  function betArgs(move) {
    const placed = boxOf(move.box)?.wagers || {};
    return Object.fromEntries(move.amounts.filter((a) => placed[a.arg] > 0).map((a) => [a.arg, placed[a.arg]]));
  }

  /** A box's wagers put down (``args``; null: taken back), remembered so Undo can go back. */
  async function placeBet(box, args) {
    const move = myBetMoves().find((m) => m.box === box);
    const before = move ? betArgs(move) : {};
    const reply = args ? await act("bet", box, args) : await act("withdraw", box);
    if (reply) steps().push({ box, before });
    render();
    return reply;
  }

  /** Undo: the last wager put down this betting phase taken back (the box's wagers as they
   * were before it, with the bet or withdraw move). */
  async function undoBet() {
    const list = steps();
    const last = list.pop();
    if (!last) return;
    const back = Object.keys(last.before).length ? act("bet", last.box, last.before) : act(moves().some((m) => m.move === "withdraw" && m.box === last.box) ? "withdraw" : "bet", last.box);
    if (await back) messages.announce(`Last wager taken back on box ${last.box}.`);
    else list.push(last);
    render();
  }

  /** Each wager twice as much again: the same wagers put down again, each as far as its
   * limit (the bet move's amounts: the table's limits). */
  function doublePlan() {
    return myBetMoves()
      .map((m) => {
        const now = betArgs(m);
        const args = Object.fromEntries(m.amounts.filter((a) => now[a.arg]).map((a) => [a.arg, a.low === a.high ? now[a.arg] : Math.min(now[a.arg] * 2, a.high)]));
        return Object.keys(args).some((w) => args[w] !== now[w]) ? { box: m.box, args } : null;
      })
      .filter(Boolean);
  }

  async function doubleBets() {
    const plan = doublePlan();
    for (const p of plan) {
      if (!(await placeBet(p.box, p.args))) return;
    }
    if (plan.length) messages.announce("Your wagers are doubled, within the table's limits.");
  }

  // --- single-key shortcuts --------------------------------------------------------------------

  /** The box the keys bet on: the one the keyboard is in, else the player's first. */
  function keyBox(bets) {
    const at = document.activeElement?.closest?.("[data-box]");
    const n = at ? Number(at.dataset.box) : null;
    return bets.find((m) => m.box === n) || bets[0] || null;
  }
  /** The wager "A" adds to: the bet move's first required amount (e.g. the Ante). */
  const mainAmount = (move) => move.amounts.find((a) => a.required && a.low !== a.high) || move.amounts.find((a) => a.low !== a.high) || null;

  function renderBetKeys(bets) {
    const hint = $("#bet-keys");
    const move = keyBox(bets);
    const main = move ? mainAmount(move) : null;
    hint.hidden = !singleKeys || !main;
    if (hint.hidden) return;
    const key = `${keyAmount}:${move.box}:${main.label}:${busy}`;
    if (hint.dataset.key === key) return;
    hint.dataset.key = key;
    fill(
      hint,
      "Keys: ",
      KEY_AMOUNTS.flatMap((c, i) => [i ? " · " : "", h("span", { class: `g-key-amount${c === keyAmount ? " picked" : ""}`, dataset: { cents: String(c) }, "aria-current": c === keyAmount ? "true" : "false" }, h("kbd", { text: String(i + 1) }), ` ${dollars(c)}`)]),
      " pick an amount; ",
      h("kbd", { text: "A" }),
      ` adds it to the ${main.label} of box ${move.box} and places it; `,
      h("kbd", { text: "U" }),
      " undo, ",
      h("kbd", { text: "D" }),
      " double, ",
      h("kbd", { text: "R" }),
      " rebet.",
    );
  }

  async function addByKey(bets) {
    const move = keyBox(bets);
    const main = move ? mainAmount(move) : null;
    if (!main) return;
    const args = betArgs(move);
    args[main.arg] = (args[main.arg] || 0) + keyAmount;
    if (await placeBet(move.box, args)) messages.announce(`${dollars(keyAmount)} more on the ${main.label} of box ${move.box}.`);
  }

  function onKey(ev) {
    if (!S || !singleKeys || busy || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    const t = ev.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    if (document.querySelector("dialog[open]")) return;
    const k = ev.key.toLowerCase();
    const turn = moves().find((m) => m.move === "decide" || m.move === "set_hands");
    if (turn) {
      // F folds; 1, 2, 3 press the first, second, third choice offered after the fold.
      const fold = turn.choices.find(isFold);
      const others = turn.choices.filter((c) => !isFold(c));
      const choice = k === "f" ? fold : /^[1-9]$/.test(k) ? others[Number(k) - 1] : null;
      if (!choice) return;
      ev.preventDefault();
      decide(turn.move, turn.box, choice.args);
      return;
    }
    const bets = myBetMoves();
    if (!bets.length) return;
    if (/^[1-9]$/.test(k) && KEY_AMOUNTS[Number(k) - 1]) {
      keyAmount = KEY_AMOUNTS[Number(k) - 1];
      renderBetKeys(bets);
    } else if (k === "a") addByKey(bets);
    else if (k === "u") undoBet();
    else if (k === "d") doubleBets();
    else if (k === "r") repeatBets();
    else return;
    ev.preventDefault();
  }

  function turnKeys(move) {
    if (!singleKeys) return null;
    const fold = move.choices.find(isFold);
    const others = move.choices.filter((c) => !isFold(c)).slice(0, 9);
    const parts = [...(fold ? [["F", fold.label]] : []), ...others.map((c, i) => [String(i + 1), c.label])];
    if (!parts.length) return null;
    return h("p", { class: "hint keys g-turn-keys" }, "Keys: ", parts.flatMap(([k, label], i) => [i ? ", " : "", h("kbd", { text: k }), ` ${label}`]), ".");
  }

  function renderBetTools(bets) {
    const double = $("#double-bets");
    const undo = $("#undo-bets");
    double.hidden = undo.hidden = !bets.length;
    double.disabled = busy || !doublePlan().length;
    undo.disabled = busy || !steps().length;
  }

  function betBox(move, canWithdraw) {
    const placed = boxOf(move.box)?.wagers || {};
    const rows = move.amounts.map((a) => {
      const id = `bet-${move.box}-${a.arg}`;
      const limits = a.low === a.high ? dollars(a.low) : `${dollars(a.low)} – ${dollars(a.high)}`;
      if (a.low === a.high) {
        return h(
          "div",
          { class: "g-bet-row" },
          h("input", { type: "checkbox", id, dataset: { arg: a.arg, fixed: String(a.low) }, checked: Boolean(placed[a.arg]) }),
          h("label", { for: id }, h("span", { class: "g-bet-label", text: a.label }), " ", h("span", { class: "hint", text: limits })),
        );
      }
      const value = placed[a.arg] ? String(placed[a.arg] / 100) : a.required ? String(a.low / 100) : "";
      return h(
        "div",
        { class: "g-bet-row" },
        h("label", { for: id }, h("span", { class: "g-bet-label", text: a.label }), " ", h("span", { class: "hint", text: `${limits}${a.required ? "" : ", optional"}` })),
        h("span", { class: "g-dollar" }, "$", h("input", { type: "number", id, inputmode: "decimal", min: a.required ? String(a.low / 100) : "0", max: String(a.high / 100), step: String((S.table?.betting_unit || 100) / 100), value, placeholder: a.required ? "" : "0", dataset: { arg: a.arg } })),
      );
    });
    const submit = async (ev) => {
      ev.preventDefault();
      const entries = [...ev.target.closest("fieldset").querySelectorAll("input[data-arg]")].map((input) => {
        const a = move.amounts.find((x) => x.arg === input.dataset.arg) || {};
        // A number field holds "" for what is not a number: its raw text is still shown back.
        const text = input.value === "" && input.validity?.badInput ? "?" : input.value;
        return { arg: input.dataset.arg, label: a.label || input.dataset.arg, text, fixed: input.dataset.fixed, checked: input.checked, low: a.low, high: a.high, required: a.required };
      });
      const bet = readBet(move.box, entries, S.table?.betting_unit);
      if (bet.error) {
        messages.error(bet.error);
        return;
      }
      if (await placeBet(move.box, bet.args)) messages.announce(`Wagers placed on box ${move.box}.`);
    };
    return h(
      "fieldset",
      { class: "g-bet-box", dataset: { box: String(move.box) } },
      h("legend", { text: `Box ${move.box} — your wagers` }),
      rows,
      h("p", { class: "hint g-placed", dataset: { placed: String(move.box) } }),
      h(
        "div",
        { class: "bet-actions" },
        h("button", { type: "submit", class: "btn primary", onclick: submit }, `Place wagers on box ${move.box}`),
        canWithdraw ? h("button", { type: "button", class: "btn", onclick: () => placeBet(move.box, null) }, "Take them back") : null,
      ),
    );
  }

  // --- rebet ------------------------------------------------------------------------------------

  function loadRebet() {
    try {
      const saved = JSON.parse(localStorage.getItem(rebetKey) || "{}");
      return new Map(Object.entries(saved).map(([box, w]) => [Number(box), w]));
    } catch {
      return new Map();
    }
  }

  /** Once betting is over, the wagers on the player's boxes are the ones Rebet places next. */
  function rememberBets() {
    const r = round();
    if (!r || !me || r.phase === "betting" || r.phase === "void" || rememberedRound === r.round) return;
    rememberedRound = r.round;
    const mine = r.boxes.filter((b) => b.player === me && Object.values(b.wagers || {}).some((c) => c > 0));
    if (!mine.length) return;
    lastBets = new Map(mine.map((b) => [b.box, { ...b.wagers }]));
    try {
      localStorage.setItem(rebetKey, JSON.stringify(Object.fromEntries(lastBets)));
    } catch {
      /* private mode: rebet lasts as long as the page */
    }
  }

  /** Each box's bet again: the same boxes if the player still holds them, else their boxes in
   * order; only the wagers the bet move takes (a wager made later in the round is not a bet). */
  function rebetPlan(bets) {
    const last = [...lastBets.entries()].sort((a, b) => a[0] - b[0]);
    const boxes = bets.map((m) => m.box);
    const same = last.every(([box]) => boxes.includes(box));
    return last
      .map(([box, wagers], i) => {
        const move = bets.find((m) => m.box === (same ? box : boxes[i]));
        if (!move) return null;
        const args = Object.fromEntries(move.amounts.filter((a) => wagers[a.arg] > 0).map((a) => [a.arg, wagers[a.arg]]));
        return Object.keys(args).length ? { box: move.box, args } : null;
      })
      .filter(Boolean);
  }

  function renderRebet(bets) {
    const button = $("#repeat-bets");
    const plan = rebetPlan(bets);
    button.hidden = !bets.length;
    button.disabled = busy || !plan.length;
    const say = (p) => Object.entries(p.args).map(([w, c]) => `${wagerName(w, labels())} ${dollars(c)}`).join(", ");
    const text = plan.length === 1 ? `Rebet ${say(plan[0])}` : plan.length ? `Rebet ${plan.map((p) => `box ${p.box}: ${say(p)}`).join("; ")}` : "Rebet";
    setText(button, text);
  }

  async function repeatBets() {
    const bets = moves().filter((m) => m.move === "bet" && myBoxes().includes(m.box));
    for (const p of rebetPlan(bets)) {
      if (!(await placeBet(p.box, p.args))) return;
    }
    messages.announce("Last round's wagers placed again.");
  }

  // --- game recall -------------------------------------------------------------------------------

  /** The recall panel again once per finished round, whichever frame showed it finished. */
  function recallOnceFinished() {
    if (finished() && recallFor !== S.round?.round) loadRecall();
  }

  async function loadRecall() {
    const url = app.dataset.recallUrl;
    if (!me || !url) return;
    recallFor = round()?.round ?? null;
    try {
      const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (res.ok) renderRecall((await res.json()).rounds || []);
    } catch {
      /* the panel keeps what it had */
    }
  }

  /** The player's last rounds here: each round's net and each box's cards and decision. */
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
              b.cards ? cardRow({ codes: b.cards, bestFour: b.best_four || null, size: "xs" }) : null,
            ),
          ),
        );
      }),
    );
  }

  /** Up to the table's number of boxes a player may hold, side by side (the Rules
   * Submission's): offer only the boxes that keep the player's boxes adjacent and within it. */
  function maySit(n) {
    const mine = myBoxes();
    if (!mine.length) return true;
    if (mine.length >= (Number(app.dataset.boxesPerPlayer) || 1)) return false;
    return n === mine[0] - 1 || n === mine[mine.length - 1] + 1;
  }

  async function sit(n) {
    if (!me) {
      location.href = app.dataset.loginUrl;
      return;
    }
    if (await command("sit", { box: n })) boxEl(n).li.focus();
  }

  // --- results, meters, signs, clock -----------------------------------------------------------

  function renderResult() {
    const r = round();
    const banner = $("#round-result");
    const panel = $("#my-result");
    const mine = r && me ? r.boxes.filter((b) => b.player === me && b.results) : [];
    panel.hidden = !mine.length;
    fill(
      panel,
      mine.map((b) =>
        h(
          "div",
          { class: "my-result-box", dataset: { box: String(b.box) } },
          h("p", { class: "my-hand-title", text: `Your result — box ${b.box}${b.hand ? `: ${b.hand}` : ""}` }),
          b.setting && r.dealer?.high ? versus(b, r.dealer) : b.setting ? h("div", { class: "g-my-setting" }, settingRow(b.setting)) : null,
          b.setting && b.set_by === "timeout"
            ? h("p", { class: "hint g-set-by", text: "Your time to set ran out: the house set your hands, aces high." })
            : b.set_by === "abandoned"
              ? h("p", { class: "hint g-set-by", text: "You left before setting this box: its Ante, Play and Tie Wagers lose." })
              : null,
          h(
            "ul",
            { class: "result-lines" },
            boxLines(b, r, labels()).map((x) =>
              h(
                "li",
                { class: `outcome-${x.outcome}`, dataset: { wager: x.wager } },
                h("span", { class: "res-wager", text: `${x.name} — ${x.outcomeWords}` }),
                h("span", { class: "res-why" }, speakable(x.why)),
                h("span", { class: "amt", text: x.amount }),
              ),
            ),
          ),
        ),
      ),
    );
    if (r && r.phase === "settled" && me && r.players && r.players[me]) {
      const net = r.players[me].net;
      banner.hidden = false;
      banner.dataset.net = String(net);
      banner.className = `round-result ${net > 0 ? "won" : net < 0 ? "lost" : "even"}`;
      // Why, as at the first felt: what decided each box and what each wager did.
      const why = resultParts(mine, r, labels()).flatMap((part, i) => [
        i ? "; " : "",
        plainWords(part.lead),
        h("span", { class: "why-lines" }, part.lines.flatMap((line, j) => [j ? ", " : "", h("span", { class: "why-line", text: line })])),
      ]);
      fill(
        banner,
        h("span", { text: net > 0 ? "You won " : net < 0 ? "You lost " : "You broke even" }),
        net ? h("strong", { text: dollars(Math.abs(net)) }) : null,
        h("span", { class: "why" }, " · ", why),
      );
    } else if (r && r.phase === "void" && r.boxes.some((b) => b.player === me)) {
      banner.hidden = false;
      banner.className = "round-result even";
      fill(banner, h("strong", { text: "Void" }), h("span", { text: " · your stakes were returned" }));
    } else {
      banner.hidden = true;
    }
  }

  /**
   * At the reveal and at settlement the dealer's hand comes into view below the pinned bar
   * (the player is usually down at the decision panel, and the bar grows when the result
   * appears), as on the first felt (table.js bringRevealIntoView).
   */
  function bringRevealIntoView() {
    const r = round();
    if (!r || !["revealed", "settled", "void"].includes(r.phase) || !me) return;
    const key = `${r.round}:${r.phase}`;
    if (revealScrolled === key || !r.boxes.some((b) => b.player === me)) return;
    revealScrolled = key;
    // At settlement the page may still be gliding from the reveal: jump.
    const instant = r.phase !== "revealed";
    requestAnimationFrame(() => scrollToDealer(instant));
  }

  function scrollToDealer(instant) {
    const notice = $("#irregularity");
    const top = (notice && !notice.hidden ? notice : app.querySelector(".dealer-area")).getBoundingClientRect().top;
    const pinned = $("#pinned").getBoundingClientRect().bottom;
    if (top < pinned || top > window.innerHeight * 0.5) {
      const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      window.scrollBy({ top: top - pinned - 8, behavior: reduce || instant ? "instant" : "smooth" });
    }
  }

  /** A hand set high and low: the box's two hands beside the dealer's, each pair compared by its total
   * (§663a.11(g): the high hand must be higher, the low hand lower; a tie is the dealer's). */
  function versus(b, dealer) {
    const row = (part, name, mine, theirs, lowWins) => {
      const a = b.setting[`${part}_total`];
      const d = dealer[`${part}_total`];
      const better = lowWins ? a < d : a > d;
      const verdict = a === d ? "tie — counts for the dealer" : better ? `yours is ${lowWins ? "lower" : "higher"}` : `the dealer's is ${lowWins ? "lower" : "higher"}`;
      return h(
        "tr",
        { dataset: { hand: part, beats: String(better) }, class: better ? "beats" : "beaten" },
        h("th", { scope: "row", text: name }),
        h("td", {}, cardRow({ codes: mine, size: "xs" }), h("strong", { class: "g-vs-total", text: String(a) })),
        h("td", {}, cardRow({ codes: theirs, size: "xs" }), h("strong", { class: "g-vs-total", text: String(d) })),
        h("td", { class: "g-vs-verdict" }, h("span", { "aria-hidden": "true", text: better ? "✓ " : "✗ " }), verdict),
      );
    };
    return h(
      "table",
      { class: "g-versus" },
      h("caption", { class: "hint", text: "To win, your high hand must be higher and your low hand lower than the dealer's." }),
      h("thead", {}, h("tr", {}, h("td"), h("th", { scope: "col", text: "You" }), h("th", { scope: "col", text: "Dealer" }), h("td"))),
      h(
        "tbody",
        {},
        row("high", "High", b.setting.high, dealer.high, false),
        row("low", "Low", b.setting.low, dealer.low, true),
      ),
    );
  }

  function renderMeters() {
    const panel = $("#meters-panel");
    const list = [...meters.values()].sort((a, b) => a.meter - b.meter);
    panel.hidden = !list.length;
    fill(
      $("#meters"),
      list.map((m) => h("li", { class: `g-meter${m.changed ? " changed" : ""}`, dataset: { meter: String(m.meter), version: String(m.version) } }, h("span", { class: "g-meter-name", text: m.name }), h("strong", { class: "g-meter-amount", text: dollars(m.amount) }))),
    );
  }

  let signsKey = "";
  function renderSigns() {
    const signs = S.table.paytables || [];
    const key = JSON.stringify(signs);
    if (key === signsKey) return;
    signsKey = key;
    fill(
      $("#paytables"),
      signs.map((sign) =>
        h(
          "table",
          { class: "paytable" },
          h("caption", {}, sign.wager, " ", h("span", { class: "pt-name", text: signName(sign.name) })),
          h("tbody", {}, sign.rows.map(([hand, pays]) => h("tr", {}, h("th", { scope: "row", text: hand }), h("td", { text: pays })))),
        ),
      ),
    );
    // Signs that mix "X for 1" and "X to 1": one line under them says the difference.
    const legend = payLegend(S.table.felt?.for_one, signs);
    setText($("#pay-legend"), legend);
    show($("#pay-legend"), Boolean(legend));
  }

  /** A sign's name for the player: a paytable's letter says which one ("paytable A"); a
   * regulation citation says nothing to a player and is left out. */
  function signName(name) {
    const plain = plainWords(name);
    return /^[A-Z]$/.test(plain) ? `paytable ${plain}` : plain;
  }

  function tick() {
    if (!S) return;
    const r = round();
    const now = conn.now();
    let text = "";
    if (r && r.phase === "betting" && S.betting_deadline) {
      const s = secondsLeft(S.betting_deadline, now);
      text = s > 0 ? `Bets close in ${s} s` : "Betting time is up";
    } else if (r && ["decisions", "setting"].includes(r.phase) && S.turn_deadline) {
      const s = secondsLeft(S.turn_deadline, now);
      const what = r.phase === "setting" ? "to set" : "to decide";
      text = s > 0 ? `${s} s ${what}` : `Time is up`;
      const turn = moves().find((m) => m.move === "decide" || m.move === "set_hands");
      if (turn) warnings.check(`${r.round}:${turn.move}:${turn.box}`, s, `${r.phase === "setting" ? "to set your hands" : "to decide"} on box ${turn.box}`);
    }
    setText($("#countdown"), text);
    const clock = $("#turn-clock");
    if (clock) setText(clock, text);
  }

  function log(kind, data) {
    let text = describeGameEvent(S.table.game, kind, data, labels());
    if (text === null) return;
    if (text === undefined) {
      try {
        text = describeEvent(kind, data);
      } catch {
        text = ""; // an event of this game's own shape: its name says enough
      }
    }
    text = plainWords(text);
    if (!text) return;
    const list = $("#log");
    list.prepend(h("li", { dataset: { kind } }, h("time", { text: logTime(new Date()) }), " ", speakable(text)));
    while (list.children.length > LOG_LIMIT) list.lastChild.remove();
  }

  /** Whether the next step is the house's: the page then checks now and then that it has not
   * missed it (protocol.js watchStalls), as the first felt does. */
  function waitingOnHouse(now) {
    if (!S || !S.table.is_open) return false;
    const r = round();
    if (finished()) return S.seats.length > 0;
    if (r.phase === "betting") return Boolean(S.betting_deadline && now > S.betting_deadline + 1000);
    if (r.phase === "decisions" || r.phase === "setting") return Boolean(S.turn_deadline && now > S.turn_deadline + 1000);
    return true;
  }

  // --- start -----------------------------------------------------------------------------------

  setupFourColour($("#four-colour"));
  $("#repeat-bets").addEventListener("click", repeatBets);
  $("#double-bets").addEventListener("click", doubleBets);
  $("#undo-bets").addEventListener("click", undoBet);
  const keysBox = $("#single-keys");
  keysBox.checked = singleKeys;
  keysBox.addEventListener("change", () => {
    singleKeys = keysBox.checked;
    try {
      localStorage.setItem(SINGLE_KEYS, singleKeys ? "on" : "off");
    } catch {
      /* private mode: for this page */
    }
    $("#bet-keys").dataset.key = "";
    render();
  });
  document.addEventListener("keydown", onKey);
  $("#recall-panel").hidden = !me;
  $("#reconnect").addEventListener("click", () => conn.connect());
  $("#leave").addEventListener("click", async () => {
    // The game's one rule for a box its player leaves (FeltParts.leave_rule, e.g. §663a.7(b)).
    // What it costs in dollars, box by box, then the game's rule (e.g. §684a.7(b)).
    const text = leaveWords(round(), me, S.table.felt?.fold_keeps, labels(), S.table.felt?.leave_rule);
    if (await confirmDialog($("#leave-dialog"), text, "Leave the table")) leftMidRound = Boolean(await command("leave")) && !finished();
  });
  setInterval(tick, 250);
  conn.watchStalls(() => waitingOnHouse(conn.now()));
  renderStatus($("#conn"), { state: conn.state, rtt: conn.rtt });
  render();
  for (const frame of pending) frame();
  rememberBets();
  loadRecall();
  window.frenzy = { connection: conn, state: () => S };
  return { state: () => S };
}
