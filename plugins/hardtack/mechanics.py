"""Hardtack mechanics on the Stargrunt II core: pure functions against a Roller, each returning a
cited :class:`~referee.core.engine.events.Resolution`. The game calls the same functions that
``referee resolve hardtack`` runs (:func:`mechanic_specs`).

Opposed die types, not a table: every die shift is a :class:`Modifier` with ``on="shift "``.
Exact mode stays small because the opposed roll, the remainder roll and the impact rolls are
memoised sub-mechanics (:mod:`.dice`), and the N impact rolls are one ``repeat``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from referee.api import InputSpec, MechanicSpec, Modifier, RefereeError, Resolution, Roller, d, ladder_shift

from . import dice
from .tables import COVERS, HardtackTables

RULESET = "hardtack"
QUALITIES = ("d4", "d6", "d8", "d10", "d12")
FORMATIONS = ("skirmish", "close")
TARGET_FORMATIONS = ("skirmish", "line", "column")

_fractions: dict[Any, Fraction] = {}
_ranges: dict[Any, Fraction] = {}
FRACTION_MEMO = 50_000


def _fraction(x: Fraction | float) -> Fraction:
    """``Fraction(x)``, kept by the value itself (equal values give equal fractions)."""
    hit = _fractions.get(x)
    if hit is None:
        if len(_fractions) > FRACTION_MEMO:
            _fractions.clear()
        hit = _fractions[x] = Fraction(x)
    return hit


def _inches(x: Fraction | float) -> Fraction:
    """A logged range: ``Fraction(x).limit_denominator(100)``, kept by the value itself (a pure
    function of it: a float and a Fraction of equal value give the same answer)."""
    hit = _ranges.get(x)
    if hit is None:
        if len(_ranges) > FRACTION_MEMO:
            _ranges.clear()
        hit = _ranges[x] = Fraction(x).limit_denominator(100)
    return hit


def die_size(text: str | int) -> int:
    return text if isinstance(text, int) else int(str(text).lstrip("dD"))


def _shift(name: str, steps: int, ref: str) -> Modifier:
    return Modifier(name, steps, ref, on="shift ")


def house_shifts(mechanic: str, extra: tuple[Modifier, ...]) -> int:
    """The die shift that house rules' modifiers add to one resolution (``referee_modifiers``):
    each modifier's value is a whole number of steps on the die ladder."""
    for m in extra:
        if not isinstance(m.value, int):
            raise RefereeError(f"hardtack's {mechanic} takes whole die shifts; a house rule's modifier {m.name!r} is {m.value}")
    return sum([int(m.value) for m in extra])


def _shifted_range_die(rdie: int | None, why: str, mechanic: str, extra: tuple[Modifier, ...]) -> tuple[int | None, str]:
    """A range die shifted further by house rules (positive: a larger die, harder to beat, as cover)."""
    if rdie is None or not extra:
        return rdie, why
    rdie, over = ladder_shift(rdie, house_shifts(mechanic, extra))
    return (None, "house rules push the range die past D12") if over > 0 else (rdie, why)


def _no_effect(mechanic: str, ref: str, why: str, inputs: Mapping[str, Any], mods: tuple[Modifier, ...], rulings: tuple[str, ...]) -> Resolution:
    return Resolution(RULESET, mechanic, ref, f"no effective fire: {why}", inputs=inputs, modifiers=mods,
                      values={"over": 0, "potential": 0, "wounded": 0, "killed": 0, "test": "none"}, rulings=rulings)


# ----------------------------------------------------------------------------- range die


def range_die(t: HardtackTables, band: int, steps: list[Modifier]) -> tuple[int | None, str]:
    """The range die of a band after the shifts (the first one first); None when the band or a
    shift passes D12 (no effective fire, FACTS A.2)."""
    if band > t["fire"]["bands"]:
        return None, f"range band {band} is beyond the fifth"
    size = (4, 6, 8, 10, 12)[band - 1]
    for m in steps:
        size, overflow = ladder_shift(size, int(m.value))
        if overflow > 0:
            return None, f"{m.name} pushes the range die past D12"
    return size, ""


def target_shifts(t: HardtackTables, cover: str, target_formation: str, in_position: bool, cover_steps: int | None = None) -> list[Modifier]:
    fire = t["fire"]
    mods = []
    steps = fire["cover"][cover] if cover_steps is None else cover_steps
    if steps:
        mods.append(_shift(f"{cover} cover", steps, "Hardtack p.8, Cover"))
    if in_position and cover != "fortification":
        mods.append(_shift("target In Position", fire["in_position_shift"], "SG2 In Position; Hardtack p.8"))
    if target_formation in ("line", "column") and fire["close_target_shift"]:
        mods.append(_shift("target in close formation", fire["close_target_shift"], "Hardtack p.6 (ruling HT-F2)"))
    return mods


# ----------------------------------------------------------------------------- fire


