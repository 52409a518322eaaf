// Words for the games after Four Card Frenzy, drawn from their round views (docs/protocol.md,
// "view"): the phase, a hand's name, and why each wager of a settled box won, pushed or lost,
// for a player who does not know the rules. The views give every fact (the hands, the
// setting's totals, the dealer's hand); this module only puts them in sentences.

import { cardsText } from "./cards.js";
import { dollars } from "./state.js";

// A text without its regulation citations, shared with Four Card Frenzy's felt (words.js).
export { plainWords } from "./words.js";

export const PHASES = {
  betting: "Betting open",
  closed: "No more bets",
  decisions: "Decisions",
  setting: "Setting the hands",
  revealed: "Dealer revealed",
  settled: "Settled",
  void: "Round void",
};

export function phaseWords(round) {
  if (!round) return "No round yet";
  return PHASES[round.phase] ?? humanize(round.phase);
}

/** "three_of_a_kind" -> "three of a kind" */
export function humanize(key) {
  return String(key ?? "").replaceAll("_", " ");
}

/** A hand category as people say it: "a pair", "a straight flush", "high card". */
export function handWords(category) {
  if (!category) return "";
  const words = humanize(category);
  if (/^(high card|.*s$|two pair)/.test(words)) return words;
  return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`;
}

export function wagerName(wager, labels) {
  const name = labels?.[wager];
  if (name) return name;
  const words = humanize(wager);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const OUTCOME_WORDS = { win: "won", lose: "lost", push: "push", void: "returned" };

/** The amount a line moved: "+$10.00", "−$5.00", or "returned". */
export function lineAmount(line) {
  if (line.net === 0) return line.outcome === "lose" ? dollars(0) : "returned";
  return dollars(line.net, { signed: true });
}

function compare(mine, theirs, lowWins) {
  // §663a.11(g): a tie on either hand counts for the dealer.
  if (mine === theirs) return "a tie, which counts for the dealer";
  const better = lowWins ? "lower" : "higher";
  return (lowWins ? mine < theirs : mine > theirs) ? `yours is ${better}` : `the dealer's is ${better}`;
}

/** Five Card Hi-Lo (§663a.11(f), §663a.12): both hands are compared by their totals. */
function hiLoWhy(line, box, round) {
  const dealer = round.dealer;
  const set = box.setting;
  // §663a.11(b)(1): a fold loses the Ante and the Tie Wager; the Poker Bonus stays in action.
  if (box.decision === "fold" && line.wager !== "poker_bonus") return "you folded";
  // §663a.7(b): a box left before it was set loses its Ante, Play and Tie Wagers (never compared).
  if (box.set_by === "abandoned" && line.wager !== "poker_bonus") return "left before it was set";
  if (["ante", "play"].includes(line.wager)) {
    if (!set || !dealer) return "";
    const high = compare(set.high_total, dealer.high_total, false);
    const low = compare(set.low_total, dealer.low_total, true);
    // §663a.11(g): both hands must beat the dealer's; a tie on either counts for the dealer.
    const rule =
      line.outcome === "win"
        ? "both your hands beat the dealer's"
        : line.outcome === "push"
          ? "only one of your hands beat the dealer's: Ante and Play returned"
          : "neither hand beat the dealer's";
    return `high ${set.high_total} vs ${dealer.high_total} (${high}), low ${set.low_total} vs ${dealer.low_total} (${low}): ${rule}`;
  }
  if (line.wager === "tie") {
    // §663a.12(c): like with like, high against high and low against low.
    if (line.hand) return TIE_WORDS[line.hand] ?? humanize(line.hand);
    return "neither hand tied the dealer's";
  }
  if (line.wager === "ante_bonus") {
    // §663a.11(h): three aces or more, paid on a box that plays whatever its Ante did.
    const hand = line.hand || "";
    return `your five cards hold ${ANTE_BONUS_WORDS[hand] ?? humanize(hand)}: paid on a box that plays, win or lose`;
  }
  if (line.wager === "poker_bonus") {
    const hand = line.hand || box.poker_hand;
    if (!hand) return "";
    // A Poker Bonus lost on a hand the sign does not pay: say so, the sign is below.
    return `your five cards: ${handWords(hand)}${line.outcome === "lose" ? " (not a paying hand)" : ""}`;
  }
  return line.hand ? humanize(line.hand) : "";
}

