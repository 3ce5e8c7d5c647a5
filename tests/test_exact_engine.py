"""The exact engine by convolution gives the very Fractions of the old enumeration
(tests/exact_reference.py), mechanic by mechanic, for every ruleset installed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import exact_reference as reference
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.chance import SampledRoller, Tally, d, exact
from referee.core.engine.events import Resolution
from referee.core.engine.mechanics import InputSpec, MechanicSpec
from referee.core.engine.plugins import build_rules, installed
from referee.plugins.sumter import dice as sumter_dice

SMALL = (Fraction(1, 2), 1, 2, 4, 9)


def _values(i: InputSpec) -> list[Any]:
    if i.kind == "choice":
        return list(i.choices)
    if i.kind == "bool":
        return [False, True]
    vals = [v for v in (i.minimum, *SMALL) if v is not None and (i.minimum is None or v >= i.minimum)
            and (i.maximum is None or v <= i.maximum)]
    return [int(v) if i.kind == "int" else Fraction(v) for v in vals if i.kind != "int" or Fraction(v).denominator == 1]


def small_variants(spec: MechanicSpec) -> list[dict[str, Any]]:
    """The defaults (numbers brought down to small ones), then each input at each small value."""
    base = {i.name: i.default if i.default is not None else _values(i)[0] for i in spec.inputs}
    out = [base]
    for i in spec.inputs:
        out += [{**base, i.name: v} for v in _values(i) if v != base[i.name]]
    return out


MECHANICS = [(r, name) for r in sorted(installed()) for name in build_rules(r).mechanics]


def _keyed(outcomes: list[tuple[Resolution, Fraction]]) -> list[tuple[Any, Fraction]]:
    return [(r.outcome_key(), p) for r, p in outcomes]


@pytest.mark.parametrize(("rules", "mechanic"), MECHANICS)
def test_every_mechanic_matches_the_old_enumeration(rules: str, mechanic: str) -> None:
    spec = build_rules(rules).mechanics[mechanic]
    compared, variants = 0, small_variants(spec)
    for inputs in variants:
        try:
            old = reference.exact(spec.run, inputs, key=Resolution.outcome_key, budget=20_000)
        except reference.TooMany:
            continue
        except ValueError:  # an input the mechanic refuses, refused by both
            with pytest.raises(ValueError):
                spec.exact(inputs)
            continue
        new = spec.exact(inputs)
        assert _keyed(new) == _keyed(old), inputs  # the same outcomes, Fractions and order
        assert sum(p for _, p in new) == 1
        compared += 1
    assert compared >= min(2, len(variants))  # every mechanic compared on its defaults and more


def _roll(roller: Any, sides: int) -> int:
    return roller.roll(d(sides))


def _pair_sum(roller: Any, a: int, b: int) -> tuple[int, bool]:
    x, y = roller.roll(d(a)), roller.roll(d(b))
    return x + y, x == y


def _volley(roller: Any, n: int, a: int, b: int) -> Tally:
    return roller.repeat(n, _pair_sum, a, b)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.integers(2, 6), st.integers(2, 6))
def test_tallies_are_the_old_ones_in_the_old_order(n: int, a: int, b: int) -> None:
    assert exact(_volley, n, a, b) == reference.exact(_volley, n, a, b)


def _total_and_any(so_far: tuple[int, bool], outcome: tuple[int, bool]) -> tuple[int, bool]:
    return so_far[0] + outcome[0], so_far[1] or outcome[1]


def _folded(roller: Any, n: int, a: int, b: int) -> tuple[int, bool]:
    return roller.fold(_total_and_any, (0, False), n, _pair_sum, a, b)  # type: ignore[no-any-return]


def _reduced(roller: Any, n: int, a: int, b: int) -> tuple[int, bool]:
    tally = roller.repeat(n, _pair_sum, a, b)
    return sum(t * k for (t, _), k in tally.counts), any(dbl for (_, dbl), _ in tally.counts)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(2, 6), st.integers(2, 6))
def test_a_fold_is_the_plain_enumeration_and_the_reduced_tally(n: int, a: int, b: int) -> None:
    folded = dict(exact(_folded, n, a, b))
    assert folded == dict(reference.exact(_folded, n, a, b))
    assert folded == dict(exact(_reduced, n, a, b))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(2, 6), st.integers(0, 2**32))
def test_a_sampled_fold_draws_as_repeat_does(n: int, a: int, seed: int) -> None:
    assert _folded(SampledRoller(seed), n, a, a) == _reduced(SampledRoller(seed), n, a, a)


def _seen(roller: Any, n: int, a: int, b: int) -> tuple[tuple[int, bool], tuple[Any, ...]]:
    return roller.fold_seen(_total_and_any, (0, False), n, _pair_sum, a, b)  # type: ignore[no-any-return]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.integers(2, 6), st.integers(0, 2**32))
def test_a_fold_seen_is_the_fold_and_a_roll_sees_each_trial(n: int, a: int, seed: int) -> None:
    """Computed exactly, nothing is seen and the odds are the fold's; rolled, the state is what
    fold draws and the trials seen are the draws in turn."""
    assert exact(_seen, n, a, a) == [((state, ()), p) for state, p in exact(_folded, n, a, a)]
    assert exact(_seen, n, a, a) == reference.exact(_seen, n, a, a)
    state, seen = _seen(SampledRoller(seed), n, a, a)
    stream = SampledRoller(seed)
    assert seen == tuple(_pair_sum(stream, a, a) for _ in range(n))
    assert state == _folded(SampledRoller(seed), n, a, a)


def _old_skirmish(roller: Any, n: int, hit_on: int) -> tuple[int, bool]:
    """Skirmish fire's pairs as sumter reduced them before the fold: the whole tally, then the sums."""
    pairs = roller.repeat(n, sumter_dice._pair, hit_on)
    return sum(h * k for (h, _), k in pairs.counts), any(dbl for (_, dbl), _ in pairs.counts)