TRAVEL = Modifier("target in travel mode: one range band closer", -1, "SG2 p.24, Travel Mode (FACTS A.4); ruling HT-M8", on="band ")


def _closer(t: HardtackTables, band: int, travel: bool) -> tuple[int, list[Modifier]]:
    """SG2 travel mode (ruling HT-M8): a target in travel mode counts as one range band closer,
    within the five bands (the first stays the first; beyond the fifth there is no fire)."""
    if travel and 1 < band <= t["fire"]["bands"]:
        return band - 1, [TRAVEL]
    return band, []


def fire_range_die(t: HardtackTables, quality: int, range_inches: Fraction | float, cover: str, target_formation: str,
                   weapon: str, in_position: bool = False, travel: bool = False) -> tuple[int | None, str, list[Modifier], int]:
    """The range die of small arms fire after every shift, or None (with why) when the fire has
    no effect: (die, why, shifts, band). The game asks it before choosing a target."""
    band, mods = _closer(t, dice.band_of(range_inches, quality), travel)
    rdie, why, steps = _fire_band_die(t, band, cover, target_formation, weapon, in_position)
    return rdie, why, mods + list(steps), band


@cache
def _fire_band_die(t: HardtackTables, band: int, cover: str, target_formation: str, weapon: str,
                   in_position: bool) -> tuple[int | None, str, tuple[Modifier, ...]]:
    """:func:`fire_range_die` for a band, kept by its inputs (the shifts are frozen)."""
    f, w = t["fire"], t.weapons[weapon]
    if w.close_only and band > 1:
        return None, f"{w.label} fires at close range (D4) only", ()
    steps: list[Modifier] = []
    if w.smoothbore and band > 1:
        steps.append(_shift("smoothbore", f["smoothbore_shift"], "Hardtack p.16, Smoothbore Small Arms"))
    steps += target_shifts(t, cover, target_formation, in_position)
    rdie, why = range_die(t, band, steps)
    return rdie, why, tuple(steps)


def shot_range_die(t: HardtackTables, range_inches: Fraction | float, gun: str, cover: str, target_formation: str,
                   in_position: bool = False, travel: bool = False, cover_as_fire: bool = False) -> tuple[int | None, str, list[Modifier], int]:
    """The range die of round shot (HT-S1, HT-S2), as :func:`fire_range_die`; ``cover_as_fire``:
    HT-S2's second reading (option ``shot-cover-as-fire``), cover shifts as for small arms."""
    band, closer = _closer(t, dice.band_of(range_inches, t.guns[gun].band), travel)
    rdie, why, mods = _shot_band_die(t, band, cover, target_formation, in_position, cover_as_fire)
    return rdie, why, closer + list(mods), band


@cache
def _shot_band_die(t: HardtackTables, band: int, cover: str, target_formation: str,
                   in_position: bool, cover_as_fire: bool = False) -> tuple[int | None, str, tuple[Modifier, ...]]:
    """:func:`shot_range_die` for a band, kept by its inputs."""
    art = t["artillery"]
    steps = None if cover_as_fire else {"hard": art["hard_cover_shift"], "fortification": art["fortification_shift"]}.get(cover, 0)
    mods = target_shifts(t, cover, target_formation, in_position, cover_steps=steps)
    rdie, why = range_die(t, band, mods)
    return rdie, why, tuple(mods)


def canister_range_die(t: HardtackTables, range_inches: Fraction | float, gun: str, cover: str, target_formation: str,
                       in_position: bool = False, travel: bool = False) -> tuple[int | None, str, list[Modifier], int]:
    """The range die of canister (HT-S4), as :func:`fire_range_die`."""
    g = t.guns[gun]
    band = dice.band_of(range_inches * t["fire"]["bands"], g.canister) if g.canister else 99  # five bands over the reach
    band, closer = _closer(t, band, travel)
    rdie, why, steps = _canister_band_die(t, band, cover, target_formation, in_position)
    return rdie, why, closer + list(steps), band


@cache
def _canister_band_die(t: HardtackTables, band: int, cover: str, target_formation: str,
                       in_position: bool) -> tuple[int | None, str, tuple[Modifier, ...]]:
    """:func:`canister_range_die` for a band, kept by its inputs."""
    steps = target_shifts(t, cover, target_formation, in_position)
    rdie, why = range_die(t, band, steps)
    return rdie, why, tuple(steps)


