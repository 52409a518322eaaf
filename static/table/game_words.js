// Words for the games drawn from their round views (docs/protocol.md, "view"): the phase, a
// hand's name, each wager of a settled box and what it did. What a game says of its own rules
// (why a wager won, what decided a box, the dealer's hand, what a fold keeps, what the signs'
// "for 1" means) comes from the game, never from here: its round view carries it
// (table/games/words.py: a line's `why`, a box's `reason`, the dealer's `words`, the decision's
// `play_options.words`, a setting's `title`) and the snapshot's `table.felt` the rest
// (`fold_keeps`, `for_one`). This module names no game (docs/games.md, "Words").

import { cardsText } from "./cards.js";
import { dollars } from "./state.js";

// A text without its regulation citations, shared with the first felt's words (words.js).
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

/**
 * Every line of a settled box, each with its words: the wager, won / lost / push, by how much,
 * and why (the line's own `why`, from the game). A box's bonuses paid on top (and its
 * `envy`: another box's hand paid this one) are lines too.
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
  if (typeof line.why === "string") return line.why;
  return line.row ? humanize(line.row) : line.hand ? humanize(line.hand) : "";
}

/** The dealer's hand in words, once face up: the game's words for it, else its name. */
export function dealerWords(round) {
  const d = round?.dealer;
  if (!d) return "";
  return d.words ?? d.hand ?? "";
}

/** A setting's two totals: "high hand 28, low hand 6". */
export function settingTotals(setting) {
  return `high hand ${setting.high_total}, low hand ${setting.low_total}`;
}

/** A player's own hand while the round is played. */
export function ownHandWords(box) {
  if (box.hand) return box.hand;
  // A poker hand that counts for the Poker Bonus only (§663a.12(d)): the main game is the
  // settings' totals, which the settings show.
  if (box.poker_hand && box.wagers?.poker_bonus) return `Poker Bonus hand: ${handWords(box.poker_hand)}`;
  return "";
}

/** What a box did, for its badge and the console. */
export function decisionWords(box) {
  // The game's own words for its decision, when its view carries them ("Raised 2x").
  if (typeof box.decision_words === "string") return box.decision_words;
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
 * One event of a game drawn from views as a sentence for the round log; null for an event not
 * worth a line; undefined when the shared words (words.js describeEvent) say it. The games
 * share most events' names but not their data (a decision is a Play or a raise; the dealer's
 * hand is a setting or a poker hand): the words follow the data each event holds (a hand set
 * high and low has `high`/`setting`; a hand that may be set has `settings`), never the game's
 * name. ``game`` is kept for the callers; the words do not depend on it.
 */
export function describeGameEvent(game, kind, d, labels = {}) {
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
      if (d.settings) {
        const choice = (d.settings || []).length > 1 ? " You may count one ace low." : "";
        return `Your cards on box ${d.box}: ${cardsText(d.cards)} (five cards: ${handWords(d.poker_hand)}).${choice}`;
      }
      return `Your cards on box ${d.box}: ${cardsText(d.cards)}${d.hand ? ` — ${d.hand}` : ""}.`;
    case "decision": {
      const why = WHY_WORDS[d.why] || "";
      const folded = d.folded || d.decision === "fold" || d.play === 0;
      if (folded) return `${who(d)} folds${why}.`;
      // A decision with no Play amount (a Raise multiple): the shared words say it (words.js).
      if (typeof d.play !== "number") return undefined;
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
      if (d.high) return `The dealer shows ${cardsText(d.cards)} and sets them the house way: ${settingWords(d)}.`;
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
      const hand = "setting" in d ? (d.setting ? settingWords(d.setting) : d.folded ? "folded" : "") : d.hand || (d.folded ? "folded" : "");
      return `${who(d)}${hand ? ` — ${hand}` : ""}: ${lines.join(", ")}; net ${dollars(d.net, { signed: true })}.`;
    }
    default:
      return undefined;
  }
}

/** What "X for 1" means beside "X to 1" (a winning wager returned and X times it paid on top). */
const TO_ONE_WORDS = "“to 1”: paid on top of your wager, which is returned";

