"""Exact odds of the hardtack mechanics against hand computation (SG2 facts, FACTS.md A)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.chance import SampledRoller, d, exact
from referee.core.engine.plugins import build_rules
from referee.plugins.hardtack import dice, mechanics
from referee.plugins.hardtack.tables import load_tables

T = load_tables()


def dist(mechanic, *args, key=lambda r: r.outcome_key()):  # type: ignore[no-untyped-def]
    return exact(mechanic, T, *args, key=key)


def p_of(outcomes, test) -> Fraction:  # type: ignore[no-untyped-def]
    return sum((p for r, p in outcomes if test(r)), Fraction(0))


@pytest.mark.parametrize("quality,inches,band", [(8, 0, 1), (8, 8, 1), (8, Fraction(81, 10), 2), (8, 16, 2), (8, 40, 5), (6, 7, 2), (12, 60, 5)])
def test_range_bands_are_the_quality_die_in_inches(quality: int, inches: Fraction, band: int) -> None:
    assert dice.band_of(inches, quality) == band


def test_no_effective_fire_beyond_the_fifth_band() -> None:
    res = mechanics.fire(None, T, 8, 8, 41)  # type: ignore[arg-type]
    assert res.result.startswith("no effective fire") and res.values["over"] == 0


@pytest.mark.parametrize("cover,steps", [("none", 0), ("soft", 1), ("hard", 2), ("fortification", 3)])
def test_cover_shifts_the_range_die(cover: str, steps: int) -> None:
    mods = mechanics.target_shifts(T, cover, "skirmish", False)
    assert sum(int(m.value) for m in mods) == steps


def test_cover_past_d12_means_no_effective_fire() -> None:
    # band 4 (D10) + hard cover (2) passes D12
    res = mechanics.fire(None, T, 8, 8, 30, "hard", "close", "skirmish")  # type: ignore[arg-type]
    assert "past D12" in res.result


@pytest.mark.parametrize("fp,die", [(Fraction(1, 2), 4), (3, 4), (5, 6), (6, 6), (7, 8), (9, 10), (11, 12), (30, 12)])
def test_firepower_rounds_to_the_nearest_die_ties_up(fp: Fraction, die: int) -> None:
    assert dice.nearest_die(fp) == die


def test_confidence_test_against_hand_computation() -> None:
    # D8 against LV 2 + TL 1 = 3: 4-8 pass (5/8), 2-3 lose one (2/8), 1 loses two (1/8: 2 x 1 <= 3)
    out = dist(mechanics.test, 8, 2, 1)
    assert p_of(out, lambda r: r.values["levels_lost"] == 0) == Fraction(5, 8)
    assert p_of(out, lambda r: r.values["levels_lost"] == 1) == Fraction(2, 8)
    assert p_of(out, lambda r: r.values["levels_lost"] == 2) == Fraction(1, 8)
    # D6 against 2 + 3 = 5: pass on 6 only; half or less = 1, 2
    out = dist(mechanics.test, 6, 2, 3)
    assert [p_of(out, lambda r, n=n: r.values["levels_lost"] == n) for n in (0, 1, 2)] == [Fraction(1, 6), Fraction(3, 6), Fraction(2, 6)]


def test_impact_against_armour() -> None:
    # D6 impact vs D4 armour: wounded when i > a and i <= 2a; killed when i > 2a
    out = dict(exact(dice.impact, 6, 4))
    assert out["killed"] == Fraction(sum(1 for i in range(1, 7) for a in range(1, 5) if i > 2 * a), 24)
    assert out["wounded"] == Fraction(sum(1 for i in range(1, 7) for a in range(1, 5) if a < i <= 2 * a), 24)


def _hand_fire(q: int, f: int, r: int) -> dict[str, Fraction]:
    """Over-count distribution and the potential-casualty distribution by brute force."""
    out: dict[str, Fraction] = {}
    unit = Fraction(1, q * f * r)
    for a in range(1, q + 1):
        for b in range(1, f + 1):
            for c in range(1, r + 1):
                over = (a > c) + (b > c)
                if over < 2:
                    out[f"over{over}"] = out.get(f"over{over}", Fraction(0)) + unit
                    continue
                pot, rem = divmod(a + b, r)
                for e in range(1, r + 1):
                    k = f"pot{pot + (0 < rem and e <= rem)}"
                    out[k] = out.get(k, Fraction(0)) + unit / r
    return out


def test_fire_outcome_distribution_small_case_by_hand() -> None:
    # a Regular (D8) company of 5 rifle-musket figures (FP 5 -> D6) at 20" (band 3: D8), skirmish target
    hand = _hand_fire(8, 6, 8)
    out = dist(mechanics.fire, 8, 5, 20, "none", "close", "skirmish", "rifle-musket")
    assert p_of(out, lambda r: r.values["over"] == 0) == hand["over0"]
    assert p_of(out, lambda r: r.values["over"] == 1) == hand["over1"]
    for n in (1, 2):
        assert p_of(out, lambda r, n=n: r.values["potential"] == n) == hand[f"pot{n}"]
    assert sum(p for _, p in out) == 1


def test_repeat_equals_independent_rolls() -> None:
    # two potential casualties: P(2 killed) = P(killed)^2
    one = dict(exact(dice.impact, 6, 4))
    two = exact(dice.casualties, 2, 6, 4)
    assert p_of(two, lambda tl: tl["killed"] == 2) == one["killed"] ** 2


def test_close_assault_one_bout() -> None:
    # 1 v 1, D8 v D8, no shifts: attacker wins 28/64, defender 28/64, tie 8/64
    out = dist(mechanics.close_assault, 1, 1, 8, 8, 0, 0)
    assert p_of(out, lambda r: r.values["defenders_down"] == 1) == Fraction(28, 64)
    assert p_of(out, lambda r: r.values["attackers_down"] == 0 and r.values["defenders_down"] == 0) == Fraction(8, 64)


def test_shot_damage_die_hits_when_crew_die_beats_range_die() -> None:
    # HT-S1, option shot-damage-die. 12-pdr Napoleon, 30" = band 2 (D6), skirmish target: by hand
    hit = Fraction(sum(1 for q in range(1, 9) for r in range(1, 7) if q > r), 48)
    out = dist(mechanics.shot, 8, 30, "12-pdr-napoleon", "none", "skirmish", False, True, None, False, (), "damage-die")
    assert p_of(out, lambda r: r.values["over"] == 1) == hit


def test_shot_is_the_crew_die_and_the_gun_die_against_the_range_die() -> None:
    """HT-S1 (support): a D8 crew and the Napoleon's D6 (D4 against skirmishers, HT-S3) against
    band 2's D6. Both over: (crew + gun) // 6 potential figures of 3 men, the remainder rolled on
    the range die (SG2); at 1:3 those are the figures struck. The gun's die on 4 bounces."""
    both = one = Fraction(0)
    potential = bounce = Fraction(0)
    for q in range(1, 9):
        for g in range(1, 5):
            for r in range(1, 7):
                p = Fraction(1, 8 * 4 * 6)
                over = (q > r) + (g > r)
                one += p * (over == 1)
                if over == 2:
                    both += p
                    n, rem = divmod(q + g, 6)
                    potential += p * (n + Fraction(rem, 6))
                    bounce += p * (g == 4)
    out = dist(mechanics.shot, 8, 30, "12-pdr-napoleon", "none", "skirmish", False, True, 3)
    assert p_of(out, lambda r: r.values["over"] == 2) == both
    assert p_of(out, lambda r: r.values["over"] == 1) == one
    assert sum(p * r.values["potential"] for r, p in out) == potential
    assert p_of(out, lambda r: r.values["bounce"]) == bounce
    assert p_of(out, lambda r: r.values["test"] == "none") == 1 - both - one  # no die over: no effect, no test