def fire(roller: Roller, t: HardtackTables, quality: int, firepower: Fraction | int, range_inches: Fraction | float,
         cover: str = "none", formation: str = "close", target_formation: str = "line", weapon: str = "rifle-musket",
         in_position: bool = False, cite: bool = True, travel: bool = False, extra: tuple[Modifier, ...] = ()) -> Resolution:
    """Small arms fire: quality die and firepower die against the range die (SG2, Hardtack pp.16-17).
    ``cite=False`` (nothing sees the citation: ``Game.seen``) leaves the inputs and the texts (its
    reference and result) out of it; ``extra`` are house rules' shifts of the range die."""
    inputs = {"quality": f"d{quality}", "firepower": _fraction(firepower), "range": _inches(range_inches),
              "cover": cover, "formation": formation, "target_formation": target_formation, "weapon": weapon} if cite else {}
    rulings, quality_die, fp_die, firer = _firer(t, quality, firepower, formation, weapon)
    ref = f"Hardtack p.16-17, SG2 fire; range bands of {quality}\"" if cite else ""
    rdie, why, steps, band = fire_range_die(t, quality, range_inches, cover, target_formation, weapon, in_position, travel)
    if extra:
        rdie, why = _shifted_range_die(rdie, why, "fire", extra)
        steps += extra
    if rdie is None:
        return _no_effect("fire", ref, why, inputs, tuple(steps), rulings)
    return _resolve_volley(roller, t, "fire", ref, inputs, (*steps, *firer), rulings, quality_die, fp_die, rdie, band,
                           t.weapons[weapon].impact, cover, "fired-on")


@lru_cache(maxsize=FRACTION_MEMO)
def _firer(t: HardtackTables, quality: int, firepower: Fraction | int, formation: str,
           weapon: str) -> tuple[tuple[str, ...], int, int, tuple[Modifier, ...]]:
    """The firer's side of :func:`fire`, kept by its inputs (a pure function of their values;
    the shifts are frozen): the rulings cited, the quality and firepower dice after their shifts
    (p.17), and those shifts."""
    f, w = t["fire"], t.weapons[weapon]
    rulings = (f["band_ruling"], "HT-F3", "HT-F4") + ((w.ruling,) if w.ruling else ())
    firer: list[Modifier] = []
    fp_die = dice.nearest_die(firepower)
    if firepower <= f["small_firepower"]:
        quality, _ = ladder_shift(quality, -1)
        firer.append(_shift("firepower 2 or less: quality die", -1, "Hardtack p.17, D2 Firepower"))
    if formation == "skirmish":
        fp_die, _ = ladder_shift(fp_die, f["skirmish_firepower_shift"])
        firer.append(_shift("skirmishing: firepower die", f["skirmish_firepower_shift"], "Hardtack p.17, Skirmishing Company Firepower"))
    return rulings, quality, fp_die, tuple(firer)


def canister(roller: Roller, t: HardtackTables, quality: int, range_inches: Fraction | float, gun: str,
             cover: str = "none", target_formation: str = "line", in_position: bool = False, cite: bool = True,
             travel: bool = False, extra: tuple[Modifier, ...] = ()) -> Resolution:
    """Canister (ruling HT-S4): SG2 fire from the gun, five bands over its canister reach (``cite``
    and ``extra`` as :func:`fire`)."""
    g = t.guns[gun]
    inputs = {"quality": f"d{quality}", "range": _inches(range_inches), "gun": gun, "cover": cover,
              "target_formation": target_formation} if cite else {}
    ref = f"ruling HT-S4 (Hardtack p.22 missing); {g.label} canister to {g.canister}\"" if cite else ""
    rulings = ("HT-S4", "HT-F3", "HT-F4")
    rdie, why, steps, band = canister_range_die(t, range_inches, gun, cover, target_formation, in_position, travel)
    if extra:
        rdie, why = _shifted_range_die(rdie, why, "canister", extra)
        steps += extra
    if rdie is None:
        return _no_effect("canister", ref, why, inputs, tuple(steps), rulings)
    return _resolve_volley(roller, t, "canister", ref, inputs, tuple(steps), rulings, quality, g.canister_fp, rdie, band,
                           t["artillery"]["canister_impact"], cover, t["artillery"]["canister_fired_on"])


def _resolve_volley(roller: Roller, t: HardtackTables, mechanic: str, ref: str, inputs: Mapping[str, Any], mods: tuple[Modifier, ...],
                    rulings: tuple[str, ...], quality: int, fp_die: int, rdie: int, band: int, impact_die: int, cover: str,
                    fired_on: str) -> Resolution:
    """The volley and its impacts; an empty ``ref`` (nothing sees the citation) leaves the texts empty."""
    v = roller.sub(dice.volley, quality, fp_die, rdie)
    impact_die, armour_die = _armour(t, impact_die, cover)
    tally = dice.casualties(roller, v.potential, impact_die, armour_die)
    wounded, killed = tally[dice.WOUNDED], tally[dice.KILLED]
    test = "none" if v.over == 0 else "casualties" if wounded + killed else fired_on
    if not ref:
        result = ""
    elif v.over == 0:
        result = "no die over the range die: no effect"
    elif v.over == 1:
        result = "one die over: confidence test (fired on)"
    else:
        result = f"both dice over: {v.potential} potential, {wounded} wounded, {killed} killed"
    return Resolution(
        RULESET, mechanic, ref and f"{ref}; band {band} D{rdie}; D{quality}+D{fp_die} vs D{rdie}; impact D{impact_die} vs armour D{armour_die}", result,
        inputs=inputs, modifiers=mods, dice=v.dice, total=v.over,
        values={"over": v.over, "potential": v.potential, "wounded": wounded, "killed": killed, "test": test, "fired_on": fired_on},
        rulings=rulings,
    )


