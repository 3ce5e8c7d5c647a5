"""The hynds findings of the 2026-11-29 fidelity audit (F1-F10), each against the text it broke.

Each test fails on the code the audit read (819e978) and passes with the fix.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from referee.core.engine.chance import exact
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hynds import (
    OVERLAYS,
    fire,
    mechanics,
    move,
    skirmish,
    works,
)
from referee.plugins.hynds.state import of
from referee.plugins.rff import fire as rff_fire
from referee.plugins.rff import geometry as geo
from referee.plugins.rff import lookup
from referee.plugins.rff.tables import load_with_overlays

T = load_with_overlays(*OVERLAYS)
BIG_BETHEL = load_scenario(find_scenario("big-bethel"))
DRILLS = Path(__file__).parent / "scenarios"


def _mustered(scenario: Any = BIG_BETHEL, seed: int = 1, *options: str) -> Game:
    rules = build_rules("hynds", options=options) if options else build_rules("hynds")
    game = Game.new(rules, scenario, seed, EventLog(enabled=True))
    game.state = rules.pm.hook.referee_muster(game=game)
    return game


# ----------------------------------------------------------------------------- F10 hidden fire


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_hidden_unit_that_fires_is_seen_and_its_enemy_fires_back(seed: int) -> None:
    """F10: a hidden regiment alone in its half-phase never fired unseen (rff read the layer's
    empty list of shots as "no answer"); now it fires only once seen, and is fired at."""
    log = EventLog(enabled=True)
    play(Game.new(build_rules("hynds"), load_scenario(DRILLS / "drill-hynds-surprise.toml"), seed, log))
    seen = next(e["seq"] for e in log.events if e["kind"] == "seen" and e["unit"] == "cs-regiment")
    fired = [e["seq"] for e in log.events if e["kind"] == "resolution" and e.get("unit") == "cs-regiment"
             and e["mechanic"] in ("musketry", "cannonade")]
    assert fired and min(fired) > seen
    assert any(e["kind"] == "resolution" and e.get("unit") == "us-regiment" and e.get("target") == "cs-regiment" for e in log.events)


def test_an_empty_list_from_a_layer_holds_every_shot() -> None:
    """rff's fire phase takes a layer's empty list as every shot held, not as no answer."""
    game = _mustered()
    state = game.state
    for piece in state.of_side("confederate"):
        piece.unit.hidden = of(game).hiding = True
    resolved: list[Any] = []
    original = rff_fire.resolve
    try:
        rff_fire.resolve = lambda *a, **k: resolved.append(a[2])  # type: ignore[assignment]
        for piece in state.of_side("union"):
            piece.x, piece.y = 1500.0, 1500.0  # in range of the Confederate line
        state.changed()
        rff_fire.phase(game, state, "union")  # the Confederates' half-phase is every shot held
    finally:
        rff_fire.resolve = original
    assert not [s for s in resolved if s.firer.side == "confederate"]


# ----------------------------------------------------------------------------- F9 obstacles


def _infantry(game: Game, x: float, y: float) -> Any:
    piece = next(p for p in game.state.pieces.values() if p.arm == "infantry" and p.side == "union" and p.parent is None)
    piece.x, piece.y, piece.status = x, y, "good"
    return piece


def test_an_obstacle_is_paid_where_the_move_meets_it_and_only_if_crossed() -> None:
    """F9: Big Bethel's works run along y = 1310. A piece 160 yards short moves up to them and
    stops (9" less 3" would leave it 20 yards short: it was charged for a crossing it never made);
    nothing is logged or changed for a move only asked about."""
    game = _mustered()
    piece = _infantry(game, 1100.0, 1150.0)
    events = len(game.log.events)
    yards = move.priced(game, game.state, piece, "full", (1100.0, 1400.0), 180.0)
    assert yards is not None and 155.0 < yards < 165.0  # to the works, this side
    assert len(game.log.events) == events  # asked, not crossed: no "crosses a wall"
    start = (piece.x, piece.y)
    piece.y += yards
    move.moved(game, game.state, piece, start)
    assert not [e for e in game.log.events[events:] if e.get("rulings") == ["HYNDS-M1"]]
    assert move.priced(game, game.state, piece, "full", (1100.0, 1400.0), 180.0) == 180.0 - 60.0  # at the works: over, less 3"
    start = (piece.x, piece.y)
    piece.y += 60.0  # the next move goes over
    move.moved(game, game.state, piece, start)
    assert [e["text"].split(" (")[0] for e in game.log.events[events:] if e.get("rulings") == ["HYNDS-M1"]] == [f"{piece.id} crosses a wall: -3\""]


def test_green_cavalry_taken_over_an_obstacle_by_an_unpriced_move_is_no_error() -> None:
    """A countercharge is not priced (rff meets the charger halfway): green cavalry it takes over
    works pays nothing and the move is not an error (it was a KeyError at Valverde)."""
    game = _mustered()
    piece = _infantry(game, 1100.0, 1250.0)
    piece.arm, piece.grade = "cavalry", "green"
    piece.unit.mounted = True
    assert move.priced(game, game.state, piece, "full", (1100.0, 1400.0), 200.0) is not None  # priced: it stops at the works
    start = (piece.x, piece.y)
    piece.y += 100.0  # but a move rff does not price takes it over
    move.moved(game, game.state, piece, start)
    assert piece.status == "good"


# ----------------------------------------------------------------------------- F1 firing over troops


def _over(game: Game, guns_height: float) -> tuple[Any, Any, Any]:
    """A Confederate battery 120 yards behind (south of) a friend, aiming north over it."""
    state = game.state
    gun, friend, target = state.pieces["rifled-howitzer"], state.pieces["1st-nc"], state.pieces["1st-vt"]
    gun.x, gun.y, gun.facing = 1500.0, 1800.0, 180.0
    friend.x, friend.y, friend.facing = 1500.0, 1800.0 - 35.0 - 6 * 20.0 * guns_height, 180.0
    target.x, target.y = 1500.0, 1300.0
    state.changed()
    return gun, friend, target


@pytest.mark.parametrize(("behind", "above", "fires"), [(0.0, True, False), (1.0, False, False), (1.0, True, True)])
def test_a_battery_fires_over_its_troops_only_from_above_and_over_6_inches_behind(
        behind: float, above: bool, fires: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """F1: "batteries may fire over their own troops if they are above them and more than 6"
    behind them"; Big Bethel's guns 35 yards behind the 1st NC fired through it all game."""
    game = _mustered()
    gun, friend, target = _over(game, behind)
    plain = game.ground.height_at
    monkeypatch.setattr(skirmish, "_height", lambda g, x, y: plain(x, y) + (10.0 if above and y >= 1790.0 else 0.0))
    assert skirmish._under_fire_line(game.state, gun, target) == [friend]
    shot = rff_fire.Shot(gun, target, "cannonade", 25.0, 2, 1, False)
    kept = skirmish.firing_over_blocked(game, game.state, [shot])
    assert (kept is None) is fires
    if not fires:
        assert all(s.target is not target for s in kept or [])