def _new_skirmish(roller: Any, n: int, hit_on: int) -> tuple[int, bool]:
    return roller.fold(sumter_dice._add_pair, (0, False), n, sumter_dice._pair, hit_on)  # type: ignore[no-any-return]


@pytest.mark.parametrize("n", [0, 1, 3, 8, 14])
@pytest.mark.parametrize("hit_on", [5, 6, 7])
def test_skirmish_pairs_folded_are_the_tally_reduced(n: int, hit_on: int) -> None:
    assert dict(exact(_new_skirmish, n, hit_on)) == dict(exact(_old_skirmish, n, hit_on))
    for seed in range(20):
        assert _new_skirmish(SampledRoller(seed), n, hit_on) == _old_skirmish(SampledRoller(seed), n, hit_on)


def _old_movement(roller: Any, n: int, die: str, low: tuple[int, ...]) -> tuple[int, int]:
    """Movement dice as sumter reduced them before the fold: the whole tally, then the inches and the DPs."""
    dice = roller.repeat(n, sumter_dice._move_die, sumter_dice.DIE[die], low)
    return sum(f * k for (f, _), k in dice.counts), sum(k for (_, dp), k in dice.counts if dp)


def _new_movement(roller: Any, n: int, die: str, low: tuple[int, ...]) -> tuple[int, int]:
    return roller.fold(sumter_dice._add_move, (0, 0), n, sumter_dice._move_die, sumter_dice.DIE[die], low)  # type: ignore[no-any-return]


@pytest.mark.parametrize("n", [0, 1, 2, 4, 7])
@pytest.mark.parametrize("die", sorted(sumter_dice.DIE))
def test_movement_dice_folded_are_the_tally_reduced(n: int, die: str) -> None:
    """The movement dice's inches and DPs, folded die by die, are what the whole tally added up
    to: the same odds, and, rolled, the same throw from the same draws."""
    assert dict(exact(_new_movement, n, die, (1, 2))) == dict(exact(_old_movement, n, die, (1, 2)))
    for seed in range(20):
        assert _new_movement(SampledRoller(seed), n, die, (1, 2)) == _old_movement(SampledRoller(seed), n, die, (1, 2))
