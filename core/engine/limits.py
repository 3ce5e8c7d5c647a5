"""What referee reads and runs is bounded: every limit, stated once.

The loader refuses a scenario past a limit with a message naming it, before anything is built,
so that no input can exhaust the machine or keep it busy for hours. docs/scenario-format.md
("Limits") and the command-line help state the same numbers (a test keeps them the same). Each
limit is well past anything a battle of the war needs.
"""

from __future__ import annotations

FILE_BYTES = 2_000_000
"""The largest scenario, table overlay or house-rule file read (the bundled ones are < 50 kB)."""

NESTING = 20
"""How deep arrays and tables may sit inside one another (the bundled scenarios go 5 deep)."""

ITEMS = 1_000
"""The most items of any one array: units, orders, the points of a polygon..."""

TEXT = 10_000
"""The longest string, in characters (a title, a summary, a note)."""

NUMBER = 1_000_000
"""The largest size of any number in a scenario (yards, minutes, a count)."""

MAP_YARDS = 20_000
"""The widest and highest map, in yards (about 11 miles each way)."""

MEN = 5_000
"""The most men in one unit (the largest regiments of the war mustered under 2,000)."""

GUNS = 24
"""The most guns in one unit (a battery had 4 to 6; a battalion of four, 24)."""

AREAS = 250
"""The most ``[[areas]]`` (the ground keeps each cell's area in one byte)."""

GROUND_CELLS = 10_000_000
"""The most work drawing the areas may take: for each area, the 25-yard cells of the box round
it (on the map) times its corners, summed (a few seconds)."""

DEGREES = 720
"""Bearings are read modulo 360 between -720 and 720."""

REPLICATIONS = 1_000_000
"""The most replications per ruleset (``-n``)."""

WORKERS = 64
"""The most worker processes asked for (``--workers``); never more than there are chunks of work."""

SWEEP_GAMES = 1_000_000
"""A sweep of more games than this runs only with ``--yes``."""

SWEEP_BATCH = 20
"""The most games in one task of a sweep's cluster (``--batch``'s default)."""

SET_VALUE = 1_000_000
"""The largest size of a number given to ``resolve --set``."""

SET_TEXT = 40
"""The longest ``resolve --set`` value, in characters."""

MODIFIER = 1_000
"""The largest size of a house rule's modifier value."""

PROBLEMS = 20
"""The most problems an error lists (then "and N more")."""

SHOWN = 200
"""The most characters of a value or name an error quotes."""