# ----------------------------------------------------------------------------- F2, F3, F7 fire


def test_confederate_guns_do_not_go_low_on_ammo_on_a_9_and_the_resolver_agrees() -> None:
    """F2, F7: the 9 is small arms' (30 rounds a man); the resolver asks the side and gives
    the odds play gives."""
    assert mechanics.low_on_ammo("confederate", "musketry", 9) and not mechanics.low_on_ammo("confederate", "cannonade", 9)
    for kind, low in (("musketry", F(2, 10)), ("cannonade", F(1, 10))):
        odds = exact(lambda r, kind=kind: mechanics.fire(r, T, kind, 6, "trained", (), False, False, "confederate"))
        assert sum(F(p) for res, p in odds if res.values["low_on_ammo"]) == low


def test_fire_under_one_point_rounds_down_to_none() -> None:
    """F3: Hynds' "Fire points (round down in the case of halves)": half a point is none, so the
    shot is not fired (the option half-point-fires keeps rff's RFF-T11: the 1 pt. column)."""
    odds = exact(lambda r: mechanics.fire(r, T, "cannonade", F(1, 2), "trained", (), False, False, "union"))
    assert [(res.values["effect"], F(p)) for res, p in odds] == [("no-fire", 1)]
    odds = exact(lambda r: mechanics.fire(r, T, "cannonade", F(1, 2), "trained", (), False, False, "union", True))
    assert {res.values["effect"] for res, _ in odds} > {"desultory"}
    for options, fractions in (((), False), (("half-point-fires",), True)):
        log = EventLog(enabled=True)
        play(Game.new(build_rules("hynds", options=options), BIG_BETHEL, 7, log))
        points = [F(e["inputs"]["fire_points"]) for e in log.events if e["kind"] == "resolution" and e["mechanic"] in ("musketry", "cannonade")]
        assert any(p < 1 for p in points) is fractions


