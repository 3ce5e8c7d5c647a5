"""Hardtack at scale: a side's companies filed by place (state.Grid) are found as a scan of
the side's list finds them, in the same order, and games are the same with or without it.
(A grid declines a crowded box, whose squares hold a quarter of the side or more: its callers
scan their lists then; asked for those in a box in any order, Grid.within, it never declines.)"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import activation
from referee.plugins.hardtack import state as hardtack_state
from referee.plugins.hardtack.state import Company, Grid

yards = st.integers(-12, 52).map(lambda v: v * 25.0) | st.floats(-300, 1300)  # often on the squares' edges
places = st.tuples(st.integers(-4, 12).map(lambda v: v * 25.0), st.integers(-4, 12).map(lambda v: v * 25.0)) | st.tuples(yards, yards)
boxes = st.tuples(yards, yards.map(abs), yards, yards.map(abs))


def companies() -> list[Company]:
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("drill-musketry")), 1)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return [c for r in game.state.by_side["union"] + game.state.by_side["confederate"] for c in r.companies]


def inside(companies: list[Company], x0: float, x1: float, y0: float, y1: float) -> list[Company]:
    return [c for c in companies if x0 <= c.x <= x1 and y0 <= c.y <= y1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), places, st.booleans()), max_size=40), st.lists(boxes, min_size=1, max_size=5),
       st.sampled_from([6.25, 27.5, 100.0]) | st.floats(1.25, 500))
def test_a_grid_finds_what_a_scan_finds_in_the_same_order(moves: list[tuple[int, tuple[float, float], bool]],
                                                           asked: list[tuple[float, float, float, float]], widest: float) -> None:
    """Companies move (named to the grid once moved, or just before with no search between),
    fall, and are searched for; every box is answered as a scan of the list would answer it
    (or declined, when crowded), and by ``within`` as a scan would in some order, whatever the
    side of the grid's squares (``widest``, a quarter of it: boxes over more squares than are
    filed among them, and over a few)."""
    side = companies()
    grid = Grid.of(side, widest)
    for n, (i, (x, y), search) in enumerate(moves):
        c = side[i * 7 % len(side)]
        if n % 3 == 0:  # named first, then moved (as a close assault's move)
            grid.moved(c)
            c.x, c.y = x, y
        else:
            c.x, c.y = x, y
            grid.moved(c)
        if n % 7 == 6:
            c.alive = False
        living = [c for c in side if c.alive]
        for x0, w, y0, h in asked if search else ():
            x1, y1 = x0 + w, y0 + h
            found = grid.around(x0, x1, y0, y1, len(living))
            assert found is None or found == inside(living, x0, x1, y0, y1)
            within = grid.within(x0, x1, y0, y1)  # never declined, in any order, each once
            assert sorted(within, key=side.index) == inside(living, x0, x1, y0, y1)


@pytest.mark.parametrize("spread", [0.0, 300.0])
def test_a_company_on_the_edge_of_the_box_is_in_it(spread: float) -> None:
    """Spread out, a company standing on the box's edge is found in the squares; crowded
    (the box's squares hold a quarter of the side or more), the box is declined."""
    side = companies()
    for n, c in enumerate(side):
        c.x, c.y = 100.0 + n * spread, 100.0
    grid = Grid.of(side, 100.0)  # (squares 400 yards wide)
    assert grid.around(-50.0, 100.0, 100.0, 100.0, len(side)) == (side[:1] if spread else None)
    assert grid.around(100.0 + spread, 200.0 + spread, 0.0, 100.0, len(side)) == ([side[1]] if spread else None)


def played(scenario: str, seed: int) -> str:
    log = EventLog(enabled=True)
    play(Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario)), seed, log))
    return log.jsonl()


