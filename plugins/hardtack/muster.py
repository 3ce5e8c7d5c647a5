"""From the neutral world to companies of figures, and back again after every step.

Rulings HT-O1..HT-O3: a unit's men become figures (rounded, at least one); the figures are cut
into as few companies of at most 12 as will hold them, as evenly as they go; guns are one
"company" each, their crews the unit's men shared between the guns. Men are read back as the
unit's men times the share of its figures still standing, so men are conserved and losses come
in whole figures.
"""

from __future__ import annotations

import math

from referee.api import Game, UnitState, frontage

from . import geometry as geo
from .state import BROKEN, ROUTED, SHAKEN, Company, HardtackState, Regiment, centre_of, in_order, terrain_of
from .tables import HardtackTables

NEUTRAL_FORMATION = {"line": "line", "column": "column", "skirmish": "skirmish", "limbered": "limbered", "unlimbered": "unlimbered"}
FROM_NEUTRAL = {"line": "line", "column": "column", "march-column": "column", "skirmish": "skirmish"}


def men_per_figure(game: Game, t: HardtackTables) -> int:
    """Men a figure stands for: the default (HT-O1), or the figure option switched on (the
    options form one exclusive group, which the core checks)."""
    chosen = [o for o in sorted(t.figure_men) if game.option(o)]
    return t.figure_men[chosen[0]] if chosen else t["scale"]["men_per_figure"]


def split(figures: int, most: int) -> list[int]:
    """As few companies of at most ``most`` figures as hold ``figures``, as even as they go (HT-O2)."""
    return share(figures, max(1, math.ceil(figures / most)))


def share(figures: int, n: int) -> list[int]:
    """``figures`` shared as evenly as they go between ``n`` (at least one figure each)."""
    base, extra = divmod(figures, n)
    return [max(1, base + (i < extra)) for i in range(n)]


def muster(game: Game, t: HardtackTables) -> HardtackState:
    """The game's companies from the neutral world, written back to it at once (``sync``)."""
    mpf = men_per_figure(game, t)
    state = HardtackState(t, mpf)
    leaders = {ld.attached_to: ld for ld in game.world.leaders.values() if ld.attached_to}
    lvs = t["quality"]["leadership"]
    for unit in game.world.units.values():
        spec = unit.spec
        ld = leaders.get(spec.id)
        reg = Regiment(spec.id, unit, lvs[ld.spec.rating] if ld else lvs["unled"], unit.x, unit.y)
        reg.commander = spec.arm != "artillery" or spec.guns >= 2  # HT-O3: a lone gun is a company, with no command stand
        exp = t["quality"]["experience"][spec.experience]
        figures = max(1, round(spec.men / mpf))
        if spec.arm == "artillery":
            sizes = share(figures, max(1, spec.guns))
            formation = "limbered" if unit.formation == "limbered" else "unlimbered"
        else:
            sizes = split(figures, t["scale"]["company_most"])
            formation = FROM_NEUTRAL.get(unit.formation, "line")
        for i, (dx, dy) in enumerate(_layout(unit, len(sizes))):
            c = Company(f"{spec.id}/{i + 1}", unit, reg, sizes[i], sizes[i], exp["die"], reg.lv, exp["motivation"],
                        None if spec.arm == "artillery" else t.weapons[spec.weapon or "rifle-musket"],
                        unit.x + dx, unit.y + dy, unit.facing, formation, mounted=spec.mounted)
            if spec.arm == "artillery":
                c.set_gun(t.guns[spec.gun_type or "12-pdr-napoleon"])
            reg.companies.append(c)
            state.companies[c.id] = c
        if len(sizes) > 1:
            game.log.emit("muster", unit=spec.id, rulings=["HT-O5"],
                          text=f"{spec.id}: {len(sizes)} companies in {formation}, {_span(unit, len(sizes)):.0f} yards of front")
        state.regiments[spec.id] = reg
        state.by_side.setdefault(spec.side, []).append(reg)
    state.terrain = terrain_of(game.scenario)
    for c in state.companies.values():  # HT-G3: companies placed in hard cover begin In Position
        c.in_position = c.unit.on_field and geo.cover(game, c) == "hard"
    sync(game, state, every=True)
    return state


