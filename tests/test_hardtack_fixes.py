"""Hardtack, issue 22 (the sumter-hardtack fidelity audit's T1 and T2; ruling HT-S1's readings):
each test fails when the fix it guards is undone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import activation
from referee.plugins.hardtack.state import BROKEN, ROUTED
from referee.plugins.hardtack.tables import MOVERS, load_tables

RULINGS = Path(__file__).resolve().parents[1] / "docs" / "rulings" / "hardtack.md"

# p.14, Terrain Effects on Mobility, as printed: each neutral ground kind p.14 names for a mover
# (Rough, Cultivated = drawn fields, Swamp, Light/Open Woods, Dense Woods, Linear Obstacles =
# fence, wall, works, Rivers/Streams) and the class it gives it.
LINEAR = ("fence", "wall", "works")
P14: dict[str, dict[str, str]] = {
    "infantry": {"rough": "poor", "fields": "poor", "swamp": "poor", "woods": "poor", "dense-woods": "poor",
                 **{k: "poor" for k in LINEAR}, "stream": "difficult"},
    "mounted": {"rough": "poor", "fields": "poor", "swamp": "poor", "woods": "poor", "dense-woods": "difficult",
                **{k: "poor" for k in LINEAR}, "stream": "difficult"},
    "limbered": {"rough": "poor", "fields": "poor", "swamp": "difficult", "woods": "difficult", "dense-woods": "impassable",
                 **{k: "impassable" for k in LINEAR}},
    "unlimbered": {"rough": "poor", "fields": "poor", "woods": "difficult", "swamp": "impassable", "dense-woods": "impassable",
                   **{k: "impassable" for k in LINEAR}},
}


@pytest.mark.parametrize("mover", MOVERS)
def test_every_terrain_class_is_p14s_own_or_names_its_ruling(mover: str) -> None:
    """Audit T1: p.14 lists no Rivers/Streams for limbered or unlimbered guns, yet the tables
    make a stream difficult for the one and impassable for the other. Every class p.14 prints is
    kept as printed; every other one names the ruling that gives it, and that ruling exists."""
    mv = load_tables()["movement"]
    docs = RULINGS.read_text()
    for kind, cls in mv["terrain"][mover].items():
        if kind in P14[mover]:
            assert cls == P14[mover][kind], (mover, kind)
        else:
            ruling = mv["ruled"].get(mover, {}).get(kind)
            assert ruling and f"### {ruling} " in docs, f"{mover} {kind} = {cls}: not p.14's and no ruling"


def _broken_gun(quality: int, lv: int, level: int = BROKEN, visibility: float = float("inf"), seed: int = 1) -> tuple[Game, Any]:
    log = EventLog(enabled=True)
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("drill-charge-battery")), seed, log)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    state = game.state
    gun = next(c for r in state.regiments.values() for c in r.companies if c.artillery)
    gun.level, gun.quality, gun.lv = level, quality, lv
    state.visibility = visibility
    return game, gun


def _act(game: Game, gun: Any) -> list[dict[str, Any]]:
    state = game.state
    activation.action(game, state, gun, None, 0, [e for e in state.enemies(gun.side) if e.alive])
    return [e for e in game.log.events if "HT-C4" in e.get("rulings", ())]


def test_a_broken_crew_that_fails_its_reaction_test_abandons_its_gun() -> None:
    """p.12 (audit T2): "Broken artillery units must pass a Reaction Test in order to retreat with
    their guns ... If they do not pass the test, the gun crew abandons the gun". A D4 crew under
    LV 3 + TL 1 cannot pass: the gun is lost, the crew goes on foot."""
    game, gun = _broken_gun(4, 3)
    events = _act(game, gun)
    assert [e.get("mechanic") or e["kind"] for e in events] == ["reaction", "abandoned"]
    assert gun.guns == 0 and gun.loaded == ""
    from referee.plugins.hardtack import move

    assert move.base_inches(game.state.tables, gun) == game.state.tables["movement"]["base"]["infantry"]


def test_a_broken_crew_that_passes_retreats_with_its_gun() -> None:
    """p.12: passing, the crew retreats with its gun (a D12 crew under LV 1 + TL 1 passes on 3-12)."""
    for seed in range(1, 30):
        game, gun = _broken_gun(12, 1, seed=seed)
        y0 = gun.y
        events = _act(game, gun)
        if events[0]["result"] == "passed":
            break
    assert len(events) == 1 and gun.guns == 1 and gun.y != y0


def test_a_routed_crew_abandons_its_gun_without_a_test() -> None:
    """p.12: "Routed artillery units will abandon their guns automatically"."""
    game, gun = _broken_gun(12, 1, ROUTED)
    events = _act(game, gun)
    assert [e.get("mechanic") or e["kind"] for e in events] == ["abandoned"] and gun.guns == 0


def test_a_broken_crew_no_enemy_sees_keeps_its_gun_where_it_stands() -> None:
    """p.12: a crew that passes "may retreat until they are out of Line of Sight of the enemy";
    one already out of sight neither tests nor moves (HT-C4)."""
    game, gun = _broken_gun(4, 3, visibility=50.0)
    x0, y0 = gun.x, gun.y
    assert _act(game, gun) == [] and gun.guns == 1 and (gun.x, gun.y) == (x0, y0)


@pytest.mark.parametrize("cover,default,as_fire", [("none", 0, 0), ("soft", 0, 1), ("hard", 1, 2), ("fortification", 2, 3)])
def test_shot_cover_has_two_readings(cover: str, default: int, as_fire: int) -> None:
    """HT-S2: shot ignores soft cover (hard +1, fortification +2); option shot-cover-as-fire
    gives it p.8's small-arms shifts. Band 1 (D4) of a 12-pdr against skirmishers in the open."""
    from referee.plugins.hardtack import mechanics

    t = load_tables()
    sizes = (4, 6, 8, 10, 12)
    assert mechanics.shot_range_die(t, 10, "12-pdr-napoleon", cover, "skirmish")[0] == sizes[default]
    assert mechanics.shot_range_die(t, 10, "12-pdr-napoleon", cover, "skirmish", cover_as_fire=True)[0] == sizes[as_fire]


def test_the_shot_cover_option_reaches_play() -> None:
    """The option is read where a gun fires and where its commander asks whether shot can tell."""
    from referee.plugins.hardtack import fire

    assert fire.COVER_OPTION in {o.name for o in load_tables().options}