@cache
def _armour(t: HardtackTables, impact_die: int, cover: str) -> tuple[int, int]:
    """The impact and armour dice against a target in ``cover`` (:func:`.dice.armour_against`
    with the tables' armour), kept by its inputs."""
    impact_die, armour_die, _ = dice.armour_against(impact_die, t["fire"]["armour"], t["fire"]["cover"][cover])
    return impact_die, armour_die


# ----------------------------------------------------------------------------- shot


SHOT_READINGS = ("support", "damage-die")
"""Ruling HT-S1's two readings of round shot: ``support`` (the default: SG2 support-weapon fire,
the crew's die and the gun's die against the range die) and ``damage-die`` (option
``shot-damage-die``: one opposed die to hit, then a damage die of figures struck)."""


def shot(roller: Roller, t: HardtackTables, quality: int, range_inches: Fraction | float, gun: str,
         cover: str = "none", target_formation: str = "line", in_position: bool = False, cite: bool = True,
         men_per_figure: int | None = None, travel: bool = False, extra: tuple[Modifier, ...] = (),
         reading: str = "support", cover_as_fire: bool = False) -> Resolution:
    """Round shot (rulings HT-S1..HT-S3). ``support`` (HT-S1): the crew's quality die and the gun's
    die (its ``damage`` die, shifted by the target's formation) against the range die, as SG2 fires
    a support weapon: none over, no effect; one, the target tests as fired on (p.12); two, both dice
    / the range die type potential casualties, counted in figures of the tables' damage scale and
    made figures of ``men_per_figure`` (HT-S3). ``damage-die``: the crew's die alone against the
    range die; a hit strikes D(damage) such figures. Each figure struck: impact D12 against armour;
    the gun's (damage) die on its highest face bounces (``cite`` and ``extra`` as :func:`fire`)."""
    g = t.guns[gun]
    men = men_per_figure or t["scale"]["men_per_figure"]
    inputs = {"quality": f"d{quality}", "range": _inches(range_inches), "gun": gun, "cover": cover,
              "target_formation": target_formation, "men_per_figure": men} if cite else {}
    if cite and reading != "support":
        inputs["reading"] = reading
    if cite and cover_as_fire:
        inputs["cover_as_fire"] = True
    ref = f"rulings HT-S1..HT-S3 (Hardtack p.20 missing); {g.label} shot bands of {g.band}\"" if cite else ""
    rulings = ("HT-S1", "HT-S2", "HT-S3")
    rdie, why, mods, band = shot_range_die(t, range_inches, gun, cover, target_formation, in_position, travel, cover_as_fire)
    if extra:
        rdie, why = _shifted_range_die(rdie, why, "shot", extra)
        mods += extra
    if rdie is None:
        return _no_effect("shot", ref, why, inputs, tuple(mods), rulings)
    if reading == "support":
        return _support_shot(roller, t, g, quality, rdie, band, cover, target_formation, men, ref, inputs, mods, rulings)
    aim = roller.sub(dice.opposed, quality, rdie)
    values = {"over": int(aim.hit), "potential": 0, "wounded": 0, "killed": 0, "bounce": False,
              "test": "fired-on" if aim.hit else "none", "fired_on": "fired-on"}
    all_dice = aim.dice
    if not aim.hit:  # SG2: no die over the range die, no effect (as small arms fire)
        return Resolution(RULESET, "shot", ref and f"{ref}; band {band} D{rdie}", ref and "miss: no effect", inputs=inputs,
                          modifiers=tuple(mods), dice=all_dice, total=0, values=values, rulings=rulings)
    mods += _damage_shifts(target_formation)
    hit, (wounded, killed), damage, impact_die, armour_die = _strike(roller, t, g.damage, cover, target_formation, men)
    values.update(potential=hit.figures, wounded=wounded, killed=killed, bounce=hit.bounce, test="casualties" if wounded + killed else "fired-on")
    bounce = " and bounces on" if hit.bounce else ""
    return Resolution(RULESET, "shot", ref and f"{ref}; band {band} D{rdie}; {_damage_text(t, damage, men)}; impact D{impact_die} vs D{armour_die}",
                      ref and f"hit: strikes {hit.figures}{bounce}, {wounded} wounded, {killed} killed", inputs=inputs, modifiers=tuple(mods),
                      dice=all_dice + hit.dice, total=hit.figures, values=values, rulings=rulings)


