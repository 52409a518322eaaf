"""Player protection under Pennsylvania's online rules (58 Pa. Code ch. 812a, 814a, 815a).

- :mod:`.models`: player sessions (§812a.9(a)(4)-(5)), the player's guard (limits in force,
  increases waiting, cool-off, exclusion: §814a.2, ch. 815a), the append-only history of every
  limit change, self-exclusions, and the per-day tallies the limits are counted on.
- :mod:`.periods`: days, weeks and months in the casino's time zone, and the limit kinds.
- :mod:`.limits`: setting, decreasing (at once), increasing or removing (after the period,
  confirmed again), cool-off (§814a.2).
- :mod:`.guard`: the checks in the command path, in the wager's own transaction, under the
  player's account lock (two tables cannot together pass a limit), and the tallies it writes.
- :mod:`.exclusion`: self-exclusion and the state's list (ch. 815a); lifting after the term.
- :mod:`.sessions`: a login is a session (unique id, the previous login shown), idle lock
  after 15 minutes (§812a.3(a)(6)), reality checks (§814a.1(e)(2)-(3)), figures since login.

docs/player-protection.md maps each sub-section to its code and tests.
"""
