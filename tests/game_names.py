"""The in-tree games' names for the tests that play one game by name, from each game's own
registry entry (the platform keeps no such constants: it finds games by their entries)."""

from table.games.crazy_4_poker import ENTRY as _CRAZY
from table.games.five_card_hi_lo import ENTRY as _HI_LO
from table.games.four_card_frenzy import ENTRY as _FRENZY

FOUR_CARD_FRENZY = _FRENZY.name
CRAZY_4_POKER = _CRAZY.name
FIVE_CARD_HI_LO = _HI_LO.name
