"""Round machinery every game's round repeats, written once, and the JSON parsing helpers of
the games' ``settle_round`` contracts, the formatting of their paytable reports and the
audit's re-deal.

The games play on the same six boxes, take wagers the same way before "no more bets" and decide in
turn from the dealer's left: these are the checks, the wager step and the turn they share.
What a game's rules decide (which wagers, their limits, how many boxes a player may play, what
a decision is, the messages citing its own chapter) stays in the game's own round.

Pure: no Django, no state of its own; it imports no game's modules (the games import it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final, Protocol, TypeVar

from table.games.cards import codes
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, Step, Transfer

BOXES: Final = (1, 2, 3, 4, 5, 6)  # box 1 is farthest to the dealer's left


def check_player(player: object) -> str:
    """A player is named by a non-empty string."""
    if not isinstance(player, str) or not player:
        raise InvalidInput("bad_player", f"a player is a non-empty name, not {player!r}")
    return player


def check_amount(value: object, name: str) -> int:
    """An amount of money is a whole number of cents, never negative (a bool is not one)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInput("bad_amount", f"{name} must be a whole number of cents ≥ 0")
    return value


def check_box(box: object) -> int:
    """A box is one of the table's six (a bool is not one)."""
    if not isinstance(box, int) or isinstance(box, bool) or box not in BOXES:
        raise InvalidInput("bad_box", f"there is no box {box!r}; boxes are 1 to 6")
    return box


def require_phase(phase: StrEnum, phases: Iterable[StrEnum]) -> None:
    """The command is allowed only in one of ``phases``; the round is in ``phase``."""
    wanted = tuple(phases)
    if phase not in wanted:
        names = " or ".join(p.value for p in wanted)
        raise RuleViolation(
            "wrong_phase", f"not allowed now: the round is {phase.value}, not {names}"
        )


def adjacent(boxes: Sequence[int]) -> bool:
    """Whether sorted, distinct ``boxes`` are next to each other (no box between them free)."""
    return boxes[-1] - boxes[0] == len(boxes) - 1


def check_adjacent_boxes(boxes: Sequence[int], box: int, placing: bool, most: int) -> None:
    """Whether a player whose boxes in play are ``boxes`` may now place (``placing``) or take
    back the wagers on ``box``: at most ``most`` boxes, all next to each other, also after a
    withdrawal (the adjacent-boxes rule of each game's chapter)."""
    if placing:
        mine = sorted({*boxes, box})
        if len(mine) > most:
            raise RuleViolation(
                "too_many_boxes", f"a player may play at most {most} adjacent boxes"
            )
        if not adjacent(mine):
            raise RuleViolation("not_adjacent", "a player's boxes must be next to each other")
    else:
        others = [b for b in boxes if b != box]
        if others and not adjacent(others):
            raise RuleViolation("not_adjacent", "withdrawing this box would leave your boxes apart")


class _Limits(Protocol):
    def limits(self, wager: str) -> tuple[int, int]: ...


def limits_problems(rules: _Limits, wagers: Iterable[str]) -> list[tuple[str, str]]:
    """A Rules Submission's problems with its wagers' limits, as (field, words): each
    minimum more than zero and no more than its maximum."""
    out: list[tuple[str, str]] = []
    for wager in wagers:
        low, high = rules.limits(wager)
        label = wager.replace("_", " ")
        if low <= 0:
            out.append((f"{wager}_min", f"the {label} minimum must be more than zero"))
        if low > high:
            out.append((f"{wager}_min", f"the {label} minimum is more than its maximum"))
    return out


class _Box(Protocol):
    @property
    def player(self) -> str: ...

    @property
    def in_play(self) -> bool: ...

    def staked(self) -> int: ...


_B = TypeVar("_B", bound=_Box)


