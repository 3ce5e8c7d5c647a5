"""Hynds' batteries firing over their own troops (HYNDS-G3): the shortened test of a line of fire
(``skirmish._barred``: the first friend that bars the shot answers) gives what the rule's plain
reading gives, every friend across the line found and then judged."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hynds import skirmish
from referee.plugins.hynds.tables import inches
from referee.plugins.rff import geometry as geo

BIG_BETHEL = load_scenario(find_scenario("big-bethel"))
FORMATIONS = ("line", "field-column", "march-column", "extended-line")


def _mustered() -> Game:
    rules = build_rules("hynds")
    game = Game.new(rules, BIG_BETHEL, 1, EventLog(enabled=False))
    game.state = rules.pm.hook.referee_muster(game=game)
    return game


GAME = _mustered()


def _plain(game: Game, firer: Any, target: Any) -> bool:
    """The rule as written: every friend in the line of fire, nearer than the target; the battery
    may fire over them only from more than 6" behind each and from above them or at a target above them."""
    state = game.state
    friends = skirmish._under_fire_line(state, firer, target)
    if not friends:
        return False
    behind = geo.yards(state, inches("firing_over", "behind_inches"))
    if any(math.hypot(f.x - firer.x, f.y - firer.y) - geo.footprint(f).depth / 2 <= behind for f in friends):
        return True
    top = max(skirmish._height(game, firer.x, firer.y), skirmish._height(game, target.x, target.y))
    return not all(top > skirmish._height(game, f.x, f.y) for f in friends)


place = st.tuples(st.floats(-900.0, 900.0), st.floats(-900.0, 900.0))
friend = st.tuples(place, st.sampled_from(FORMATIONS), st.floats(0.0, 360.0), st.integers(0, 3))


@given(target=place, friends=st.lists(friend, min_size=0, max_size=8), guns=st.integers(0, 3), aimed=st.integers(0, 3))
def test_a_line_of_fire_is_barred_as_the_rule_reads(target: tuple[float, float], friends: list[Any], guns: int, aimed: int) -> None:
    """Friends scattered round a battery and its target on ground of four heights (drawn): the
    kept, shortened answer is the plain reading's, asked twice (the second from ``kept``)."""
    state = GAME.state
    gun, aim = state.pieces["rifled-howitzer"], state.pieces["1st-vt"]
    gun.x, gun.y, aim.x, aim.y = 1500.0, 1500.0, 1500.0 + target[0], 1500.0 + target[1]
    troops = [p for p in state.of_side("confederate") if p.troops]
    heights = {(gun.x, gun.y): float(guns), (aim.x, aim.y): float(aimed)}
    for piece, ((dx, dy), formation, facing, height) in zip(troops, friends, strict=False):
        piece.x, piece.y, piece.formation, piece.facing = 1500.0 + dx, 1500.0 + dy, formation, facing
        heights[(piece.x, piece.y)] = float(height)
    for piece in troops[len(friends):]:
        piece.x, piece.y = 9000.0, 9000.0  # out of every line
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(skirmish, "_height", lambda game, x, y: heights.get((x, y), 0.0))
        plain = _plain(GAME, gun, aim)
        kept: dict[Any, bool] = {}
        mine = skirmish._troops(state, "confederate")
        assert skirmish._barred(GAME, state, gun, aim, mine, kept) is plain
        assert skirmish._barred(GAME, state, gun, aim, mine, kept) is plain