const TIE_WORDS = {
  both_tie: "both your hands tie the dealer's",
  high_tie: "your high hand ties the dealer's",
  low_tie: "your low hand ties the dealer's",
};
const ANTE_BONUS_WORDS = { four_aces_and_2: "four aces and a 2", four_aces: "four aces", three_aces: "three aces" };

/** Who won a hand against the dealer's, in words. Two hands of the same name ("king high"
 * against "king high") are told apart by their four cards: the higher cards decided. */
function versusWords(line, yours, theirs, box, dealer) {
  if (yours === theirs && box?.best_four && dealer?.best_four) {
    yours = `${yours} (${cardsText(box.best_four)})`;
    theirs = `${theirs} (${cardsText(dealer.best_four)})`;
  }
  if (line.outcome === "win") return `your ${yours} beats the dealer's ${theirs}`;
  if (line.outcome === "lose") return `the dealer's ${theirs} beats your ${yours}`;
  return `your ${yours} ties the dealer's ${theirs}`;
}

/** A wager paid on a hand from a sign, lost: the hand is not on it (the sign is below). */
function unpaid(line) {
  if (line.outcome !== "lose") return "";
  // A paying hand whose payout came to less than the stake (a share of a jackpot, a
  // percentage of a small meter) is a loss by its net, yet the hand hit: say what it hit.
  return line.row ? ` — hit ${humanize(line.row)}, paid less than the stake` : " (not a paying hand)";
}

/** Crazy 4 Poker (§657a.11, §657a.12): the best four-card hand against the dealer's. */
function crazyWhy(line, box, round, view) {
  const dealer = round.dealer;
  const yours = box.hand ? box.hand.toLowerCase() : "";
  const theirs = dealer?.hand ? dealer.hand.toLowerCase() : "";
  // §657a.11(b): a fold loses every wager but the Six Card Bonus (and its Envy Bonuses).
  if (box.folded && !["six_card_bonus", "envy_bonus"].includes(line.wager)) return "you folded";
  switch (line.wager) {
    case "ante":
      if (dealer && dealer.qualifies === false && line.outcome === "push") {
        return `the dealer's ${theirs} does not qualify (king high or better): the Ante is returned`;
      }
      return yours && theirs ? versusWords(line, yours, theirs, box, dealer) : "";
    case "play":
      if (dealer && dealer.qualifies === false && line.outcome === "win") {
        return `the dealer's ${theirs} does not qualify: the Play wins whatever the hands`;
      }
      return yours && theirs ? versusWords(line, yours, theirs, box, dealer) : "";
    case "super_bonus":
      if (!yours) return "";
      // §657a.12(b): paid from a straight up, win or lose; below it, it follows the Ante.
      if (line.outcome === "push") return `your ${yours}: below a straight the Super Bonus is returned`;
      if (line.outcome === "lose") return `your ${yours} lost to the dealer's ${theirs}: below a straight the Super Bonus loses with it`;
      return `your ${yours} (paid from a straight up, win or lose)`;
    case "queens_up":
      if (!yours) return "";
      // §657a.12(c): the Queens Up pays on the player's own hand, from a pair of queens up.
      return line.outcome === "lose" ? `your ${yours}: Queens Up pays from a pair of queens up` : `your ${yours}`;
    case "progressive":
    case "hand_bonus_player":
      return box.five_card_category ? `your five cards: ${handWords(box.five_card_category)}${unpaid(line)}` : "";
    case "hand_bonus_dealer":
      return dealer?.five_card_category ? `the dealer's five cards: ${handWords(dealer.five_card_category)}${unpaid(line)}` : "";
    case "six_card_bonus": {
      const card = view.six_card_bonus?.card;
      const hand = box.six_card_category ? handWords(box.six_card_category) : "no paying hand";
      return `your five cards and the dealer's${card ? ` with the bonus card ${cardsText([card])}` : ""}: ${hand}`;
    }
    case "envy_bonus":
      return line.row || "";
    default:
      return line.row || "";
  }
}

