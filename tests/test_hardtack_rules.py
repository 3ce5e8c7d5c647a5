"""Hardtack rules as written (issue 9, the rules audit's hardtack findings): each test fails
when the fix it guards is undone."""

from __future__ import annotations

import math
from typing import Any

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario


def mustered(scenario_id: str = "big-bethel", seed: int = 1, log: EventLog | None = None) -> Game:
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario(scenario_id)), seed, log)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game


def test_a_lone_gun_is_a_company_with_no_commander_of_its_own() -> None:
    """HT-O3 (audit M12): p.4 activates a single piece like an infantry company; a section or a
    battery has a command stand. In play no lone gun is given a transferred action."""
    game = mustered()
    regs = game.state.regiments
    lone = [r for r in regs.values() if r.unit.spec.arm == "artillery" and r.unit.spec.guns == 1]
    assert len(lone) == 6 and not any(r.commander for r in lone)
    assert regs["greble-guns"].commander
    log = EventLog(enabled=True)
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 7, log)
    play(game)
    ids = {r.id for r in lone}
    assert not [e for e in log.events if e.get("kind") in ("transfer", "commander", "rally") and e.get("unit") in ids]


def test_cultivated_fields_are_poor_going_for_every_mover() -> None:
    """p.14 (audit M10, HT-M9): "POOR = Rough, Cultivated, ..." for infantry, cavalry and guns
    limbered or not; Big Bethel's farm fields cost two inches of movement an inch, the open
    ground no area covers one."""
    from referee.plugins.hardtack import move

    game = mustered()
    t = game.state.tables
    assert all(t["movement"]["terrain"][m]["fields"] == "poor" for m in ("infantry", "mounted", "limbered", "unlimbered"))
    c = game.state.regiments["3rd-ny"].companies[0]
    c.x, c.y = 1000.0, 900.0
    c.form("skirmish")
    yards, kinds, worst = move.walk(game, t, c, 1000.0, 1200.0, 6)
    assert (round(yards), worst, kinds) == (30, "poor", frozenset({"fields"}))
    c.x, c.y = 1000.0, 300.0  # HT-M9: ground no area covers (the neutral "fields") is open, clear going
    assert game.ground.kind_at(c.x, c.y) == "fields"
    assert move.walk(game, t, c, 1000.0, 500.0, 6) == (60.0, frozenset(), "clear")


def test_a_target_in_travel_mode_counts_one_range_band_closer() -> None:
    """HT-M8 (audit M11; SG2 p.24, FACTS A.4): band 2 reads as band 1, for small arms, shot and
    canister; the first band stays the first and a target beyond the fifth stays out of reach."""
    from referee.plugins.hardtack import mechanics
    from referee.plugins.hardtack.tables import load_tables

    t = load_tables()
    die = lambda r, travel: mechanics.fire_range_die(t, 8, r, "none", "skirmish", "rifle-musket", travel=travel)[0]
    assert (die(12, False), die(12, True)) == (6, 4)  # 12" is band 2 of a D8 company's 8" bands
    assert (die(36, False), die(36, True)) == (12, 10)
    assert die(6, True) == die(6, False) == 4
    assert die(41, True) is None
    shot = lambda r, travel: mechanics.shot_range_die(t, r, "12-pdr-napoleon", "none", "skirmish", travel=travel)[0]
    assert (shot(50, False), shot(50, True)) == (8, 6)
    can = lambda r, travel: mechanics.canister_range_die(t, r, "12-pdr-napoleon", "none", "skirmish", travel=travel)[0]
    assert (can(20, False), can(20, True)) == (8, 6)


def _drill_column(seed: int = 1) -> tuple[Game, Any, Any]:
    """drill-musketry (open ground): the Union regiment taken back 200 yards and its first company
    marched off in column; the first Confederate company."""
    from referee.core.engine.doctrine import Intent
    from referee.plugins.hardtack import activation

    game = mustered("drill-musketry", seed, EventLog(enabled=True))
    state = game.state
    union = state.by_side["union"][0]
    for f in union.companies:
        f.y -= 200.0
    c, e = union.companies[0], state.by_side["confederate"][0].companies[0]
    c.facing, start = 0.0, c.y
    c.form("column")
    activation.action(game, state, c, Intent("advance", goal=(500.0, 400.0), formation="column"), 0, [])
    assert c.y > start
    return game, c, e


