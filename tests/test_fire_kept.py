"""The fire phase's kept target searches (geometry.Around) answer exactly as a fresh scan."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import geometry as geo
from referee.plugins.rff.muster import muster
from referee.plugins.rff.tables import load_tables


def _mustered() -> Game:
    game = Game.new(build_rules("rff", ()), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
    game.state = muster(game, load_tables())
    return game


CHANGES = st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(("x", "y", "facing", "stands", "formation", "onto", "gone")),
                             st.floats(-300.0, 300.0)), max_size=6)


@settings(max_examples=40, deadline=None)
@given(rounds=st.lists(CHANGES, min_size=1, max_size=4), reach=st.floats(50.0, 1500.0))
def test_a_kept_answer_is_the_fresh_scan(rounds: list[list[tuple[int, str, float]]], reach: float) -> None:
    """Whatever moves (onto another piece too: ties), turns, loses stands, changes formation or
    leaves play between half-phases (firers or targets), each aim's search answers exactly as
    ``within`` does afresh, and a piece the search calls quiet (not aimed) has no enemy in reach."""
    game = _mustered()
    state = game.state
    pieces = list(state.pieces.values())
    for changes in [[], *rounds]:
        for i, what, amount in changes:
            p = pieces[i % len(pieces)]
            if what in ("x", "y", "facing"):
                setattr(p, what, getattr(p, what) + amount)
            elif what == "onto":  # the same place as the next piece: each touches it, as far from the others
                other = pieces[(i + 1) % len(pieces)]
                p.x, p.y = other.x, other.y
            elif what == "gone":
                p.status = "gone"
                state.changed()
            elif what == "stands":
                p.stands = max(1, p.stands - 1)
            else:
                p.formation = "march-column" if p.formation != "march-column" else "line"
        for side in ("union", "confederate"):
            near = geo.around(state, side, state.enemies_of(side))
            for p in state.of_side(side):
                quiet = near.quiet(p)  # (asked before the search: what the phase asks)
                fresh = geo.within(state, p, state.enemies_of(side), reach, arc=True)
                assert near.within(state, p, reach) == geo.nearest_first(fresh)
                assert not (quiet and fresh)  # a quiet piece has no enemy in reach


def test_answers_taken_over_are_the_fresh_scan() -> None:
    """An Around made because pieces changed takes over the answers those changes cannot reach
    (geometry._changed_box): on a crowded field, round after round of small and large moves,
    turns, stands lost (a line's depth stays, a column's does not) and changes of formation, each
    aim's answer is exactly the fresh scan, and answers are taken over (the test tests something)."""
    rng = random.Random(3)
    game = _mustered()
    state = game.state
    pieces = list(state.pieces.values())
    for p in pieces:  # all within a mile of each other: searches find, and changes touch, some
        p.x, p.y, p.facing = rng.uniform(0.0, 1800.0), rng.uniform(0.0, 1800.0), rng.uniform(0.0, 360.0)
    taken = 0
    for _ in range(120):
        for p in rng.sample(pieces, rng.randint(1, 3)):
            what = rng.choice(("near", "far", "facing", "stands", "formation"))
            if what == "near":
                p.x += rng.uniform(-5.0, 5.0)
            elif what == "far":
                p.x, p.y = rng.uniform(0.0, 1800.0), rng.uniform(0.0, 1800.0)
            elif what == "facing":
                p.facing = rng.uniform(0.0, 360.0)
            elif what == "stands":
                p.stands = max(1, p.stands - 1)
            else:
                p.formation = rng.choice(("line", "field-column", "march-column", "extended-line"))
        for side in ("union", "confederate"):
            before = state.around.get(side)
            near = geo.around(state, side, state.enemies_of(side))
            if near is not before:
                taken += len(near.answers)
            for p in state.of_side(side):
                reach = 225.0 if p.troops else 1012.5
                assert near.within(state, p, reach) == geo.nearest_first(geo.within(state, p, state.enemies_of(side), reach, arc=True))
    assert taken > 100
