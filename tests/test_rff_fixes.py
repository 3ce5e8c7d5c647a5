"""rff fixes from the rules audit (docs/rulings/rff.md): each test fails on the code before its fix."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.rff import charge, fire
from referee.plugins.rff.muster import muster, sync
from referee.plugins.rff.tables import load_tables

DRILLS = Path(__file__).parent / "scenarios"


def mustered(scenario: str | Path, *options: str, seed: int = 1) -> Game:
    """A game of rff on the scenario (a bundled id or a drill file), mustered, not yet played."""
    path = scenario if isinstance(scenario, Path) else find_scenario(scenario)
    game = Game.new(build_rules("rff", options), load_scenario(path), seed, EventLog(enabled=True))
    game.state = muster(game, load_tables())
    return game


def played(scenario: str | Path, *options: str, seed: int = 1) -> tuple[Game, EventLog]:
    path = scenario if isinstance(scenario, Path) else find_scenario(scenario)
    log = EventLog(enabled=True)
    game = Game.new(build_rules("rff", options), load_scenario(path), seed, log)
    play(game)
    return game, log


def shot(game: Game, firer: str, target: str, rng: float, defensive: bool = True) -> fire.Shot:
    state = game.state
    f, t = state.pieces[firer], state.pieces[target]
    kind = "musketry" if f.troops else "cannonade"
    from referee.plugins.rff import lookup
    return fire.Shot(f, t, kind, rng, fire.firing_stands(game, f), lookup.fire_points(state.tables, kind, f.weapon, rng), defensive)


# ----------------------------------------------------------------------------- M2: a lone gun is one gun


def test_a_lone_gun_is_a_half_section_firing_at_half() -> None:
    """RFF-P27: Big Bethel's single pieces are half sections; a 2-gun section is a full stand."""
    game = mustered("big-bethel")
    state = game.state
    lone, pair = state.pieces["road-howitzer"], state.pieces["greble-guns"]
    assert (lone.stands, lone.half) == (1, 1)
    assert (pair.stands, pair.half) == (1, 0)
    points, multipliers = fire.fire_points(game, state, shot(game, "road-howitzer", "greble-guns", 20.0))
    assert points == Fraction(3, 2)  # LH shell at 20": 3 points a stand, half for one gun
    assert [m.name for m in multipliers] == ["Half section (one gun)"]
    points, multipliers = fire.fire_points(game, state, shot(game, "greble-guns", "road-howitzer", 20.0))
    assert points == 3 and multipliers == ()


def test_three_guns_are_a_section_and_a_half_section() -> None:
    """An odd gun of a larger battery: a full stand and a half section; the half section is the
    first stand lost, and a damaged half section fires at a quarter."""
    t = load_tables()
    assert fire._fire_points(t, 3, 2, 0, False, False, 1)[0] == Fraction(9, 2)
    assert fire._fire_points(t, 4, 2, 1, False, False, 1)[0] == 5  # 4 x 1/4 + 4
    assert fire._fire_points(t, 3, 2, 1, True, False, 0)[0] == Fraction(9, 4)


def test_a_lone_gun_counts_half_a_stand_for_numbers_in_a_charge() -> None:
    t = load_tables()
    game = mustered("big-bethel")
    gun = game.state.pieces["road-howitzer"]
    assert charge._numbers(t, gun, gun.stands) == Fraction(1, 2)


def test_lone_guns_cite_the_ruling_and_men_and_guns_stay_whole() -> None:
    game, log = played("big-bethel", seed=7)
    lines = log.jsonl()
    assert '"RFF-P27"' in lines
    for unit in game.world.units.values():
        assert 0 <= unit.guns <= unit.spec.guns


# ----------------------------------------------------------------------------- M1: the ground crossed


