"""Hardtack's target search (fire.choose_target) against a brute-force reference: the same target
and the same HT-G4 line, whatever the placement (Hypothesis). The search is written for speed
(it ranks by distance with float keys, the intent's target's candidates first); the reference
ranks every enemy in the box and the circle of the fire's reach by (not the intent's target,
distance squared, place in the list) and takes the first that is in arc, sight and effect and
whose line of fire no friend masks."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import fire
from referee.plugins.hardtack import geometry as geo
from referee.plugins.hardtack.state import Aims, Company, HardtackState

_GAME = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=True))
_GAME.state = _GAME.rules.pm.hook.referee_muster(game=_GAME)
STATE: HardtackState = _GAME.state
FIRER = STATE.regiments["3rd-ny"].companies[0]
FRIENDS = STATE.regiments["3rd-ny"].companies[1:4]
ENEMIES = [c for r in ("1st-nc", "3rd-va") for c in STATE.regiments[r].companies[:4]]  # two regiments: the intent may name either
STEP = 10.0  # yards: places on a lattice, so that equal distances (ties) are common


def reference(state: HardtackState, c: Company, enemies: list[Company], wanted: str | None) -> tuple[Company | None, tuple[Company, str] | None]:
    """The target and the first target passed over (with why), by brute force."""
    reach = fire.fire_reach_yards(state, c)
    ranked = sorted((e.regiment.id != wanted, (e.x - c.x) ** 2 + (e.y - c.y) ** 2, i) for i, e in enumerate(enemies)
                    if abs(e.x - c.x) <= reach and abs(e.y - c.y) <= reach and (e.x - c.x) ** 2 + (e.y - c.y) ** 2 <= reach * reach)
    first: tuple[Company, str] | None = None
    for _, d2, i in ranked:
        e = enemies[i]
        if not (e.alive and geo.in_arc(c, e) and fire.effective(_GAME, state, c, e, math.sqrt(d2)) and geo.sees(_GAME, c, e)):
            continue
        why = geo.masked(state, c, e)
        if why is None:
            return e, first
        first = first or (e, why)
        if why == "column":
            break
    return None, first


places = st.tuples(st.integers(-26, 26), st.integers(-26, 26))  # (lattice steps: the reach is 241 yards)


@settings(max_examples=300, deadline=None)
@given(firer_formation=st.sampled_from(["line", "skirmish", "column"]), facing=st.sampled_from([0.0, 90.0, 200.0]),
       enemy_places=st.lists(places, min_size=len(ENEMIES), max_size=len(ENEMIES)),
       friend_places=st.lists(st.tuples(places, st.sampled_from(["line", "column", "skirmish"])), min_size=len(FRIENDS), max_size=len(FRIENDS)),
       wanted=st.sampled_from([None, "1st-nc", "3rd-va"]))
def test_the_search_finds_what_a_brute_force_ranking_finds(firer_formation: str, facing: float, enemy_places: list[tuple[int, int]],
                                                          friend_places: list[tuple[tuple[int, int], str]], wanted: str | None) -> None:
    x, y = 2000.0, 1500.0  # in the open south of the creek
    FIRER.x, FIRER.y, FIRER.facing, FIRER.reload = x, y, facing, False
    FIRER.form(firer_formation)
    for e, (i, j) in zip(ENEMIES, enemy_places):
        e.x, e.y, e.in_position, e.travel = x + i * STEP, y + j * STEP, False, False
    for f, ((i, j), formation) in zip(FRIENDS, friend_places):
        f.x, f.y, f.facing = x + i * STEP / 2, y + j * STEP / 2, 0.0
        f.form(formation)
    STATE.aims = Aims()  # nothing kept from another placement
    STATE.forget()
    expected, passed = reference(STATE, FIRER, ENEMIES, wanted)
    STATE.aims = Aims()
    before = len(_GAME.log.events)
    assert fire.choose_target(_GAME, STATE, FIRER, ENEMIES, wanted) is expected
    lines = [ev for ev in _GAME.log.events[before:] if ev["kind"] == "masked"]
    assert [ev["target"] for ev in lines] == ([passed[0].id] if passed else [])
    if passed:
        assert (passed[1] == "column") == ("column" in str(lines[0]["text"]))
        assert passed[1] == "column" or f"{passed[1]} is in the line of fire" in str(lines[0]["text"])
