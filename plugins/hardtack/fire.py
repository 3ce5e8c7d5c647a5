"""Fire actions: small arms (Hardtack pp.16-17) and artillery shot and canister (rulings
HT-S1..HT-S5), each followed by the target's casualties and confidence test."""

from __future__ import annotations

import math
from typing import Any

from attrs import frozen
from referee.api import Game

from . import geometry as geo
from . import mechanics, morale
from .state import BROKEN, Company, HardtackState
from .tables import HardtackTables


@frozen
class Shot:
    firer: Company
    target: Company
    kind: str  # fire, shot, canister
    range_inches: float


CAUSE = {"fire": "musketry", "canister": "canister", "shot": "shot-or-shell"}
"""The neutral cause of each kind of fire's casualties (HT-S3: the shot table is a round shot
or shell, which Hardtack does not tell apart)."""


def reach_inches(t: HardtackTables, c: Company) -> float:
    """How far the company's fire carries: five bands of its quality die, or of the gun."""
    if c.artillery:
        assert c.gun is not None
        bands: int = t["fire"]["bands"]
        return max(c.gun.band * bands, c.gun.canister)
    if c.weapon is not None and c.weapon.close_only:
        return float(c.quality)
    return float(c.quality * t["fire"]["bands"])


def reach_yards(t: HardtackTables, c: Company) -> float:
    """:func:`reach_inches` in yards, kept on the company (its quality and arms do not change)."""
    if c.reach < 0:
        c.reach = reach_inches(t, c) * t.yards_per_inch
    return c.reach


def fire_reach_yards(state: HardtackState, c: Company) -> float:
    """How far the company's fire can tell at all (HT-F6): the top of the last range band whose
    range die stays on the ladder with nothing in the way (no cover, no In Position; cover and
    In Position only push the die further up, and the close-formation shift comes last, after
    the die has already passed D12). A yard is added, so a target just past the edge is still
    put to :func:`effective`, which decides. A loaded gun: five shot bands, or its canister reach
    (HT-S1, HT-S4); an unloaded one both (:func:`reach_yards`). Never further than the light lets
    it see this turn (HT-V1: ``state.visibility``)."""
    seen = state.visibility  # HT-V1: nobody fires at what the light hides
    if c.artillery and c.gun is not None and c.loaded:  # a loaded gun reaches as far as its load
        g, bands = c.gun, state.tables["fire"]["bands"]
        hit = (g.band * bands if c.loaded == "shot" else g.canister) * state.tables.yards_per_inch + 1.0
        return min(seen, hit)
    if c.artillery or c.weapon is None:
        hit = reach_yards(state.tables, c)
        return min(seen, hit)
    key = (c.quality, c.weapon.id)
    hit = state.fire_reach.get(key)
    if hit is None:
        t, width = state.tables, c.quality
        bands = [b for b in range(1, t["fire"]["bands"] + 1)
                 if mechanics.fire_range_die(t, c.quality, b * width, "none", "skirmish", c.weapon.id)[0] is not None]
        hit = state.fire_reach[key] = min(reach_yards(t, c), max(bands, default=0) * width * t.yards_per_inch) + 1.0
    return min(seen, hit)