def test_a_move_is_priced_by_the_ground_it_crosses() -> None:
    """RFF-P28: a line in the open with rough ground 300 yards ahead moves its full 9" (337.5
    yards), not the rough 5", however far its goal lies beyond the rough."""
    from referee.plugins.rff import move

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    assert move.rate_yards(game, state, piece, "full", (600.0, 480.0)) == pytest.approx(280.0)  # stops at the goal
    assert move.rate_yards(game, state, piece, "half", (600.0, 1800.0)) == pytest.approx(168.75)  # 4.5" all open
    # 300 yards of open (300/337.5 of the move), then rough at 5" = 187.5 yards for the rest
    full = move.rate_yards(game, state, piece, "full", (600.0, 1800.0))
    cell = 25.0  # the ground is read by 25-yard cells: edges are known to a cell
    assert full == pytest.approx(300.0 + (1 - 300.0 / 337.5) * 187.5, abs=cell)
    assert full > 300.0  # the worst ground to the goal (rough) would give 187.5
    piece.y = 600.0  # inside the rough: 100 yards of rough (100/187.5), then open
    assert move.rate_yards(game, state, piece, "full", (600.0, 1800.0)) == pytest.approx(100.0 + (1 - 100.0 / 187.5) * 337.5, abs=cell)


def test_a_stream_is_rough_only_where_it_is_crossed() -> None:
    from referee.plugins.rff import move

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    piece.y = 900.0  # open ground, the stream 100 yards ahead
    moved = move.rate_yards(game, state, piece, "full", (600.0, 1800.0))
    assert 300.0 < moved < 337.5  # the bank costs a little, not the whole move
    piece.y = 1100.0  # the stream behind: open ground all the way
    assert move.rate_yards(game, state, piece, "full", (600.0, 1800.0)) == pytest.approx(337.5)


# ----------------------------------------------------------------------------- M5: gun stands one by one


def _struck(game: Game, effect: str, target: str = "cs-battery") -> Any:
    from referee.plugins.rff import mechanics

    state = game.state
    piece = state.pieces[target]
    values = {"effect": effect, **mechanics.effect_values(state.tables, "cannonade", effect, 10, False, True)}
    fire.apply(game, state, fire.Shot(state.pieces["us-regiment"], piece, "cannonade", 10.0, 1, 1, True), values)
    return piece


@pytest.mark.parametrize("effect", ["lively", "galling"])
def test_one_gun_stand_silenced_leaves_the_rest_firing(effect: str) -> None:
    game = mustered("drill-charge-battery")
    battery = _struck(game, effect)
    assert (battery.stands, battery.silenced, battery.damaged) == (2, 1, 0)
    assert fire._may_fire(game, battery, defensive=True)
    assert fire.firing_stands(game, battery) == 1


def test_telling_damages_and_silences_one_stand_the_other_fires_whole() -> None:
    """RFF-P29: the owner silences the damaged stand; the other fires at full strength."""
    game = mustered("drill-charge-battery")
    battery = _struck(game, "telling")
    assert (battery.stands, battery.silenced, battery.damaged) == (2, 1, 1)
    volley = fire.Shot(battery, game.state.pieces["us-regiment"], "cannonade", 10.0, fire.firing_stands(game, battery), 3, True)
    points, multipliers = fire.fire_points(game, game.state, volley)
    assert points == 3 and multipliers == ()


def test_withering_wrecks_one_and_silences_the_rest() -> None:
    game = mustered("drill-charge-battery")
    battery = _struck(game, "withering")
    assert (battery.stands, battery.silenced) == (1, 1)
    assert not fire._may_fire(game, battery, defensive=True)


# ----------------------------------------------------------------------------- M6: attached leaders ride along


def test_an_attached_leader_moves_with_his_unit() -> None:
    """QRS Fallen Leader: "the closest leader within 3" of the target": an attached leader is
    with his regiment wherever it has moved, not where he stood at the last maneuver step."""
    from referee.plugins.rff import leaders, move

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    move.advance(game, state, piece, (600.0, 1800.0), 300.0)
    colonel = state.leaders["us-colonel"]
    assert colonel.place == (piece.x, piece.y)
    assert leaders.nearest_leader(state, piece, 10.0) is colonel
    leaders.fall(game, state, colonel, "out-one-turn")  # detached where the regiment stood
    assert (colonel.attached, (colonel.x, colonel.y)) == (None, (piece.x, piece.y))