def check_bettor(
    boxes: Mapping[int, _B], box: object, player: object, wagers: object, known: Iterable[str]
) -> tuple[int, _B | None]:
    """The checks every game's bet makes before its own wagers': one of the six boxes, a
    player, a mapping of wagers (the box's complete set), a box no one else plays, and no
    wager the game does not know. Returns the box and what it holds now (None: nothing)."""
    number = check_box(box)
    check_player(player)
    if not isinstance(wagers, Mapping):
        raise InvalidInput("bad_shape", "wagers must be a mapping of wager to cents")
    current = boxes.get(number)
    if current is not None and current.player != player:
        raise RuleViolation("box_taken", f"box {number} is played by someone else")
    unknown = set(wagers) - set(known)
    if unknown:
        raise InvalidInput("unknown_wager", f"no such wager {sorted(map(str, unknown))[0]!r}")
    return number, current


def boxes_of(boxes: MutableMapping[int, _B], player: str) -> list[int]:
    """The boxes ``player`` has in play, in order."""
    return sorted(b for b, p in boxes.items() if p.player == player and p.in_play)


def wagers_step(
    boxes: MutableMapping[int, _B],
    box: int,
    player: str,
    placed: dict[str, int],
    new_box: Callable[[int, str, dict[str, int]], _B],
) -> tuple[tuple[Event, ...], tuple[Transfer, ...]]:
    """Place, change or (``placed`` empty) withdraw a box's checked wagers: the box is replaced
    by ``new_box(box, player, placed)`` or removed; the player pays or gets back the difference.

    Returns the step's events and transfers (each game builds its own ``Step`` from them)."""
    before = boxes[box].staked() if box in boxes else 0
    if placed:
        boxes[box] = new_box(box, player, placed)
    else:
        boxes.pop(box, None)
    difference = sum(placed.values()) - before
    transfers = (
        (Transfer(player, difference, "wager" if difference > 0 else "wager returned", box),)
        if difference
        else ()
    )
    kind = "wagers_placed" if placed else "wagers_withdrawn"
    # The event keeps its own copy: a later decision changes the box's wagers, not the record.
    sent = {"box": box, "player": player, "wagers": dict(placed)}
    return (Event(kind, sent),), transfers


def withdraw_all(
    boxes: Iterable[int], withdraw: Callable[[int], Step]
) -> tuple[tuple[Event, ...], tuple[Transfer, ...]]:
    """A player leaves before "no more bets": each of their ``boxes`` is withdrawn in turn
    (``withdraw``, the game's own bet of nothing) and every wager comes back, for no card was
    received (§684a.7(b), §657a.7(b), §663a.7(b)). The events and transfers of all."""
    events: list[Event] = []
    transfers: list[Transfer] = []
    for box in boxes:
        step = withdraw(box)
        events += step.events
        transfers += step.transfers
    return tuple(events), tuple(transfers)


class _Deciding(Protocol):
    @property
    def box(self) -> int: ...

    @property
    def player(self) -> str: ...

    @property
    def decision(self) -> object: ...

    @property
    def abandoned(self) -> bool: ...


_D = TypeVar("_D", bound=_Deciding)


def next_turn(
    in_play: Iterable[_D], fold: Callable[[_D], list[Event]]
) -> tuple[int | None, list[Event]]:
    """The box to decide next among ``in_play`` (in the order the chapter gives: from the
    dealer's left, §684a.11(b), §657a.11(b), §663a.11(b)) and the events on the way: a box
    whose player left folds as its turn comes (``fold`` records it), the next undecided box
    gets a ``turn``; when none is left, ``decisions_complete`` and None."""
    events: list[Event] = []
    for box in in_play:
        if box.decision is None:
            if box.abandoned:
                events.extend(fold(box))
                continue
            events.append(Event("turn", {"box": box.box, "player": box.player}))
            return box.box, events
    events.append(Event("decisions_complete", {}))
    return None, events


# --- the settle_round contracts' parsing ------------------------------------------------------


