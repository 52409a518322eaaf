"""The order the two xdist workers take the test files in: the longest first.

``make test`` runs each pass with ``-n 2 --dist loadfile``: a whole file goes to one worker, and
a worker takes the next file when it has almost none left. xdist's own order is by the number
of tests in a file, so a file of one or two long tests (a browser audit of every page, a live
stack of two Daphnes) could start last, when the other worker has nothing left to run, and
the pass waited for it alone. Here the files are taken longest first (the greedy order that
makes two workers finish together), by the seconds each took in a measured run of that pass
(tests/durations.json for the platform's files, each game's own tests/games/<game>/
durations.json for its files); a file not measured yet is taken as a tenth of a second a test.

A wrong or stale figure only changes which file starts first, never what runs. To measure a
pass again: ``pytest -n 2 --dist loadfile -m "<pass>" --durations=0 -q > out.txt``, then
``python -m tests.xdist_order "<pass>" out.txt`` (updates that pass's figures).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

DURATIONS = Path(__file__).with_name("durations.json")
GAMES = DURATIONS.parent / "games"


def records() -> list[Path]:
    """The platform's record and each game's, in its own folder."""
    return [DURATIONS, *sorted(GAMES.glob("*/durations.json"))]


def record_of(test_file: str) -> Path:
    """Where a test file's figure is kept: its game's folder's record, or the platform's."""
    parts = Path(test_file).parts
    if parts[:2] == ("tests", "games") and len(parts) > 3:
        return GAMES / parts[2] / "durations.json"
    return DURATIONS


def measured(markexpr: str) -> dict[str, float]:
    """The seconds each file took in the pass selected by ``markexpr`` (``-m``)."""
    seconds: dict[str, float] = {}
    for path in records():
        try:
            seconds.update(json.loads(path.read_text()).get(markexpr.strip(), {}))
        except (OSError, ValueError):
            continue
    return seconds


def make_scheduler(config: Any, log: Any) -> Any:
    """xdist's file scheduling, longest file first (``pytest_xdist_make_scheduler``)."""
    from xdist.scheduler import LoadFileScheduling

    seconds = measured(config.getoption("markexpr") or "")

    class LongestFileFirst(LoadFileScheduling):  # type: ignore[misc]
        def _assign_work_unit(self, node: Any) -> None:
            # The longest file still waiting goes first (xdist takes the queue's first).
            def weight(scope: str) -> float:
                return seconds.get(scope, 0.1 * len(self.workqueue[scope]))

            longest = max(self.workqueue, key=weight)
            self.workqueue.move_to_end(longest, last=False)
            super()._assign_work_unit(node)

    return LongestFileFirst(config, log)


def main(markexpr: str, output: str) -> None:
    """Record each file's seconds from a ``--durations=0`` report of the pass ``markexpr``."""
    per_file: Counter[str] = Counter()
    for line in Path(output).read_text().splitlines():
        found = re.match(r"([0-9.]+)s (?:call|setup|teardown)\s+(\S+?)::", line)
        if found:
            per_file[found.group(2)] += float(found.group(1))
    for path in {record_of(f) for f in per_file} | set(records()):
        figures = json.loads(path.read_text()) if path.exists() else {}
        figures[markexpr] = {
            f: round(s, 1) for f, s in sorted(per_file.items()) if record_of(f) == path
        }
        path.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