def _support_shot(roller: Roller, t: HardtackTables, g: Any, quality: int, rdie: int, band: int, cover: str, target_formation: str,
                  men: int, ref: str, inputs: Mapping[str, Any], mods: list[Modifier], rulings: tuple[str, ...]) -> Resolution:
    """:func:`shot` under HT-S1's ``support`` reading, from the range die on."""
    mods += _damage_shifts(target_formation)
    gun_die, _ = ladder_shift(g.damage, DAMAGE_SHIFT.get(target_formation, 0))
    v = roller.sub(dice.gun_volley, quality, gun_die, rdie, men, t["artillery"]["damage_men_per_figure"])
    impact_die, armour_die = _armour(t, t["artillery"]["shot_impact"], cover)
    tally = dice.casualties(roller, v.figures, impact_die, armour_die)
    wounded, killed = tally[dice.WOUNDED], tally[dice.KILLED]
    test = "none" if v.over == 0 else "casualties" if wounded + killed else "fired-on"
    values = {"over": v.over, "potential": v.figures, "wounded": wounded, "killed": killed, "bounce": v.bounce,
              "test": test, "fired_on": "fired-on"}
    if not ref:
        text, result = "", ""
    else:
        text = (f"{ref}; band {band} D{rdie}; D{quality}+D{gun_die} (the gun) vs D{rdie}, potential in figures of "
                f"{t['artillery']['damage_men_per_figure']} men" + (f" struck as figures of {men}" if men != t["artillery"]["damage_men_per_figure"] else "")
                + f"; impact D{impact_die} vs D{armour_die}")
        result = ("no die over the range die: no effect" if v.over == 0 else "one die over: confidence test (fired on)" if v.over == 1
                  else f"both dice over: strikes {v.figures}{' and bounces on' if v.bounce else ''}, {wounded} wounded, {killed} killed")
    return Resolution(RULESET, "shot", text, result, inputs=inputs, modifiers=tuple(mods), dice=v.dice, total=v.figures,
                      values=values, rulings=rulings)


def bounce(roller: Roller, t: HardtackTables, gun: str, cover: str = "none", target_formation: str = "line",
           men_per_figure: int | None = None, figures: int | None = None) -> Resolution:
    """A bounced shot strikes the next company behind, no roll to hit (HT-S3): under HT-S1's
    ``support`` reading the ``figures`` the hit struck (the same ball, carrying on), each rolled
    for anew; under ``damage-die`` (``figures`` None) the damage die again."""
    g = t.guns[gun]
    men = men_per_figure or t["scale"]["men_per_figure"]
    if figures is None:
        hit, (wounded, killed), damage, impact_die, armour_die = _strike(roller, t, g.damage, cover, target_formation, men)
        struck, rolled, text, mods = hit.figures, hit.dice, _damage_text(t, damage, men), tuple(_damage_shifts(target_formation))
    else:
        impact_die, armour_die = _armour(t, t["artillery"]["shot_impact"], cover)
        tally = dice.casualties(roller, figures, impact_die, armour_die)
        wounded, killed = tally[dice.WOUNDED], tally[dice.KILLED]
        struck, rolled, text, mods = figures, (), f"the {figures} figures the hit struck", ()
    return Resolution(RULESET, "shot", f"ruling HT-S3, the bounce; {g.label} {text}; impact D{impact_die} vs D{armour_die}",
                      f"the bounce strikes {struck}, {wounded} wounded, {killed} killed",
                      inputs={"gun": gun, "cover": cover, "target_formation": target_formation, "men_per_figure": men},
                      modifiers=mods, dice=rolled, total=struck,
                      values={"over": 1, "potential": struck, "wounded": wounded, "killed": killed, "bounce": False,
                              "test": "casualties" if wounded + killed else "fired-on", "fired_on": "fired-on"},
                      rulings=("HT-S3",))


DAMAGE_SHIFT = {"column": 1, "skirmish": -1}


def _damage_shifts(target_formation: str) -> list[Modifier]:
    steps = DAMAGE_SHIFT.get(target_formation, 0)
    return [_shift(f"target in {target_formation}: damage die", steps, "ruling HT-S3")] if steps else []


def _damage_text(t: HardtackTables, damage: int, men: int) -> str:
    scale = t["artillery"]["damage_men_per_figure"]
    return f"damage D{damage} figures of {scale} men" + (f", struck as figures of {men}" if men != scale else "")


def _strike(roller: Roller, t: HardtackTables, damage: int, cover: str, target_formation: str,
            men: int) -> tuple[dice.Struck, tuple[int, int], int, int, int]:
    damage, _ = ladder_shift(damage, DAMAGE_SHIFT.get(target_formation, 0))
    hit = roller.sub(dice.struck, damage, men, t["artillery"]["damage_men_per_figure"])
    impact_die, armour_die = _armour(t, t["artillery"]["shot_impact"], cover)
    tally = dice.casualties(roller, hit.figures, impact_die, armour_die)
    return hit, (tally[dice.WOUNDED], tally[dice.KILLED]), damage, impact_die, armour_die


