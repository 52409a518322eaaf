"""``manage.py settle_round`` before and after a change: byte for byte, on a large set of inputs.

    python bench/settle_corpus.py make DIR [--rounds N]   # the inputs (deterministic, seeded)
    python bench/settle_corpus.py run DIR OUT             # every input's answer, one per line

``make`` writes Four Card Frenzy documents: arrays of 500 random dealt rounds (bench/rounds.py:
every hand shape planted, side bets, folds, payout limits, any box order), single rounds, and
the same rounds broken one way each (a key missing, a wrong type, a card twice, an illegal
Raise, an unknown paytable, duplicate boxes, ...), which must be refused with the same words.
``run`` feeds each document to the ``settle_round`` command in this process (its stdout, or
its ``CommandError`` message) and writes one line per document: the file name and the SHA-256
of the answer. Run ``run`` in two checkouts (the same DIR) and ``cmp`` the two OUT files.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

BATCH = 500


def _broken(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    """One round broken one way (or, now and then, left valid)."""
    doc = copy.deepcopy(doc)
    box = rng.choice(doc["boxes"])
    how = rng.randrange(14)
    if how == 0:
        del doc["dealer"]
    elif how == 1:
        doc["dealer"] = doc["dealer"][:4]
    elif how == 2:
        doc["dealer"][0] = box["cards"][0]  # a card twice
    elif how == 3:
        box["cards"][1] = "1X"
    elif how == 4:
        box["wagers"]["ante"] = -box["wagers"]["ante"]
    elif how == 5:
        box["wagers"]["odds"] = box["wagers"]["ante"] + 1
    elif how == 6:
        box["wagers"]["raise"] = box["wagers"]["ante"] * 4
    elif how == 7:
        doc["rules"]["bad_beat_paytable"] = "Z"
    elif how == 8:
        box["box"] = 7
    elif how == 9:
        doc["boxes"].append(copy.deepcopy(box))  # the same box twice
    elif how == 10:
        box["wagers"]["ante"] = str(box["wagers"]["ante"])
    elif how == 11:
        doc["rules"]["payout_limit"] = -5
    elif how == 12:
        del box["player"]
    # how == 13: valid
    return doc


def make(directory: Path, rounds: int) -> None:
    from bench.rounds import random_rounds

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
        broken = _broken(rng, doc)
        (directory / f"broken-{i:04d}.json").write_text(json.dumps(broken))


def run(directory: Path, out: Path) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frenzy_site.settings")
    django.setup()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    lines = []
    count = rounds = 0
    for path in sorted(directory.glob("*.json")):
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
        lines.append(f"{path.name} {digest}")
    out.write_text("\n".join(lines) + "\n")
    print(f"{count} documents, {rounds} rounds -> {out}")


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    if sys.argv[1] == "make":
        n = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 100_000
        make(Path(sys.argv[2]), n)
    else:
        run(Path(sys.argv[2]), Path(sys.argv[3]))
