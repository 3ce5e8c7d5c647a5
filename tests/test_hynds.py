"""hynds: D. J. Hynds' Fire and Fury Regimental v2.1 as a layer over rff.

The expected figures below are transcribed from ``hynds-ff-regimental-v2.1.txt`` (with the rulings
of ``docs/rulings/hynds.md`` where the text is garbled), not read from the TOML data, so a wrong
entry in ``rulesets/hynds`` makes these tests fail.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from types import SimpleNamespace
from typing import Any

import pytest
from attrs import evolve
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from referee.core.cli.cli import _ruleset_names, main
from referee.core.engine.chance import D10, exact
from referee.core.engine.events import EventLog, Modifier, Resolution
from referee.core.engine.game import Game, play, scenario_options
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hynds import (
    OVERLAYS,
    fire,
    leaders,
    mechanics,
    move,
    skirmish,
    tables,
    works,
)
from referee.plugins.hynds.state import of
from referee.plugins.rff import fire as rff_fire
from referee.plugins.rff import lookup
from referee.plugins.rff.tables import load_with_overlays

T = load_with_overlays(*OVERLAYS)
BIG_BETHEL = load_scenario(find_scenario("big-bethel"))

# ----------------------------------------------------------------------------- the text

# Fire Table, fire points per stand by range in inches (HYNDS-F1..F3); None = out of range
MUSKETRY = {
    "RM": {4: 1, 8: 1, 12: 1, 16: 1, 20: F(1, 2), 24: F(1, 2), 25: None},
    "IR": {8: 1, 12: F(1, 2), 16: F(1, 2), 17: None},
    "BLC": {8: 1, 16: F(1, 2), 17: None},
    "RPR": {8: 4, 9: 1, 16: 1, 17: None},
    "SM": {4: 1, 5: F(1, 2), 8: F(1, 2), 9: None},
}
# Battery fire points per section: the best ammunition at each range (HYNDS-A1, A2)
CANNONADE = {
    "HS": {8: 4, 9: 2, 16: 2, 32: 2, 33: 1, 48: 1, 84: 1, 85: None},   # 12lb smoothbore
    "LR": {8: 2, 9: 1, 16: 1, 17: 2, 32: 2, 33: 1, 101: 1, 102: None},  # 3" rifles
    "LS": {6: 3, 7: F(3, 2), 12: F(3, 2), 13: 2, 24: 2, 25: 1, 67: 1, 68: None},  # 6lb smoothbore
}
LEADERS = {"confederate": {"exceptional": {8, 9, 10}, "weak": {1, 2}}, "union": {"exceptional": {9, 10}, "weak": {1, 2}}}
WEAPONS = {  # smoothbore, rifled smoothbore, Springfield/Enfield, percent
    ("union", 1862): (30, 45, 25), ("union", 1864): (5, 15, 80),
    ("confederate", 1862): (60, 25, 15), ("confederate", 1864): (10, 15, 75),
}
POL = {  # die total -> (good order effect, disordered effect)
    "good": [(2, "Disordered, 1 stand skedaddles, retire 6\""), (4, "Become disordered, 1 stand skedaddles"),
             (6, "Become disordered"), (10, "No effect")],
    "disordered": [(2, "Quits the field"), (4, "Disordered, 1 stand skedaddles, retire 6\""),
                   (6, "1 stand skedaddles"), (10, "No effect")],
}


# ----------------------------------------------------------------------------- scale and tables


def test_the_stack_describes_itself_as_hynds() -> None:
    rules = build_rules("hynds")
    assert rules.info.name == "hynds" and rules.base is not None and rules.base.name == "rff"
    scale = rules.info.scale
    assert (scale.yards_per_inch, scale.men_per_piece, scale.guns_per_model, scale.minutes_per_turn) == (20, 50, 2, 10)
    assert rules.info.phases == build_rules("rff").info.phases
    assert rules.overlays[: len(OVERLAYS)] == OVERLAYS  # the packaged overlay, under any of the command line's


def test_command_radius_and_close_range() -> None:
    assert lookup.command_radius(T, "clear") == 18
    assert lookup.close_range(T) == 8
    assert lookup.distance(T, "fallen-leader") == 2  # brigade commanders within 2" receive fire


@pytest.mark.parametrize("code", sorted(MUSKETRY))
def test_musketry_fire_points(code: str) -> None:
    for inches, points in MUSKETRY[code].items():
        assert lookup.fire_points(T, "musketry", code, inches) == points, (code, inches)


@pytest.mark.parametrize("code", sorted(CANNONADE))
def test_cannonade_fire_points(code: str) -> None:
    for inches, points in CANNONADE[code].items():
        assert lookup.fire_points(T, "cannonade", code, inches) == points, (code, inches)


@pytest.mark.parametrize("side", sorted(LEADERS))
def test_leader_chart_exact_odds(side: str) -> None:
    odds = dict(exact(lambda roller: leaders.rating_of(roller.roll(D10), side)))
    expected = {k: F(len(v), 10) for k, v in LEADERS[side].items()}
    assert odds == {**expected, "": 1 - sum(expected.values())}


def test_weapon_distribution_is_printed_one() -> None:
    chart = tables.charts()["weapons"]
    assert chart["order"] == ["smoothbore", "inferior-rifle", "rifle-musket"]
    for (side, year), shares in WEAPONS.items():
        assert tuple(chart[f"{side}-{year}"]) == shares and sum(shares) == 100


@pytest.mark.parametrize("status", sorted(POL))
@pytest.mark.parametrize("shift", [0, -1, -2])
def test_pol_reaction_exact_odds(status: str, shift: int) -> None:
    mods = [Modifier("test", shift)] if shift else []
    odds = {r.result: p for r, p in exact(mechanics.pol_reaction, status, mods, key=Resolution.outcome_key)}
    expected: dict[str, F] = {}
    for die in range(1, 11):
        total = die + shift
        text = next(t for top, t in POL[status] if total <= top)
        expected[text] = expected.get(text, F(0)) + F(1, 10)
    assert odds == expected


def _printed(rows: list[tuple[int, str]], shift: int) -> dict[str, F]:
    """A d10 plus ``shift`` read on a printed chart (rows of (highest total, result)): odds by result."""
    odds: dict[str, F] = {}
    for die in range(1, 11):
        result = next(r for top, r in rows if die + shift <= top or top == rows[-1][0])
        odds[result] = odds.get(result, F(0)) + F(1, 10)
    return odds


def _offered(mechanic: str, *sets: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(main, ["resolve", "hynds", mechanic, "--exact", "--json", *(a for s in sets for a in ("--set", s))])
    assert result.exit_code == 0, result.output
    outcomes: list[dict[str, Any]] = json.loads(result.stdout)["outcomes"]
    return outcomes


def test_hynds_own_rolls_are_offered_at_the_table() -> None:
    """`referee resolve hynds` offers the POL and surprise-fire rolls, at the printed odds."""
    pol = _offered("passage-of-lines", "status=disordered", "modifier=-1")
    assert {o["result"]: F(o["probability"]) for o in pol} == _printed(POL["disordered"], -1)
    surprise = _offered("surprise-fire", "disordered=true", "modifier=1")
    assert {o["values"]["effect"]: F(o["probability"]) for o in surprise} == _printed(SURPRISE["disordered"], 1)


# ----------------------------------------------------------------------------- rules in play


def _shot(side: str, kind: str = "musketry", rng: float = 10.0) -> Any:
    stands = {"stands": 4, "men_per_stand": 50.0, "formation": "line", "troops": True, "guns": False, "arm": "infantry",
              "footprint": None}  # (rff's Piece keeps its shape there: geometry.footprint)
    firer = SimpleNamespace(id=f"{side}-a", side=side, x=0.0, y=0.0, facing=0.0, **stands)
    target = SimpleNamespace(id="t", x=0.0, y=200.0, facing=180.0, **stands)
    return SimpleNamespace(firer=firer, target=target, kind=kind, range_inches=rng, stands=4)


@pytest.mark.parametrize(("side", "die", "kind", "low"), [("confederate", 9, "musketry", True), ("confederate", 8, "musketry", False),
                                                          ("union", 9, "musketry", False), ("confederate", 9, "cannonade", False)])
def test_confederates_go_low_on_ammo_on_a_9(side: str, die: int, kind: str, low: bool) -> None:
    """HYNDS-F4: a Confederate's small arms (30 rounds a man), not his batteries (F2)."""
    game = SimpleNamespace(memory={}, log=EventLog(enabled=False))
    state = SimpleNamespace(tables=T)
    replaced = fire.result(game, state, _shot(side, kind), die, {"low_on_ammo": False})
    assert (replaced is not None and replaced["low_on_ammo"]) is low