/** The one-line legend under the signs, or "" when no sign pays "for 1". ``forOne``: the
 * game's words for "for 1" (the snapshot's `table.felt.for_one`). */
export function payLegend(forOne, signs) {
  const paysForOne = (signs || []).some((s) => s.rows.some(([, pays]) => /\bfor 1\b/.test(pays)));
  if (!paysForOne) return "";
  const words = forOne || "“for 1”: the payout includes your wager";
  return `${words} · ${TO_ONE_WORDS}.`;
}

/** What a fold costs, said before the player folds: "Folding loses your Ante $10.00, ...".
 * ``keeps``: the wagers a fold keeps in action (the snapshot's `table.felt.fold_keeps`). */
export function foldWords(keeps, box, labels) {
  keeps = keeps || [];
  const placed = Object.entries(box?.wagers || {}).filter(([w, c]) => c > 0 && w !== "play");
  const name = ([w, c]) => `${wagerName(w, labels)} ${dollars(c)}`;
  const lost = placed.filter(([w]) => !keeps.includes(w)).map(name);
  const kept = placed.filter(([w]) => keeps.includes(w)).map(name);
  if (!lost.length) return "";
  return `Folding loses your ${lost.join(", ")}${kept.length ? `; your ${kept.join(", ")} stays in play` : ""}.`;
}

/** "Ante and Odds", "Ante, Play and Tie Wager": wager names in a sentence. */
function nameList(names) {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0] || "";
}

/** What leaving costs, in dollars, box by box, from the round view: in betting the wagers come
 * back (services/seats.leave); a box still to decide folds (now, or on its turn) and loses
 * what a fold loses (``keeps``: the snapshot's `table.felt.fold_keeps`); a box that decided is
 * settled as it stands. ``rule``: the game's own words for a left box (FeltParts.leave_rule). */
export function leaveWords(round, me, keeps, labels, rule) {
  keeps = keeps || [];
  const boxes = (round?.boxes || []).filter((b) => b.player === me && !b.abandoned);
  const open = round && !["settled", "void"].includes(round.phase);
  if (!open || !boxes.length) return "You give up your boxes; nothing of yours is at stake.";
  const staked = (b) => Object.entries(b.wagers || {}).filter(([, c]) => c > 0);
  if (round.phase === "betting") {
    const total = boxes.reduce((sum, b) => sum + staked(b).reduce((a, [, c]) => a + c, 0), 0);
    return total ? `Your wagers (${dollars(total)}) come back to you and your boxes are freed.` : "Your boxes are freed; nothing of yours is at stake.";
  }
  const lines = boxes.map((b) => {
    const decided = decisionWords(b);
    if (decided === "Folded") return `Box ${b.box} has folded already.`;
    if (decided || !b.dealt) return `Box ${b.box} stays in play and is settled as it stands.`;
    const lost = staked(b).filter(([w]) => !keeps.includes(w));
    const kept = staked(b).filter(([w]) => keeps.includes(w));
    const sum = lost.reduce((a, [, c]) => a + c, 0);
    const when = round.to_act === b.box ? "now" : "on its turn";
    const keptWords = kept.length ? `; its ${nameList(kept.map(([w]) => wagerName(w, labels)))} stay${kept.length > 1 ? "" : "s"} in action and ${kept.length > 1 ? "are" : "is"} settled` : "";
    return `Box ${b.box} folds ${when}: you lose its ${nameList(lost.map(([w]) => wagerName(w, labels)))} (${dollars(sum)})${keptWords}.`;
  });
  return [...lines, rule || "Your seats are freed once the round is over."].join(" ");
}

/** The main game's reason for one settled box, short enough for the pinned result bar: the
 * game's (the box's `reason`), else the Ante's why. */
function mainReason(box, round) {
  if (round.phase === "void") return "the round is void";
  if (typeof box.reason === "string") return box.reason;
  const ante = (box.results || []).find((l) => l.wager === "ante");
  if (box.folded || box.decision === "fold" || box.decision === 0) return "you folded";
  return ante ? explain(ante, box, round) : "";
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