def test_a_column_on_the_x2_is_in_travel_mode_until_it_next_activates() -> None:
    """HT-M8: a column's Move in clear ground goes twice its normal move (p.14) and puts it in
    travel mode; its next activation takes it out."""
    from referee.core.engine.game import Step
    from referee.plugins.hardtack import activation

    game, c, _ = _drill_column()
    assert c.y - (game.state.by_side["union"][0].companies[1].y) == pytest.approx(120.0, abs=0.01) and c.travel  # 6" x 2 = 120 yards
    game.state.intents = {"union": {}, "confederate": {}}
    activation.play_step(game, Step("activation", "activate-company", "union", c.id))
    assert not c.travel


def test_fire_at_a_column_in_travel_mode_always_makes_it_test() -> None:
    """HT-M8: fire with no die over the range die still costs a travelling company the 1/0/NTR
    "fired on" test (SG2: travel mode always takes suppression; Hardtack p.12)."""
    from referee.plugins.hardtack import fire

    for seed in range(40):
        game, c, e = _drill_column(seed)
        e.x, e.y = c.x, c.y + 150
        fire.fire(game, game.state, e, c)
        shots = [ev for ev in game.log.events if ev.get("mechanic") == "fire"]
        if shots and shots[-1]["values"]["over"] == 0:
            assert any(ev.get("kind") == "travel" for ev in game.log.events)
            assert any(ev.get("mechanic") == "confidence" and ev.get("unit") == c.id for ev in game.log.events)
            return
    pytest.fail("no volley without effect in 40 seeds")


def _turn_sides(game: Game) -> list[str]:
    """The side of every activation step of one turn, played."""
    from referee.plugins.hardtack import activation

    out = []
    for step in activation.turn(game):
        activation.play_step(game, step)
        if step.name.startswith("activate"):
            out.append(step.side)
    return out


def test_the_side_that_wins_the_initiative_activates_first() -> None:
    """HT-T1/HT-T2: the roll-off's winner opens the turn; nobody passes before anyone has acted."""
    for seed in range(1, 7):
        game = mustered("big-bethel", seed, EventLog(enabled=True))
        sides = _turn_sides(game)
        first = next(e for e in game.log.events if e.get("mechanic") == "initiative")["values"]["first"]
        assert sides[0] == first


def test_the_smaller_side_spreads_its_activations_through_the_turn() -> None:
    """HT-T2 (SG2 alternation, FACTS A.4): 11 companies against 4, each activating alone: the
    smaller side passes only to keep pace, so the larger never gets more than three in a row
    (11 / 4, rounded up) while the smaller has companies left, and the smaller side's last
    activation comes late in the turn, not after the larger side's long opening run."""
    game = mustered("drill-musketry", 2)
    state = game.state
    for c in state.companies.values():
        c.form("skirmish")  # no Activate Regiment: every company activates alone
    for c in state.by_side["confederate"][0].companies[4:]:
        c.figures = 0
    state.forget()
    sides = _turn_sides(game)
    assert sides.count("union") == 11 and sides.count("confederate") == 4
    last_cs = max(i for i, s in enumerate(sides) if s == "confederate")
    runs, n = [], 0
    for i, s in enumerate(sides[:last_cs]):
        n = n + 1 if i and s == sides[i - 1] else 1
        runs.append((s, n))
    assert max(n for s, n in runs if s == "union") <= 3
    assert last_cs >= 11