# ----------------------------------------------------------------------------- M7: a Rally may form line


def _intent(action: str, goal: tuple[float, float] | None, formation: str | None, target: str | None = None) -> Any:
    from referee.core.engine.doctrine import Intent

    return Intent(action, goal, target, formation, "attack")


def test_a_rally_may_re_form_to_line() -> None:
    """QRS: Rally is "return to good order and tardy maneuver"; a Tardy maneuver may change
    formation to line (and that is the whole maneuver)."""
    from referee.plugins.rff import maneuver

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    piece.formation, piece.status, piece.effect = "field-column", "disordered", "rally"
    start = (piece.x, piece.y)
    maneuver.apply(game, state, piece, _intent("advance", (600.0, 400.0), "line"), "rally", {})
    assert (piece.status, piece.formation, (piece.x, piece.y)) == ("good", "line", start)


# ----------------------------------------------------------------------------- M8: skirmishers with a change of formation


def _screen_intent(action: str, goal: tuple[float, float] | None, target: str | None = None) -> Any:
    from referee.core.engine.doctrine import Intent

    return Intent(action, goal, target, "line", "attack", skirmishers=True)


def _maneuver(game: Game, piece: Any, intent: Any, effect: str) -> None:
    """What the maneuver phase does with a check's effect (maneuver.phase, without the die)."""
    from referee.plugins.rff import maneuver, skirmishers

    piece.effect = effect
    maneuver.apply(game, game.state, piece, intent, effect, {})
    skirmishers.after_regiment_moved(game, game.state, piece, intent)


@pytest.mark.parametrize("effect, moved, inches", [("well-handled", "half", 4.5), ("double-quick", "half", 6.0), ("tardy", "", 0.0)])
def test_skirmishers_deploy_as_a_change_of_formation(effect: str, moved: str, inches: float) -> None:
    """Optional rules: skirmishers deploy "as part of a change of formation maneuver": with a
    Well Handled (or Double Quick) effect the regiment moves only half; with Tardy it holds."""
    game = mustered(DRILLS / "drill-rff-ground.toml", "skirmishers", "no-full-move-disordered")
    piece = game.state.pieces["us-regiment"]
    _maneuver(game, piece, _screen_intent("advance", (600.0, 1800.0), "cs-regiment"), effect)
    assert piece.skirmishers is not None
    assert piece.moved == moved
    assert piece.y == pytest.approx(200.0 + inches * 37.5)  # a half move (9" / 2; 12" / 2 at the double quick, M23), or none


def test_no_skirmishers_with_a_change_of_front() -> None:
    """Optional rules, Change Front: "cannot combine a change front with any other maneuver"."""
    game = mustered(DRILLS / "drill-rff-ground.toml", "skirmishers")
    state = game.state
    piece = state.pieces["us-regiment"]
    enemy = state.pieces["cs-regiment"]
    enemy.x, enemy.y = 1100.0, 200.0  # due east: a wheel of 90 degrees
    _maneuver(game, piece, _screen_intent("hold", (600.0, 200.0), "cs-regiment"), "well-handled")
    assert piece.facing == pytest.approx(90.0)
    assert piece.skirmishers is None


# ----------------------------------------------------------------------------- M9: the foot of the works


def test_a_charger_from_the_flank_meets_the_end_of_the_line() -> None:
    """RFF-P30: a piece is a rectangle, its frontage wide: a charger coming along the line from
    its flank stops at the line's end, not inside its frontage."""
    from referee.plugins.rff import geometry as geo
    from referee.plugins.rff import move

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    defender, attacker = state.pieces["cs-regiment"], state.pieces["us-regiment"]
    attacker.x, attacker.y, attacker.facing = 1100.0, 1800.0, 270.0
    front, _ = geo.footprint(defender).shape
    move.advance(game, state, attacker, (defender.x, defender.y), 1000.0, contact=defender)
    assert attacker.x == pytest.approx(defender.x + front / 2 + geo.footprint(attacker).shape[1] / 2)
    assert geo.contact_gap(attacker, defender) == pytest.approx(0.0, abs=1e-6)