# ----------------------------------------------------------------------------- F4 stacking


def test_a_leader_is_rated_by_hynds_roll_alone() -> None:
    """F4a: Hill rolled weak on Hynds' chart and was still rff's Gallant: now his roll is his
    rating (rff's gives way to it); option scenario-leader-ratings keeps the scenario's instead."""
    for seed in range(1, 7):
        game = _mustered(BIG_BETHEL, seed)
        rated = of(game).ratings
        for leader in game.state.leaders.values():
            if leader.id in rated and any(p.arm in ("infantry", "cavalry") for p in game.state.pieces.values() if p.unit.spec.command in leader.commands):
                assert leader.rating == "able"
    game = _mustered(BIG_BETHEL, 1, "scenario-leader-ratings")
    assert not of(game).bonus and {ld.rating for ld in game.state.leaders.values()} > {"able"}


def test_breastworks_are_cover_not_a_modifier_on_top_of_cover(monkeypatch: pytest.MonkeyPatch) -> None:
    """F4b: light works give -1 to fire at a target with no cover of its own, nothing more to
    one in woods (Hynds says "cumulative with terrain bonuses" of cavalry skirmishers alone)."""
    game = _mustered()
    state = game.state
    target, firer = state.pieces["1st-nc"], state.pieces["1st-vt"]
    firer.x, firer.y, target.x, target.y = 1500.0, 1300.0, 1500.0, 1500.0
    state.changed()
    of(game).works.add(target.id)
    shot = rff_fire.Shot(firer, target, "musketry", 10.0, 4, 1, False)
    names = lambda: [m.name for m in fire.modifiers(game, state, shot)]
    monkeypatch.setattr(geo, "cover", lambda g, p: "none")
    monkeypatch.setattr(rff_fire, "cover_row", lambda g, s, sh: None)
    assert "Target behind breastworks (Hynds)" in names()
    monkeypatch.setattr(geo, "cover", lambda g, p: "full")
    monkeypatch.setattr(rff_fire, "cover_row", lambda g, s, sh: "full-cover")
    assert "Target behind breastworks (Hynds)" not in names()
    assert works.charge_modifiers(game, state, firer, target) == []


# ----------------------------------------------------------------------------- F5, F7, F8


def test_prolonge_moves_guns_1_inch() -> None:
    """F5: "man-handled by prolonge ... up to 1" per turn" (rff: 1.5", 3" for MH)."""
    gun = type("Gun", (), {"weapon": "LR"})()
    assert lookup.hand_haul_inches(T, gun) == 1.0
    gun.weapon = "MH"
    assert lookup.hand_haul_inches(T, gun) == 1.0


@pytest.mark.parametrize("scenario", ["big-bethel", "kernstown"])
def test_every_narrated_line_names_its_unit(scenario: str) -> None:
    """F7: "09:10 maneuver: rallies and removes the silenced marker" named no one (nor did the
    full-move-disordered and night lines)."""
    log = EventLog(enabled=True)
    play(Game.new(build_rules("hynds"), load_scenario(find_scenario(scenario)), 7, log))
    said = [e for e in log.events if e.get("unit") and e.get("text") and e["kind"] != "resolution"]
    assert any("silenced marker" in e["text"] for e in said) or scenario != "big-bethel"
    assert [e["text"] for e in said if e["unit"].split("/")[0] not in e["text"]] == []


def test_plunging_fire_past_a_low_wood_far_from_the_guns() -> None:
    """F8: "Firing stands on lower ground must be over 4" from intervening woods": a low wood
    at the foot of the hill, far from the battery, does not forbid plunging fire at the hill."""
    rules = build_rules("rff", options=("plunging-fire",))
    game = Game.new(rules, load_scenario(DRILLS / "drill-rff-plunge-low.toml"), 1)
    game.state = rules.pm.hook.referee_muster(game=game)
    aimed = rff_fire.aim(game, game.state, game.state.pieces["battery"], True, "cs-regiment", None)
    assert aimed is not None and aimed.sight == "plunging-at"