def test_play_reads_the_scale_from_the_tables(tmp_path: Any) -> None:
    """Every distance in play comes from [scale] (yards_per_inch, p.1; command_inches, p.7 and
    p.11), so a data house rule can change them: at 20 yards an inch a 6" move is 120 yards and
    fire reaches twice as far; a 1" command reaches fewer companies than 6"."""
    from referee.plugins.hardtack import activation, fire, move

    overlay = tmp_path / "big-inches.toml"
    overlay.write_text("[scale]\nyards_per_inch = 20\ncommand_inches = 1\n", encoding="utf-8")
    plain, house = mustered("drill-musketry"), Game.new(build_rules("hardtack", house_rules=[overlay]),
                                                        load_scenario(find_scenario("drill-musketry")), 1)
    house.state = house.rules.pm.hook.referee_muster(game=house)
    walks, reaches, members = [], [], []
    for game in (plain, house):
        t, reg = game.state.tables, game.state.by_side["union"][0]
        c = reg.companies[0]
        walks.append(move.walk(game, t, c, c.x, c.y - 500.0, 6)[0])
        reaches.append(fire.reach_yards(t, c))
        members.append(len(activation.members(t, reg)))
    assert walks == [60.0, 120.0] and reaches[1] == 2 * reaches[0]
    assert members[1] < members[0]
    games = [Game.new(build_rules("hardtack", house_rules=hr), load_scenario(find_scenario("drill-musketry")), 3, EventLog(enabled=True))
             for hr in ((), [overlay])]
    for game in games:
        play(game)
    assert games[0].log.jsonl() != games[1].log.jsonl()


def test_the_light_limits_what_a_company_can_see_to_fire_at() -> None:
    """HT-V1: unlimited by day; from sunset to dusk (sunset + 30 when the scenario gives none)
    falling from 1,800 to 450 yards; after dusk 150 yards on a moonless night. A company 200
    yards from an enemy fires by day and finds no target at night."""
    from referee.plugins.hardtack import fire, geometry

    game = mustered("drill-musketry", 1, EventLog(enabled=True))
    sunset = game.scenario.light.sunset
    seen = []
    for minute in (sunset - 3, sunset, sunset + 15, sunset + 30, sunset + 60):
        game.world.minute = minute
        seen.append(geometry.visibility(game))
    assert seen == [float("inf"), 1800.0, 1125.0, 150.0, 150.0]
    state = game.state
    c, e = state.by_side["union"][0].companies[5], state.by_side["confederate"][0].companies[5]
    targets = []
    for minute in (sunset - 3, sunset + 45):
        game.world.minute = minute
        game.rules.pm.hook.referee_turn(game=game)
        targets.append(fire.choose_target(game, state, c, [e], None))
    assert targets == [e, None]
    assert any(ev.get("kind") == "light" for ev in game.log.events)


def test_one_rally_action_rallies_the_whole_regimental_formation() -> None:
    """p.11 (audit M28, HT-R1): "The Rally action can be used on an entire regimental formation",
    a roll for each company; the commander rallies a wavering formation rather than activate it."""
    from referee.plugins.hardtack import activation
    from referee.plugins.hardtack.state import SHAKEN

    game = mustered("drill-musketry", 1, EventLog(enabled=True))
    state = game.state
    reg = state.by_side["union"][0]
    near = [c for c in reg.companies if ((c.x - reg.x) ** 2 + (c.y - reg.y) ** 2) ** 0.5 <= state.tables.command_yards]
    assert len(near) >= 3
    for c in near[:3]:
        c.level = SHAKEN
    state.queue, state.cursor, state.reg_cursor = {"union": [], "confederate": []}, {"union": 0, "confederate": 0}, {"union": 0}
    state.intents = {"union": {}, "confederate": {}}
    step = activation._next(game, state, "union")
    assert step is not None and step.name == "rally"
    activation.play_step(game, step)
    rolled = {ev["unit"] for ev in game.log.events if ev.get("mechanic") == "reaction" and ev.get("kind") == "resolution"}
    assert {c.id for c in near[:3]} <= rolled


def test_an_unlimbered_gun_with_one_figure_left_moves_two_inches() -> None:
    """p.14 (audit M27): "If there is only one figure left to move the gun, the gun can only move 2"."""
    from referee.plugins.hardtack import move

    game = mustered()
    gun = game.state.regiments["greble-guns"].companies[0]
    t = game.state.tables
    assert gun.formation == "unlimbered" and move.base_inches(t, gun) == 4
    gun.figures = 1
    assert move.base_inches(t, gun) == 2


