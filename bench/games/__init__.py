"""Each game's own benchmark code (its seeded random rounds and figures), named by its registry
entry's ``bench``: outside table/games, whose engine never imports :mod:`random`."""
