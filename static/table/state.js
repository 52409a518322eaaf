// The table as the client knows it: the last snapshot, the round as the latest view shows it,
// and the table's own events since applied to it (event kinds and their data:
// docs/protocol.md). Money is integer cents throughout.

/** The events that change the table rather than the round (applyEvent). */
export const TABLE_EVENTS = new Set([
  "seated",
  "stood",
  "player_left",
  "connection",
  "table_opened",
  "table_closed",
  "balance",
  "betting_clock",
]);
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

export function seatOf(state, box) {
  return state.seats.find((s) => s.box === box) ?? null;
}

export function myBoxes(state) {
  const me = state.me?.username;
  if (!me) return [];
  return state.seats.filter((s) => s.player === me).map((s) => s.box).sort((a, b) => a - b);
}

/**
 * Apply one of the table's own events (TABLE_EVENTS) to the state: the seats, the players'
 * connections, the table opened or closed, the player's balance, the betting clock. The round
 * is never applied from its events: it comes whole in the next view (protocol v2).
 */
export function applyEvent(state, kind, data) {
  switch (kind) {
    case "betting_clock":
      state.betting_deadline = data.deadline;
      break;
    case "balance":
      if (state.me) state.me.balance = data.balance;
      break;
    case "seated":
      if (!seatOf(state, data.box)) {
        state.seats.push({ box: data.box, player: data.player, connected: true });
      }
      if (state.me && data.player === state.me.username) state.me.boxes = myBoxes(state);
      break;
    case "stood":
      state.seats = state.seats.filter((s) => s.box !== data.box);
      if (state.me) state.me.boxes = myBoxes(state);
      break;
    case "player_left":
      state.seats = state.seats.filter(
        (s) => !(s.player === data.player && data.boxes.includes(s.box)),
      );
      for (const s of state.seats) if (s.player === data.player) s.connected = false;
      if (state.me) state.me.boxes = myBoxes(state);
      break;
    case "connection":
      for (const s of state.seats) if (s.player === data.player) s.connected = data.connected;
      break;
    case "table_opened":
      state.table.is_open = true;
      break;
    case "table_closed":
      state.table.is_open = false;
      break;
    default:
      break;
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