def json_object(value: object, what: str) -> dict[str, Any]:
    """``value`` as a JSON object (``what`` names it in the error)."""
    if not isinstance(value, dict):
        raise InvalidInput("bad_shape", f"{what} must be a JSON object")
    return value


def check_keys(data: dict[str, Any], known: frozenset[str], where: str) -> None:
    """No key of ``data`` outside ``known``; the error names the first unknown one after the
    prefix ``where`` (e.g. ``"rules: "``, or ``""`` at the top level)."""
    if not known.issuperset(data):
        unknown = sorted(set(data) - known, key=str)[0]
        raise InvalidInput("bad_shape", f"{where}unknown key {unknown!r}")


def box_number(box: dict[str, Any], index: int) -> int:
    """The ``box`` of ``boxes[index]``: one of the six boxes (a bool or other subclass of int
    is not one)."""
    number = box.get("box")
    if type(number) is not int or not 1 <= number <= 6:
        raise InvalidInput(
            "bad_box", f"boxes[{index}]: box must be a number 1 to 6, not {number!r}"
        )
    return number


# --- the paytable reports' formatting ---------------------------------------------------------

Progress = Callable[[str], None]  # where a report says how far it has got


def quiet(_: str) -> None:
    """A report's progress, said to nobody."""
    return None


def whole_report(text: str | None) -> list[str]:
    """A paytable report's ``parse_sections`` when it is computed only whole: it has no
    parts, so any part named is unknown."""
    if text:
        raise InvalidInput("unknown_section", f"this report is computed whole: no part {text!r}")
    return []


def exact(x: Fraction) -> str:
    """An exact figure as the fraction ``numerator/denominator``."""
    return f"{x.numerator}/{x.denominator}"


def percent(x: float, places: int = 4) -> str:
    return f"{x * 100:.{places}f}%"


def one_in(x: float | None) -> str:
    """A "1 in N" frequency: whole above 100, two decimals below, "-" for never."""
    return f"{x:,.0f}" if x is not None and x >= 100 else (f"{x:,.2f}" if x else "-")


# --- the audit's re-deal (``Game.recheck``) ----------------------------------------------------


def show_cards(cards: Sequence[int] | int | None) -> str:
    """Cards as the audit's words show them: codes, "nothing" for none dealt, "none" for a
    card that is not there."""
    if cards is None:
        return "none"
    if isinstance(cards, int):
        return codes([cards])[0]
    return " ".join(codes(list(cards))) or "nothing"


def restack_problems(
    in_play: Sequence[tuple[int, Sequence[int]]],
    box_stacks: Sequence[Sequence[int]],
    expected: Sequence[tuple[str, Any, Any]],
    idle: Sequence[tuple[int, Sequence[int]]] = (),
    dealt_for: str = "an Ante",
) -> list[str]:
    """Where a round's record and the re-deal of its committed shoe disagree: each box in
    play (box, cards held) against the stack the shoe deals it (a jammed shoe dispenses
    fewer stacks), each box not in play (``idle``) holding a card (the shoe deals a box
    nothing without ``dealt_for``: §684a.10(b), §657a.10(b), §663a.10(b)), then each named
    pile (what, held, re-dealt): the dealer's stack, a shared card, the discards, the stub."""
    problems = []
    stacks = [list(s) for s in box_stacks] + [[]] * (len(in_play) - len(box_stacks))
    for (box, cards), stack in zip(in_play, stacks, strict=True):
        if list(cards) != stack:
            problems.append(
                f"box {box} holds {show_cards(cards)} but the committed shoe deals it "
                f"{show_cards(stack)}"
            )
    problems += [f"box {box} has cards without {dealt_for}" for box, cards in idle if cards]
    for what, have, want in expected:
        if have != want:
            problems.append(
                f"{what} is {show_cards(have)} but the committed shoe gives {show_cards(want)}"
            )
    return problems