/**
 * Every line of a settled box, each with its words: the wager, won / lost / push, by how much,
 * and why. A Crazy 4 Poker box's bonuses paid on top (Magic Card, Lucky, Envy) are lines too.
 */
export function boxLines(box, round, labels) {
  const lines = (box.results || []).map((r) => ({ ...r }));
  for (const [name, amount] of Object.entries(box.bonuses || {})) {
    lines.push({ wager: name, stake: 0, outcome: "win", net: amount, bonus: true });
  }
  for (const envy of box.envy || []) {
    lines.push({ wager: "envy_bonus", stake: 0, outcome: "win", net: envy.amount, row: `box ${envy.from_box} holds ${envy.hand}` });
  }
  return lines.map((line) => ({
    ...line,
    name: wagerName(line.wager, labels),
    outcomeWords: OUTCOME_WORDS[line.outcome] ?? line.outcome,
    amount: lineAmount(line),
    why: explain(line, box, round),
  }));
}

export function explain(line, box, round) {
  if (round.phase === "void") return "the round is void: every stake returned";
  if (line.bonus) return "paid on top of the hand-bonus wagers";
  if (round.game === "five_card_hi_lo") return hiLoWhy(line, box, round);
  if (round.game === "crazy_4_poker") return crazyWhy(line, box, round, round);
  return line.row ? humanize(line.row) : line.hand ? humanize(line.hand) : "";
}

/** The dealer's hand in words, once face up. */
export function dealerWords(round) {
  const d = round?.dealer;
  if (!d) return "";
  if (round.game === "five_card_hi_lo" && d.high) {
    return `High ${cardsText(d.high)} = ${d.high_total} · low ${cardsText(d.low)} = ${d.low_total}`;
  }
  // §657a.11(c)(3): the dealer qualifies with king high or better; say so, not just the word.
  if (d.hand) return d.qualifies === undefined ? d.hand : `${d.hand} — ${d.qualifies ? "qualifies (king high or better)" : "does not qualify (needs king high or better)"}`;
  return "";
}

/**
 * Five Card Hi-Lo: what a setting does with the aces, in words, for a player who does not know
 * the rules: an ace counts 11 in the high hand and 1 in the low hand (§663a.6(a)), and at
 * most one ace may go low (§663a.11(d)). ``count``: how many settings the hand offers.
 */
export function settingTitle(setting, count = 1) {
  const aces = [...setting.high, ...setting.low].filter((c) => c[0] === "A").length;
  if (setting.ace_low) {
    if (aces === 1) return "Ace low: it counts 1 in your low hand";
    return `One ace low (it counts 1), the other ${aces === 2 ? "ace high (11)" : "aces high (11 each)"}`;
  }
  if (aces === 1) return "Ace high: it counts 11 in your high hand";
  if (aces > 1) return "Aces high: each counts 11 in your high hand";
  return count > 1 ? "" : "Your cards set one way only";
}

/** A setting's two totals: "high hand 28, low hand 6". */
export function settingTotals(setting) {
  return `high hand ${setting.high_total}, low hand ${setting.low_total}`;
}

/** A player's own hand while the round is played. */
export function ownHandWords(box) {
  if (box.hand) return box.hand;
  // Five Card Hi-Lo: the poker hand counts for the Poker Bonus only (§663a.12(d)); the main
  // game is the totals, which the settings show.
  if (box.poker_hand && box.wagers?.poker_bonus) return `Poker Bonus hand: ${handWords(box.poker_hand)}`;
  return "";
}

/** What a box did, for its badge and the console. */
export function decisionWords(box) {
  const d = box.decision;
  if (box.folded || d === "fold" || d === 0) return "Folded";
  if (d === "play") return "Played";
  if (typeof d === "number" && d > 0) return `Played ${dollars(d)}`;
  return "";
}

function who(d) {
  return d.player ? `Box ${d.box} (${d.player})` : `Box ${d.box}`;
}

const WHY_WORDS = { timeout: " (time ran out)", abandoned: " (the player left)" };

