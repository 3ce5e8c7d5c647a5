"""Stargrunt II dice procedures as sub-mechanics, memoised by their arguments in exact mode.

Each returns a small frozen value whose raw dice are carried for the log but left out of
equality, so exact mode merges paths that differ only in their dice (the core's outcome key
does the same for resolutions).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from attrs import field, frozen
from referee.api import LADDER, Roller, Tally, d, ladder_shift

KILLED, WOUNDED, STOPPED = "killed", "wounded", "stopped"


@frozen
class Volley:
    """Opposed roll of the firer's dice against one range die."""

    over: int  # firer dice strictly above the range die
    potential: int  # potential casualties (0 unless 2+ dice over)
    dice: tuple[int, ...] = field(eq=False, default=())


@frozen
class Hit:
    hit: bool
    dice: tuple[int, ...] = field(eq=False, default=())


@frozen
class Struck:
    figures: int
    bounce: bool
    dice: tuple[int, ...] = field(eq=False, default=())


@cache
def nearest_die(total: Fraction | int) -> int:
    """A total rounded to the nearest die type, ties up, D4 to D12 (SG2 firepower die); kept
    by the total (a pure function of it)."""
    return min(LADDER, key=lambda size: (abs(size - total), -size))


def band_of(inches: Fraction | float, width: Fraction | int) -> int:
    """Range band 1, 2, ... of a distance for bands ``width`` inches wide ("0-8", ">8-16"...).
    Exact for fractions; a float range (a measured distance) is divided as a float."""
    if isinstance(inches, float) and isinstance(width, int):
        return max(1, math.ceil(inches / width))
    return max(1, math.ceil(Fraction(inches) / Fraction(width)))


def volley(roller: Roller, quality: int, firepower: int, range_die: int) -> Volley:
    """Quality die and firepower die against the range die; with 2+ over, the potential
    casualties are all the firer's dice / the range die type, the remainder rolled for."""
    q, f, r = roller.roll(d(quality)), roller.roll(d(firepower)), roller.roll(d(range_die))
    over = (q > r) + (f > r)
    if over < 2:
        return Volley(over, 0, (q, f, r))
    potential, remainder = divmod(q + f, range_die)
    dice: tuple[int, ...] = (q, f, r)
    if remainder:
        extra = roller.sub(remainder_roll, range_die, remainder)
        potential += extra.hit
        dice += extra.dice
    return Volley(over, potential, dice)


def remainder_roll(roller: Roller, range_die: int, remainder: int) -> Hit:
    """Roll the range die again: at or under the remainder adds a potential casualty."""
    die = roller.roll(d(range_die))
    return Hit(die <= remainder, (die,))


def impact(roller: Roller, impact_die: int, armour_die: int) -> str:
    """One potential casualty: impact over armour wounds, over twice the armour kills."""
    i, a = roller.roll(d(impact_die)), roller.roll(d(armour_die))
    return KILLED if i > 2 * a else WOUNDED if i > a else STOPPED


def casualties(roller: Roller, n: int, impact_die: int, armour_die: int) -> Tally:
    """``n`` independent impact-against-armour rolls."""
    return roller.repeat(n, impact, impact_die, armour_die) if n else Tally(())


def armour_against(impact_die: int, armour: int, cover_steps: int) -> tuple[int, int, int]:
    """Cover shifts the armour die (an open shift: what passes D12 comes off the impact die).
    Returns (impact die, armour die, overflow applied)."""
    armour_die, overflow = ladder_shift(armour, cover_steps)
    impact_die, _ = ladder_shift(impact_die, -overflow) if overflow > 0 else (impact_die, 0)
    return impact_die, armour_die, max(overflow, 0)


def opposed(roller: Roller, quality: int, range_die: int) -> Hit:
    """One acting die against one defending die: strictly higher succeeds."""
    q, r = roller.roll(d(quality)), roller.roll(d(range_die))
    return Hit(q > r, (q, r))


def struck(roller: Roller, damage: int, men: int = 3, scale: int = 3) -> Struck:
    """Figures of ``men`` a round shot strikes (ruling HT-S3): the damage die counts figures of
    ``scale`` men, so it strikes die x scale men, made whole figures of ``men`` with the
    remainder rolled for (a D(men) at or under it strikes one more: SG2's remainder roll). The
    damage die's highest face bounces on."""
    n = roller.roll(d(damage))
    figures, remainder = divmod(n * scale, men)
    rolled: tuple[int, ...] = (n,)
    if remainder:
        extra = roller.roll(d(men))
        figures += extra <= remainder
        rolled += (extra,)
    return Struck(figures, n == damage, rolled)


@frozen
class GunVolley:
    """Ruling HT-S1 (the gun as a support weapon): the crew's die and the gun's die against the
    range die, and the figures (of the game's scale) a hit strikes."""

    over: int  # firer dice strictly above the range die
    figures: int  # figures struck (0 unless 2+ dice over)
    bounce: bool  # a hit with the gun's die on its highest face (HT-S3)
    dice: tuple[int, ...] = field(eq=False, default=())


def gun_volley(roller: Roller, quality: int, gun_die: int, range_die: int, men: int = 3, scale: int = 3) -> GunVolley:
    """Round shot as SG2 support-weapon fire (ruling HT-S1): the crew's quality die and the gun's
    die against the range die. Two dice over hit: the potential casualties are both dice / the range
    die type, the remainder rolled for (SG2, as :func:`volley`); they count figures of ``scale``
    men (HT-S3), made figures of ``men`` with the remainder rolled for (as :func:`struck`). A hit
    with the gun's die on its highest face bounces on."""
    v = volley(roller, quality, gun_die, range_die)
    if v.over < 2:
        return GunVolley(v.over, 0, False, v.dice)
    figures, remainder = divmod(v.potential * scale, men)
    rolled = v.dice
    if remainder:
        extra = roller.roll(d(men))
        figures += extra <= remainder
        rolled += (extra,)
    return GunVolley(v.over, figures, v.dice[1] == gun_die, rolled)


def bout(roller: Roller, attacker: int, defender: int) -> str:
    """One close-combat bout: higher die puts the other figure down; a tie fights on."""
    a, b = roller.roll(d(attacker)), roller.roll(d(defender))
    return "attacker" if a > b else "defender" if b > a else "tie"
