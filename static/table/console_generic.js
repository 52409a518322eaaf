// The dealer console's round part for every game drawn from views: the step due, the
// time-out and the voids are the dealer's moves in the round view (viewer: dealer), sent as
// the console's commands (docs/protocol.md); the boxes and the dealer's cards are the view's.
// dealer.js keeps drawing the rest (who deals, the shoe, the log) and calls render() and tick().

import { cardRow } from "./cards.js";
import { dollars } from "./state.js";
import { fill, h, secondsLeft, setText } from "./ui.js";
import { boxLines, dealerWords, decisionWords, describeGameEvent, phaseWords, wagerName } from "./game_words.js";

/** The console's command for each dealer move of a game (Game.moves, table/games/base.py). */
export const COMMANDS = {
  close_betting: "no_more_bets",
  deal: "deal",
  reveal: "reveal",
  settle: "settle",
  time_out: "time_out",
  void: "void",
};
const STEPS = ["close_betting", "deal", "reveal", "settle"];

export function install({ $, command, autodealerDeals }) {
  let S = null;
  let busy = false;
  // The style sheet lays this console's boxes out for a phone (felt_generic.css).
  $("#console")?.setAttribute("data-console", "generic");

  function moves() {
    return S.round?.moves || [];
  }

  /** The one next action: [cmd, label, enabled, detail]; while an automatic dealer deals, the
   * console only watches and says how to take over. */
  function nextAction() {
    const [cmd, label, enabled, detail] = stepAction();
    if (autodealerDeals() && cmd && cmd !== "open_table") {
      return [cmd, label, false, `${detail}${detail ? " " : ""}The automatic dealer does this: take over to do it yourself.`];
    }
    return [cmd, label, enabled, detail];
  }

  function stepAction() {
    const r = S.round;
    if (!S.table.is_open) return ["open_table", "Open the table", true, "The table is closed."];
    if (!r || ["settled", "void"].includes(r.phase)) return ["open_betting", "Open betting", true, "Shuffle the next deck and take bets."];
    const step = moves().find((m) => STEPS.includes(m.move));
    if (step) {
      const inPlay = r.boxes.length;
      const detail = step.move === "close_betting" ? `${inPlay} box${inPlay === 1 ? "" : "es"} with wagers.` : "";
      return [COMMANDS[step.move], step.label, true, detail];
    }
    if (r.phase === "betting") return ["no_more_bets", "No more bets", false, "Waiting for a first bet."];
    const waiting = r.to_act ? `Box ${r.to_act} is deciding.` : (r.setting_pending || []).length ? `Box ${r.setting_pending.join(", box ")} setting their hands.` : "";
    return [null, "Waiting for the players", false, waiting];
  }

  function render(state, isBusy) {
    S = state;
    busy = isBusy;
    const [cmd, label, enabled, detail] = nextAction();
    const next = $("#next-action");
    setText(next, label);
    next.dataset.cmd = cmd || "";
    next.disabled = busy || !enabled;
    setText($("#phase-detail"), detail);
    setText($("#phase"), S.table.is_open ? phaseWords(S.round) : "Table closed");
    renderBoxes();
    renderDealer();
    renderVoids();
    renderProcedure();
  }

  function tick(state, now) {
    S = state;
    if (!S) return;
    const r = S.round;
    const timeOut = moves().find((m) => m.move === "time_out");
    const button = $("#time-out");
    button.hidden = !timeOut;
    let text = "";
    let due = true;
    if (r && r.phase === "betting" && S.betting_deadline) {
      const s = secondsLeft(S.betting_deadline, now);
      text = s > 0 ? `Betting clock: ${s} s` : "Betting clock ran out";
    } else if (r && ["decisions", "setting"].includes(r.phase) && S.turn_deadline) {
      const s = secondsLeft(S.turn_deadline, now);
      text = s > 0 ? `${s} s left` : "Time ran out";
      // The server times out only once commands sent in time have had the lag allowance.
      due = now >= S.turn_deadline + (S.lag_allowance_ms || 0);
    }
    setText($("#countdown"), text);
    if (timeOut) {
      setText(button, timeOut.label);
      button.disabled = busy || !due;
    }
  }

  function renderBoxes() {
    const r = S.round;
    const labels = S.table.felt?.labels || {};
    const rows = [];
    for (let n = 1; n <= 6; n++) {
      const seat = S.seats.find((s) => s.box === n);
      const b = r ? r.boxes.find((x) => x.box === n) : null;
      if (!seat && !b) {
        rows.push(h("tr", { class: "free", dataset: { box: String(n) } }, h("th", { scope: "row", text: String(n) }), h("td", { colspan: "5", class: "hint", text: "open" })));
        continue;
      }
      const wagers = b ? Object.entries(b.wagers).filter(([, c]) => c > 0).map(([w, c]) => `${wagerName(w, labels)} ${dollars(c)}`).join(", ") : "";
      let cards = "";
      if (b && b.cards) cards = cardRow({ codes: b.cards, size: "sm" });
      else if (b && b.dealt && r.phase !== "void") cards = b.discarded ? "to the discard rack" : "dealt, face down";
      let decision = b ? decisionWords(b) || "—" : "—";
      if (b && r.to_act === n && r.phase === "decisions") decision = "to act";
      if (b && r.phase === "setting" && (r.setting_pending || []).includes(n)) decision = "setting";
      if (b && r.phase === "void") decision = "void";
      // The main game returned before every decision (its dealer card exposed): none is asked for.
      else if (b && b.dealt && r.main_game_void && decision === "—") decision = "none: main game void";
      // A hand set high and low, once settlement turns the hands over: the totals and who set them.
      if (b && b.setting) decision += ` · high ${b.setting.high_total} / low ${b.setting.low_total}${b.set_by === "timeout" ? " (set by the house: time ran out)" : ""}`;
      const result = b && b.results
        ? h("span", {}, h("strong", { text: dollars(b.net, { signed: true }) }), " ", h("span", { class: "hint", text: boxLines(b, r, labels).map((x) => `${x.name} ${x.outcomeWords}`).join(", ") }))
        : "";
      rows.push(
        h(
          "tr",
          { class: decision === "to act" || decision === "setting" ? "to-act" : null, dataset: { box: String(n) } },
          h("th", { scope: "row", text: String(n) }),
          h("td", {}, h("span", { class: `presence ${seat && !seat.connected ? "off" : "on"}`, "aria-hidden": "true" }), seat?.player || b?.player || ""),
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
    if (r && r.dealer && r.dealer.cards) {
      fill($("#dealer-cards"), cardRow({ codes: r.dealer.cards, bestFour: r.dealer.best_four || null, size: "sm" }));
      setText($("#dealer-hand"), dealerWords(r));
    } else if (r && r.dealt && r.phase !== "void") {
      fill($("#dealer-cards"), cardRow({ count: 5, back: r.deck_back, size: "sm" }));
      setText($("#dealer-hand"), `face down until the reveal${typeof r.stub === "number" ? ` · stub ${r.stub} cards` : ""}`);
    } else {
      fill($("#dealer-cards"), h("span", { class: "hint", text: "no cards" }));
      setText($("#dealer-hand"), "");
    }
    // A shared card's spot, with the view's label (e.g. a Six Card Bonus card, §657a.10(b)).
    const six = r?.shared_card ?? r?.six_card_bonus;
    const extra = $("#all-six-card");
    if (extra) {
      // A game without a shared card has no spot for one.
      extra.parentElement.hidden = !six;
      extra.previousElementSibling && setText(extra.previousElementSibling, six?.label || "Six Card Bonus card");
      fill(extra, six && six.card ? cardRow({ codes: [six.card], size: "sm" }) : six && six.dealt ? cardRow({ count: 1, back: r.deck_back, size: "sm" }) : h("span", { class: "hint", text: "none dealt" }));
    }
  }

  /** The voids the game allows now, each with its reason in words (the dealer declares it),
   * sent with the choice's args. */
  function renderVoids() {
    const panel = $("#generic-voids");
    const move = moves().find((m) => m.move === "void");
    fill(
      panel,
      move
        ? h(
          "div",
          { class: "g-voids", role: "group", "aria-label": move.label },
          h("p", { class: "hint", text: "If one of these happened, void the round (every stake is returned):" }),
          move.choices.map((c) =>
            // An action the dealer takes, worded as one (it read as a status line: issue 28).
            h("button", { type: "button", class: "btn void-action", disabled: busy, dataset: { reason: c.args.reason }, onclick: () => command("void", { ...c.args }, { confirm: `Void the round: ${c.label}? Every stake is returned.` }) }, `Void this round — ${c.label}`),
          ),
        )
        : h("p", { class: "hint", text: "No void is open to the dealer now." }),
    );
  }

  /** What the regulation tells the dealer to do now after a void (the dealer's round view's
   * `procedure`, docs/protocol.md "view"): the void, the section and its words, the steps; it
   * stays until the next round opens (the view then has none). The console is staff: the
   * citation shows here, never on a player's felt. */
  function renderProcedure() {
    const panel = $("#procedure");
    if (!panel) return;
    const p = S.round?.procedure || null;
    const key = p ? `${S.round.round} ${JSON.stringify(p)}` : "";
    if (panel.dataset.shown === key) return; // unchanged: the status line is not read again
    panel.dataset.shown = key;
    panel.hidden = !p;
    panel.dataset.reason = p ? p.reason : "";
    setText($("#procedure-h"), p ? `${p.title}.` : "");
    const words = p?.words ? `${p.words}${/[.!?]$/.test(p.words) ? "" : "."}` : "";
    fill(
      $("#procedure-body"),
      p && (p.section || words)
        ? h("p", { class: "procedure-words" }, p.section ? h("span", { class: "procedure-section", text: `Procedure (${p.section}): ` }) : "Procedure: ", words)
        : null,
      p && p.steps.length ? h("ul", { class: "procedure-steps" }, p.steps.map((step) => h("li", { text: step }))) : null,
    );
  }

  /** An event in the round log's words (undefined: the shared words of words.js). */
  function describe(kind, data) {
    return S ? describeGameEvent(S.table.game, kind, data, S.table.felt?.labels || {}) : undefined;
  }

  return { render, tick, describe };
}