def test_canister_tests_on_the_canister_row() -> None:
    out = dist(mechanics.canister, 8, 5, "12-pdr-napoleon", "none", "line")
    assert {r.values["test"] for r, _ in out} <= {"none", "canister", "casualties"}


def test_exact_fire_d12_firepower_is_a_proper_distribution() -> None:
    spec = build_rules("hardtack").mechanics["fire"]
    out = spec.exact(spec.parse_inputs(["quality=d12", "firepower=12", "range=1", "target_formation=skirmish"]))
    assert sum(p for _, p in out) == 1
    assert max(r.values["potential"] for r, _ in out) == 6  # (12 + 12) // 4


@pytest.mark.parametrize("men", [3, 4, 5])
def test_a_round_shot_strikes_the_same_men_at_every_figure_scale(men: int) -> None:
    """HT-S3 (audit M4): the damage die counts figures of 3 men (the scale p.14 writes its figure
    counts for); at 4 or 5 men a figure it strikes as many men, in fewer figures, the remainder
    rolled for. A 12-pdr's D6 strikes 3 x 3.5 = 10.5 men on average whatever the scale."""
    scale = T["artillery"]["damage_men_per_figure"]
    assert scale == 3
    out = exact(dice.struck, 6, men, scale)
    assert sum(p * s.figures * men for s, p in out) == Fraction(21, 2)
    assert sum(p for s, p in out if s.bounce) == Fraction(1, 6)  # the die's top face still bounces