def test_an_attacker_halts_at_the_foot_of_a_held_work() -> None:
    from referee.plugins.rff import geometry as geo
    from referee.plugins.rff import move

    game = mustered(DRILLS / "drill-rff-works.toml")
    state = game.state
    attacker, defender = state.pieces["us-regiment"], state.pieces["cs-regiment"]
    assert geo.cover(game, defender) == "fortified"
    attacker.x, attacker.y = 900.0, 1800.0  # east of the work, level with the defender
    attacker.facing = 270.0
    move.advance(game, state, attacker, (300.0, 1800.0), 600.0)
    assert attacker.x >= 750.0 - 1e-6  # never inside the work
    assert geo.cover(game, attacker) != "fortified"


def test_a_charging_attacker_is_not_covered_by_the_works_it_assaults() -> None:
    from referee.plugins.rff import geometry as geo

    game = mustered(DRILLS / "drill-rff-works.toml")
    state = game.state
    attacker, defender = state.pieces["us-regiment"], state.pieces["cs-regiment"]
    attacker.x, attacker.y = 600.0, 1760.0  # inside the work's south face, in contact
    attacker.charge_target = defender.id
    assert geo.cover(game, attacker) == "none"


# ----------------------------------------------------------------------------- found: the mounted check


@pytest.mark.parametrize("mounted", [True, False])
def test_only_mounted_cavalry_is_an_exposed_target(mounted: bool) -> None:
    """QRS "+1 Troop target in ... cavalry": a mounted target; dismounted cavalry fight on foot."""
    game = mustered("drill-cavalry")
    state = game.state
    cavalry = state.pieces["us-cavalry"]
    cavalry.unit.mounted = mounted
    cavalry.formation = "line"
    names = [m.name for m in fire.die_modifiers(game, state, shot(game, "cs-regiment", "us-cavalry", 5.0))]
    assert any(n.startswith("Troop target in field column, cavalry") for n in names) is mounted


# ----------------------------------------------------------------------------- found: a reinforcement's leader


def test_a_leader_attached_to_a_reinforcement_enters_with_it() -> None:
    """He waits off the field with it (commanding no one), then checks with it as attached."""
    game, log = played(DRILLS / "drill-rff-reinforcement.toml", seed=1)
    checks = [e for e in map(__import__("json").loads, log.jsonl().splitlines())
              if e.get("mechanic") == "maneuver" and e.get("unit") == "us-reserve-regiment"]
    assert checks, "the reserve made no maneuver check"
    assert all(any(m["name"] == "Attached leader or brave colonel" for m in e["modifiers"]) for e in checks)
    assert game.state.leaders["us-reserve-colonel"].attached == "us-reserve-regiment"


# ----------------------------------------------------------------------------- found: printed numbers are data


def _overlaid(text: str) -> Any:
    from referee.core.engine.tables import apply_overlay, load_ruleset
    from referee.plugins.rff.tables import SCHEMA, build_tables

    return build_tables(apply_overlay(load_ruleset("rff", SCHEMA), "house.toml", SCHEMA, text=text))


def test_outnumbered_ratios_are_read_from_the_charge_table() -> None:
    from referee.plugins.rff import lookup

    t = load_tables()
    assert [lookup.outnumbered(t, r) for r in (1.4, 1.5, 2, 3)] == [None, "outnumbered-3-2", "outnumbered-2-1", "outnumbered-3-1"]
    house = _overlaid('[charge.modifiers.outnumbered-3-2]\nratio = "5/4"\n')
    assert lookup.outnumbered(house, 1.3) == "outnumbered-3-2"


