"""Oracle tests: the exact odds of every rff table against the QRS II text.

The expected bands below are transcribed from ``rff-qrs2-6mm.txt`` (with the rulings of
``docs/rulings/rff.md`` where the text is garbled), not read from the TOML data, so a wrong
entry in ``rulesets/rff`` makes these tests fail.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from referee.core.engine import world
from referee.core.engine.chance import Die, SampledRoller, exact
from referee.core.engine.events import Modifier, Resolution
from referee.plugins.rff import mechanics as m
from referee.plugins.rff.tables import RffTables, load_tables
from strategies import band_rows, die_modifiers

T: RffTables = load_tables()
Band = tuple[int | None, int | None, Any]

# ----------------------------------------------------------------------------- the text

GOOD_ORDER: list[Band] = [(8, None, "double-quick"), (3, 7, "well-handled"), (1, 2, "tardy"), (-1, 0, "fall-back"), (None, -2, "panic")]
DISORDERED: list[Band] = [(11, None, "rally-with-elan"), (5, 10, "rally"), (3, 4, "shaken"), (1, 2, "wavering"), (None, 0, "panic")]
MANEUVER = {"good-order": GOOD_ORDER, "disordered": DISORDERED}
FIRE_GRADES: dict[str, list[Band]] = {  # Withering and Telling as ruled in RFF-T1
    "crack": [(11, None, "withering"), (7, 10, "telling"), (6, 6, "galling"), (None, 5, "desultory")],
    "veteran": [(10, None, "withering"), (7, 9, "telling"), (6, 6, "galling"), (5, 5, "lively"), (None, 4, "desultory")],
    "trained": [(9, None, "withering"), (7, 8, "telling"), (5, 6, "galling"), (4, 4, "lively"), (None, 3, "desultory")],
    "green": [(8, None, "withering"), (7, 7, "telling"), (5, 6, "galling"), (3, 4, "lively"), (None, 2, "desultory")],
}
FIRE_RANK = ["desultory", "lively", "galling", "telling", "withering"]
COLUMN: list[Band] = [
    (None, 1, -4), (2, 2, -3), (3, 3, -2), (4, 5, -1), (6, 8, 0),
    (9, 11, 1), (12, 14, 2), (15, 19, 3), (20, 24, 4), (25, None, 5),
]
CHARGE: list[Band] = [
    (8, None, "swept-from-the-field"), (4, 7, "driven-back"), (1, 3, "hard-pressed"), (0, 0, "desperate-struggle"),
    (-3, -1, "falter"), (-7, -4, "recoil"), (None, -8, "repulsed"),
]
FALLEN = {
    10: ("shot-dead-in-the-saddle", "removed"), 9: ("mortally-wounded", "removed"), 8: ("grievously-wounded", "removed"),
    7: ("mere-flesh-wound", "out-one-turn"), 6: ("horse-shot-out-from-under", "dismounted-one-turn"),
    5: ("coat-pierced-but-unscathed", "no-effect"), 4: ("staff-officer-struck", "no-effect"),
    3: ("coolly-ignores-the-fire", "no-effect"), 2: ("coolly-ignores-the-fire", "no-effect"), 1: ("coolly-ignores-the-fire", "no-effect"),
}
MUSKETRY = {  # per stand at 3" / 6" / 9" / 12" (RFF-T2, RFF-T3); None = out of range
    "RM": (1, 1, F(1, 2), F(1, 2)), "BLC": (2, 1, F(1, 2), F(1, 2)), "BLR": (2, 1, F(1, 2), F(1, 2)),
    "RPC": (2, 2, F(1, 2), F(1, 2)), "RPR": (2, 2, F(1, 2), F(1, 2)), "IR": (1, 1, F(1, 2), None), "RC": (1, 1, F(1, 2), None),
    "SM": (1, F(1, 2), None, None), "SH": (1, F(1, 2), None, None),
}
CANNONADE = {  # per gun stand at 3" / 9" / 27" / 36" / 45" / 54" (RFF-T4, RFF-T5)
    "HR": (4, 4, 3, 3, 2, 2), "LR": (3, 3, 3, 3, 2, 1), "HS": (5, 4, 3, 2, 1, None), "LS": (4, 3, 2, 1, None, None),
    "HH": (6, 4, 3, None, None, None), "LH": (5, 3, 3, None, None, None), "MH": (5, 3, 3, None, None, None),
}


def read(bands: Sequence[Band], total: int) -> Any:
    hits = [r for lo, hi, r in bands if (lo is None or total >= lo) and (hi is None or total <= hi)]
    assert len(hits) == 1, f"{total} is in {len(hits)} bands"
    return hits[0]


def on_d10(bands: Sequence[Band], modifier: int) -> dict[Any, F]:
    """The text's odds: a d10 plus ``modifier`` read in ``bands``."""
    out: dict[Any, F] = {}
    for die in range(1, 11):
        r = read(bands, die + modifier)
        out[r] = out.get(r, F(0)) + F(1, 10)
    return out