/** A wager's result in the log: "Ante won $10.00", "Tie Wager lost $5.00", "Ante push". */
function lineWords(line, labels) {
  const name = wagerName(line.wager, labels);
  if (line.outcome === "void") return `${name} returned`;
  if (line.net > 0) return `${name} won ${dollars(line.net)}`;
  if (line.net < 0) return `${name} lost ${dollars(-line.net)}`;
  return `${name} ${line.outcome === "lose" ? "lost" : "push"}`;
}

function settingWords(s) {
  return `high ${cardsText(s.high)} = ${s.high_total}, low ${cardsText(s.low)} = ${s.low_total}`;
}

/**
 * One event of a game after Four Card Frenzy as a sentence for the round log; null for an
 * event not worth a line; undefined when the shared words (words.js describeEvent) say it.
 * The games share most events' names with Four Card Frenzy but not their data (a decision
 * is a Play, not a raise; the dealer's hand is a setting or a poker hand).
 */
export function describeGameEvent(game, kind, d, labels = {}) {
  const hiLo = game === "five_card_hi_lo";
  switch (kind) {
    case "balance":
    case "stub":
      return null;
    case "wagers_placed": {
      const list = Object.entries(d.wagers || {}).filter(([, c]) => c > 0).map(([w, c]) => `${wagerName(w, labels)} ${dollars(c)}`);
      return `${who(d)} bets ${list.join(", ") || "nothing"}.`;
    }
    case "cards_dealt":
      return `Cards dealt to box ${d.boxes.join(", box ")} and the dealer${d.six_card_bonus ? ", plus the Six Card Bonus card" : ""}.`;
    case "hole_cards":
      if (hiLo) {
        const choice = (d.settings || []).length > 1 ? " You may count one ace low." : "";
        return `Your cards on box ${d.box}: ${cardsText(d.cards)} (five cards: ${handWords(d.poker_hand)}).${choice}`;
      }
      return `Your cards on box ${d.box}: ${cardsText(d.cards)}${d.hand ? ` — ${d.hand}` : ""}.`;
    case "decision": {
      const why = WHY_WORDS[d.why] || "";
      const folded = d.folded || d.decision === "fold" || d.play === 0;
      if (folded) return `${who(d)} folds${why}.`;
      return `${who(d)} plays ${dollars(d.play)}${why}.`;
    }
    case "setting_started":
      // Rounds before issue 28 still hold a setting step every box folded out of.
      if (!(d.boxes || []).length) return null;
      return `Every box that plays now sets its high and low hands: box ${(d.boxes || []).join(", box ")}.`;
    case "setting_turn":
      return `${who(d)} to set the hands.`;
    case "hands_set":
      if (d.why === "timeout") return `${who(d)}: time ran out, the house set the hands aces high.`;
      if (d.why === "abandoned") return `${who(d)}: the player left before setting it; its Ante, Play and Tie Wagers lose.`;
      return `${who(d)} has set the hands.`;
    case "setting":
      return `Your box ${d.box} is set: ${settingWords(d)}.`;
    case "settings_complete":
      return "Every box is set.";
    case "dealer_revealed":
      if (hiLo && d.high) return `The dealer shows ${cardsText(d.cards)} and sets them the house way: ${settingWords(d)}.`;
      if (d.hand) {
        const q = d.qualifies === true ? " — qualifies" : d.qualifies === false ? " — does not qualify" : "";
        const six = d.six_card_bonus_card ? ` Six Card Bonus card ${cardsText([d.six_card_bonus_card])}.` : "";
        return `The dealer shows ${cardsText(d.cards)}: ${d.hand}${q}.${six}`;
      }
      return `The dealer shows ${cardsText(d.cards || [])}.`;
    case "box_settled": {
      const lines = (d.results || []).map((l) => lineWords(l, labels));
      for (const [name, amount] of Object.entries(d.bonuses || {})) lines.push(`${wagerName(name, labels)} won ${dollars(amount)}`);
      for (const envy of d.envy || []) lines.push(`Envy Bonus won ${dollars(envy.amount)}`);
      const hand = hiLo ? (d.setting ? settingWords(d.setting) : d.folded ? "folded" : "") : d.hand || (d.folded ? "folded" : "");
      return `${who(d)}${hand ? ` — ${hand}` : ""}: ${lines.join(", ")}; net ${dollars(d.net, { signed: true })}.`;
    }
    default:
      return undefined;
  }
}