def test_shot_casualties_in_men_do_not_grow_with_the_figure_scale() -> None:
    """The whole shot mechanic: expected men wounded or killed per round, at 1:3 and 1:5, equal."""
    def men_lost(men: int) -> Fraction:
        out = dist(mechanics.shot, 8, 30, "12-pdr-napoleon", "none", "line", False, True, men)
        return sum(p * (r.values["wounded"] + r.values["killed"]) * men for r, p in out)
    assert men_lost(3) == men_lost(5) > 0


# ----------------------------------------------------------------------------- regimental combat move (p.10)

MOVE = build_rules("hardtack").mechanics["regimental-combat-move"]


def _reach_odds(base: int, companies: int) -> dict[tuple[int, int], Fraction]:
    """The exact odds of (nearest, farthest) inches, as the mechanic gives them."""
    odds = {(r.values["nearest"], r.values["farthest"]): p for r, p in MOVE.exact({"base": str(base), "companies": companies})}
    assert len(odds) == (base * (base + 1) // 2 if companies > 1 else base)  # one a pair of faces low <= high, not one a set of rolls
    return odds


def _counted(base: int, companies: int) -> dict[tuple[int, int], Fraction]:
    """Every ordered roll of the companies' dice, counted by its nearest and farthest distance."""
    counts: dict[tuple[int, int], int] = {}
    for faces in itertools.product(range(1, base + 1), repeat=companies):
        key = (2 * min(faces), 2 * max(faces))
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(c, base**companies) for k, c in counts.items()}


def _closed_form(base: int, companies: int, low: int, high: int) -> Fraction:
    """P(nearest face = low, farthest = high): the rolls inside [low, high], less those missing
    either end (inclusion-exclusion)."""
    k = high - low + 1
    inside = k**companies - 2 * (k - 1) ** companies + (k - 2) ** companies if k > 1 else 1
    return Fraction(inside, base**companies)


@pytest.mark.parametrize("base", [4, 6])
@pytest.mark.parametrize("companies", [1, 2, 3, 4])
def test_regimental_move_odds_are_every_roll_counted(base: int, companies: int) -> None:
    assert _reach_odds(base, companies) == _counted(base, companies)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 6, 8, 10, 12]), st.integers(1, 6))
def test_regimental_move_odds_are_the_closed_form(base: int, companies: int) -> None:
    """Every documented input (6 companies of D12 at most): the odds of each (nearest, farthest)."""
    odds = _reach_odds(base, companies)
    assert odds == {(2 * lo, 2 * hi): _closed_form(base, companies, lo, hi) for lo in range(1, base + 1) for hi in range(lo, base + 1)
                    if companies > 1 or lo == hi}


def test_regimental_move_at_its_maximum() -> None:
    """Six companies of D12: the commander can take 24" unless no company rolls a 12."""
    odds = _reach_odds(12, 6)
    assert sum(p for (_, far), p in odds.items() if far == 24) == 1 - Fraction(11, 12) ** 6
    assert odds[(2, 24)] == _closed_form(12, 6, 1, 12)


@pytest.mark.parametrize("seed", range(12))
def test_a_regimental_move_roll_lists_every_company_in_order(seed: int) -> None:
    """A roll shows each company's distance (the dice drawn in company order) and what the
    commander may take; its nearest and farthest are an outcome of the exact odds."""
    base, companies = 6, 5
    stream = SampledRoller(seed)
    faces = [stream.roll(d(base)) for _ in range(companies)]
    res = MOVE.sample(seed, {"base": str(base), "companies": companies})
    inches = [2 * f for f in faces]
    assert list(res.dice) == faces
    assert res.values["inches"] == inches and res.values["commander_choices"] == sorted(set(inches))
    assert (res.values["nearest"], res.values["farthest"]) == (min(inches), max(inches))
    assert f"companies move {', '.join(map(str, inches))} inches" in res.result
    assert _reach_odds(base, companies)[(min(inches), max(inches))] > 0