def void_problems(found: str | None, void_reason: str | None, phase: str) -> list[str]:
    """A re-deal that ends in an irregularity must end the round void for it (§684a.13,
    §657a.13, §663a.13): ``found`` is the void reason the re-deal gives (None: none), the
    round shows ``void_reason`` in ``phase``."""
    if found is None or void_reason == found:
        return []
    return [f"the re-deal ends in {found} but the round shows {void_reason or phase}"]


def compare_resettlement(fresh: Any, kept: Any, players: Any, recorded: Any) -> list[str]:
    """Where the stored layout settled again disagrees with the round's record: its boxes'
    results (``fresh`` against ``kept``, each as the game compares them) and each player's
    total (``players`` against ``recorded``)."""
    problems = []
    if fresh != kept:
        problems.append(f"re-settling the round gives {fresh}, the record says {kept}")
    if players != recorded:
        problems.append(f"player totals {recorded} differ from the re-settlement {players}")
    return problems


def fixed_odds_variance(entry: Mapping[str, Any], house_edge: float) -> float | None:
    """The exact variance of a unit wager's net from a paytable report entry whose ``rows``
    give every winning outcome's ``probability`` and ``return`` (probability x net per unit),
    every other outcome losing the unit; None unless those rows give back ``house_edge``
    (a wager with pushes, or rows that are not the whole distribution)."""
    rows = entry.get("rows")
    if not isinstance(rows, list) or not rows:
        return None
    hit = sum(float(r["probability"]) for r in rows)
    if not 0 < hit <= 1 or any(float(r["probability"]) <= 0 for r in rows):
        return None
    mean = sum(float(r["return"]) for r in rows) - (1 - hit)
    if abs(mean + house_edge) > 1e-9:
        return None
    second = sum(float(r["return"]) ** 2 / float(r["probability"]) for r in rows) + (1 - hit)
    return second - mean * mean


# --- a main game's spread: the whole distribution of a box's net, and two boxes' covariance ---


def net_distribution_json(
    counts: Mapping[Fraction, int],
    covariance: Fraction | None = None,
    covariance_detail: Mapping[str, Any] | None = None,
    seconds: float | None = None,
) -> dict[str, Any]:
    """A main game's ``net_distribution`` for its report: every net result of a box per unit
    of Ante at the published optimal play with how many deals give it (exact integers over
    the enumeration's population), the exact mean and variance they give, and the exact
    covariance of two boxes' nets in one round (they share the dealer's hand)."""
    population = sum(counts.values())
    if population <= 0 or any(n < 0 for n in counts.values()):
        raise ValueError("a distribution is non-negative counts of a positive population")
    mean = sum((net * n for net, n in counts.items()), Fraction(0)) / population
    second = sum((net * net * n for net, n in counts.items()), Fraction(0)) / population
    variance = second - mean * mean
    out: dict[str, Any] = {
        "of": "a box's whole main-game net result per unit of Ante at the published optimal "
        "play (every wager of the main game together)",
        "population": population,
        "outcomes": [
            {"net": exact_text(net), "count": n, "probability": float(Fraction(n, population))}
            for net, n in sorted(counts.items())
            if n
        ],
        "mean_exact": exact(mean),
        "variance": float(variance),
        "variance_exact": exact(variance),
    }
    if covariance is not None:
        out["covariance"] = float(covariance)
        out["covariance_exact"] = exact(covariance)
        out["covariance_of"] = (
            "two boxes' nets per unit of Ante in one round: the variance over the dealer's "
            "hands of a box's expected net given the dealer's hand (card removal between "
            "the boxes neglected, docs/backoffice.md)"
        )
        out["correlation"] = float(covariance / variance) if variance else 0.0
        if covariance_detail:
            out["covariance_detail"] = dict(covariance_detail)
    if seconds is not None:
        out["seconds"] = round(seconds, 2)
    return out


def exact_text(x: Fraction) -> str:
    """A fraction as text: "-2", "7/2"."""
    return str(x.numerator) if x.denominator == 1 else exact(x)