def test_resolutions_are_credited_to_the_layer_that_changed_them() -> None:
    rules = build_rules("hynds")
    plain = Resolution("rff", "maneuver", "QRS II, Maneuver Table", "Tardy")
    assert rules.attributed(plain).ruleset == "rff"
    hynds = evolve(plain, modifiers=(Modifier("Weak leader (Hynds)", -1, "Hynds FF Regimental v2.1, Leaders"),))
    assert rules.attributed(hynds).ruleset == "hynds"
    assert build_rules("rff").attributed(hynds).ruleset == "rff"  # rff alone credits nobody else


def test_rff_offers_extension_hooks_that_cost_nothing_unused() -> None:
    rff, hynds = build_rules("rff"), build_rules("hynds")
    own = {"rff_move_yards", "rff_moved", "rff_fire_points", "rff_fire_result", "rff_may_fire"}
    assert own <= set(vars(rff.pm.hook))  # declared by rff's HOOKSPECS
    assert not own & rff.implemented and own <= hynds.implemented


def test_a_scenario_option_of_the_layer_applies_to_it_only() -> None:
    scenario = evolve(BIG_BETHEL, options=(*BIG_BETHEL.options, "hynds:random-weapons"))
    assert "random-weapons" in scenario_options(build_rules("hynds"), scenario)
    assert "random-weapons" not in scenario_options(build_rules("rff"), scenario)
    log = EventLog(enabled=True)
    play(Game.new(build_rules("hynds"), scenario, 3, log))
    drawn = [e for e in log.events if e["kind"] == "weapons"]
    assert drawn and all(e["rulings"] == ["HYNDS-W1"] for e in drawn)