/**
 * Crazy 4 Poker: why the Play offered is what it is, before the player decides. §657a.11(b):
 * the Play equals the Ante, and a pair of aces or better may Play up to three times it. From
 * the box's `play_options` (the round view) or, without them, the decide move's choices.
 */
export function playWords(game, box, move) {
  if (game !== "crazy_4_poker" || !box) return "";
  let low = box.play_options?.min;
  let high = box.play_options?.max;
  if (low === undefined || high === undefined) {
    const plays = (move?.choices || []).map((c) => c.args?.play).filter((p) => p > 0);
    if (!plays.length) return "";
    low = Math.min(...plays);
    high = Math.max(...plays, ...(move.amounts || []).filter((a) => a.arg === "play").map((a) => a.high));
  }
  const ante = box.play_options?.ante ?? box.wagers?.ante ?? low;
  const yours = box.hand ? `your ${box.hand.charAt(0).toLowerCase()}${box.hand.slice(1)}` : "your hand";
  if (high > low) {
    return `A pair of aces or better allows a Play of up to 3x your Ante: with ${yours} you may Play from ${dollars(low)} (1x) to ${dollars(high)} (3x).`;
  }
  return `With ${yours} you may Play 1x your Ante (${dollars(ante)}) only: 2x or 3x needs a pair of aces or better.`;
}

/**
 * What "X for 1" means on a game's signs, beside "X to 1" (a winning wager returned and X
 * times it paid on top). Crazy 4 Poker: the progressive and hand-bonus wagers are collected at
 * "no more bets" (§657a.10(a)(2)) and "X for 1" pays X times the wager, the wager included.
 * Five Card Hi-Lo: the Ante Bonus is paid "based on the amount of the player's Ante Wager"
 * (§663a.12(b)) and has no wager of its own: X times the Ante, besides what the Ante itself
 * wins, pushes or loses (house interpretation 1, FIVE_CARD_HI_LO.md).
 */
const FOR_ONE_WORDS = {
  crazy_4_poker: "“for 1”: the payout includes your wager, which was taken at “no more bets”",
  five_card_hi_lo: "“for 1”: the Ante Bonus pays that many times your Ante, besides what the Ante itself wins or loses",
};
const TO_ONE_WORDS = "“to 1”: paid on top of your wager, which is returned";

/** The one-line legend under the signs, or "" when no sign pays "for 1". */
export function payLegend(game, signs) {
  const forOne = (signs || []).some((s) => s.rows.some(([, pays]) => /\bfor 1\b/.test(pays)));
  if (!forOne) return "";
  const words = FOR_ONE_WORDS[game] || "“for 1”: the payout includes your wager";
  return `${words} · ${TO_ONE_WORDS}.`;
}

/** The wagers a fold keeps in action, per game (§657a.11(b)(3), §663a.11(b)(2)). */
const FOLD_KEEPS = { crazy_4_poker: ["six_card_bonus"], five_card_hi_lo: ["poker_bonus"] };

/** What a fold costs, said before the player folds: "Folding loses your Ante $10.00, ...". */
export function foldWords(game, box, labels) {
  const keeps = FOLD_KEEPS[game] || [];
  const placed = Object.entries(box?.wagers || {}).filter(([w, c]) => c > 0 && w !== "play");
  const name = ([w, c]) => `${wagerName(w, labels)} ${dollars(c)}`;
  const lost = placed.filter(([w]) => !keeps.includes(w)).map(name);
  const kept = placed.filter(([w]) => keeps.includes(w)).map(name);
  if (!lost.length) return "";
  return `Folding loses your ${lost.join(", ")}${kept.length ? `; your ${kept.join(", ")} stays in play` : ""}.`;
}

