// Events and errors in plain words, for the round log, the announcements and the messages.

import { cardsText, cardText } from "./cards.js";
import { dollars, WAGER_NAMES } from "./state.js";

/** A regulation citation: "§663a.6(a)", "§684a.13(a), (c), (f)". */
const CITATION = /§\s*\d+[a-z]*(?:\.\d+[a-z]*)*(?:\([0-9a-z]+\))*(?:,\s*(?:and\s+)?\([0-9a-z]+\)(?:\([0-9a-z]+\))*)*/gi;

/**
 * Text for a player without its regulation citations: the engines' and the server's words
 * cite the section they implement (for the record, the console and the audit), but a player
 * reads what happened, not where the rule is written. "(§663a.13(a))" goes with its
 * brackets; a citation alone leaves nothing. The dealer console and the admin keep them.
 */
export function plainWords(text) {
  if (!text) return text ?? "";
  // Words without a citation are left exactly as they are.
  if (!String(text).includes("§")) return String(text);
  return String(text)
    .replace(new RegExp(`\\s*\\(\\s*(?:${CITATION.source})(?:[,;]\\s*(?:${CITATION.source}))*\\s*\\)`, "gi"), "")
    .replace(CITATION, "")
    .replace(/\s+([.,;:])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** One wager's result without double negatives: "won $10.00", "lost $10.00", "push". */
export function outcomeWords(line) {
  if (line.outcome === "void") return "returned";
  if (line.net > 0) return `won ${dollars(line.net)}`;
  if (line.net < 0) return `lost ${dollars(-line.net)}`;
  return "push";
}

function wagerList(wagers) {
  const parts = [];
  for (const key of ["ante", "odds", "raise", "prime", "four_card_bonus", "all_six"]) {
    if (wagers && wagers[key]) parts.push(`${WAGER_NAMES[key]} ${dollars(wagers[key])}`);
  }
  return parts.join(", ") || "nothing";
}

const VOID_WORDS = {
  face_up_cards: "more than one card was found face up in the shoe",
  wrong_card_count: "a box or the dealer was dealt a wrong number of cards",
  shoe_jam: "the shoe jammed or failed to deal all cards",
  stub_miscount: "the stub count was not 52 cards",
  table_closed: "the table closed",
  server_restart: "the round could not resume after an interruption",
};

export const FAULT_NAMES = {
  jam: "shoe jam",
  face_up_card: "one card face up",
  two_face_up_cards: "two cards face up",
  misdeal: "misdeal (wrong card count)",
  miscount: "shuffler miscount",
  dealer_card_exposed: "dealer card exposed",
};

export function boxWho(data) {
  return data.player ? `Box ${data.box} (${data.player})` : `Box ${data.box}`;
}

/** One event as a sentence, or null for events not worth a line. */
export function describeEvent(kind, d) {
  switch (kind) {
    case "round_opened":
      return `Round ${d.round} open for bets (${d.deck_back} deck, shoe commitment ${String(d.commitment).slice(0, 12)}…).`;
    case "betting_clock":
      // The wait with no countdown (seconds null) and the countdown the first bet starts.
      return typeof d.seconds === "number"
        ? `Betting closes in ${d.seconds} s.`
        : "Nobody has bet yet: betting stays open until someone bets.";
    case "wagers_placed":
      return `${boxWho(d)} bets ${wagerList(d.wagers)}.`;
    case "wagers_withdrawn":
      return `${boxWho(d)} took the wagers back.`;
    case "betting_closed":
      return `No more bets. In play: box ${d.boxes.join(", box ")}.`;
    case "face_up_card":
      return `A card was found face up in the shoe (${cardText(d.card)}) and discarded; dealing goes on.`;
    case "cards_dealt":
      return `Cards dealt to box ${d.boxes.join(", box ")} and the dealer${d.all_six ? ", plus the All-Six card" : ""}.`;
    case "hole_cards":
      return `Your cards on box ${d.box}: ${cardsText(d.cards)} — ${d.hand}.`;
    case "turn":
      return `${boxWho(d)} to act${d.seconds ? ` (${d.seconds} s)` : ""}.`;
    case "decision": {
      const why = d.why === "timeout" ? " (time ran out)" : d.why === "abandoned" ? " (player left)" : "";
      return d.folded
        ? `${boxWho(d)} folds${why}.`
        : `${boxWho(d)} raises ${d.multiple}x (${dollars(d.raise)})${why}.`;
    }
    case "box_abandoned":
      return `${boxWho(d)} was abandoned: it folds on its turn.`;
    case "decisions_complete":
      return "Every box has decided.";
    case "dealer_revealed":
      return `Dealer shows ${cardsText(d.cards)}: ${d.hand} — ${d.qualifies ? "qualifies" : "does not qualify"}.${d.all_six_card ? ` All-Six card ${cardText(d.all_six_card)}.` : ""}`;
    case "dealer_card_exposed":
      return `Dealer card exposed: ${d.reason}.`;
    case "box_settled": {
      // "Ante lost $10.00", never "Ante lose −$10.00".
      const lines = (d.results || []).map((r) => `${WAGER_NAMES[r.wager] || r.wager} ${outcomeWords(r)}`).join(", ");
      const hand = d.hand ? `${d.hand}` : d.folded ? "folded, mucked" : "";
      return `${boxWho(d)}${hand ? ` — ${hand}` : ""}: ${lines}; net ${dollars(d.net, { signed: true })}.`;
    }
    case "round_settled": {
      const parts = Object.entries(d.players || {}).map(
        ([name, p]) => `${name} ${dollars(p.net, { signed: true })}${p.payout_limit_applied ? " (payout limit applied)" : ""}`,
      );
      return `Round settled${d.main_game_void ? " (main game void)" : ""}: ${parts.join(", ") || "no players"}.`;
    }
    case "round_void":
      return `Round void: ${d.explanation || VOID_WORDS[d.reason] || d.reason}. Every stake is returned.`;
    case "balance":
      return null;
    case "seated":
      return `${d.player} sits at box ${d.box}.`;
    case "stood":
      return `${d.player} stands up from box ${d.box}.`;
    case "more_time":
      return `Box ${d.box} (${d.player}) asked for more time: ${d.seconds} s more on the clock.`;
    case "player_left":
      return `${d.player} left the table${d.boxes?.length ? ` (box ${d.boxes.join(", ")} free)` : ""}.`;
    case "connection":
      return `${d.player} ${d.connected ? "reconnected" : "lost the connection"}.`;
    case "rules_changed":
      return d.changes?.length
        ? `From the next round: ${d.changes.join("; ")} (Rules Submission "${d.rules}").`
        : `The table now plays under the Rules Submission "${d.rules}".`;
    case "rules_pending":
      return d.changes?.length
        ? `From the next round: ${d.changes.join("; ")} (Rules Submission "${d.rules}"); this round keeps its rules.`
        : `The Rules Submission "${d.rules}" takes effect after this round.`;
    case "dealing":
      return d.by
        ? `${d.by.startsWith("dealer:") ? `Dealer ${d.by.slice(7)}` : "The automatic dealer"} deals the table now.`
        : "The table is dealt from the console now.";
    case "shoe_fault_armed":
      return `Shoe fault armed: ${FAULT_NAMES[d.fault] || d.fault} on the next ${d.fault === "miscount" ? "shuffle" : "deal"}.`;
    case "decks_changed":
      return `New decks in play: ${(d.decks || []).join(" and ")}.`;
    case "deck_removed":
      return `Deck removed: ${d.reason}.`;
    case "stub_counted":
      return d.correct ? `Stub counted: ${d.count} cards, correct.` : `Stub counted: ${d.count} cards — not 52.`;
    case "table_opened":
      return "The table is open.";
    case "table_closed":
      return "The table is closed.";
    default:
      return `${kind.replace(/_/g, " ")}.`;
  }
}

/** What a refused command means, in words (the server's message is already plain). */
export function errorText(err) {
  if (!err) return "Something went wrong.";
  const message = err.message || String(err);
  if (err.code === "stale_version") {
    return "The table changed while you were looking. It has been refreshed: check and try again.";
  }
  if (err.code === "rate_limited") return "Too many actions at once: slow down a little.";
  // Money in the server's words comes as bare figures ("between 5.00 and 500.00"): say "$".
  const text = message.replace(/(^|[^$\d.,])(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})(?!\d)/g, "$1$$$2.$3");
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

/** Times with their zone's name: a player's in their own zone (the felt's log, recall pages);
 * the staff's in the casino's (``timeZone``: settings.TIME_ZONE, the dealer console's log), the
 * zone the admin shows. An unknown zone falls back to the reader's own, still named. */
export function logTime(date, timeZone) {
  const options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZoneName: "short" };
  try {
    return date.toLocaleTimeString([], timeZone ? { ...options, timeZone } : options);
  } catch {
    return date.toLocaleTimeString([], options);
  }
}