def odds(mechanic: Callable[..., Resolution], *args: Any, field: str = "effect") -> dict[Any, F]:
    """The mechanic's exact odds of each value of ``values[field]`` (or of the total); they
    must sum to 1."""
    out: dict[Any, F] = {}
    read: Callable[[Resolution], Any] = (lambda r: r.total) if field == "total" else (lambda r: r.values[field])
    for res, p in exact(mechanic, T, *args, key=read):
        key = read(res)
        out[key] = out.get(key, F(0)) + p
    assert sum(out.values()) == 1
    return out


def given_mod(n: int) -> tuple[Modifier, ...]:
    return (Modifier("test", n),)


def outcomes(mechanic: Callable[..., Resolution], *args: Any) -> list[tuple[Resolution, F]]:
    return exact(mechanic, T, *args, key=Resolution.outcome_key)


# ----------------------------------------------------------------------------- the oracle itself


@pytest.mark.parametrize("bands", [GOOD_ORDER, DISORDERED, COLUMN, CHARGE, *FIRE_GRADES.values()])
def test_transcribed_bands_cover_every_total_once(bands: list[Band]) -> None:
    for total in range(-40, 60):
        read(bands, total)  # asserts exactly one band


# ----------------------------------------------------------------------------- maneuver


def test_maneuver_good_order_examples() -> None:
    assert odds(m.maneuver, "good-order", given_mod(0)) == {"double-quick": F(3, 10), "well-handled": F(5, 10), "tardy": F(2, 10)}
    assert odds(m.maneuver, "good-order", given_mod(-3)) == {
        "well-handled": F(5, 10), "tardy": F(2, 10), "fall-back": F(2, 10), "panic": F(1, 10),
    }
    assert odds(m.maneuver, "good-order", given_mod(7))["double-quick"] == 1


def test_maneuver_disordered_examples() -> None:
    p = odds(m.maneuver, "disordered", given_mod(2))
    assert p["rally-with-elan"] == F(2, 10)  # needs 9 or 10
    assert p == {"rally-with-elan": F(2, 10), "rally": F(6, 10), "shaken": F(2, 10)}
    assert odds(m.maneuver, "disordered", given_mod(-10)) == {"panic": F(1)}


@pytest.mark.parametrize("status", ["good-order", "disordered"])
@pytest.mark.parametrize("modifier", range(-13, 14))
def test_maneuver_odds_match_the_text(status: str, modifier: int) -> None:
    assert odds(m.maneuver, status, given_mod(modifier)) == on_d10(MANEUVER[status], modifier)


@pytest.mark.parametrize("modifier", range(-12, 4))
def test_disordered_panic_loses_a_stand_per_point_below_zero(modifier: int) -> None:
    for res, _ in outcomes(m.maneuver, "disordered", given_mod(modifier)):
        total = res.dice[0] + modifier
        assert res.total == total
        assert res.values["stands_lost"] == (max(0, -total) if total <= 0 else 0)
        assert ("RFF-T10" in res.rulings) == (res.values["effect"] == "panic")