def test_twilight_and_wheel_numbers_are_read_from_the_options_table() -> None:
    from referee.plugins.rff import lookup

    t = load_tables()
    assert lookup.option_number(t, "twilight-and-night", "twilight-turns") == 4
    assert lookup.option_number(t, "change-front", "wheel") == 45
    house = _overlaid('[options.options.twilight-and-night.numbers.twilight-turns]\nvalue = 2\n')
    assert lookup.option_number(house, "twilight-and-night", "twilight-turns") == 2


# ----------------------------------------------------------------------------- the neutral world


def test_low_on_ammunition_is_written_back_to_the_neutral_world() -> None:
    game = mustered("drill-musketry")
    state = game.state
    unit = game.world.units["us-regiment"]
    sync(game, state)
    assert unit.low_ammo is False
    state.pieces["us-regiment"].low_ammo = True
    sync(game, state)
    assert unit.low_ammo is True
    state.pieces["us-regiment"].low_ammo = False  # replenished
    sync(game, state)
    assert unit.low_ammo is False


def test_low_ammo_is_seen_in_play() -> None:
    """Over a Big Bethel game some piece runs low (a base 10), and the world says so."""
    game, log = played("big-bethel", seed=7)
    marked = {e["unit"] for e in map(__import__("json").loads, log.jsonl().splitlines()) if e.get("kind") == "ammo"}
    assert marked
    for uid in marked:
        main = uid.split("/")[0]
        piece = game.state.pieces.get(main)
        if piece is not None and piece.low_ammo:
            assert game.world.units[main].low_ammo


def test_a_holding_unit_never_moves_toward_its_goal() -> None:
    """M3: rff carries out 'hold' in place whatever goal the doctrine gives it; nothing in rff
    relies on the doctrine to stop a spent attacker."""
    from referee.plugins.rff import maneuver

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    for effect in ("double-quick", "well-handled", "tardy"):
        piece.effect, piece.status = effect, "good"
        maneuver.apply(game, state, piece, _intent("hold", (600.0, 1700.0), "line", "cs-regiment"), effect, {})
        assert (piece.x, piece.y) == (600.0, 200.0)
    piece.status = "disordered"
    maneuver.apply(game, state, piece, _intent("hold", (600.0, 1700.0), "line", "cs-regiment"), "rally", {})
    assert (piece.x, piece.y) == (600.0, 200.0)


# ----------------------------------------------------------------------------- low findings


def test_holding_guns_low_on_ammunition_check_to_replenish() -> None:
    """M20: RFF-P20's replenishment needs a Well Handled check, so low guns must roll."""
    from referee.plugins.rff import maneuver

    game = mustered("big-bethel")
    state = game.state
    gun = state.pieces["parrott-gun"]
    hold = _intent("hold", (gun.x, gun.y), "unlimbered")
    gun.facing = 180.0
    assert not maneuver.needs_check(game, state, gun, hold) or maneuver.geo.outflanked(state, gun, 1e9)
    gun.low_ammo = True
    assert maneuver.needs_check(game, state, gun, hold)
    gun.effect = "well-handled"
    maneuver.apply(game, state, gun, hold, "well-handled", {})
    assert not gun.low_ammo


def test_broken_troops_get_no_column_bonus_and_rally_into_line() -> None:
    """M18, RFF-P31."""
    from referee.plugins.rff import maneuver

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    piece.formation, piece.status = "field-column", "broken"
    names = [m.name for m in maneuver.modifiers(game, state, piece)]
    assert not any(n.startswith("Field or march column") for n in names)
    piece.effect = "rally"
    maneuver.apply(game, state, piece, _intent("hold", (piece.x, piece.y), "column"), "rally", {})
    assert (piece.status, piece.formation) == ("good", "line")


