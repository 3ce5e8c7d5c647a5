"""Hardtack's regimental formation moving as one (p.15, HT-M7): its way is asked once
(move.formation_way): the enemies that may halt it and the friends that may stand in its way are
those in the box its companies sweep, and its second pass, which moves each company as far as
the most hindered one, asks only about the friends found near that company's way
(move.friends_in_way's third answer). Its answers must be those of each company looking at
every enemy and every friend of the side, whatever their places, formations and facings."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import move
from referee.plugins.hardtack.state import Company, HardtackState


def _mustered() -> Game:
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 1)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game


GAME = _mustered()
STATE: HardtackState = GAME.state
REGIMENT = next(r for r in STATE.by_side["union"] if len(r.companies) >= 4 and not r.companies[0].artillery)
GROUP = REGIMENT.companies[:4]
FRIENDS = [c for r in STATE.by_side["union"] if r is not REGIMENT for c in r.companies][:24]
ENEMIES = [c for r in STATE.by_side["confederate"] for c in r.companies if not c.artillery][:12]
FORMATIONS = ("line", "column", "skirmish")

place = st.tuples(st.floats(0.0, 400.0), st.floats(0.0, 400.0))
company = st.tuples(place, st.sampled_from(FORMATIONS), st.floats(0.0, 360.0))


def _set(c: Company, at: tuple[float, float], formation: str, facing: float) -> None:
    c.x, c.y = at
    c.facing = facing
    c.form(formation)
    STATE.moved(c)


def _way(c: Company, dx: float, dy: float, yards: float) -> float:
    """How far ``c`` may go, looking at every enemy and every friend (move._way's full search)."""
    way = move._way(STATE, c, c.x + dx * yards, c.y + dy * yards, yards, ENEMIES, move.STOP_SHORT, None)
    return 0.0 if way is None else way[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(place, min_size=len(GROUP), max_size=len(GROUP)), st.lists(company, min_size=len(FRIENDS), max_size=len(FRIENDS)),
       st.lists(place, min_size=len(ENEMIES), max_size=len(ENEMIES)), st.floats(0.0, 360.0), st.floats(1.0, 250.0),
       st.floats(0.0, 1.0))
def test_a_formation_s_way_is_what_each_company_finds_looking_at_everyone(
        group_at: list[tuple[float, float]], friends: list[tuple[tuple[float, float], str, float]],
        enemies_at: list[tuple[float, float]], heading: float, yards: float, share: float) -> None:
    for c, at in zip(GROUP, group_at):
        _set(c, at, "line", heading)
    for f, (at, formation, facing) in zip(FRIENDS, friends):
        _set(f, at, formation, facing)
    for e, at in zip(ENEMIES, enemies_at):
        _set(e, at, "line", 180.0)
    dx, dy = math.sin(math.radians(heading)), math.cos(math.radians(heading))
    moved, nears = move.formation_way(STATE, REGIMENT, GROUP, dx, dy, yards, ENEMIES)
    assert moved == min(_way(c, dx, dy, yards) for c in GROUP)
    for c, near in zip(GROUP, nears):
        for m in (moved, moved * share):  # (the second pass, and any shorter move along the way)
            assert move.friends_in_way(STATE, c, dx, dy, m, near)[:2] == move.friends_in_way(STATE, c, dx, dy, m)[:2]


def test_the_formation_meets_friends_and_halts_short_of_enemies_here() -> None:
    """The property above is not empty: a line advancing into friends passes through those in
    skirmish order and halts at one in close order, and halts short of an enemy."""
    for i, c in enumerate(GROUP):
        _set(c, (100.0 + 60.0 * i, 100.0), "line", 0.0)
    for i, f in enumerate(FRIENDS):
        _set(f, (100.0 + 25.0 * (i % 12), 150.0 + 40.0 * (i // 12)), "skirmish" if i < 12 else "line", 0.0)
    for e in ENEMIES:
        _set(e, (3000.0, 3000.0), "line", 180.0)
    moved, nears = move.formation_way(STATE, REGIMENT, GROUP, 0.0, 1.0, 200.0, ENEMIES)
    assert 0.0 < moved < 100.0 and moved == min(_way(c, 0.0, 1.0, 200.0) for c in GROUP)
    assert all(move.friends_in_way(STATE, c, 0.0, 1.0, moved, near)[1] for c, near in zip(GROUP, nears))
    for f in FRIENDS:
        _set(f, (3000.0, 0.0), "line", 0.0)
    for i, e in enumerate(ENEMIES):
        _set(e, (150.0 + 60.0 * i, 230.0), "line", 180.0)
    moved, _ = move.formation_way(STATE, REGIMENT, GROUP, 0.0, 1.0, 200.0, ENEMIES)
    assert 0.0 < moved < 130.0 and moved == min(_way(c, 0.0, 1.0, 200.0) for c in GROUP)
