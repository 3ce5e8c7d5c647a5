"""Exact odds of every sumter table against the printed sheet (raising-sumter-qrs-v6.2.txt).

Each oracle here is written from the sheet independently of the plugin: the 2D6 distribution,
the printed rows and columns, the printed D12 scores of the Semi-Hits table, and so on.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.mechanics import MechanicSpec
from referee.plugins.sumter.mechanics import mechanic_specs
from referee.plugins.sumter.tables import load_tables

T = load_tables()
TWO_D6 = {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}

# the sheet's Shooting Casualties and Artillery Casualties, as printed (columns 0, 1-2 ... 17-18)
SHOOTING = {
    9: (0, 0, 0, 0, 1, 2, 3, 4, 4, 4), 15: (0, 0, 0, 1, 2, 3, 3, 4, 4, 5), 20: (0, 0, 1, 2, 3, 3, 4, 4, 5, 5),
    27: (0, 1, 2, 3, 3, 4, 4, 5, 5, 6), 36: (1, 2, 3, 3, 4, 4, 5, 5, 6, 7),
}
ARTILLERY = {1: (0, 0, 0, 0, 1, 2, 3, 3, 4, 4), 2: (0, 0, 0, 1, 2, 3, 3, 4, 4, 5), 3: (0, 0, 1, 2, 3, 3, 4, 4, 5, 5)}
SEMI = {Fraction(1, 4): Fraction(4, 12), Fraction(1, 2): Fraction(6, 12), Fraction(3, 4): Fraction(8, 12)}  # 9-12, 7-12, 5-12


def odds(name: str, **inputs: object) -> dict[object, Fraction]:
    m = mechanic(name)
    given = m.parse_inputs([f"{k}={v}" for k, v in inputs.items()])
    out: dict[object, Fraction] = {}
    for res, p in m.exact(given):
        key = next(res.values[k] for k in ("hits", "result", "passed") if k in res.values)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def mechanic(name: str) -> MechanicSpec:
    return next(m for m in mechanic_specs(T) if m.name == name)


def column(score: int) -> int | None:
    return None if score < 0 else min(9, (score + 1) // 2)


def oracle_volley(row: tuple[int, ...], net: int, portion: Fraction = Fraction(1)) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for s, p in TWO_D6.items():
        col = column(s + net)
        total = (row[col] if col is not None else 0) * portion
        whole, part = int(total), total - int(total)
        if part:
            hit = SEMI[part]
            out[whole + 1] = out.get(whole + 1, Fraction(0)) + p * hit
            out[whole] = out.get(whole, Fraction(0)) + p * (1 - hit)
        else:
            out[whole] = out.get(whole, Fraction(0)) + p
    return {k: v for k, v in out.items() if v}


def test_casualty_rows_as_printed() -> None:
    bands = {9: range(1, 10), 15: range(10, 16), 20: range(16, 21), 27: range(21, 28), 36: range(28, 37)}
    for top, figures in bands.items():
        for n in figures:
            assert T.fire_rows[n] == SHOOTING[top], n
    for n, row in ARTILLERY.items():
        assert T.gun_rows[n] == row


@pytest.mark.parametrize("figures, grade, net", [(16, "regular", 0), (9, "veteran", 1), (30, "raw", -2), (22, "trained", -1)])
def test_fire_effective_range(figures: int, grade: str, net: int) -> None:
    top = min(t for t in SHOOTING if t >= figures)
    assert odds("fire", figures=figures, grade=grade) == oracle_volley(SHOOTING[top], net)


def test_fire_long_range_and_low_ammo_semi_hits() -> None:
    # the sheet's example: a 16-man unit scores 8 (3 hits) at long range: 1 1/2, a D12 of 7-12 makes 2
    assert odds("fire", figures=16, range="long") == oracle_volley(SHOOTING[20], 0, Fraction(1, 2))
    assert odds("fire", figures=16, range="long", low_ammo="true") == oracle_volley(SHOOTING[20], 0, Fraction(1, 4))


def test_fire_modifiers_as_printed() -> None:
    # smoothbore -1, fired last turn -1, each DP -1, target skirmishers -3, works -3, column of march +2
    assert odds("fire", weapon="smoothbore", fired_last="true", dps=2, target="march-column") == oracle_volley(SHOOTING[20], -1 - 1 - 2 + 2)
    assert odds("fire", weapon="breechloader", target="skirmishers", cover="works") == oracle_volley(SHOOTING[20], 1 - 3 - 3)
    assert odds("fire", mounted="true", cover="hedge-trees") == oracle_volley(SHOOTING[20], -2 - 2)


def test_column_fires_half_its_figures() -> None:
    assert odds("fire", figures=32, formation="column") == oracle_volley(SHOOTING[20], 0)


def test_over_36_figures_fire_as_two_rows() -> None:
    row = tuple(a + b for a, b in zip(SHOOTING[36], SHOOTING[9]))
    assert odds("fire", figures=40) == oracle_volley(row, 0)


def test_pour_on_fire_twice_the_dice_and_low_ammo() -> None:
    m = mechanic("fire")
    dist = m.exact(m.parse_inputs(["weapon=repeater", "pour=true"]))
    low = sum(p for r, p in dist if r.values["low_ammo"])
    # two independent 2D6 throws; any double but 6-6 in either: 1 - (31/36)^2
    assert low == 1 - Fraction(31, 36) ** 2
    single = oracle_volley(SHOOTING[20], 1)  # repeater: breechloader +1
    twice: dict[int, Fraction] = {}
    for a, p in single.items():
        for b, q in single.items():
            twice[a + b] = twice.get(a + b, Fraction(0)) + p * q
    assert odds("fire", weapon="repeater", pour="true") == twice


@pytest.mark.parametrize("gun, rng, net", [("12-pdr-napoleon", "canister", 3), ("3-inch-rifle", "canister", 1), ("6-pdr", "canister", 1),
                                           ("siege", "canister", 4), ("10-pdr-parrott", "effective", 0), ("naval", "effective", -1)])
def test_artillery_fire(gun: str, rng: str, net: int) -> None:
    assert odds("artillery-fire", models=2, gun=gun, range=rng) == oracle_volley(ARTILLERY[2], net)


def test_artillery_long_range_and_trained_crews() -> None:
    assert odds("artillery-fire", models=3, grade="trained", range="long", target="deployed-artillery") == oracle_volley(ARTILLERY[3], -1 - 3, Fraction(1, 2))
    assert odds("artillery-fire", models=1, enfilade="true") == oracle_volley(ARTILLERY[1], 3)  # enfiladed in line by artillery +3
    assert odds("artillery-fire", models=1, enfilade="true", target="column") == oracle_volley(ARTILLERY[1], 1)


def test_heavy_guns_double_one_to_five() -> None:
    m = mechanic("artillery-fire")
    lost = sum(p for r, p in m.exact(m.parse_inputs(["gun=20-pdr-parrott", "consecutive=true"])) if r.values["gun_lost"])
    assert lost == Fraction(5, 36)
    assert not any(r.values["gun_lost"] for r, _ in m.exact(m.parse_inputs(["gun=20-pdr-parrott"])))
    assert not any(r.values["gun_lost"] for r, _ in m.exact(m.parse_inputs(["gun=12-pdr-napoleon", "consecutive=true"])))


def test_gatling_fires_on_the_under_10_row() -> None:
    assert odds("artillery-fire", models=1, gun="gatling") == oracle_volley(SHOOTING[9], 0)


@pytest.mark.parametrize("figures, grade, dps, dice", [(12, "veteran", 0, 4), (12, "regular", 0, 3), (10, "trained", 0, 2), (12, "raw", 1, 1)])
def test_skirmish_fire(figures: int, grade: str, dps: int, dice: int) -> None:
    want = {k: comb(dice, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (dice - k) for k in range(dice + 1)}
    assert odds("skirmish-fire", figures=figures, grade=grade, dps=dps) == want


def test_skirmish_fire_in_cover_and_snipers() -> None:
    # 2 dice, half in cover: 1 hit -> 1/2 -> D12 7-12; 2 hits -> 1
    p1, p2 = 2 * Fraction(1, 6) * Fraction(5, 6), Fraction(1, 36)
    assert odds("skirmish-fire", figures=8, grade="regular", cover="true") == {0: Fraction(25, 36) + p1 / 2, 1: p1 / 2 + p2}
    assert odds("skirmish-fire", sniper="true") == {0: Fraction(2, 3), 1: Fraction(1, 3)}


@pytest.mark.parametrize("unit, move, die_dp, n, fixed", [("foot-good", "line", Fraction(1, 6), 2, 0), ("foot-poor", "line", Fraction(1, 3), 2, 0),
                                                         ("horse-good", "line", Fraction(1, 6), 3, 0), ("foot-good", "column", Fraction(1, 6), 1, 3),
                                                         ("foot-poor", "retreat", Fraction(1, 3), 3, 0), ("horse-poor", "charge", Fraction(1, 3), 4, 0)])
def test_movement_dps_and_inches(unit: str, move: str, die_dp: Fraction, n: int, fixed: int) -> None:
    m = mechanic("movement")
    dist = m.exact(m.parse_inputs([f"unit={unit}", f"move={move}"]))
    dps: dict[int, Fraction] = {}
    mean = Fraction(0)
    for r, p in dist:
        dps[r.values["dps"]] = dps.get(r.values["dps"], Fraction(0)) + p
        mean += p * r.values["inches"]
    assert dps == {k: comb(n, k) * die_dp ** k * (1 - die_dp) ** (n - k) for k in range(n + 1)}
    assert mean == Fraction(7, 2) * n + fixed  # Ave D and d6 both average 3.5


def test_skirmishers_take_at_most_one_dp() -> None:
    m = mechanic("movement")
    dist = m.exact(m.parse_inputs(["unit=foot-poor", "move=skirmish"]))
    assert {r.values["dps"] for r, _ in dist} == {0, 1}
    assert sum(p for r, p in dist if r.values["dps"] == 1) == 1 - Fraction(2, 3) ** 2


@pytest.mark.parametrize("present, wanted, cinc, bad, after", [
    ("hold", "assault", True, Fraction(1, 36), "retire"), ("hold", "assault", False, Fraction(6, 36), "retire"),
    ("move", "engage", False, Fraction(6, 36), "hold"), ("engage", "hold", False, Fraction(6, 36), "retire"),
    ("assault", "hold", False, Fraction(6, 36), "hold"), ("retire", "hold", False, Fraction(6, 36), "retire"),
    ("support", "engage", False, Fraction(6, 36), "hold"), ("engage", "support", True, Fraction(1, 36), "retire")])
def test_order_change_cock_up_and_loss_of_nerve(present: str, wanted: str, cinc: bool, bad: Fraction, after: str) -> None:
    m = mechanic("order-change")
    dist = m.exact(m.parse_inputs([f"present={present}", f"wanted={wanted}", f"cinc={str(cinc).lower()}"]))
    assert sum(p for r, p in dist if r.values["cockup"]) == bad
    assert {r.values["order"] for r, _ in dist if r.values["cockup"]} == {after}
    assert {r.values["order"] for r, _ in dist if not r.values["cockup"]} == {wanted}


def band_odds(net: int, bands: list[tuple[int | None, int | None, str]]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for s, p in TWO_D6.items():
        total = s + net
        for lo, hi, result in bands:
            if (lo is None or total >= lo) and (hi is None or total <= hi):
                out[result] = out.get(result, Fraction(0)) + p
    return out


MORALE = {  # Unit Morale Test Results as printed: 6+ / 5 / 4-3 / 2-0 / -1 or less
    "charge": ["charge", "halt", "halt", "retreat", "rout"], "charged": ["stand", "stand", "halt", "retreat", "rout"],
    "other": ["obey", "obey", "halt", "retreat", "rout"], "rally": ["rally", "rally", "fail", "rout", "disperse"],
}
LIMITS = [(6, None), (5, 5), (3, 4), (0, 2), (None, -1)]


@pytest.mark.parametrize("column", sorted(MORALE))
@pytest.mark.parametrize("grade, net", [("regular", 1), ("veteran", 2), ("trained", -1), ("raw", -2)])
def test_unit_morale_columns(column: str, grade: str, net: int) -> None:
    want = band_odds(net, [(lo, hi, r) for (lo, hi), r in zip(LIMITS, MORALE[column])])
    assert odds("unit-morale", column=column, grade=grade) == want


def test_unit_morale_modifiers() -> None:
    # regular +1, average general +1, 50% lost -2 (SU-U2), 2 DPs -2, two friends beaten -2, charged by cavalry -2, flank -4
    net = 1 + 1 - 2 - 2 - 2 - 2 - 4
    want = band_odds(net, [(lo, hi, r) for (lo, hi), r in zip(LIMITS, MORALE["charged"])])
    assert odds("unit-morale", column="charged", general="average", lost="half", dps=2, friends_beaten=2, by="cavalry", flank="true") == want
    # Rebel Yell +2 to charge
    assert odds("unit-morale", column="charge", rebel_yell="true") == band_odds(3, [(lo, hi, r) for (lo, hi), r in zip(LIMITS, MORALE["charge"])])


def test_routing_unit_failing_to_rally_disperses() -> None:
    # "4-3 Fail. (Disperse if Routing)", "2-0 Rout. (Disperse if Routing)": a routing unit either rallies or disperses
    got = odds("unit-morale", column="rally", routing="true", grade="raw")
    assert got == band_odds(-3, [(lo, hi, r) for (lo, hi), r in zip(LIMITS, ["rally", "rally", "disperse", "disperse", "disperse"])])
    # the audit's case: a routing Trained unit (-1, routing -1) rallies on 7+ and disperses 5/12 of the time
    assert odds("unit-morale", column="rally", routing="true", grade="trained") == {"rally": Fraction(7, 12), "disperse": Fraction(5, 12)}
    # a retreating (not routing) unit scoring 0-2 routs, 3-4 fails
    assert odds("unit-morale", column="rally", grade="trained")["rout"] == sum(p for s, p in TWO_D6.items() if 0 <= s - 1 <= 2)


def test_brigade_morale() -> None:
    assert odds("brigade-morale") == band_odds(0, [(5, None, True), (None, 4, False)])  # SU-B1: 5+ holds
    # assault +2, trained/raw -1, over 50% beaten -3, secure rear +2
    assert odds("brigade-morale", order="assault", grade="poor", beaten="most", secure_rear="true") == band_odds(0, [(5, None, True), (None, 4, False)])
    assert odds("brigade-morale", order="move", beaten="half") == band_odds(-3, [(5, None, True), (None, 4, False)])


def test_melee_result_by_difference() -> None:
    m = mechanic("melee")
    dist = m.exact(m.parse_inputs([]))  # two equal regular infantry units
    by: dict[str, Fraction] = {}
    for r, p in dist:
        by[r.values["result"]] = by.get(r.values["result"], Fraction(0)) + p
    diff: dict[int, Fraction] = {}
    for a, p in TWO_D6.items():
        for b, q in TWO_D6.items():
            diff[abs(a - b)] = diff.get(abs(a - b), Fraction(0)) + p * q
    assert by == {"draw": diff[0], "pushed-back": diff[1] + diff[2], "retreat": sum(diff[d] for d in range(3, 8)),
                  "rout": sum(diff[d] for d in range(8, 11))}


def test_melee_factors_exceptions_and_casualties() -> None:
    m = mechanic("melee")
    dist = m.exact(m.parse_inputs(["a_kind=cavalry", "a_bonus=charge", "a_figures=12", "b_kind=infantry", "b_figures=24", "b_grade=raw"]))
    for r, _ in dist:
        # cavalry +1, charge +3, regular 0 against infantry +1, raw -2, outnumbering +1 per 50% (24 v 12: +2)
        assert r.values["a"] - sum(r.dice[:1]) == 4 and r.values["b"] - r.dice[1] == 1 - 2 + 2
        if r.values["winner"] == "a":
            assert r.values["result"] != "pushed-back"  # exception (a): infantry pushed back by cavalry retreat
            assert r.values["b_lost"] == 12  # winning cavalry v retreating or routing foot: 1 per 1
            assert r.values["a_lost"] == 2  # losing foot v all: 1 per 12
    draws = [r for r, _ in dist if r.values["winner"] == "none"]
    assert draws and all(r.values["cavalry_retire"] for r in draws)  # cavalry drawing against infantry retire
    assert not any(r.values["cavalry_retire"] for r, _ in m.exact(m.parse_inputs(["a_kind=cavalry", "b_kind=cavalry"])))
    guns = m.exact(m.parse_inputs(["b_kind=artillery"]))
    assert {r.values["result"] for r, _ in guns if r.values["winner"] == "a"} == {"disperse"}  # exception (b)


def _melee_pursuit(a_grade: str, a_kind: str = "infantry") -> Fraction:
    m = mechanic("melee")
    given = m.parse_inputs([f"a_kind={a_kind}", f"a_grade={a_grade}", "a_figures=16", "a_bonus=charge", "b_kind=artillery", "b_figures=4"])
    return sum((p for r, p in m.exact(given) if r.values["pursuit"]), Fraction(0))


@pytest.mark.parametrize("a_kind, a_grade, a_factors, least", [
    ("infantry", "regular", 1 + 3 + 6, 8),   # foot win by 8+: "Foot take Pursuit test"
    ("infantry", "trained", 1 - 1 + 3 + 6, 3),  # 7-3: "Raw & Trained Foot take Pursuit Test"
    ("cavalry", "regular", 1 + 3 + 6, 3)])   # cavalry by 3+; 2-1 "Cav. follow Up" (nothing to follow)
def test_beating_a_battery_the_winner_reads_the_results_row(a_kind: str, a_grade: str, a_factors: int, least: int) -> None:
    # a battery that loses always disperses (exception b); the winner's column is still the row's
    # (charge +3, outnumbering 16 v 4 +6, artillery -2)
    want = sum((p * q for a, p in TWO_D6.items() for b, q in TWO_D6.items() if (a + a_factors) - (b - 2) >= least), Fraction(0))
    assert _melee_pursuit(a_grade, a_kind) == want
    if a_kind == "infantry" and a_grade == "regular":
        assert want == Fraction(65, 72)


def test_pursuit_test() -> None:
    bands = [(10, None, "formed"), (9, 9, "stand"), (7, 8, "halt"), (None, 6, "pursue")]
    assert odds("pursuit", grade="raw", infantry="true") == band_odds(-3 + 1, bands)
    assert odds("pursuit", grade="veteran", general="true", rebel_yell="true") == band_odds(1 + 1 - 1, bands)


@pytest.mark.parametrize("name, inputs", [
    ("fire", ["range=long", "pour=true", "weapon=repeater", "low_ammo=true"]), ("artillery-fire", ["models=3", "range=long", "low_ammo=true"]),
    ("skirmish-fire", ["figures=36", "grade=veteran", "pour=true"]), ("melee", []), ("unit-morale", []), ("brigade-morale", []),
    ("order-change", []), ("movement", ["unit=horse-poor", "move=charge"]), ("pursuit", [])])
def test_exact_odds_at_large_inputs_are_whole(name: str, inputs: list[str]) -> None:
    """Exact odds at large inputs add up to one (how long they take: benchmarks/bench_exact.py)."""
    m = mechanic(name)
    assert sum(p for _, p in m.exact(m.parse_inputs(inputs))) == 1


def test_every_mechanic_documents_its_values() -> None:
    names = {m.name for m in mechanic_specs(T)}
    assert names >= {"fire", "artillery-fire", "skirmish-fire", "melee", "unit-morale", "brigade-morale", "order-change", "movement"}
    for m in mechanic_specs(T):
        res = m.sample(1, m.parse_inputs([]))
        assert set(res.values) <= set(m.values), (m.name, set(res.values) - set(m.values))


class _Throws:
    """A roller that counts the semi-hit dice asked of it and throws each a 12."""

    def __init__(self) -> None:
        self.thrown = 0

    def roll(self, die: object) -> int:
        self.thrown += 1
        return 12

    def sub(self, mechanic, *args):  # type: ignore[no-untyped-def]  # the Roller protocol's
        return mechanic(self, *args)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 400), st.sampled_from([Fraction(1), T.long_portion[1], T.long_portion[2], T.cover_share, T.bounce_share])
       | st.fractions(Fraction(0), Fraction(1)))
def test_a_share_of_hits_keeps_the_whole_hits_and_throws_for_the_fraction(whole: int, portion: Fraction) -> None:
    """``dice.hits_of`` (whole numbers) against the share worked in Fractions: the whole hits
    kept, the fraction left, and a semi-hit thrown for that fraction only."""
    from math import floor

    from referee.plugins.sumter.dice import hits_of

    roller = _Throws()
    hits, part, semi = hits_of(roller, T, whole, portion)  # type: ignore[arg-type]  # a stand-in roller
    kept = floor(whole * portion)
    assert part == whole * portion - kept and type(part) is Fraction
    assert (hits, semi, roller.thrown) == ((kept + 1, True, 1) if part else (kept, False, 0))
