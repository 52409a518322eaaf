"""What a viewer may see of a table right now: the snapshot, and the round view alone.

Generic over the games: the round, the posted signs, the rules and their changes come from
the table's game through :class:`table.games.base.Game` only (docs/games.md), never from a
game's own modules.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from table.games import GAME_TITLES, default_game, game, game_of_state
from table.games.base import Actor, FeltParts, Game
from table.games.shoe import DECK_LIFETIME_SECONDS, Fault, Shuffler

from .duties import can_deal
from .models import Account, Round, RulesSubmission, Seat, Table
from .presence import is_present
from .services.context import LAG_ALLOWANCE

Viewer = User | AnonymousUser | None


def is_dealer(user: Viewer) -> bool:
    return bool(user and user.is_authenticated and user.has_perm("table.deal_table"))


def posted_paytables(rules: Any, name: str | None = None) -> list[dict[str, Any]]:
    """The signs the table posts (§684a.2(b)(4),(5) and the other chapters' alike): every
    wager offered and its payouts, as the game ``name`` (the default game's when None) words
    them (``Game.signs``: one source)."""
    return [sign.to_dict() for sign in game(name or default_game()).signs(rules)]


def _chapter(g: Game[Any, Any]) -> str:
    """``"684a"`` from ``"58 Pa. Code ch. 684a"``: the chapters number their sections alike."""
    return g.regulation.rsplit(" ", 1)[-1]


def stub_count_note(g: Game[Any, Any]) -> str:
    """Why the console prompts for no stub count (§684a.10(d), §657a.10(d), §663a.10(d)
    apply only without a counting shuffler); a count can still be made after a deal."""
    ch = _chapter(g)
    return (
        f"No stub count is due: §{ch}.10(d) asks for one every 5 rounds only when the shuffler "
        "does not count the deck. This shuffler counts 52 cards after every shuffle and a deck "
        f"that counts wrong leaves the table (§{ch}.5(b))."
    )


#: The words the console has shown before a round tells the game (ch. 684a's).
STUB_COUNT_NOTE = (
    "No stub count is due: §684a.10(d) asks for one every 5 rounds only when the shuffler does "
    "not count the deck. This shuffler counts 52 cards after every shuffle and a deck that "
    "counts wrong leaves the table (§684a.5(b))."
)


def shoe_state(table: Table, g: Game[Any, Any] | None = None, state: Any = None) -> dict[str, Any]:
    """The shuffler and the deck in play, for the dealer console. ``state``: the round in
    play (``g``'s), whose status says how many cards are out of the shoe."""
    now = time.time()
    decks = []
    count: dict[str, Any] | None = None
    if table.shoe:
        shuffler = Shuffler.from_dict(table.shoe)
        for i, deck in enumerate(shuffler.decks):
            decks.append(
                {
                    "back": deck.back,
                    "in_play_since": int(deck.since * 1000),
                    "age_seconds": int(now - deck.since),
                    "change_in_seconds": max(0, int(deck.since + DECK_LIFETIME_SECONDS - now)),
                    "rounds": deck.rounds,
                    "next": i == shuffler.next_deck,
                }
            )
        armed = [f.value for f in shuffler.armed]
        if shuffler.last_count is not None:
            count = {"count": shuffler.last_count, "deck": shuffler.last_counted_back}
    else:
        armed = []
    status = g.status(state) if g is not None and state is not None else None
    return {
        "decks": decks,
        "deck_in_play": status.deck_back if status else None,
        "cards_dealt": status.cards_dealt if status else 0,
        "rounds_since_stub_count": table.rounds_since_stub_count,
        "armed_faults": armed,
        # The drills this game's deal knows (the console shows only those: Hi-Lo has no
        # exposed dealer card, §663a.13); every drill when no game is known yet.
        "drills": [f.value for f in (g.drills if g is not None else Fault)],
        # The virtual shuffler counts every deck after every shuffle (§684a.5(b)).
        "shuffler_count": count,
        "stub_count_required": False,
        "stub_count_note": STUB_COUNT_NOTE if g is None else stub_count_note(g),
    }


def rules_notice(table: Table, g: Game[Any, Any], state: Any) -> dict[str, Any] | None:
    """What changes with the next round's rules ("from the next round: ..."), or, while the
    first round under new rules is in play, what changed with it ("from this round: ...")."""
    if state is None:
        return None
    status = g.status(state)
    following: RulesSubmission = table.pending_rules or table.rules
    in_play = g.round_rules(state)
    if following.game == g.name:  # a table runs one game (the admin refuses another's rules)
        changes = g.rule_changes(in_play, following.game_rules())
        if changes:
            return {"rules": following.name, "changes": changes, "from_round": status.number + 1}
    if status.finished or status.number <= 1:
        return None
    before = (
        Round.objects.filter(table=table, number=status.number - 1).values_list("rules", flat=True)
    ).first()
    if not before:
        return None
    changes = g.rule_changes(g.parse_rules(before), in_play)
    if not changes:
        return None
    return {"rules": table.rules.name, "changes": changes, "from_round": status.number}


def dealing_state(table: Table) -> dict[str, Any]:
    """Who moves the rounds on, for the console: an automatic dealer (and whether it is
    alive), a dealer who took over, or nobody in particular."""
    from django.utils import timezone

    from .services import DEALER_STALE

    by = table.dealt_by
    age = None
    if table.clock_heartbeat is not None:
        age = max(0, int((timezone.now() - table.clock_heartbeat).total_seconds()))
    return {
        "by": by,
        "kind": "dealer" if by.startswith("dealer:") else "autodealer" if by else None,
        "name": by.removeprefix("dealer:"),
        "clock_owner": table.clock_owner,
        "heartbeat_age": age,
        "alive": bool(table.clock_owner and age is not None and age < DEALER_STALE.total_seconds()),
    }


def _ms(moment: Any) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def felt_parts(felt: FeltParts) -> dict[str, Any]:
    """The game's felt and console parts, JSON-ready."""
    return {
        "spots": [list(row) for row in felt.spots],
        "labels": dict(felt.labels),
        "felt_module": felt.felt_module,
        "console_module": felt.console_module,
        "leave_rule": felt.leave_rule,
        "fold_keeps": list(felt.fold_keeps),
        "for_one": felt.for_one,
        "printed": list(felt.printed),
    }


def viewer_of(user: Viewer, dealer: bool, seated: bool) -> Actor:
    """Who looks: the table's assigned dealer at the console (unless seated here: then their
    own boxes), a player by name, or a spectator."""
    if not (user and user.is_authenticated):
        return Actor.spectator()
    name = user.get_username()
    if dealer and not seated:
        return Actor.dealer(name)
    return Actor.player(name)


def _current(table: Table) -> tuple[Game[Any, Any], Any]:
    """The table's game and its round in play (None: no round yet)."""
    if table.current_round_id:
        stored = Round.objects.filter(pk=table.current_round_id).values_list("state", flat=True)
        data = stored.first()
        if data:
            g = game_of_state(data)
            return g, g.from_dict(data)
    return game(table.rules.game), None


def round_view(table_id: int, user: Viewer) -> dict[str, Any] | None:
    """Only the round in play as ``user`` may see it (None: no round yet): what a ``view``
    frame carries after a change, without the rest of the snapshot."""
    row = (
        Table.objects.filter(pk=table_id).values_list("current_round__state", "rules__game").first()
    )
    if row is None or not row[0]:
        return None
    g = game_of_state(row[0])
    state = g.from_dict(row[0])
    seated = bool(
        user
        and user.is_authenticated
        and Seat.objects.filter(table_id=table_id, player=user).exists()
    )
    return g.view(state, viewer_of(user, can_deal(user, table_id), seated))


def snapshot(table_id: int, user: Viewer) -> dict[str, Any]:
    table = Table.objects.select_related("rules", "pending_rules").get(pk=table_id)
    g, state = _current(table)
    status = g.status(state) if state is not None else None
    # A round in play keeps the rules it opened with: its signs stay posted until it ends.
    live = status is not None and not status.finished
    rules = g.round_rules(state) if live else table.rules.game_rules()
    authenticated = bool(user and user.is_authenticated)
    viewer = user.get_username() if authenticated and user is not None else None
    dealer = can_deal(user, table.pk)  # the dealer assigned to this table, nobody else
    seats = [
        {"box": s.box, "player": s.player.get_username(), "connected": is_present(s)}
        for s in Seat.objects.filter(table=table).select_related("player")
    ]
    me: dict[str, Any] | None = None
    if user is not None and user.is_authenticated:
        balance = Account.objects.filter(user=user).values_list("balance", flat=True).first() or 0
        me = {
            "username": viewer,
            "balance": balance,
            "boxes": [s["box"] for s in seats if s["player"] == viewer],
            "is_dealer": dealer,
            "is_staff": bool(getattr(user, "is_staff", False)),
        }
    actor = viewer_of(user, dealer, bool(me and me["boxes"]))
    meters: list[dict[str, Any]] = []
    if g.meters(rules):
        from .meters import table_meter_frames

        meters = table_meter_frames(table.pk)
    return {
        "type": "snapshot",
        "version": table.version,
        "now": int(time.time() * 1000),
        "table": {
            "id": table.pk,
            "name": table.name,
            "game": g.name,
            "game_title": GAME_TITLES.get(g.name, g.title),
            "is_open": table.is_open,
            "is_test": table.is_test,
            "rules_name": table.rules.name,
            "pending_rules": table.pending_rules.name if table.pending_rules else None,
            "rules": g.rules_to_dict(rules),
            "paytables": [sign.to_dict() for sign in g.signs(rules)],
            "payout_limit": g.table_settings(rules).payout_limit,
            # Every wager is a whole number of it (issue 28): the bet form refuses others.
            "betting_unit": table.rules.betting_unit,
            "rules_notice": rules_notice(table, g, state),
            "felt": felt_parts(g.felt),
            "meters": meters,
        },
        "seats": seats,
        "round": g.view(state, actor) if state is not None else None,
        "betting_deadline": _ms(table.betting_deadline),
        "turn_deadline": _ms(table.turn_deadline),
        # A clock's time-out waits this long past its deadline for commands still on their
        # way (issue 26): the console offers it only then, so the server never says "not yet".
        "lag_allowance_ms": int(LAG_ALLOWANCE.total_seconds() * 1000),
        "shoe": shoe_state(table, g, state) if dealer else None,
        "dealing": dealing_state(table) if dealer else None,
        "me": me,
    }