def test_good_order_never_loses_stands() -> None:
    for modifier in range(-12, 12):
        assert odds(m.maneuver, "good-order", given_mod(modifier), field="stands_lost") == {0: F(1)}


def test_maneuver_cites_every_modifier_and_the_band() -> None:
    mods = m.pick(T.maneuver.modifiers, "crack", "spent", "out-of-command")
    res = m.maneuver(SampledRoller(1), T, "good-order", mods)
    assert res.modifiers == mods and res.total == res.dice[0] + 2 - 2 - 2
    assert res.ruleset == "rff" and res.mechanic == "maneuver" and "Maneuver Table" in res.ref
    assert all(mod.ref for mod in res.modifiers)


# ----------------------------------------------------------------------------- fire


def test_fire_example_trained_six_points() -> None:
    p = odds(m.fire, "musketry", 6, "trained", ())
    assert p["withering"] == F(2, 10)  # 9, 10
    assert p == {"withering": F(2, 10), "telling": F(2, 10), "galling": F(2, 10), "lively": F(1, 10), "desultory": F(3, 10)}


@pytest.mark.parametrize("kind", ["musketry", "cannonade"])
@pytest.mark.parametrize("grade", list(FIRE_GRADES))
@pytest.mark.parametrize("modifier", range(-9, 10))
def test_fire_odds_match_the_text(kind: str, grade: str, modifier: int) -> None:
    # 6 fire points: the 6-8 column, +0
    assert odds(m.fire, kind, 6, grade, given_mod(modifier)) == on_d10(FIRE_GRADES[grade], modifier)


POINTS = [F(1, 4), F(1, 2), 1, F(3, 2), 2, F(5, 2), 3, F(7, 2), 4, F(9, 2), 5, F(11, 2), 6, 8, F(17, 2), 9, 11, F(23, 2),
          12, 14, 15, 19, F(39, 2), 20, 24, F(49, 2), 25, 26, 60]


@pytest.mark.parametrize("points", POINTS)
def test_fire_point_columns(points: F | int) -> None:
    column = read(COLUMN, math.floor(points))  # RFF-T11: fractions drop; under 1 is the 1 pt. column
    res = m.fire(SampledRoller(0), T, "musketry", points, "veteran", ())
    assert res.values["column_modifier"] == column
    assert res.modifiers[0].value == column and res.total == res.dice[0] + column
    assert ("RFF-T11" in res.rulings) == (F(points).denominator != 1 or points < 1)
    assert odds(m.fire, "musketry", points, "veteran", given_mod(1)) == on_d10(FIRE_GRADES["veteran"], column + 1)


def test_fire_points_must_be_positive() -> None:
    with pytest.raises(ValueError):
        m.fire(SampledRoller(0), T, "musketry", 0, "trained", ())


def _troop_losses(effect: str, total: int, disordered: bool, kind: str) -> tuple[int, bool]:
    """The text: stands lost and disordered, for a troop target."""
    if effect == "withering":
        return 2 + (total >= 15), True
    if effect == "telling":
        return 1, True
    if effect == "galling":
        return int(disordered), True
    if effect == "lively":
        return 0, kind == "cannonade"
    return 0, False


@pytest.mark.parametrize("kind", ["musketry", "cannonade"])
@pytest.mark.parametrize("target_disordered", [False, True])
@pytest.mark.parametrize(("points", "modifier"), [(6, -6), (6, -3), (6, 0), (12, 2), (25, 5)])
def test_fire_on_troops(kind: str, target_disordered: bool, points: int, modifier: int) -> None:
    for grade in FIRE_GRADES:
        for res, _ in outcomes(m.fire, kind, points, grade, given_mod(modifier), target_disordered):
            v = res.values
            assert (v["stands_lost"], v["disordered"]) == _troop_losses(v["effect"], res.total, target_disordered, kind)
            assert v["gun_stands_wrecked"] == v["gun_stands_damaged"] == v["gun_stands_silenced"] == 0