# ----------------------------------------------------------------------------- confidence


def test(roller: Roller, t: HardtackTables, quality: int, leadership: int, threat: int, kind: str = "confidence",
         cite: bool = True, extra: tuple[Modifier, ...] = ()) -> Resolution:
    """Confidence or reaction test: the quality die against LV + TL. Higher passes; otherwise a
    confidence test loses a level, two on half of LV + TL or less (ruling HT-C1). ``cite`` as
    :func:`fire`; ``extra`` are house rules' shifts of the quality die (positive: a larger die)."""
    target = leadership + threat
    if extra:
        quality, _ = ladder_shift(quality, house_shifts(kind, extra))
    roll = roller.roll(d(quality))
    passed = roll > target
    lost = 0 if passed else 2 if 2 * roll <= target else 1
    rulings = () if kind == "reaction" else (t["confidence"]["half_ruling"],)
    ref, result, inputs = "", "", {}
    if cite:
        ref = f"SG2 {kind} test; Hardtack p.12-13: D{quality} vs LV {leadership} + TL {threat}"
        result = "passed" if passed else "failed" if kind == "reaction" else f"loses {lost} level{'s' * (lost > 1)}"
        inputs = {"quality": f"d{quality}", "leadership": leadership, "threat": threat}
    return Resolution(RULESET, kind, ref, result, inputs=inputs, modifiers=extra, dice=(roll,), total=roll,
                      values={"passed": passed, "levels_lost": lost, "target": target}, rulings=rulings)


# ----------------------------------------------------------------------------- initiative


def initiative(roller: Roller, sides: tuple[str, str], most_rolls: int = 20) -> Resolution:
    """Ruling HT-T1: at the start of each turn each side rolls a D6; the higher opens the turn,
    a tie is rolled again (after ``most_rolls`` ties in a row the second side opens)."""
    dice: list[int] = []
    first = sides[1]
    for _ in range(most_rolls):
        a, b = roller.roll(d(6)), roller.roll(d(6))
        dice += [a, b]
        if a != b:
            first = sides[0] if a > b else sides[1]
            break
    return Resolution(RULESET, "initiative", "ruling HT-T1 (SG2 alternate activation; FACTS A.4): D6 each, the higher opens, ties rolled again",
                      f"{first} activates first", inputs={"sides": list(sides)}, dice=tuple(dice), total=len(dice) // 2,
                      values={"first": first}, rulings=("HT-T1",))


# ----------------------------------------------------------------------------- close assault


def close_assault(roller: Roller, t: HardtackTables, attackers: int, defenders: int, attacker_quality: int, defender_quality: int,
                  attacker_shift: int = 0, defender_shift: int = 0, first_round: bool = True, defender_cover: bool = False,
                  extra: tuple[Modifier, ...] = ()) -> Resolution:
    """One round of close assault (rulings HT-A2..HT-A4): max(attackers, defenders) bouts, each
    the two quality dice shifted by weapon, mounts and (first round) cover, open shifts.
    ``extra`` are house rules' shifts of the attacker's die."""
    a_cfg = t["assault"]
    mods = [_shift("attacker close combat", attacker_shift, "ruling HT-A2")] if attacker_shift else []
    mods += extra
    attacker_shift += house_shifts("close-assault", extra) if extra else 0
    d_steps = defender_shift + (a_cfg["cover_shift"] if defender_cover and first_round else 0)
    if d_steps:
        mods.append(_shift("defender close combat" + (" and cover (first round)" if defender_cover and first_round else ""), d_steps, "ruling HT-A2; SG2"))
    a_die, a_over = ladder_shift(attacker_quality, attacker_shift)
    d_die, d_over = ladder_shift(defender_quality, d_steps)
    if a_over > 0:  # open shifts: what passes D12 comes off the other die
        d_die, _ = ladder_shift(d_die, -a_over)
    if d_over > 0:
        a_die, _ = ladder_shift(a_die, -d_over)
    bouts = max(attackers, defenders)
    tally = roller.repeat(bouts, dice.bout, a_die, d_die)
    defenders_down = min(defenders, tally["attacker"])
    attackers_down = min(attackers, tally["defender"])
    loser = "attacker" if attackers_down > defenders_down else "defender"
    lost = attackers_down if loser == "attacker" else defenders_down
    return Resolution(
        RULESET, "close-assault", f"rulings HT-A2..HT-A4 (Hardtack p.25 missing; SG2 close assault): {bouts} bouts D{a_die} vs D{d_die}",
        f"attackers lose {attackers_down}, defenders lose {defenders_down}; the {loser} tests at TL {lost}",
        inputs={"attackers": attackers, "defenders": defenders, "attacker_quality": f"d{attacker_quality}", "defender_quality": f"d{defender_quality}"},
        modifiers=tuple(mods), total=bouts,
        values={"attackers_down": attackers_down, "defenders_down": defenders_down, "loser": loser, "loser_threat": lost},
        rulings=("HT-A2", "HT-A3", "HT-A4"),
    )


