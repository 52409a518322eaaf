// Two notices on the felt, kept apart from the felt module so the felt can change around them:
// - the outcome of an irregularity (§684a.13): a void, or a dealer card exposed, with the
//   reason in words, shown for as long as the round's result is on the felt;
// - a change of the table's rules: "From the next round: ..." before the betting window it
//   applies to, and "From this round: ..." while that round takes bets.
// Both are drawn from the table state alone (snapshot + events), like the rest of the page.

import { setText } from "./ui.js";
import { plainWords } from "./words.js";

// A player reads what happened, not where the rule is written: the sections stay here, in
// comments, and on the dealer console; the words the server sends are shown without theirs.
const VOID_WORDS = {
  face_up_cards: "more than one card was found face up in the shoe", // §684a.13(a)
  wrong_card_count: "a box or the dealer was dealt a wrong number of cards", // §684a.13(c)
  shoe_jam: "the dealing shoe jammed or failed to deal all cards", // §684a.13(f)
  stub_miscount: "the stub count shows the deck is not 52 cards", // §684a.10(f)
  table_closed: "the table closed before the round was dealt",
  server_restart: "the round could not resume after an interruption",
};
// §684a.13(d)
const EXPOSED_WORDS =
  "a dealer card was exposed before every decision was made: Ante, Odds and Raise are returned, optional wagers are settled";

function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The irregularity that ended the round in view, in words, or "" for none. */
export function irregularityText(round) {
  if (!round) return "";
  if (round.phase === "void") {
    const why = plainWords(round.void_explanation || round.irregularity || VOID_WORDS[round.void_reason] || round.void_reason || "");
    return `Round ${round.round} is void: ${why}. Every stake is returned; the cards are reshuffled.`;
  }
  if (round.main_game_void) {
    return `Round ${round.round}: ${plainWords(round.irregularity) || EXPOSED_WORDS}.`;
  }
  return "";
}

/** The rules notice in words for the round in view, or "". */
export function rulesNoticeText(table, round) {
  const notice = table?.rules_notice;
  if (!notice || !notice.changes || !notice.changes.length) return "";
  const current = round?.round ?? 0;
  const live = round && round.phase !== "settled" && round.phase !== "void";
  let when;
  if (notice.from_round === null || notice.from_round === undefined || notice.from_round > current) when = "From the next round";
  else if (notice.from_round === current && live) when = "From this round";
  else return "";
  return `${when}: ${plainWords(notice.changes.join("; "))}.`;
}

/** Draw both notices into their elements (#irregularity, #rules-notice) when present. */
export function renderNotices(state) {
  if (!state) return;
  const irregular = document.getElementById("irregularity");
  if (irregular) {
    const text = irregularityText(state.round);
    setText(irregular, text ? sentence(text) : "");
    irregular.hidden = !text;
    irregular.dataset.kind = state.round?.phase === "void" ? "void" : state.round?.main_game_void ? "exposed" : "";
  }
  const rules = document.getElementById("rules-notice");
  if (rules) {
    const text = rulesNoticeText(state.table, state.round);
    setText(rules, text);
    rules.hidden = !text;
  }
}
