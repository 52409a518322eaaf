// The table as the client knows it: the last snapshot with every later event applied to it
// (event kinds and their data: docs/protocol.md). Money is integer cents throughout.

const OPTIONAL = ["prime", "four_card_bonus", "all_six"];
export const WAGER_NAMES = {
  ante: "Ante",
  odds: "Odds",
  raise: "Raise",
  prime: "Prime",
  four_card_bonus: "Four Card Bonus",
  all_six: "All-Six Bonus",
};
export function dollars(cents, { signed = false } = {}) {
  if (cents === null || cents === undefined) return "—";
  const sign = cents < 0 ? "−" : signed && cents > 0 ? "+" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${whole}.${String(abs % 100).padStart(2, "0")}`;
}

/** Short chip-style amount: $5, $25, $1.50 */
export function chipDollars(cents) {
  return cents % 100 === 0 ? `$${(cents / 100).toLocaleString("en-US")}` : dollars(cents);
}

export function findBox(state, box) {
  return state.round?.boxes.find((b) => b.box === box) ?? null;
}

function ensureBox(state, box, player) {
  let b = findBox(state, box);
  if (!b) {
    b = { box, player, wagers: {}, dealt: false, decision: null, abandoned: false, cards: null };
    state.round.boxes.push(b);
    state.round.boxes.sort((x, y) => x.box - y.box);
  }
  return b;
}

export function seatOf(state, box) {
  return state.seats.find((s) => s.box === box) ?? null;
}

export function myBoxes(state) {
  const me = state.me?.username;
  if (!me) return [];
  return state.seats.filter((s) => s.player === me).map((s) => s.box).sort((a, b) => a - b);
}

/**
 * Apply one event to the state. Returns true when the page should ask for a snapshot
 * because the event carries less than a snapshot would show.
 */
export function applyEvent(state, kind, data) {
  const round = state.round;
  switch (kind) {
    case "round_opened":
      state.round = {
        round: data.round,
        phase: "betting",
        deck_back: data.deck_back,
        commitment: data.commitment,
        boxes: [],
        to_act: null,
        dealer: null,
        dealt: false,
        void_reason: null,
        main_game_void: false,
        players: null,
      };
      if (data.rules) state.table.rules = data.rules;
      state.betting_deadline = data.deadline ?? null;
      state.turn_deadline = null;
      return true;
    case "betting_clock":
      state.betting_deadline = data.deadline;
      return false;
    case "wagers_placed":
      if (round) ensureBox(state, data.box, data.player).wagers = { ...data.wagers };
      return false;
    case "wagers_withdrawn":
      if (round) round.boxes = round.boxes.filter((b) => b.box !== data.box);
      return false;
    case "betting_closed":
      if (round) {
        round.phase = "closed";
        round.boxes = round.boxes.filter((b) => data.boxes.includes(b.box));
      }
      state.betting_deadline = null;
      return false;
    case "cards_dealt":
      if (round) {
        round.phase = "decisions";
        round.dealt = true;
        round.all_six = data.all_six;
        round.stub = data.stub;
        for (const b of round.boxes) if (data.boxes.includes(b.box)) b.dealt = true;
      }
      return false;
    case "hole_cards": {
      const b = round && findBox(state, data.box);
      if (b) Object.assign(b, {
        cards: data.cards,
        best_four: data.best_four,
        hand: data.hand,
        max_raise: data.max_raise,
      });
      return false;
    }
    case "turn":
      if (round) round.to_act = data.box;
      state.turn_deadline = data.deadline ?? null;
      return false;
    case "more_time":
      // A player asked for more time on their clock (WCAG 2.2.1): its new deadline.
      state.turn_deadline = data.deadline ?? state.turn_deadline;
      return false;
    case "decision": {
      const b = round && findBox(state, data.box);
      if (b) {
        b.decision = data.multiple;
        if (data.raise) b.wagers.raise = data.raise;
        // §684a.11(b)(2): folded with no optional wager, the cards go to the discard rack.
        if (data.folded && !OPTIONAL.some((w) => b.wagers[w])) b.mucked = true;
      }
      if (round && round.to_act === data.box) round.to_act = null;
      state.turn_deadline = null;
      return false;
    }
    case "box_abandoned": {
      const b = round && findBox(state, data.box);
      if (b) b.abandoned = true;
      return false;
    }
    case "decisions_complete":
      if (round) round.to_act = null;
      state.turn_deadline = null;
      return false;
    case "dealer_revealed":
      if (round) {
        round.dealer = { ...data };
        if (round.phase === "decisions") round.phase = "revealed";
        round.to_act = null;
      }
      state.turn_deadline = null;
      return false;
    case "dealer_card_exposed":
      if (round) round.main_game_void = true;
      return false;
    case "box_settled": {
      const b = round && findBox(state, data.box);
      if (b) {
        b.results = data.results;
        b.net = data.net;
        b.folded = data.folded;
        if (data.cards) Object.assign(b, {
          cards: data.cards,
          best_four: data.best_four,
          hand: data.hand,
          category: data.category,
        });
      }
      return false;
    }
    case "round_settled":
      if (round) {
        round.phase = "settled";
        round.players = data.players;
        round.main_game_void = data.main_game_void;
        round.shoe = data.shoe;
        round.salt = data.salt;
        round.to_act = null;
      }
      state.turn_deadline = null;
      return true;
    case "round_void":
      if (round) {
        round.phase = "void";
        round.void_reason = data.reason;
        round.void_explanation = data.explanation;
        round.returned = data.returned;
        round.shoe = data.shoe;
        round.salt = data.salt;
        round.to_act = null;
      }
      state.betting_deadline = null;
      state.turn_deadline = null;
      return true;
    case "balance":
      if (state.me) state.me.balance = data.balance;
      return false;
    case "seated":
      if (!seatOf(state, data.box)) {
        state.seats.push({ box: data.box, player: data.player, connected: true });
      }
      if (state.me && data.player === state.me.username) state.me.boxes = myBoxes(state);
      return false;
    case "stood":
      state.seats = state.seats.filter((s) => s.box !== data.box);
      if (state.me) state.me.boxes = myBoxes(state);
      return false;
    case "player_left":
      state.seats = state.seats.filter(
        (s) => !(s.player === data.player && data.boxes.includes(s.box)),
      );
      for (const s of state.seats) if (s.player === data.player) s.connected = false;
      if (state.me) state.me.boxes = myBoxes(state);
      return false;
    case "connection":
      for (const s of state.seats) if (s.player === data.player) s.connected = data.connected;
      return false;
    case "table_opened":
      state.table.is_open = true;
      return false;
    case "table_closed":
      state.table.is_open = false;
      return false;
    case "rules_changed":
    case "rules_pending":
      return true;
    case "shoe_fault_armed":
    case "decks_changed":
    case "deck_removed":
    case "stub_counted":
      return Boolean(state.shoe); // the console shows the shoe, which only a snapshot carries
    default:
      return false;
  }
}

export function phaseName(round) {
  if (!round) return "No round yet";
  return (
    {
      betting: "Betting open",
      closed: "No more bets",
      decisions: "Decisions",
      revealed: "Dealer revealed",
      settled: "Settled",
      void: "Round void",
    }[round.phase] ?? round.phase
  );
}

/**
 * Whether the next step is the house's (a dealer's command or the automatic dealer's clock)
 * rather than a player's: the page then checks now and then that it has not missed it.
 */
export function waitingOnHouse(state, serverNow) {
  if (!state || !state.table.is_open) return false;
  const r = state.round;
  if (!r || r.phase === "settled" || r.phase === "void") return state.seats.length > 0;
  if (r.phase === "betting") return Boolean(state.betting_deadline && serverNow > state.betting_deadline + 1000);
  if (r.phase === "decisions" && r.to_act) {
    return Boolean(state.turn_deadline && serverNow > state.turn_deadline + 1000);
  }
  return true; // closed, decisions made, revealed
}