def net_distribution_moments(
    entry: Mapping[str, Any], house_edge: str | None = None
) -> tuple[Fraction, Fraction, Fraction | None]:
    """(mean, variance, covariance) of a report's ``net_distribution``, exactly, after
    checking that its counts add up to its population and, given ``house_edge`` (the exact
    figure's text, "1597/33686"), that the mean is minus it. ValueError otherwise."""
    population = int(entry["population"])
    outcomes = [(Fraction(o["net"]), int(o["count"])) for o in entry["outcomes"]]
    if sum(n for _, n in outcomes) != population or population <= 0:
        raise ValueError("the distribution's counts do not add up to its population")
    mean = sum((x * n for x, n in outcomes), Fraction(0)) / population
    variance = sum((x * x * n for x, n in outcomes), Fraction(0)) / population - mean * mean
    if Fraction(entry["mean_exact"]) != mean or Fraction(entry["variance_exact"]) != variance:
        raise ValueError("the distribution's stated mean or variance is not its own")
    if house_edge is not None and mean != -Fraction(house_edge):
        raise ValueError(f"the distribution's mean {mean} is not minus the house edge")
    cov = entry.get("covariance_exact")
    return mean, variance, None if cov is None else Fraction(cov)


def main_game_spread(
    entry: Mapping[str, Any] | None, house_edge: str | None = None
) -> tuple[float | None, float | None]:
    """(variance, covariance) per unit of Ante of a main game from its report's
    ``net_distribution`` (:func:`net_distribution_moments`), as the back office uses them;
    (None, None) when the report has none or it does not give back the house edge."""
    if not entry:
        return None, None
    try:
        _mean, variance, cov = net_distribution_moments(entry, house_edge)
    except (KeyError, ValueError, TypeError, ZeroDivisionError):
        return None, None
    return float(variance), None if cov is None else float(cov)


def spread_markdown(entries: Sequence[tuple[str, Mapping[str, Any]]], what: str) -> list[str]:
    """``docs/paytables.md``'s lines on a main game's spread: for each (table name, its
    ``net_distribution``), the variance of a box's net per unit of Ante and the covariance of
    two boxes in one round (the back office's band, docs/backoffice.md)."""
    out = [
        f"#### Spread of the main game ({what})",
        "",
        "| table | net results | variance per Ante² | covariance of two boxes | correlation |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, d in entries:
        out.append(
            f"| {name} | {len(d['outcomes'])} | {d['variance']:.4f} | {d['covariance']:.4f} | "
            f"{d['correlation']:.3f} |"
        )
    out += [
        "",
        "The whole distribution of a box's net per unit of Ante at the optimal play (every net "
        "with its exact count of deals: `net_distribution` in the JSON; its mean is minus the "
        "house edge exactly) and the covariance of two boxes' nets in one round, which share "
        "the dealer's hand: the variance over the dealer's hands of a box's expected net given "
        "that hand, card removal between the boxes neglected (docs/backoffice.md).",
        "",
    ]
    return out


def viewer_role(dealer: bool, viewer: str | None) -> str:
    """Who a round view is for, as every game's view says it: the dealer, a seated or
    logged-in player (``viewer``, their name), or a spectator (no name)."""
    if dealer:
        return "dealer"
    return "player" if viewer is not None else "spectator"


def viewer_entry(
    dealer: bool, viewer: str | None, boxes_of: Callable[[str], list[int]] | None = None
) -> dict[str, Any]:
    """A round view's ``viewer`` entry, as every game's view gives it: the role, the name
    (the dealer console is nobody's box: none) and, for a game that lists them, the boxes
    that name holds (``boxes_of``)."""
    name = None if dealer else viewer
    entry: dict[str, Any] = {"role": viewer_role(dealer, viewer), "name": name}
    if boxes_of is not None:
        entry["boxes"] = boxes_of(name or "")
    return entry