def test_withering_extra_stand_on_fifteen() -> None:
    p = odds(m.fire, "musketry", 25, "crack", given_mod(5), field="stands_lost")  # totals 11..20
    assert p == {2: F(4, 10), 3: F(6, 10)}


@pytest.mark.parametrize("kind", ["musketry", "cannonade"])
def test_fire_on_guns(kind: str) -> None:
    expect = {  # (wrecked, damaged, silenced, all remaining silenced) per the effect texts
        "withering": (1, 0, 0, True), "telling": (0, 1, 1, False), "galling": (0, 0, 1, False),
        "lively": (0, 0, 1, False) if kind == "cannonade" else (0, 0, 0, False), "desultory": (0, 0, 0, False),
    }
    seen = set()
    for modifier in range(-8, 12):
        for res, _ in outcomes(m.fire, kind, 6, "green", given_mod(modifier), False, True):
            v = res.values
            wrecked, damaged, silenced, remaining = expect[v["effect"]]
            extra = int(v["effect"] == "withering" and res.total >= 15)
            assert (v["gun_stands_wrecked"], v["gun_stands_damaged"], v["gun_stands_silenced"], v["silence_remaining_guns"]) == (
                wrecked + extra, damaged, silenced, remaining)
            assert v["stands_lost"] == 0 and not v["disordered"]
            seen.add((v["effect"], extra))
    assert len(seen) == 6  # every effect, and withering with and without the extra stand


def test_fire_charge_and_massed_target() -> None:
    charge = {"withering": "checked", "telling": "checked-or-home", "galling": "home", "lively": "home", "desultory": "home"}
    for modifier in range(-8, 8):
        for res, _ in outcomes(m.fire, "cannonade", 6, "veteran", given_mod(modifier)):
            effect = res.values["effect"]
            assert res.values["charge"] == charge[effect]
            lower = FIRE_RANK.index(effect) - 1
            assert res.values["massed_target_effect"] == (FIRE_RANK[lower] if lower >= 0 else None)


def test_low_on_ammo_and_fallen_leader_on_a_base_ten() -> None:
    for modifier in (-9, 0, 9):
        for field in ("low_on_ammo", "fallen_leader_check"):
            assert odds(m.fire, "musketry", 6, "trained", given_mod(modifier), field=field) == {True: F(1, 10), False: F(9, 10)}
        for res, _ in outcomes(m.fire, "musketry", 6, "trained", given_mod(modifier)):
            assert res.values["low_on_ammo"] == (res.dice[0] == 10)


def test_fire_point_tables_match_the_text() -> None:
    for table, bands, text in ((T.fire.musketry, (3, 6, 9, 12), MUSKETRY), (T.fire.cannonade, (3, 9, 27, 36, 45, 54), CANNONADE)):
        for code, row in text.items():
            for limit, expected in zip(bands, row):
                assert table.points(code, limit) == expected, (code, limit)
                assert table.points(code, limit - F(1, 2)) == expected, (code, limit)
            assert table.points(code, bands[-1] + 1) is None


# ----------------------------------------------------------------------------- charge


def _charge_effect(difference: int) -> str:
    return read(CHARGE, difference)


@pytest.mark.parametrize("modifier", range(-12, 13))
def test_charge_difference_distribution(modifier: int) -> None:
    p = odds(m.charge, modifier, field="total")
    assert p == {k: F(10 - abs(k - modifier), 100) for k in range(modifier - 9, modifier + 10)}
    effects: dict[str, F] = {}
    for k, q in p.items():
        effects[_charge_effect(k)] = effects.get(_charge_effect(k), F(0)) + q
    assert odds(m.charge, modifier) == effects