def combat_move(roller: Roller, base: int) -> Resolution:
    """A combat move: D(base) x 2 inches (SG2; Hardtack p.13)."""
    roll = roller.roll(d(base))
    return Resolution(RULESET, "combat-move", f"SG2 combat move; Hardtack p.13: D{base} x 2", f'{2 * roll}"', inputs={"base": base},
                      dice=(roll,), total=2 * roll, values={"inches": 2 * roll}, rulings=("HT-M3",))


def _roll(roller: Roller, base: int) -> int:
    return roller.roll(d(base))


def _reach(so_far: tuple[int, int], face: int) -> tuple[int, int]:
    """The nearest and the farthest face rolled so far, after one more company's."""
    return min(so_far[0], face), max(so_far[1], face)


def regimental_combat_move(roller: Roller, base: int, companies: int) -> Resolution:
    """p.10: each company of the formation rolls its own combat move; the regimental commander
    may take any of the distances rolled for his own. The outcome is the nearest and the
    farthest distance rolled (the least and the most the commander may take); a roll also
    gives each company's distance, in company order, and the distances he may take."""
    (low, high), faces = roller.fold_seen(_reach, (base + 1, 0), companies, _roll, base)
    nearest, farthest = 2 * low, 2 * high
    values: dict[str, Any] = {"nearest": nearest, "farthest": farthest}
    if faces:  # a roll (computed exactly, no company's own roll is seen: the odds are by nearest and farthest)
        inches = [2 * f for f in faces]
        values |= {"inches": inches, "commander_choices": sorted(set(inches))}
        said = f"companies move {', '.join(str(i) for i in inches)} inches; the commander may take any distance rolled"
    else:
        said = f"every company moves {nearest} inches" if nearest == farthest else f"nearest {nearest}, farthest {farthest} inches"
    return Resolution(RULESET, "regimental-combat-move", f"Hardtack p.10, Regimental Formation Combat Moves: {companies} x D{base} x 2",
                      said, inputs={"base": base, "companies": companies},
                      dice=faces, values=values, rulings=("HT-M3",))


# ----------------------------------------------------------------------------- referee resolve


FIRE_VALUES = {
    "over": "how many firer dice beat the range die (0, 1 or 2)",
    "potential": "potential casualties (all the firer's dice / the range die type, the remainder rolled for)",
    "wounded": "figures wounded (impact over armour)", "killed": "figures killed (impact over twice the armour)",
    "test": "the target's confidence test: none | fired-on | canister | casualties", "fired_on": "the threat row if no casualties",
}
TEST_VALUES = {"passed": "the die beat LV + TL", "levels_lost": "confidence levels lost (0, 1, or 2 on half LV + TL or less)", "target": "LV + TL"}
ASSAULT_VALUES = {"attackers_down": "attacking figures put down", "defenders_down": "defending figures put down",
                  "loser": "the side that lost more (the defender on a tie)", "loser_threat": "its threat level for the test"}