def choose_target(game: Game, state: HardtackState, c: Company, enemies: list[Company], wanted: str | None) -> Company | None:
    """The nearest enemy company in reach, arc and sight that the fire can affect (HT-F6); the
    intent's target unit first.

    Two answers are kept per company. "Nothing in reach" holds while the company stands where it
    asked and no enemy has moved (or come on). "None it may fire at" (enemies in reach, none in
    its arc and sight that the fire can affect; no friend in the way was asked about) holds
    while, besides, the company keeps its facing, formation and load and the enemies then in
    reach keep their formations, In Position markers and travel modes (the rest of what the answer reads is
    their places; one that falls leaves none to fire at still). Either is kept only when every
    enemy in reach was asked (the step's near box holds the company's reach). A gun that has just
    loaded for a target in this activation is answered from the search that chose its load
    (:func:`_as_loaded`).

    Only the first target passed over is logged with the friend in its way (HT-G4), and only a
    gun choosing its load keeps why it passed over each: after the first, the search asks of
    each target only whether it may fire at it, and whether a friend masks the line (unnamed,
    :func:`.geometry.masked`) before whether it is in arc, effect and sight (a masked line needs
    no sight of the ground), unless those are known (:func:`_kept`)."""
    reach = fire_reach_yards(state, c)
    reach2, cx, cy, moves = reach * reach, c.x, c.y, state.others_moved(c.side)
    kept = state.aims.out_of_reach.get(c.id)
    if kept is not None and kept[0] == cx and kept[1] == cy and kept[2] == moves and kept[3] == reach:
        return None  # asked before from here, and no enemy has moved (or come on) since: none in reach
    stamp = (cx, cy, c.facing, c.formation, c.loaded, reach, moves)
    kept_none = state.aims.no_target.get(c.id)
    if kept_none is not None and kept_none[0] == stamp and all(e.formation == f and e.in_position == p and e.travel == v
                                                               for e, f, p, v in kept_none[1]):
        return None
    loading = state.aims.loading
    if loading is not None and loading[0] is c and c.loaded:
        target = _as_loaded(game, state, c, reach, loading[1], loading[2])
        if target is not None:
            return target
    ranked: list[tuple[float, int]] = []  # (distance squared, index in enemies) of the intent's target's companies,
    others: list[tuple[float, int]] = []  # and of the others': each sorted, the first before the others
    for i, e in enumerate(enemies):  # in the circle of the reach and its box (most of those asked about are: the circle
        dx, dy = e.x - cx, e.y - cy  # first; the box is asked only on the circle's edge, where rounding may differ)
        d2 = dx * dx + dy * dy
        if d2 < reach2 or d2 == reach2 and -reach <= dx <= reach and -reach <= dy <= reach:
            (ranked if e.regiment.id == wanted else others).append((d2, i))
    x0, x1, y0, y1 = state.near_box
    asked = x0 <= cx - reach and cx + reach <= x1 and y0 <= cy - reach and cy + reach <= y1  # every enemy in reach
    if not ranked and not others:
        if asked:
            state.aims.out_of_reach[c.id] = (cx, cy, moves, reach)
        return None
    ranked.sort()
    others.sort()
    ranked += others
    known = _known(state, c)
    passed: list[tuple[Company, str]] = []  # (target, why) passed over under HT-G4
    friends: geo.Screen | None = None  # those that may mask any of its lines of fire, once a line is masked
    names = c.artillery and not c.loaded and state.aims.masks is not None  # (a gun choosing its load keeps every why)
    for d2, i in ranked:
        e = enemies[i]
        if not e.alive:
            continue
        if passed and friends is None:
            friends = geo.screen(state, c, [enemies[j] for _, j in ranked], state.companies[passed[0][1]])
        if passed and not names:
            # only whether c may fire at e is asked now: a friend in the way (likely the one across
            # the line before) before arc, effect and sight, unless those are known
            if _kept(known, e) is False or geo.masked(state, c, e, friends, named=False) is not None:
                continue
            if _open_to(game, state, c, e, d2, known):
                _log_masked(game, c, passed, e)
                return e
            continue
        if _open_to(game, state, c, e, d2, known):
            why = geo.masked(state, c, e, friends)
            if why is None:
                if names:
                    state.aims.loading = (c, e, passed)  # the gun loads for e next (Aims.loading)
                _log_masked(game, c, passed, e)
                return e
            passed.append((e, why))
            if why == "column":
                break  # a column fires at nothing
    _log_masked(game, c, passed, None)
    if asked and not passed:
        state.aims.no_target[c.id] = (stamp, [(e, e.formation, e.in_position, e.travel) for e in (enemies[i] for _, i in ranked) if e.alive])
    return None