def test_a_one_regiment_brigade_does_not_count_its_losses_twice() -> None:
    """M19, RFF-P8."""
    from referee.plugins.rff import maneuver

    game = mustered(DRILLS / "drill-rff-ground.toml")
    state = game.state
    piece = state.pieces["us-regiment"]
    maneuver.lose_stands(game, state, piece, 6, "test", "other")  # 6 of 10: spent, and half its 'brigade'
    assert maneuver.effectiveness(state, piece) == "spent"
    assert maneuver.brigade_losses(game, state, piece) is None


def test_an_enfiladed_mounted_cavalry_target_is_plus_three() -> None:
    """M15, RFF-P32: the +1 cavalry and +2 enfiladed rows add up."""
    game = mustered("drill-cavalry")
    state = game.state
    cavalry, foot = state.pieces["us-cavalry"], state.pieces["cs-regiment"]
    cavalry.formation, cavalry.facing = "line", 0.0
    foot.x, foot.y = cavalry.x + 150.0, cavalry.y - 50.0  # on its right flank, a little behind
    mods = fire.die_modifiers(game, state, shot(game, "cs-regiment", "us-cavalry", 4.0))
    assert sum(m.value for m in mods if m.name.startswith(("Troop target", "March column"))) == 3


# ----------------------------------------------------------------------------- optional rules that now change play

GUNS = DRILLS / "drill-rff-guns.toml"


def _gun_order(game: Game, uid: str, dy: float, effect: str = "well-handled") -> Any:
    from referee.plugins.rff import maneuver

    piece = game.state.pieces[uid]
    piece.effect = effect
    maneuver.apply(game, game.state, piece, _intent("advance", (piece.x, piece.y + dy), None), effect, {})
    return piece


@pytest.mark.parametrize("options, hauled", [((), True), (("no-optional-weapons",), False)])
def test_a_mountain_howitzer_hand_hauls_three_inches(options: tuple[str, ...], hauled: bool) -> None:
    """QRS II: hand haul 1.5", 3" if MH (optional weapons). 100 yards (2.7") is within an MH's
    haul; without the optional weapons it is a light howitzer, which must limber to go there."""
    game = mustered(GUNS, *options)
    gun = _gun_order(game, "mountain-howitzers", 100.0)
    assert (gun.formation, gun.moved, gun.y) == (("unlimbered", "hand-haul", 300.0) if hauled else ("limbered", "full", pytest.approx(300.0)))


@pytest.mark.parametrize("options, hauled", [((), False), (("no-heavy-gun-restrictions",), True)])
def test_heavy_guns_never_hand_haul(options: tuple[str, ...], hauled: bool) -> None:
    game = mustered(GUNS, *options)
    gun = _gun_order(game, "heavy-howitzers", 50.0)
    assert (gun.moved == "hand-haul") is hauled


@pytest.mark.parametrize("options, inches", [((), 9), (("no-heavy-gun-restrictions",), 14)])
def test_heavy_guns_are_never_horse_artillery(options: tuple[str, ...], inches: int) -> None:
    """Restrictions on heavy field guns: 'Neither weapon type may be used as horse artillery';
    a 20-pdr Parrott the scenario mounts moves at the field gun rate (9"), not the horse (14")."""
    from referee.plugins.rff import move

    game = mustered(GUNS, *options)
    gun = game.state.pieces["horse-parrotts"]
    assert move.rate_yards(game, game.state, gun, "full", (gun.x, gun.y + 1000.0)) == pytest.approx(inches * 37.5)


@pytest.mark.parametrize("options, sight", [(("plunging-fire",), "plunging-at"), ((), None)])
def test_plunging_fire_at_a_target_deep_in_woods_on_high_ground(options: tuple[str, ...], sight: str | None) -> None:
    """M24: guns on low ground fire into woods on a hill under the option (at -2, full cover);
    without it the woods block the shot."""
    game = mustered(DRILLS / "drill-rff-plunge.toml", *options)
    state = game.state
    aimed = fire.aim(game, state, state.pieces["battery"], True, "cs-regiment", None)
    assert (aimed.sight if aimed else None) == sight
    if aimed:
        assert [m.value for m in fire.die_modifiers(game, state, aimed) if m.name.startswith("Full cover")] == [-2]