ROW_YARDS = 8.0  # yards between the rows of a column of companies


def _span(unit: UnitState, n: int) -> float:
    """Yards from the first company's centre to the last's, across the facing (HT-O5)."""
    pts = _layout(unit, n)
    rad = math.radians(unit.facing)
    across = [x * math.cos(rad) - y * math.sin(rad) for x, y in pts]
    return max(across) - min(across)


def _layout(unit: UnitState, n: int) -> list[tuple[float, float]]:
    """Offsets of n companies in yards (HT-O5): a regiment in line (or skirmish order) stands
    as the neutral world has it, its companies side by side in one row across its facing, each
    at its share of the unit's neutral frontage; in column, two companies abreast, the rows
    8 yards apart. Companies beyond the commander's 6" simply act on their own (p.7)."""
    spec = unit.spec
    rad = math.radians(unit.facing)
    across, ahead = (math.cos(rad), -math.sin(rad)), (math.sin(rad), math.cos(rad))
    width = frontage(spec.arm, max(1, spec.men // n), max(1, spec.guns // n), unit.formation)
    per_row = 2 if unit.formation in ("column", "march-column") else n
    rows = math.ceil(n / per_row)
    out = []
    for i in range(n):
        col, row = i % per_row, i // per_row
        a, b = (col - (min(per_row, n) - 1) / 2) * width, ((rows - 1) / 2 - row) * ROW_YARDS
        out.append((across[0] * a + ahead[0] * b, across[1] * a + ahead[1] * b))
    return out


def sync(game: Game, state: HardtackState, every: bool = False) -> None:
    """Write men, guns, place, facing, formation and status back to the neutral world (the
    regiments touched since the last sync, or ``every`` one): men and status from every standing
    company (HT-O4), place, facing and formation from those in good order (HT-O7). What the
    companies' places, figures, levels and standing decide is kept until one of them changes
    (``state.written``: :func:`_written`); the leading company's facing, formation and mount,
    and the guns, are read each time."""
    regiments = state.regiments.values() if every else [state.regiments[r] for r in sorted(state.touched)]
    state.touched.clear()
    for reg in regiments:
        unit = reg.unit
        kept = state.written.get(reg.id)
        if kept is None:
            kept = state.written[reg.id] = _written(reg)
        men, place, lead, status = kept
        unit.men = men
        if unit.spec.guns:
            unit.guns = min(unit.spec.guns, sum(c.guns for c in reg.companies))
        if place is None or lead is None:
            if unit.on_field:
                unit.status, unit.on_field = "gone", False
            continue
        unit.x, unit.y = place
        unit.facing = lead.facing
        unit.formation = NEUTRAL_FORMATION[lead.formation]
        unit.mounted = lead.mounted
        unit.status = status


def _written(reg: Regiment) -> tuple[int, tuple[float, float] | None, Company | None, str]:
    """The regiment's men, and, if any of its companies stands, the place, leading company and
    status that :func:`sync` writes of it."""
    unit = reg.unit
    on_field = unit.on_field
    start = figures = figs = 0
    alive = []
    for c in reg.companies:  # one pass: the sums of every company, and of the standing ones
        f = c.figures
        start += c.start
        figures += f
        if on_field and f > 0 and not c.gone:
            alive.append(c)
            figs += f
    men = unit.spec.men * figures // start
    if not alive:
        return men, None, None, ""
    body = in_order(alive)  # HT-O7: it stands where its companies in good order stand
    return men, centre_of(body), max(body, key=_figures), _status(alive, figs)  # (the lead: the first of the largest)


def _figures(c: Company) -> int:
    return c.figures


def _status(alive: list[Company], figures: int) -> str:
    """The status held by more than half the standing figures, worst first (ruling HT-O4)."""
    by_level = [0] * (ROUTED + 1)
    for c in alive:
        by_level[c.level] += c.figures
    if 2 * by_level[ROUTED] > figures:
        return "routed"
    if 2 * (by_level[BROKEN] + by_level[ROUTED]) > figures:
        return "broken"
    return "disordered" if 2 * sum(by_level[SHAKEN:]) > figures else "good"