/** The main game's reason for one settled box, short enough for the pinned result bar. */
function mainReason(box, round) {
  if (round.phase === "void") return "the round is void";
  const ante = (box.results || []).find((l) => l.wager === "ante");
  if (box.folded || box.decision === "fold" || box.decision === 0) return "you folded";
  if (!ante) return "";
  if (round.game === "five_card_hi_lo") {
    const d = round.dealer;
    const s = box.setting;
    if (!s || !d) return "";
    // §663a.11(g): both hands must beat the dealer's; a tie on either counts for the dealer.
    const rule =
      ante.outcome === "win"
        ? "both your hands beat the dealer's"
        : ante.outcome === "push"
          ? "only one of your hands beat the dealer's, so Ante and Play are returned"
          : "neither of your hands beat the dealer's";
    return `${rule} (high ${s.high_total} vs ${d.high_total}, low ${s.low_total} vs ${d.low_total})`;
  }
  const why = explain(ante, box, round);
  // §657a.11(c)(3): a dealer below king high returns the Ante, and the Play still wins.
  if (round.game === "crazy_4_poker" && round.dealer?.qualifies === false && ante.outcome === "push") {
    return `the dealer's ${round.dealer.hand.toLowerCase()} does not qualify (king high or better): Ante returned, Play wins`;
  }
  return why;
}

/** A wager's result, short: "Ante −$5.00", "Queens Up +$10.00", "Super Bonus returned". */
function shortLine(line) {
  // A no-break space: "Ante −$5.00" never splits across lines on a phone.
  if (line.outcome === "void") return `${line.name}\u00a0returned`;
  return `${line.name}\u00a0${line.amount}`;
}

/**
 * The pinned result bar's reason at a game drawn from its view: per box of the player's, what
 * decided the main game, then what each wager won or lost ("box 2: the dealer's pair of
 * eights beats your king high · Ante −$5.00, Play −$5.00, Queens Up −$1.00").
 */
export function resultHeadline(boxes, round, labels) {
  return resultParts(boxes, round, labels)
    .map((p) => `${p.lead}${p.lines.join(", ")}`)
    .join("; ");
}

/** The same, in parts: per box its lead ("box 2: <reason> — ") and each wager's short line
 * (the felt keeps each line whole on one line of the bar). */
export function resultParts(boxes, round, labels) {
  return boxes.map((b) => {
    const reason = mainReason(b, round);
    const lines = boxLines(b, round, labels).map(shortLine);
    const head = boxes.length > 1 ? `box ${b.box}: ` : "";
    return { lead: `${head}${reason}${reason && lines.length ? " — " : ""}`, lines };
  });
}

/**
 * A box's bet as typed in its form, checked before it is sent (issue 28: an Ante of 0 or
 * −5 went as "take my wagers back", 5.005 as $5.01): ``entries`` are the form's amounts
 * ({arg, label, text, fixed, checked, low, high, required}), ``unit`` the table's betting
 * unit in cents. Returns {args} (cents by wager) or {error} in words; the server checks the
 * same.
 */
export function readBet(box, entries, unit) {
  const step = Math.max(1, Number(unit) || 100);
  const args = {};
  for (const e of entries) {
    let cents = 0;
    if (e.fixed) {
      cents = e.checked ? Number(e.fixed) : 0;
    } else {
      const text = String(e.text ?? "").trim().replace(/^\$/, "").replace(/,/g, "");
      if (text !== "") {
        if (!/^\d+(\.\d+)?$/.test(text)) {
          return { error: `${e.label} on box ${box}: "${e.text}" is not an amount in dollars.` };
        }
        const exact = Number(text) * 100;
        cents = Math.round(exact);
        if (Math.abs(exact - cents) > 1e-6 || cents % step) {
          return { error: `${e.label} on box ${box}: every wager here is a whole number of ${dollars(step)}; $${text} is not.` };
        }
      }
    }
    if (cents === 0 && e.required) {
      return { error: `Box ${box} needs an ${e.label} of ${dollars(e.low)} to ${dollars(e.high)}.` };
    }
    if (cents > 0 && (cents < e.low || cents > e.high)) {
      return { error: `${e.label} on box ${box} is ${dollars(e.low)} to ${dollars(e.high)}, not ${dollars(cents)}.` };
    }
    if (cents > 0) args[e.arg] = cents;
  }
  if (!Object.keys(args).length) return { error: `Box ${box}: no wager to place.` };
  return { args };
}