def _as_loaded(game: Game, state: HardtackState, c: Company, reach: float, target: Company, passed: list[tuple[Company, str]]) -> Company | None:
    """The search of a gun just loaded for ``target`` (:attr:`.Aims.loading`), answered from the
    search that chose its load: ``target`` again if the load can tell on it, after the same
    targets passed over (logged as the search logs them). Nothing but the load changed since,
    and a load reaches and tells on no target that both loads together do not, so the targets
    ranked before ``target`` that the load may fire at are among those passed over, each for
    the same friend in the way. None when the load cannot tell on ``target`` (a full search
    follows)."""
    known, reach2, cx, cy = _known(state, c), reach * reach, c.x, c.y

    def open_to(e: Company) -> bool:  # the search's own tests: the box, the circle, arc, sight and effect
        dx, dy = e.x - cx, e.y - cy
        d2 = dx * dx + dy * dy
        return -reach <= dx <= reach and -reach <= dy <= reach and d2 <= reach2 and _open_to(game, state, c, e, d2, known)

    if not open_to(target):
        return None
    _log_masked(game, c, [(e, why) for e, why in passed if open_to(e)], target)
    return target


def _known(state: HardtackState, c: Company) -> dict[Company, tuple[Any, ...]]:
    """:func:`_open_to`'s kept answers for ``c`` where it stands, as it faces and is formed, with its load."""
    here = (c.x, c.y, c.facing, c.formation)
    aims = state.aims.open_to.get((c.id, c.loaded))
    if aims is None or aims[0] != here:
        aims = state.aims.open_to[(c.id, c.loaded)] = (here, {})
    return aims[1]


def _open_to(game: Game, state: HardtackState, c: Company, e: Company, d2: float, known: dict[Company, tuple[Any, ...]]) -> bool:
    """Is ``e`` in ``c``'s arc and sight, and can its fire affect it (HT-F6)? Kept in ``known``
    (the firer's for its place, facing, formation and load) under the target's place,
    formation, In Position marker and travel mode, all the answer reads of it."""
    kept = _kept(known, e)
    if kept is not None:
        return kept
    ok = geo.in_arc(c, e) and effective(game, state, c, e, math.sqrt(d2)) and geo.sees(game, c, e)
    known[e] = (e.x, e.y, e.formation, e.in_position, e.travel, ok)
    return ok


def _kept(known: dict[Company, tuple[Any, ...]], e: Company) -> bool | None:
    """:func:`_open_to`'s kept answer about ``e``, if ``e`` has not changed since; else None."""
    k = known.get(e)
    if k is not None and k[0] == e.x and k[1] == e.y and k[2] == e.formation and k[3] == e.in_position and k[4] == e.travel:
        kept: bool = k[5]
        return kept
    return None


def _log_masked(game: Game, c: Company, passed: list[tuple[Company, str]], chosen: Company | None) -> None:
    """HT-G4 in the log: the targets a company could not fire at, and why."""
    if not passed:
        return
    e, why = passed[0][0].id, passed[0][1]
    cause = "in column, its rear ranks would fire through its front" if why == "column" else f"{why} is in the line of fire"
    then = f"; it fires at {chosen.id}" if chosen is not None else ""
    game.log.emit("masked", unit=c.id, target=e, rulings=["HT-G4"], text=f"{c.id} cannot fire at {e}: {cause}{then}")