def test_a_bounced_shot_strikes_only_what_stands_in_its_line_of_fire() -> None:
    """HT-S3: the ball bounces on along its line of fire. Fired square at a line of companies
    side by side, it strikes none of the target's neighbours (they stand beside its path, though
    some are further from the gun); a company standing behind the target in the path is struck."""
    from referee.plugins.hardtack import fire

    def struck(gun: Any, target: Any) -> list[str]:
        game.log = EventLog(enabled=True)
        fire._bounce(game, state, fire.Shot(gun, target, "shot", 90.0))
        return [e["target"] for e in game.log.events if e.get("mechanic") == "shot"]

    game = mustered()
    state = game.state
    gun = state.regiments["parrott-gun"].companies[0]
    line = state.regiments["7th-ny"].companies
    target = line[len(line) // 2]
    gun.x, gun.y = target.x + 30.0, target.y + 900.0  # a little off square: the neighbours on one side are further off
    assert any(fire.geo.dist(gun, c) > fire.geo.dist(gun, target) for c in line if c is not target)
    assert struck(gun, target) == []
    behind = state.regiments["1st-ny"].companies[0]
    behind.x, behind.y = target.x - 2.0, target.y - 60.0  # 60 yards behind, on the line of fire
    assert struck(gun, target) == [behind.id]
    reach = state.tables["artillery"]["bounce_inches"] * state.tables.yards_per_inch
    behind.y = target.y - reach - 30.0  # beyond the bounce's reach
    assert struck(gun, target) == []


def _at_range(stand: float):  # type: ignore[no-untyped-def]
    """Drill musketry: the Union regiment in line, the Confederate one ``stand`` yards ahead of
    its centre, facing it; an advance on it whose order keeps ``stand`` yards (its range)."""
    from referee.core.engine.doctrine import Intent
    from referee.plugins.hardtack import activation

    game = mustered("drill-musketry", 1, EventLog(enabled=True))
    state = game.state
    us, cs = state.regiments["us-regiment"], state.regiments["cs-regiment"]
    state.forget()
    ux, uy = activation.centre(state, us)
    ex, ey = activation.centre(state, cs)
    for c in cs.companies:
        c.x, c.y = c.x - ex + ux, c.y - ey + uy + stand
    state.forget()
    state.centres.clear()
    state.kept_centres.clear()
    intent = Intent("advance", activation.centre(state, cs), cs.id, "line", "engage", standoff=stand)
    state.intents = {"union": {us.id: intent}, "confederate": {}}
    return game, state, us, intent


def test_an_advance_at_its_orders_range_fires_rather_than_make_a_move_of_no_yards() -> None:
    """An advance that stands at its order's range (or finds its way shut) makes no Move: a
    company fires on the action it would have spent going nowhere, whether it acts alone or in
    its regimental formation (which then fires, and reloads, in one activation)."""
    from referee.core.engine.game import Step
    from referee.plugins.hardtack import activation

    game, state, us, intent = _at_range(150.0)
    c = us.companies[0]
    where = (c.x, c.y)
    enemies = [e for e in state.enemies("union") if e.alive]
    activation.action(game, state, c, intent, 0, enemies)
    assert (c.x, c.y) == where and c.reload  # it fired (and must reload), and did not move
    assert [ev["unit"] for ev in game.log.events if ev.get("mechanic") == "fire"] == [c.id]

    game, state, us, intent = _at_range(150.0)
    group = activation.members(state.tables, us)
    assert len(group) > 1
    places = [(c.x, c.y) for c in group]
    activation.play_step(game, Step("activation", "activate-regiment", "union", us.id))
    fired = [ev["unit"] for ev in game.log.events if ev.get("mechanic") == "fire"]
    assert sorted(fired) == sorted(c.id for c in group)  # each fired once, on its first action
    assert not any(c.reload for c in group)  # and reloaded on its second
    assert all(math.dist(p, (c.x, c.y)) < 0.1 for p, c in zip(places, group, strict=True))  # (the centre's range, within rounding)