def test_charge_even_odds_example() -> None:
    assert odds(m.charge, 0, field="total")[0] == F(10, 100)
    assert odds(m.charge, 0)["desperate-struggle"] == F(10, 100)
    assert odds(m.charge, 0)["swept-from-the-field"] == F(3, 100)  # 9-1, 10-1, 10-2


@pytest.mark.parametrize("modifier", [-12, -6, -1, 0, 1, 6, 12])
def test_charge_losses(modifier: int) -> None:
    for res, _ in outcomes(m.charge, modifier):
        v, d = res.values, res.total
        attacker = {"repulsed": 2 + max(0, -d - 9), "recoil": 1, "desperate-struggle": 1}.get(v["effect"], 0)
        defender = {"swept-from-the-field": 2 + max(0, d - 9), "driven-back": 1, "desperate-struggle": 1}.get(v["effect"], 0)
        assert (v["attacker_stands_lost"], v["defender_stands_lost"]) == (attacker, defender)
        assert v["reroll"] == (v["effect"] == "desperate-struggle")
        assert (v["attacker_carries"] != "no") == (v["effect"] in ("swept-from-the-field", "driven-back", "hard-pressed"))
        assert v["defender_retreat"] == ("hold" if d < 0 else v["defender_retreat"])
        assert v["attacker_loses_stand_if_disordered"] == (v["effect"] == "falter")
        assert v["defender_loses_stand_if_disordered"] == (v["effect"] == "hard-pressed")


def test_charge_combat_takes_each_sides_modifiers() -> None:
    attack = m.pick(T.charge.modifiers, "crack", "fresh", "cold-steel")  # +5
    defend = m.pick(T.charge.modifiers, "strong-position", "green")  # +1
    by_sides = {r.outcome_key(): p for r, p in exact(m.charge_combat, T, attack, defend, key=Resolution.outcome_key)}
    by_net = {r.outcome_key(): p for r, p in exact(m.charge, T, 4, key=Resolution.outcome_key)}
    assert by_sides == by_net
    res = m.charge_combat(SampledRoller(5), T, attack, defend)
    assert res.total == res.dice[0] + 5 - res.dice[1] - 1 == res.total
    assert [mod.value for mod in res.modifiers] == [2, 2, 1, -2, 1]


# ----------------------------------------------------------------------------- fallen leader


def test_fallen_leader_odds() -> None:
    p = odds(m.fallen_leader)
    assert p == {effect: F(3 if effect == "coolly-ignores-the-fire" else 1, 10) for effect, _ in FALLEN.values()}
    assert odds(m.fallen_leader, field="leader") == {"removed": F(3, 10), "out-one-turn": F(1, 10), "dismounted-one-turn": F(1, 10), "no-effect": F(5, 10)}
    for res, _ in outcomes(m.fallen_leader):
        assert (res.values["effect"], res.values["leader"]) == FALLEN[res.dice[0]]


# ----------------------------------------------------------------------------- data beside the odds


def test_cavalry_broken_row_and_road_rates() -> None:
    rates = {g: T.movement.rate("cavalry", "broken", g) for g in ("open", "broken", "rough", "road")}
    assert [r.full for r in rates.values() if r] == [18, 15, 6, 24]
    assert str(T.movement.rate("infantry", "line", "open")) == "9 / 12"
    assert T.movement.rate("infantry", "line", "road") is None
    assert T.movement.rate("infantry", "march-column", "road").double_quick == 18


def test_every_neutral_name_maps_to_a_class_with_fire_points() -> None:
    for name in world.WEAPONS:
        assert T.fire.musketry.points(T.weapons.weapons[name].code, 3)
    for name in world.GUN_TYPES:
        assert T.fire.cannonade.points(T.weapons.guns[name].code, 3)
    assert {n: T.weapons.experience[n].code for n in world.EXPERIENCE} == {
        "militia": "green", "green": "green", "trained": "trained", "regular": "veteran", "veteran": "veteran", "crack": "crack"}


def test_scale() -> None:
    assert (T.scale.yards_per_inch, T.scale.men_per_piece, T.scale.guns_per_model, T.scale.minutes_per_turn) == (37.5, 40, 2, 15)
    assert T.close_range_inches == 3