def effective(game: Game, state: HardtackState, c: Company, e: Company, yards: float) -> bool:
    """HT-F6: would fire at ``e`` have any effect (a range die on the ladder after every shift)?
    Each band's die is larger than the one before, with the same shifts or more, so the fire
    tells out to a last band (for a gun, one for shot and one for canister) that depends only on
    the tables, the cover, the target's formation and marker and the firer's weapon, or gun and
    load. Those last bands are kept, across games, under exactly those; the range is banded as
    the fire itself bands it (:func:`.dice.band_of`: band ``ceil(x)`` is at most ``last`` just
    when ``x`` is)."""
    tform = "skirmish" if e.artillery else e.formation  # target_formation
    if c.artillery:
        assert c.gun is not None
        key: tuple[Any, ...] = (c.gun.id, c.loaded, geo.cover(game, e), tform, e.in_position, game.option(COVER_OPTION))
    else:
        assert c.weapon is not None
        key = (c.quality, c.weapon.id, geo.cover(game, e), tform, e.in_position)
    limits = state.tables.effects.get(key)
    if limits is None:
        limits = state.tables.effects[key] = _limits(state.tables, c, *key[2:])
    rng = yards / state.tables.yards_per_inch
    closer = e.travel  # HT-M8: a target in travel mode counts one band closer, within the five
    for scale, width, last in limits:
        x = rng * scale / width
        if x <= last or closer and x <= last + 1 and x <= state.tables["fire"]["bands"]:
            return True
    return False




def _limits(t: HardtackTables, c: Company, cov: str, tform: str, in_position: bool, cover_as_fire: bool = False) -> tuple[tuple[int, int, int], ...]:
    """The ways ``c``'s fire may tell, as (scale, width, last): it does at a range ``r`` inches
    when ``r * scale`` falls in one of the first ``last`` bands ``width`` inches wide."""
    bands = range(t["fire"]["bands"], 0, -1)
    if not c.artillery:
        assert c.weapon is not None
        w = c.weapon.id
        last = next((b for b in bands if mechanics._fire_band_die(t, b, cov, tform, w, in_position)[0] is not None), 0)
        return ((1, c.quality, last),) if last else ()
    assert c.gun is not None
    out = []
    if c.loaded != "canister":
        last = next((b for b in bands if mechanics._shot_band_die(t, b, cov, tform, in_position, cover_as_fire)[0] is not None), 0)
        out.append((1, c.gun.band, last))
    if c.loaded != "shot" and c.gun.canister:
        last = next((b for b in bands if mechanics._canister_band_die(t, b, cov, tform, in_position)[0] is not None), 0)
        out.append((t["fire"]["bands"], c.gun.canister, last))
    return tuple(x for x in out if x[2])


def firing_figures(t: HardtackTables, c: Company) -> int:
    """Dismounted cavalry leave one figure in four (or fraction) holding the horses (Hardtack p.9)."""
    if c.arm == "cavalry" and not c.mounted:
        every: int = t["fire"]["horse_holder_every"]
        return c.figures - math.ceil(c.figures / every)
    return c.figures


def target_formation(c: Company) -> str:
    return "skirmish" if c.artillery else c.formation  # p.5: crews count as skirmishers


def fire(game: Game, state: HardtackState, c: Company, target: Company) -> None:
    t = state.tables
    rng = geo.inches(t, geo.dist(c, target))
    cov = geo.cover(game, target)
    geo.face(c, target.x, target.y) if not c.close else None
    kind = ("canister" if c.loaded == "canister" else "shot") if c.artillery else "fire"
    shot = Shot(c, target, kind, rng)
    extra = tuple(game.extra_modifiers(kind, shot))
    if c.artillery:
        assert c.gun is not None
        if kind == "canister":
            res = mechanics.canister(game.roller, t, c.quality, rng, c.gun.id, cov, target_formation(target), target.in_position, cite=game.seen,
                                     travel=target.travel, extra=extra)
        else:
            res = mechanics.shot(game.roller, t, c.quality, rng, c.gun.id, cov, target_formation(target), target.in_position, cite=game.seen,
                                 men_per_figure=state.men_per_figure, travel=target.travel, extra=extra, reading=shot_reading(game),
                                 cover_as_fire=game.option(COVER_OPTION))
        c.loaded = ""
    else:
        assert c.weapon is not None
        skirmish = c.formation == "skirmish" or c.mounted  # HT-K1: mounted fire as skirmishers
        res = mechanics.fire(game.roller, t, c.quality, firing_figures(t, c) * c.weapon.fp, rng, cov,
                             "skirmish" if skirmish else "close", target_formation(target), c.weapon.id, target.in_position,
                             cite=game.seen, travel=target.travel, extra=extra)
        c.reload = c.weapon.reload
    if game.seen:  # (the procedure's rulings are added only where something sees them)
        res = game.settle(kind, shot, res, rulings=("HT-G1", "HT-G2") + (("HT-K1",) if c.mounted else ()), unit=c.id, target=target.id)
    values = res.values
    if values["test"] == "none":
        if target.travel:  # HT-M8: SG2's travel mode always takes suppression, Hardtack's 1/0/NTR test (p.12)
            game.log.emit("travel", unit=target.id, rulings=["HT-M8"], text=f"{target.id}, in travel mode, is fired on: it tests")
            morale.casualties(game, t, target, 0, "fired-on", CAUSE[kind], 0.0)
        return
    morale.casualties(game, t, target, int(values["wounded"]) + int(values["killed"]), str(values["fired_on"]), CAUSE[kind],
                      geo.dist(c, target))
    if values.get("bounce"):
        _bounce(game, state, shot, int(values["potential"]))