@pytest.mark.parametrize(("scenario", "seed"), [("big-bethel", 7), ("big-bethel", 2), ("drill-charge-battery", 3), ("drill-cavalry", 4)])
def test_a_game_is_the_same_with_every_side_filed_in_a_grid(scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves, flights, assaults and masking ask the grid (every side gets one at GRID_FROM = 1),
    and the game is the scan's byte for byte."""
    scanned = played(scenario, seed)
    monkeypatch.setattr(hardtack_state, "GRID_FROM", 1)
    assert played(scenario, seed) == scanned


def _crowded(placed: list[tuple[tuple[float, float], str, float]]) -> tuple[hardtack_state.HardtackState, list[Company]]:
    """The musketry drill's companies, both sides', set at ``placed`` (places a third apart: a
    crowd whose lines overlap), with their formations and facings; the state and the companies."""
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("drill-musketry")), 1)
    game.state = state = game.rules.pm.hook.referee_muster(game=game)
    side = [c for r in state.by_side["union"] + state.by_side["confederate"] for c in r.companies]
    for c, ((x, y), formation, facing) in zip(side, placed):
        c.x, c.y, c.facing = x / 3, y / 3, facing
        c.form(formation)
    return state, side


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(places, st.sampled_from(["line", "column", "skirmish"]), st.floats(0, 359)), min_size=20, max_size=20))
def test_a_search_screening_its_friends_once_finds_the_maskers_each_line_finds(placed: list[tuple[tuple[float, float], str, float]]) -> None:
    """HT-G4: a line of fire tested against the friends screened once for the whole search
    (geometry.screen, in the box of the firer and every target) is masked by the same friend as
    when the friends round that line alone are asked for."""
    from referee.plugins.hardtack import geometry

    state, side = _crowded(placed)
    for c in side:
        targets = [e for e in side if e.side != c.side]
        friends = geometry.screen(state, c, targets)
        for e in targets:
            assert geometry.masked(state, c, e, friends) == geometry.masked(state, c, e)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(places, st.sampled_from(["line", "column", "skirmish"]), st.floats(0, 359)), min_size=20, max_size=20),
       st.integers(0, 19))
def test_a_line_asked_only_whether_it_is_masked_is_masked_just_when_a_scan_finds_a_friend_across_it(
        placed: list[tuple[tuple[float, float], str, float]], guess: int) -> None:
    """HT-G4: asked only whether a line is masked (unnamed), with the friend across the search's
    last line tried first (Screen.last, any company of the side: a wrong guess), the answer is a
    friend across the line just when the side's first across it is (the named answer, which the
    guess does not change, nor an unnamed answer kept before it)."""
    from referee.plugins.hardtack import geometry

    state, side = _crowded(placed)
    for c in side:
        if c.formation == "column":
            continue
        targets = [e for e in side if e.side != c.side]
        friends = [f for f in side if f.side == c.side and f is not c]
        for e in targets:
            first = geometry.masked(state, c, e)
            screened = geometry.screen(state, c, targets, friends[guess % len(friends)])
            assert geometry.masked(state, c, e, screened) == first  # named: the first, whatever the guess
            screened.last = friends[guess % len(friends)]
            found = geometry.masked(state, c, e, screened, named=False)
            assert (found is None) == (first is None)
            if found is not None:
                f = state.companies[found]
                hw, hd, _ = geometry.half_footprint(state, f)
                assert f.side == c.side and f.formation in ("line", "column") and geometry._crosses(f, hw, hd, c.x, c.y, e.x, e.y)
            state.aims.masks = {}  # kept while one company acts: an unnamed answer never stands for a named one
            assert geometry.masked(state, c, e, screened, named=False) == found
            assert geometry.masked(state, c, e, screened) == first
            state.aims.masks = None


@pytest.mark.parametrize(("scenario", "seed"), [("kernstown", 1), ("big-bethel", 7)])
def test_every_company_is_filed_where_it_stands_after_each_step(scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """After every activation step each company a grid holds is filed in the square it stands
    in, or named as moved (to be filed again at the next search): a move's searches never leave
    a company filed where it was before the move."""
    monkeypatch.setattr(hardtack_state, "GRID_FROM", 1)
    step = activation.play_step
    checked = 0

    def checking(game: Game, s: object) -> None:
        nonlocal checked
        step(game, s)
        for grid in game.state.grids.values():
            for c, square in grid.filed.items():
                if c not in grid.stale:
                    assert square == (int(c.x // grid.side), int(c.y // grid.side)), (game.turn, c.id)
                    checked += 1

    monkeypatch.setattr(activation, "play_step", checking)
    play(Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario)), seed, EventLog(enabled=False)))
    assert checked > 1000