TETHERED = DRILLS / "drill-rff-tethered.toml"


@pytest.mark.parametrize("options, mounted, y", [(("tethered-horses",), True, 1000.0 - 18 * 37.5), ((), False, 1000.0 - 12 * 37.5)])
def test_broken_mounted_infantry_run_to_their_horses_and_remount(options: tuple[str, ...], mounted: bool, y: float) -> None:
    """Tethered horses: a broken dismounted unit full retreats to its marker, remounts there and
    retreats the whole distance at the mounted rate (cavalry broken, 18"); without the rule it
    retreats on foot (12")."""
    from referee.plugins.rff import move

    game = mustered(TETHERED, *options)
    piece = game.state.pieces["mounted-infantry"]
    assert ("mounted-infantry" in game.state.horses) is mounted
    piece.status = "broken"
    move.full_retreat(game, game.state, piece)
    assert (piece.unit.mounted, piece.y) == (mounted, pytest.approx(y))


def test_an_enemy_through_the_marker_takes_the_horses() -> None:
    from referee.plugins.rff import move

    game = mustered(TETHERED, "tethered-horses")
    state = game.state
    piece, enemy = state.pieces["mounted-infantry"], state.pieces["cs-regiment"]
    mx, my = state.horses["mounted-infantry"]
    piece.x = 100.0  # gone off to the west; the horses stay tied where they were
    enemy.x, enemy.y = mx + 300.0, my
    move.advance(game, state, enemy, (mx - 300.0, my), 600.0)
    assert "mounted-infantry" not in state.horses
    piece.status = "broken"
    move.full_retreat(game, state, piece)
    assert not piece.unit.mounted and piece.y == pytest.approx(1000.0 - 12 * 37.5)


def test_a_battery_that_may_not_mass_fires_at_another_target() -> None:
    """M22, RFF-P34: under massed-artillery, the second battery on a target with no artillery
    leader picks another target instead of holding its fire."""
    game, shots = _two_batteries_on_1st_vt(hidden=False)
    assert [s.target.id for s in shots] == ["1st-vt", "1st-vt"]
    kept = fire._massed_artillery(game, game.state, shots)
    assert [s.target.id for s in kept] == ["1st-vt", "4th-ma"]


def test_a_battery_that_may_not_mass_passes_over_a_concealed_target() -> None:
    """RFF-P34 with concealment: the other target a battery that may not mass turns to is chosen
    under the half-phase's limits: every other enemy concealed, the battery holds its fire."""
    game, shots = _two_batteries_on_1st_vt(hidden=True)
    assert [s.target.id for s in shots] == ["1st-vt", "1st-vt"]
    assert [s.target.id for s in fire._massed_artillery(game, game.state, shots)] == ["1st-vt"]


def _two_batteries_on_1st_vt(hidden: bool) -> tuple[Any, list[Any]]:
    """Big Bethel under massed-artillery: both Confederate batteries aim at the 1st Vermont, the
    4th Massachusetts stands near it (every Union unit but the 1st Vermont concealed if
    ``hidden``), and no leader is an artillerist."""
    game = mustered("big-bethel", "massed-artillery")
    state = game.state
    first, second = state.pieces["parrott-gun"], state.pieces["road-howitzer"]
    a, b = state.pieces["1st-vt"], state.pieces["4th-ma"]
    for gun in (first, second):
        gun.facing = 180.0
    a.x, a.y = first.x, first.y - 700.0
    b.x, b.y = first.x + 150.0, first.y - 750.0
    if hidden:
        for p in state.enemies_of("confederate"):
            p.unit.hidden = p is not a
    state.changed()
    shots = [s for s in (fire.aim(game, state, g, True, "1st-vt", None) for g in (first, second)) if s]
    for ld in state.leaders.values():
        ld.traits = tuple(t for t in ld.traits if t != "artillerist")
    return game, shots