def test_compare_includes_installed_layers_by_default() -> None:
    assert {"rff", "hynds"} <= set(_ruleset_names(None))


def test_compare_rff_and_hynds_on_the_cli() -> None:
    result = CliRunner().invoke(main, ["compare", "big-bethel", "--rules", "rff,hynds", "-n", "4", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert list(report["rulesets"]) == ["rff", "hynds"] and report["n"] == 4


def _hynds_code(event: dict[str, Any]) -> bool:
    """Does the event show a Hynds rule of code (not only his tables) at work?"""
    return ((event["kind"] != "resolution" and event.get("ruleset") == "hynds") or event.get("mechanic") == "passage-of-lines"
            or any(m["name"].endswith("(Hynds)") for m in event.get("modifiers", ())))


@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize("leader_chart", [True, False])
def test_games_diverge_only_where_a_hynds_rule_applied(seed: int, leader_chart: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: rff with Hynds' tables alone, and the whole layer, play the same
    game event for event until an event shows a Hynds rule applied. Without the leader chart
    (rolled at muster, so the games part at once) they part later, at another of his rules."""
    if not leader_chart:
        monkeypatch.setattr(leaders, "roll_all", lambda game, state: None)
        monkeypatch.setattr(leaders, "end_turn", lambda game, state: None)
    played = []
    for rules in (build_rules("rff", house_rules=[str(p) for p in OVERLAYS]), build_rules("hynds")):
        log = EventLog(enabled=True)
        play(Game.new(rules, BIG_BETHEL, seed, log))
        played.append(log.events)
    same = ("seq", "ruleset", "text")  # the stack's name, in the start event's text and the resolutions' ruleset
    tables_only, layered = ([{k: v for k, v in e.items() if k not in same} for e in events] + [{}] for events in played)
    part = next(i for i, (a, b) in enumerate(zip(tables_only, layered)) if a != b)
    assert not any(_hynds_code(e) for e in played[0])
    assert _hynds_code(played[1][part]), played[1][part]
    assert (part == 0) is leader_chart


def _values(mods: list[Modifier]) -> dict[str, int]:
    return {m.name: int(m.value) for m in mods}


def test_hynds_fire_modifiers() -> None:
    game = SimpleNamespace(memory={}, log=EventLog(enabled=False))
    state = SimpleNamespace(tables=T)
    shot = _shot("union", "cannonade", 20.0)
    shot.firer.weapon = "LR"
    assert _values(fire.modifiers(game, state, shot)) == {"Rifled pieces (Hynds)": 1}
    of(game).moved["t"] = 121.0  # more than 6" (120 yards) this turn
    assert _values(fire.modifiers(game, state, shot)) == {"Rifled pieces (Hynds)": 1, "Target has moved more than 6\" this turn (Hynds)": -1}
    close = _shot("union", "musketry", 8.0)
    assert _values(fire.modifiers(game, state, close)) == {"Point blank volley (Hynds)": 1}
    fire.result(game, state, _shot("union", "musketry", 9.0), 5, {"low_on_ammo": False})  # it fired at longer range before
    assert _values(fire.modifiers(game, state, close)) == {}
    close.target.arm, close.target.formation, close.target.parent = "cavalry", "extended-line", None
    assert _values(fire.modifiers(game, state, close)) == {"Firing at cavalry skirmishers (Hynds)": -2}  # breastworks: tests/test_hynds_fidelity.py


@pytest.mark.parametrize("grade", ["crack", "veteran", "trained"])
def test_confederate_chargers_fire_hand_weapons_at_half_effect(grade: str) -> None:
    """HYNDS-R1: rff holds back a charger with cold steel; Hynds lets a crack or veteran
    Confederate one fire with hand weapons, at half effect, but not as defensive fire."""
    from referee.plugins.rff import fire as rff_fire

    for rules, lets in (("hynds", grade != "trained"), ("rff", False)):
        game = Game.new(build_rules(rules), BIG_BETHEL, 1)
        game.state = game.rules.muster(game)
        piece = next(p for p in game.state.pieces.values() if p.side == "confederate" and p.arm == "infantry" and p.parent is None)
        piece.charge_target, piece.cold_steel, piece.grade = "us-any", True, grade
        assert rff_fire._may_fire(game, piece, False) is lets
        assert rff_fire._may_fire(game, piece, True) is False
    shot = SimpleNamespace(firer=piece, defensive=False)
    halved = fire.points(game, shot, 4, ())
    assert (halved is not None and halved[0]) == (2 if grade != "trained" else False)


# ----------------------------------------------------------------------------- concealment

SURPRISE = {  # die total -> effect, still in good order / disordered by the fire
    "good": [(2, "recoil"), (6, "checked"), (10, "none")],
    "disordered": [(2, "driven-back"), (6, "recoil"), (10, "checked")],
}


@pytest.mark.parametrize("disordered", [False, True])
@pytest.mark.parametrize("shift", [0, -1, -3])
def test_surprise_fire_effects_exact_odds(disordered: bool, shift: int) -> None:
    mods = [Modifier("test", shift)] if shift else []
    odds = {r.values["effect"]: p for r, p in exact(mechanics.surprise_effect, disordered, mods, key=Resolution.outcome_key)}
    expected: dict[str, F] = {}
    for die in range(1, 11):
        effect = next(e for top, e in SURPRISE["disordered" if disordered else "good"] if die + shift <= top)
        expected[effect] = expected.get(effect, F(0)) + F(1, 10)
    assert odds == expected


def _hidden_confederates() -> Any:
    return evolve(BIG_BETHEL, units=tuple(evolve(u, hidden=u.side == "confederate") for u in BIG_BETHEL.units))


def test_hidden_units_are_not_seen_by_the_enemy_commander() -> None:
    game = Game.new(build_rules("hynds"), _hidden_confederates(), 1)
    game.state = build_rules("hynds").pm.hook.referee_muster(game=game)
    hidden = {u.id for u in game.world.units.values() if u.hidden}
    assert hidden and all(game.world.units[u].side == "confederate" for u in hidden)
    assert not {i.target for i in game.intents("union").values()} & hidden
    assert {i.target for i in game.intents("confederate").values()} - {None}  # they see the Union


def test_hidden_units_are_seen_surprise_and_rff_plays_them_in_sight() -> None:
    texts, effects = [], []
    for seed in (1, 2, 3):
        log = EventLog(enabled=True)
        play(Game.new(build_rules("hynds"), _hidden_confederates(), seed, log))
        texts += [e["text"] for e in log.events if e["kind"] == "seen"]
        effects += [e["result"] for e in log.events if e.get("mechanic") == "surprise-fire"]
    assert any("surprise fire" in t for t in texts) and effects
    game = Game.new(build_rules("rff"), _hidden_confederates(), 1)
    play(game)
    assert not any(u.hidden for u in game.world.units.values())  # rff does not conceal


def test_fog_hides_everyone_until_the_mist_clears_from_turn_3() -> None:
    foggy = evolve(BIG_BETHEL, light=evolve(BIG_BETHEL.light, weather="fog"))
    log = EventLog(enabled=True)
    game = Game.new(build_rules("hynds"), foggy, 1, log)
    play(game)
    weather = [e for e in log.events if e["kind"] == "weather"]
    assert weather and all(e["rulings"] == ["HYNDS-H1"] for e in weather)
    turns = [e["turn"] for e in log.events if e["kind"] == "turn"]
    first_roll = log.events.index(weather[0])
    assert max(e["turn"] for e in log.events[:first_roll] if e["kind"] == "turn") >= 3 or turns == []
    if "clears" in weather[-1]["text"]:
        assert game.world.weather == "clear"


# ----------------------------------------------------------------------------- ground

def _mustered(seed: int = 1) -> Game:
    rules = build_rules("hynds")
    game = Game.new(rules, BIG_BETHEL, seed)
    game.state = rules.pm.hook.referee_muster(game=game)
    return game


def _piece(game: Game, arm: str, x: float, y: float) -> Any:
    piece = next(p for p in game.state.pieces.values() if p.arm == arm and p.side == "union")
    piece.x, piece.y, piece.status = x, y, "good"
    return piece


def test_linear_obstacles_by_arm_and_grade() -> None:
    """Big Bethel's works run along y = 1310 from x = 1020 to 1170: a move north across them
    (the move pays where it meets them: tests/test_hynds_fidelity.py)."""
    game = _mustered()
    to = (1100.0, 1400.0)
    infantry = _piece(game, "infantry", 1100.0, 1250.0)
    assert move.priced(game, game.state, infantry, "full", to, 200.0) == 200.0 - 3 * 20
    assert move.priced(game, game.state, infantry, "full", (1100.0, 1290.0), 30.0) is None  # short of them
    guns = _piece(game, "artillery", 1100.0, 1305.0)  # at the works
    game.turn = 4
    assert move.priced(game, game.state, guns, "full", to, 200.0) == 0.0  # a whole turn clearing a section
    game.turn = 5
    assert move.priced(game, game.state, guns, "full", to, 200.0) is None  # the way is open
    for grade, expected, disordered in (("crack", 140.0, False), ("veteran", 140.0, True), ("green", None, False)):
        infantry.arm, infantry.grade, infantry.status = "cavalry", grade, "good"
        infantry.x, infantry.y = 1100.0, 1250.0
        infantry.unit.mounted = True
        yards = move.priced(game, game.state, infantry, "full", to, 200.0)
        if expected is None:
            assert yards is not None and yards < 65.0  # stops at the works, this side
        else:
            assert yards == expected
        start = (infantry.x, infantry.y)
        infantry.y += yards
        move.moved(game, game.state, infantry, start)  # the crossing made: veteran and trained cavalry end disordered
        assert (infantry.status == "disordered") is disordered


@pytest.mark.parametrize(("path_x", "reacts"), [(1000.0, True), (1400.0, False)])
def test_passing_through_a_stationary_friend_makes_it_roll_on_the_pol_chart(path_x: float, reacts: bool) -> None:
    """HYNDS-P1: a troop piece whose move crosses a stationary friend's footprint from front to
    back makes that friend roll; one that passes wide of it does not."""
    rules, log = build_rules("hynds"), EventLog(enabled=True)
    game = Game.new(rules, BIG_BETHEL, 1, log)
    game.state = rules.muster(game)
    mover, friend = [p for p in game.state.pieces.values() if p.side == "union" and p.arm == "infantry" and p.parent is None][:2]
    friend.x, friend.y, friend.facing, friend.moved = 1000.0, 800.0, 0.0, ""
    mover.x, mover.y = path_x, 900.0
    start = (path_x, 700.0)
    move.moved(game, game.state, mover, start)
    rolled = [e for e in log.events if e.get("mechanic") == "passage-of-lines"]
    assert bool(rolled) is reacts and all(e["unit"] == friend.id for e in rolled)


@pytest.mark.parametrize(("its_intent", "reacts"), [("hold", True), ("rally", True), ("advance", False), ("withdraw", False)])
def test_a_friend_not_yet_reached_in_the_phase_is_stationary_unless_it_is_to_move(
        monkeypatch: pytest.MonkeyPatch, its_intent: str, reacts: bool) -> None:
    """HYNDS-P1 in play: the side's first move of the phase passes through a friend that moved
    last turn and has not been reached yet this phase. It rolls on the POL chart if it is to stay
    where it stands this phase, not if it is to move (a player would move it first)."""
    from referee.plugins.rff import maneuver

    rules, log = build_rules("hynds"), EventLog(enabled=True)
    game = Game.new(rules, BIG_BETHEL, 1, log)
    game.state = rules.muster(game)
    pieces = [p for p in game.state.of_side("union") if p.parent is None]
    mover = next(p for p in pieces if p.arm == "infantry")
    friend = next(p for p in pieces[pieces.index(mover) + 1:] if p.arm == "infantry")
    friend.x, friend.y, friend.facing, friend.moved = 1000.0, 800.0, 0.0, "full"  # its move of last turn
    game.state.moved(friend)

    def through_the_friend(game: Game, state: Any, piece: Any, intent: Any, read: Any) -> None:
        if piece is mover:  # the side's first move of the phase
            piece.x, piece.y = 1000.0, 900.0
            state.moved(piece)
            game.rules.callers["rff_moved"](game=game, piece=piece, start=(1000.0, 700.0))

    intents = {p.unit_id: SimpleNamespace(action=its_intent if p is friend else "advance", target=None) for p in pieces}
    monkeypatch.setattr(Game, "intents", lambda self, side: intents)
    monkeypatch.setattr(maneuver, "check", through_the_friend)
    monkeypatch.setattr(maneuver, "needs_check", lambda *args: True)
    maneuver.phase(game, game.state, "union")
    rolled = [e["unit"] for e in log.events if e.get("mechanic") == "passage-of-lines"]
    assert rolled == ([friend.id] if reacts else [])
    assert not game.state.yet_to_maneuver()  # every piece reached


def test_a_building_set_on_fire_costs_its_garrison_a_stand_a_turn() -> None:
    game = _mustered()
    garrison = _piece(game, "infantry", 1300.0, 1230.0)  # inside a building of Big Bethel
    stands = garrison.stands
    shot = SimpleNamespace(kind="cannonade", firer=SimpleNamespace(id="cs-gun"), target=garrison)
    works.set_on_fire(game, shot, 8)
    assert not of(game).burning
    works.set_on_fire(game, shot, 9)
    works.end_turn(game, game.state)
    assert garrison.stands == stands  # the turn it caught fire: time to get out
    game.turn += 1
    works.end_turn(game, game.state)
    assert garrison.stands == stands - 1
    garrison.x += 200.0  # it leaves
    game.turn += 1
    works.end_turn(game, game.state)
    assert garrison.stands == stands - 1 and not of(game).burning


def test_the_layers_overlay_reaches_play_under_the_command_lines(tmp_path: Any) -> None:
    game = _mustered()
    assert game.state.tables.scale.men_per_piece == 50 and lookup.command_radius(game.state.tables, "clear") == 18
    mine = tmp_path / "radius.toml"
    mine.write_text("[maneuver.command_radius.clear]\ninches = 12\n")
    rules = build_rules("hynds", house_rules=[str(mine)])
    assert rules.overlays == (*OVERLAYS, mine) and rules.name == "hynds+radius"
    game = Game.new(rules, BIG_BETHEL, 1)
    game.state = rules.pm.hook.referee_muster(game=game)
    assert lookup.command_radius(game.state.tables, "clear") == 12 and game.state.tables.scale.men_per_piece == 50


def test_a_scenario_marks_a_unit_hidden(tmp_path: Any) -> None:
    text = find_scenario("drill-musketry").read_text(encoding="utf-8")
    hidden = tmp_path / "hidden.toml"
    hidden.write_text(text.replace('id = "cs-regiment"\n', 'id = "cs-regiment"\nhidden = true\n'))
    scenario = load_scenario(hidden)
    assert scenario.unit("cs-regiment").hidden and not scenario.unit("us-regiment").hidden
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace('id = "cs-regiment"\n', 'id = "cs-regiment"\nhidden = "yes"\n'))
    result = CliRunner().invoke(main, ["run", str(wrong), "--rules", "hynds"])
    assert result.exit_code == 2 and "hidden" in result.output and "true or false" in result.output


@given(st.sampled_from(["good", "disordered"]), st.lists(st.integers(-4, 4), max_size=4))
def test_every_pol_total_reads_one_row(status: str, shifts: list[int]) -> None:
    mods = [Modifier(f"m{i}", v) for i, v in enumerate(shifts)]
    outcomes = exact(mechanics.pol_reaction, status, mods, key=Resolution.outcome_key)
    assert sum(p for _, p in outcomes) == 1
    texts = {t for _, t in POL[status]}
    assert all(r.result in texts for r, _ in outcomes)


@pytest.mark.parametrize("hidden", [False, True])
def test_separated_batteries_may_not_combine_on_a_distant_target(hidden: bool) -> None:
    """HYNDS-G4: batteries over 6" apart firing at one target over 16" off, which is not the
    closest enemy to each, with no friend in charge range of it: the second fires at another
    target, never a concealed one (every other enemy concealed, it holds its fire)."""
    game = _mustered()
    state = game.state
    first, second = state.pieces["parrott-gun"], state.pieces["road-howitzer"]
    first.x, second.x = 1500.0, 1300.0  # 10" apart, at y = 1620
    for gun in (first, second):
        gun.facing = 180.0
    target, other = state.pieces["1st-vt"], state.pieces["4th-ma"]
    target.x, target.y = 1500.0, 1220.0  # 20" from the first battery
    other.x, other.y = 1300.0, 1240.0  # the closest enemy to the second
    for p in state.enemies_of("confederate"):
        p.unit.hidden = hidden and p is not target
    state.changed()
    shots = [s for s in (rff_fire.aim(game, state, g, True, "1st-vt", None) for g in (first, second)) if s]
    assert [s.target.id for s in shots] == ["1st-vt", "1st-vt"]
    kept = skirmish.separated_batteries(game, state, shots)
    assert kept is not None
    assert [(s.firer.id, s.target.id) for s in kept] == [("parrott-gun", "1st-vt")] + ([] if hidden else [("road-howitzer", "4th-ma")])