# ----------------------------------------------------------------------------- referee resolve


@pytest.mark.parametrize("name", ["maneuver", "musketry", "cannonade", "charge", "fallen-leader"])
def test_specs_sum_to_one_and_sampling_reproduces(name: str) -> None:
    spec = {s.name: s for s in m.mechanic_specs(T)}[name]
    inputs = spec.parse_inputs(["fire_points=9/2", "modifier=1"] if name in ("musketry", "cannonade") else [])
    assert sum(p for _, p in spec.exact(inputs)) == 1
    for seed in (0, 1, 99):
        assert spec.sample(seed, inputs).as_json() == spec.sample(seed, inputs).as_json()
    assert len({spec.sample(seed, inputs).dice for seed in range(40)}) > 1
    assert set(spec.sample(7, inputs).values) <= set(spec.values)


def test_spec_modifier_is_one_given_modifier() -> None:
    spec = {s.name: s for s in m.mechanic_specs(T)}["maneuver"]
    res = spec.sample(3, spec.parse_inputs(["modifier=-2", "status=disordered"]))
    assert [(mod.name, mod.value) for mod in res.modifiers] == [(m.GIVEN, -2)]
    assert res.total == res.dice[0] - 2


# ----------------------------------------------------------------------------- properties


class Fixed:
    """A roller whose dice show the given faces, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, die: Die) -> int:
        return self.faces.pop(0)


def _rank(column: list[Band], effect: str) -> int:
    return [r for _, _, r in column].index(effect)


@given(st.integers(1, 10), die_modifiers, die_modifiers, st.sampled_from(["good-order", "disordered"]))
def test_maneuver_is_monotone_in_the_modifier(die: int, a: int, b: int, status: str) -> None:
    lo, hi = sorted((a, b))
    worse = m.maneuver(Fixed(die), T, status, given_mod(lo)).values["effect"]
    better = m.maneuver(Fixed(die), T, status, given_mod(hi)).values["effect"]
    assert _rank(MANEUVER[status], better) <= _rank(MANEUVER[status], worse)  # bands are listed best first


@given(st.integers(1, 10), die_modifiers, die_modifiers, st.sampled_from(list(FIRE_GRADES)))
def test_fire_is_monotone_in_the_modifier(die: int, a: int, b: int, grade: str) -> None:
    lo, hi = sorted((a, b))
    worse = m.fire(Fixed(die), T, "musketry", 6, grade, given_mod(lo)).values
    better = m.fire(Fixed(die), T, "musketry", 6, grade, given_mod(hi)).values
    assert FIRE_RANK.index(better["effect"]) >= FIRE_RANK.index(worse["effect"])
    assert better["stands_lost"] >= worse["stands_lost"]


@given(st.integers(1, 10), st.integers(1, 10), die_modifiers)
def test_charge_result_follows_the_difference(a: int, d: int, modifier: int) -> None:
    res = m.charge(Fixed(a, d), T, modifier)
    assert res.total == a + modifier - d
    assert res.values["effect"] == _charge_effect(a + modifier - d)


def test_every_table_band_covers_every_total_once() -> None:
    bands = [*(c.bands for c in T.maneuver.columns.values()), *T.fire.grades.values(), T.fire.column, T.charge.bands, T.fallen_leader.bands]
    for table in bands:
        for total in range(-20, 31):
            assert sum(total in band for band in table.bands) == 1
            assert total in table.band(total)


@given(band_rows(), st.integers(-60, 60))
def test_bands_lookup_agrees_with_a_scan(rows: list[dict[str, Any]], total: int) -> None:
    from referee.core.engine.tables import Bands, band_problems

    assert band_problems(rows) == []
    hits = [r["result"] for r in rows if r.get("min", -999) <= total <= r.get("max", 999)]
    assert Bands.from_rows(rows).lookup(total) == hits[0] and len(hits) == 1
