"""``manage.py settle_round`` before and after a change: byte for byte, on a large set of inputs.

    python bench/settle_corpus.py make DIR [--rounds N] [--game NAME]   # the inputs (seeded)
    python bench/settle_corpus.py run DIR OUT             # every input's answer, one per line

``make`` writes a game's documents (``--game``: by default every game whose bench has an
engine, :mod:`bench.engine`; the game's registry entry names its bench): arrays of 500 random
dealt rounds (its ``random_rounds``: e.g. every hand shape planted, side bets, folds, payout
limits, any box order), single rounds, and the same rounds broken one way each (its
``broken_round``: a key missing, a wrong type, a card twice, an illegal decision, an unknown
paytable, duplicate boxes, ...), which must be refused with the same words.
``run`` feeds each document to the ``settle_round`` command in this process (its stdout, or
its ``CommandError`` message) and writes one line per document: the file name and the SHA-256
of the answer. Run ``run`` in two checkouts (the same DIR) and ``cmp`` the two OUT files.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.engine import EngineBench

BATCH = 500


def make(directory: Path, rounds: int, game: str | None = None) -> None:
    from bench.engine import engines

    found = engines([game] if game else None)
    for name, engine in found.items():
        make_game(directory / name if len(found) > 1 else directory, rounds, engine)


def make_game(directory: Path, rounds: int, engine: EngineBench) -> None:
    random_rounds = engine.random_rounds
    directory.mkdir(parents=True, exist_ok=True)
    seed = 0
    made = 0
    while made < rounds:
        batch = random_rounds(BATCH, seed=1000 + seed)
        (directory / f"batch-{seed:04d}.json").write_text(json.dumps(batch))
        seed += 1
        made += BATCH
    rng = random.Random(7)
    singles = random_rounds(2_000, seed=99)
    for i, doc in enumerate(singles):
        (directory / f"single-{i:04d}.json").write_text(json.dumps(doc))
        broken = engine.broken_round(rng, doc)
        (directory / f"broken-{i:04d}.json").write_text(json.dumps(broken))


def run(directory: Path, out: Path) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frenzy_site.settings")
    django.setup()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    lines = []
    count = rounds = 0
    for path in sorted(directory.rglob("*.json")):
        stdout = io.StringIO()
        try:
            call_command("settle_round", input=str(path), stdout=stdout)
            answer = stdout.getvalue()
        except CommandError as exc:
            answer = f"CommandError: {exc}"
        doc = json.loads(path.read_text())
        rounds += len(doc) if isinstance(doc, list) else 1
        count += 1
        digest = hashlib.sha256(answer.encode()).hexdigest()
        lines.append(f"{path.relative_to(directory)} {digest}")
    out.write_text("\n".join(lines) + "\n")
    print(f"{count} documents, {rounds} rounds -> {out}")


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    if sys.argv[1] == "make":
        n = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 100_000
        game = sys.argv[sys.argv.index("--game") + 1] if "--game" in sys.argv else None
        make(Path(sys.argv[2]), n, game)
    else:
        run(Path(sys.argv[2]), Path(sys.argv[3]))