def mechanic_specs(t: HardtackTables) -> list[MechanicSpec]:
    """What ``referee resolve hardtack`` offers."""
    quality = InputSpec("quality", "choice", "the firer's (tester's) quality die", default="d8", choices=QUALITIES)
    rng = InputSpec("range", "number", "range in inches (1\" = 10 yards)", minimum=0)
    cover = InputSpec("cover", "choice", "the target's cover", default="none", choices=COVERS)
    tform = InputSpec("target_formation", "choice", "the target's formation", default="line", choices=TARGET_FORMATIONS)
    gun = InputSpec("gun", "choice", "the gun", default="12-pdr-napoleon", choices=tuple(t.guns))
    travel = InputSpec("travel", "bool", "the target moved in travel mode (one range band closer, HT-M8)", default=False)

    def q(i: Mapping[str, Any], key: str = "quality") -> int:
        return die_size(i[key])

    return [
        MechanicSpec(
            "fire", "Small arms fire: quality die + firepower die vs the range die, impact vs armour", "Hardtack pp.16-17; SG2 fire",
            (quality, InputSpec("firepower", "number", "total firepower of the firing figures", minimum=Fraction(1, 2), maximum=48),
             rng, cover, InputSpec("formation", "choice", "the firer's formation", default="close", choices=FORMATIONS), tform,
             InputSpec("weapon", "choice", "the weapon", default="rifle-musket", choices=tuple(t.weapons)),
             InputSpec("in_position", "bool", "the target is In Position", default=False), travel),
            lambda r, i: fire(r, t, q(i), i["firepower"], i["range"], i["cover"], i["formation"], i["target_formation"], i["weapon"], i["in_position"],
                              travel=i["travel"]),
            FIRE_VALUES,
        ),
        MechanicSpec(
            "confidence", "Confidence test: quality die vs leadership + threat level", "SG2; Hardtack p.13",
            (quality, InputSpec("leadership", "int", "leadership value (1 best, 3 worst)", default=2, minimum=1, maximum=3),
             InputSpec("threat", "int", "threat level (from the Threat Level Table)", default=1, minimum=-2, maximum=9)),
            lambda r, i: test(r, t, q(i), i["leadership"], i["threat"]), TEST_VALUES,
        ),
        MechanicSpec(
            "reaction", "Reaction test: quality die vs leadership + threat level", "SG2; Hardtack p.12",
            (quality, InputSpec("leadership", "int", "leadership value", default=2, minimum=1, maximum=3),
             InputSpec("threat", "int", "threat level", default=1, minimum=-2, maximum=9)),
            lambda r, i: test(r, t, q(i), i["leadership"], i["threat"], "reaction"), TEST_VALUES,
        ),
        MechanicSpec(
            "close-assault", "One round of close assault: bouts of shifted quality dice", "rulings HT-A2..HT-A4",
            (InputSpec("attackers", "int", "attacking figures", default=8, minimum=1, maximum=24),
             InputSpec("defenders", "int", "defending figures", default=8, minimum=1, maximum=24),
             InputSpec("attacker_quality", "choice", "attacker's quality die", default="d8", choices=QUALITIES),
             InputSpec("defender_quality", "choice", "defender's quality die", default="d8", choices=QUALITIES),
             InputSpec("attacker_shift", "int", "attacker's close-combat die shift (weapon, mounted)", default=1, minimum=-4, maximum=4),
             InputSpec("defender_shift", "int", "defender's close-combat die shift (weapon, mounted)", default=1, minimum=-4, maximum=4),
             InputSpec("first_round", "bool", "the first round (the defender's cover counts)", default=True),
             InputSpec("defender_cover", "bool", "the defender is in cover", default=False)),
            lambda r, i: close_assault(r, t, i["attackers"], i["defenders"], q(i, "attacker_quality"), q(i, "defender_quality"),
                                       i["attacker_shift"], i["defender_shift"], i["first_round"], i["defender_cover"]),
            ASSAULT_VALUES,
        ),
        MechanicSpec(
            "shot", "Artillery round shot: crew and gun dice vs the range die, figures struck, impact, bounce", "rulings HT-S1..HT-S3",
            (quality, rng, gun, cover, tform,
             InputSpec("men_per_figure", "int", "men a figure stands for (p.3: 3 to 5)", default=t["scale"]["men_per_figure"], minimum=1, maximum=10),
             travel,
             InputSpec("reading", "choice", "HT-S1's reading: support (the gun's die beside the crew's, SG2) or damage-die (option shot-damage-die)",
                       default="support", choices=SHOT_READINGS),
             InputSpec("cover_as_fire", "bool", "HT-S2's second reading (option shot-cover-as-fire): cover shifts as for small arms", default=False)),
            lambda r, i: shot(r, t, q(i), i["range"], i["gun"], i["cover"], i["target_formation"], men_per_figure=i["men_per_figure"],
                              travel=i["travel"], reading=i["reading"], cover_as_fire=i["cover_as_fire"]),
            {**FIRE_VALUES, "over": "dice over the range die (damage-die: 1 on a hit)", "potential": "figures struck",
             "bounce": "the shot bounces on to the next company"},
        ),
        MechanicSpec(
            "canister", "Artillery canister: SG2 fire from the gun over its canister reach", "ruling HT-S4",
            (quality, rng, gun, cover, tform, travel),
            lambda r, i: canister(r, t, q(i), i["range"], i["gun"], i["cover"], i["target_formation"], travel=i["travel"]), FIRE_VALUES,
        ),
        MechanicSpec(
            "combat-move", "Combat move distance: D(base) x 2 inches", "SG2; Hardtack p.13",
            (InputSpec("base", "choice", "the base move (6 infantry, 12 mounted, 10 limbered, 4 unlimbered, 4 line)", default="6",
                       choices=("4", "6", "8", "10", "12")),),
            lambda r, i: combat_move(r, int(i["base"])), {"inches": "inches moved"},
        ),
        MechanicSpec(
            "regimental-combat-move", "A regimental formation's combat move: each company rolls; the commander takes any", "Hardtack p.10",
            (InputSpec("base", "choice", "the base move", default="6", choices=("4", "6", "8", "10", "12")),
             InputSpec("companies", "int", "companies in the formation", default=3, minimum=1, maximum=6)),
            lambda r, i: regimental_combat_move(r, int(i["base"]), i["companies"]),
            {"nearest": "the nearest distance rolled (inches)", "farthest": "the farthest distance rolled (inches)",
             "inches": "each company's distance, in company order (a roll only)",
             "commander_choices": "the distances the commander may take (a roll only)"},
        ),
    ]
