"""events.net: the sum of the die modifiers, a Fraction counting its whole part, others left out."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from referee.core.engine.events import Modifier, net

VALUE = st.one_of(st.integers(-6, 6), st.fractions(-6, 6), st.booleans())


@given(st.lists(st.tuples(VALUE, st.sampled_from(["die", "die", "shift", "fire points x"]))))
def test_net_is_the_whole_part_of_each_die_modifier_added(mods: list[tuple[int | Fraction, str]]) -> None:
    modifiers = [Modifier(f"m{i}", value, on=on) for i, (value, on) in enumerate(mods)]
    assert net(modifiers) == sum(int(value) for value, on in mods if on == "die")


def test_net_reads_fractions_by_their_whole_part() -> None:
    assert net([Modifier("a", 2), Modifier("b", Fraction(3, 2)), Modifier("c", Fraction(-3, 2)), Modifier("d", 4, on="shift")]) == 2
    assert type(net([Modifier("a", True)])) is int