SHOT_OPTION = "shot-damage-die"
"""The option that reads round shot as one die to hit and a damage die (HT-S1's second reading)."""
COVER_OPTION = "shot-cover-as-fire"
"""The option that gives shot the small-arms cover shifts (HT-S2's second reading)."""


def shot_reading(game: Game) -> str:
    """HT-S1: the reading of round shot this game plays (``support`` unless the option is on)."""
    return "damage-die" if game.option(SHOT_OPTION) else "support"


def _bounce(game: Game, state: HardtackState, shot: Shot, figures: int = 0) -> None:
    """HT-S3: the ball bounces on along its line of fire and strikes the first company of the
    target's side whose footprint that line crosses within 10" beyond the target: under HT-S1's
    ``support`` reading the ``figures`` the hit struck, under ``damage-die`` the damage die."""
    t, firer, first = state.tables, shot.firer, shot.target
    nxt = _in_the_path(state, firer, first, t["artillery"]["bounce_inches"] * t.yards_per_inch)
    if nxt is None or firer.gun is None:
        return
    support = shot_reading(game) == "support"
    res = mechanics.bounce(game.roller, t, firer.gun.id, geo.cover(game, nxt), target_formation(nxt), state.men_per_figure,
                           figures if support else None)
    res = game.settle("shot", shot, res, unit=firer.id, target=nxt.id)
    morale.casualties(game, t, nxt, int(res.values["wounded"]) + int(res.values["killed"]), "fired-on", CAUSE["shot"],
                      geo.dist(firer, nxt))


def _in_the_path(state: HardtackState, firer: Company, first: Company, reach: float) -> Company | None:
    """The first company of ``first``'s side (in the side's order on a tie) whose footprint the
    line of fire, carried on ``reach`` yards past ``first``'s centre, enters; None if none does
    (a company beside the target in its line stands off the ball's path)."""
    span = geo.dist(firer, first)
    if span == 0.0:
        return None
    ax, ay = first.x, first.y
    bx, by = ax + (ax - firer.x) / span * reach, ay + (ay - firer.y) / span * reach
    lo_x, hi_x = min(ax, bx) - geo.MASK_MARGIN, max(ax, bx) + geo.MASK_MARGIN
    lo_y, hi_y = min(ay, by) - geo.MASK_MARGIN, max(ay, by) + geo.MASK_MARGIN
    best, at = None, math.inf
    for e in state.living(first.side):
        if e is not first and lo_x <= e.x <= hi_x and lo_y <= e.y <= hi_y:
            hw, hd, _ = geo.half_footprint(state, e)
            entered = geo.entry(e, hw, hd, ax, ay, bx, by)
            if entered is not None and entered < at:
                best, at = e, entered
    return best


def may_fire(c: Company) -> bool:
    """Broken companies fire only when fired on (not modelled: they do not fire, HT-C3)."""
    if c.level >= BROKEN:
        return False
    if c.artillery:
        return c.formation == "unlimbered" and bool(c.loaded)
    return not c.reload
