"""sumter's rules that play seldom meets, set up by hand: house rules' modifiers, successive
waves, snipers, uncontrolled charges, manhandled guns, interpenetration, losses by cause."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from typing import Any

import pytest
from attrs import evolve
from referee.core.engine.chance import SampledRoller
from referee.core.engine.doctrine import Intent
from referee.core.engine.events import EventLog, Modifier, Resolution, jsonable
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
from referee.plugins.sumter import combat, morale, move
from referee.plugins.sumter.geometry import Foes

SECOND = """
[[units]]
id = "us-second"
name = "US second regiment"
side = "union"
command = "us-brigade"
arm = "infantry"
men = 500
position = [500, 200]
facing = 0
formation = "line"
experience = "trained"
weapon = "rifle-musket"
"""


class Steady:
    """A house rule: +20 on every test to charge (so every charge goes in)."""

    @hookimpl
    def referee_modifiers(self, mechanic: str, situation: Any) -> list[Modifier]:
        return [Modifier("steady", 20, "house")] if mechanic == "unit-morale" else []


def _game(*plugins: object, text: str = "", scenario: str = "drill-charge-battery", seed: int = 1) -> Game:
    rules = build_rules("sumter")
    for i, plugin in enumerate(plugins):
        rules.register(plugin, name=f"house-{i}")
    source = find_scenario(scenario).read_text(encoding="utf-8")
    if text:
        source = source.replace("\n[[units]]", text + "\n[[units]]", 1)
    game = Game.new(rules, parse_scenario(source, "test.toml"), seed, EventLog(enabled=True))
    game.state = rules.muster(game)
    return game


def _resolutions(game: Game, mechanic: str) -> list[dict[str, Any]]:
    return [e for e in game.log.events if e["kind"] == "resolution" and e["mechanic"] == mechanic]


def test_successive_waves_of_a_brigade_charge_add_one_each_and_house_modifiers_reach_the_test() -> None:
    game = _game(Steady(), text=SECOND)
    state = game.state
    for p in state.by_side["union"]:
        p.brigade.order = "assault"
    state.pieces["us-regiment"].unit.y = state.pieces["us-second"].unit.y = 470.0
    state.intents = {"union": {uid: Intent("charge", target="cs-battery") for uid in ("us-regiment", "us-second")}}
    move.charge_step(game, state, "union")
    tests = [e for e in _resolutions(game, "unit-morale") if e["values"]["column"] == "charge"]
    assert [e["inputs"]["wave"] for e in tests] == [0, 1]
    assert all(any(m["name"] == "steady" for m in e["modifiers"]) for e in tests)
    assert [m["value"] for m in tests[1]["modifiers"] if m["name"].startswith("charge-wave")] == [1]


def test_each_army_has_one_sniper_who_fires_once_a_fire_phase() -> None:
    log = EventLog(enabled=True)
    play(Game.new(build_rules("sumter"), load_scenario(find_scenario("drill-musketry")), 3, log))
    snipes: dict[tuple[int, str], int] = {}
    for e in log.events:
        if e["kind"] == "resolution" and "SU-F11" in e["rulings"]:
            assert e["mechanic"] == "skirmish-fire" and e["values"]["dice"] == 1
            # the sniper's die is logged: its face is the score, a hit on 5 or 6
            assert len(e["dice"]) == 1 and e["total"] == e["dice"][0] and (e["dice"][0] >= 5) == (e["values"]["table_hits"] == 1)
            side = "union" if e["unit"].startswith("us") else "confederate"
            snipes[e["turn"], side] = snipes.get((e["turn"], side), 0) + 1
    assert snipes and set(snipes.values()) == {1}


class MeleeEnds:
    """A house rule: every melee round ends with side a winning as ``result`` says (the values of
    a melee resolution that differ from the roll's)."""

    def __init__(self, **result: Any) -> None:
        self.result = {"winner": "a", "loser": "b", "winner_dp": 1, "a_lost": 0, "cavalry_retire": False, **result}

    @hookimpl
    def referee_resolved(self, mechanic: str, resolution: Resolution) -> Resolution | None:
        if mechanic != "melee":
            return None
        return evolve(resolution, values={**resolution.values, **self.result})


PUSHED_BACK = {"result": "pushed-back", "dps": 2, "b_lost": 1, "pursuit": False, "follow_up": "may"}
DISPERSED = {"result": "disperse", "dps": 3, "b_lost": 0, "pursuit": True, "follow_up": ""}


class Chooser:
    def __init__(self) -> None:
        self.asked: list[str] = []

    @hookimpl(tryfirst=True)
    def referee_choose(self, question: str) -> None:
        self.asked.append(question)


def test_foot_that_push_back_may_follow_up_and_melee_losses_are_charge() -> None:
    chooser = Chooser()
    game = _game(MeleeEnds(**PUSHED_BACK), chooser, scenario="drill-musketry")
    state = game.state
    a, b = state.by_side["union"][0], state.by_side["confederate"][0]
    a.melee, b.melee = b.id, a.id
    state.melees = [(a, b)]
    combat.melee_step(game, state)
    assert "follow-up" in chooser.asked
    assert [(e["unit"], e["cause"]) for e in game.log.events if e["kind"] == "lost"] == [(b.id, "charge")]


def test_a_pursuer_with_nobody_left_charges_uncontrolled_or_stands() -> None:
    game = _game(scenario="drill-charge-battery")
    state = game.state
    p = state.pieces["us-regiment"]
    p.unit.facing = 0.0  # the battery, north of it, is ahead
    move.uncontrolled(game, state, p)
    assert any(e["kind"] == "uncontrolled-charge" and e["target"] == "cs-battery" for e in game.log.events)
    assert not [e for e in _resolutions(game, "unit-morale") if e["values"]["column"] == "charge"]  # no test to charge
    assert [e["values"]["column"] for e in _resolutions(game, "unit-morale")] in ([], ["charged"])
    behind = _game(scenario="drill-charge-battery")  # nobody within 45 degrees of its front: it stands with 1 DP
    p = behind.state.pieces["us-regiment"]
    p.unit.facing = 180.0
    move.uncontrolled(behind, behind.state, p)
    assert p.dps == 1 and not any(e["kind"] == "uncontrolled-charge" for e in behind.log.events)


def test_the_compulsory_move_leaves_a_pursuer_whose_quarry_has_gone_standing_with_nobody_ahead() -> None:
    game = _game()
    state = game.state
    p, battery = state.pieces["us-regiment"], state.pieces["cs-battery"]
    battery.state, p.pursuing, p.unit.facing = "gone", battery.id, 0.0
    move.compulsory_step(game, state)
    assert p.pursuing is None and p.dps == 1 and p.moved == 0


def test_a_field_battery_manhandles_within_two_inches_and_a_foot_battery_then_may_not_fire() -> None:
    game = _game(scenario="drill-charge-battery")
    state = game.state
    battery = state.pieces["cs-battery"]
    battery.brigade.order = "engage"
    x, y = battery.unit.x, battery.unit.y
    move.move(game, state, battery, Intent("advance", goal=(x, y - 40.0)), state.enemies(battery.side))
    assert battery.unit.formation == "unlimbered" and abs(battery.unit.y - (y - 40.0)) < 1e-6
    assert not combat.may_fire(state, battery)
    assert any(e["kind"] == "manhandle" for e in game.log.events)
    far = _game(scenario="drill-charge-battery")
    b2 = far.state.pieces["cs-battery"]
    b2.brigade.order = "engage"
    move.move(far, far.state, b2, Intent("advance", goal=(x, y - 200.0)), far.state.enemies(b2.side))
    assert b2.unit.formation == "limbered"


def test_order_foot_passing_through_a_deployed_battery_take_two_dps() -> None:
    game = _game()
    state = game.state
    battery, p = state.pieces["cs-battery"], state.pieces["us-regiment"]
    battery.unit.spec = evolve(battery.unit.spec, side="union")
    state.by_side["union"].append(battery)
    state.batteries.setdefault("union", []).append(battery)
    bx, by = battery.unit.x, battery.unit.y
    p.unit.x, p.unit.y = bx + 10.0, by + 100.0  # moved from 100 yards short of the battery to 100 beyond it
    move.pass_batteries(game, state, p, bx + 10.0, by - 100.0)
    assert p.dps == 2 and [e["kind"] for e in game.log.events if e["kind"] == "interpenetrate"] == ["interpenetrate"]
    move.pass_batteries(game, state, p, bx + 100.0, by - 100.0)  # a path 60 yards and more wide of it
    p.unit.x = bx + 100.0
    move.pass_batteries(game, state, p, bx + 100.0, by - 100.0)
    assert p.dps == 2


def test_a_retreating_unit_ending_on_a_friend_goes_on_until_clear() -> None:
    game = _game(text=SECOND)
    state = game.state
    front, behind = state.pieces["us-regiment"], state.pieces["us-second"]
    front.unit.x, front.unit.y = behind.unit.x, behind.unit.y + 5.0
    move.clear_friends(game, state, front)
    assert abs(front.unit.y - behind.unit.y) > state.yards(state.tables["scale"]["contact_inches"]) or not front.unit.on_field


def test_a_retreat_through_a_column_of_friends_goes_on_past_them_all() -> None:
    """Friends stacked behind a retreating unit, each within contact of the last, and one beside
    its line: it walks back past every friend on its line (met one after another) and ends clear of
    them all (SU-G5)."""
    extra = "".join(SECOND.replace("us-second", f"us-{k}") for k in ("second", "third", "fourth", "beside"))
    game = _game(text=extra)
    state = game.state
    contact = state.yards(state.tables["scale"]["contact_inches"])
    front = state.pieces["us-regiment"]
    x, y = 500.0, 600.0
    front.unit.x, front.unit.y = x, y
    for k, name in enumerate(("second", "third", "fourth"), start=1):
        state.pieces[f"us-{name}"].unit.x, state.pieces[f"us-{name}"].unit.y = x, y - k * 0.8 * contact
    beside = state.pieces["us-beside"].unit
    beside.x, beside.y = x + 3 * contact, y - 4 * 0.8 * contact  # off its line: never in its way
    move.clear_friends(game, state, front)
    friends = [p for p in state.pieces.values() if p.side == "union" and p is not front]
    assert front.unit.on_field and front.unit.y < y - 3 * 0.8 * contact
    assert all(math.hypot(p.unit.x - front.unit.x, p.unit.y - front.unit.y) > contact for p in friends)


def test_the_situation_exchange_is_one_throw_on_the_shooting_table_read_exactly() -> None:
    """500 trained men in line at 200 yards (7" beyond contact: effective range for rifle
    muskets, 8"): 25 figures on the Shooting Casualties table at trained -1; hits beyond the
    target's 3 DPs take figures of 20 men. The same odds as the mechanic read directly."""
    from fractions import Fraction

    from referee.core.engine.chance import exact
    from referee.core.studies.situation import Situation, exchange, field_of
    from referee.plugins.sumter import mechanics
    from referee.plugins.sumter.tables import load_tables

    s = Situation()
    offered = exchange(build_rules("sumter"), field_of(s), s)
    assert offered is not None and "musketry" in offered.what
    got = exact(offered.mechanic)
    i = {"figures": 25, "grade": "trained", "weapon": "rifle-musket", "range": "effective", "formation": "line", "dps": 0,
         "fired_last": False, "mounted": False, "low_ammo": False, "pour": False, "target": "line", "cover": "none", "close_up": False}
    direct = exact(lambda roller: mechanics.fire(roller, load_tables(), i).values["hits"])
    want: dict[int, Fraction] = {}
    for hits, p in direct:
        want[20 * max(0, hits - 3)] = want.get(20 * max(0, hits - 3), Fraction(0)) + p
    assert {r.lost[1]: p for r, p in got} == {k: v for k, v in want.items() if v}
    assert max(want) > 0 and exchange(build_rules("sumter"), field_of(evolve(s, charge=True)), evolve(s, charge=True)) is None


def test_losses_to_guns_are_canister_within_canister_range_and_shot_or_shell_beyond() -> None:
    from referee.plugins.sumter.tables import load_tables

    t = load_tables()  # the farthest canister reaches, and the 5" its bounce-thru goes on behind the target
    inches = max(band[0] for band in t["artillery"]["bands"].values()) + t["scale"]["contact_inches"] + t["artillery"]["bounce_inches"]
    reach = inches * t.scale.yards_per_inch
    causes: dict[str, list[int]] = {}
    for scenario in ("valverde", "kernstown"):
        log = EventLog(enabled=True)
        play(Game.new(build_rules("sumter"), load_scenario(find_scenario(scenario)), 1, log))
        for e in log.events:
            if e["kind"] == "lost":
                causes.setdefault(e["cause"], []).append(e.get("yards", 0))
    assert {"canister", "shot-or-shell", "musketry"} <= set(causes)
    assert max(causes["canister"]) <= reach + 1 < max(causes["shot-or-shell"])


def test_the_pursuit_test_is_taken_after_the_beaten_unit_disperses() -> None:
    game = _game(MeleeEnds(**DISPERSED))
    state = game.state
    a, b = state.pieces["us-regiment"], state.pieces["cs-battery"]
    a.melee, b.melee = b.id, a.id
    state.melees = [(a, b)]
    combat.melee_step(game, state)
    assert b.state == "gone" and len(_resolutions(game, "pursuit")) == 1


@pytest.mark.parametrize("gun, cost", [("12-pdr-napoleon", Fraction(1, 2)), ("20-pdr-parrott", Fraction(1)), ("siege", Fraction(1))])
def test_a_heavy_field_battery_limbers_in_a_whole_move(gun: str, cost: Fraction) -> None:
    # "Limber/Unlimber Artillery 1/2", "Limber/Unlimber Heavy Field Battery 1" (ruling SU-G8)
    game = _game(scenario="drill-charge-battery")
    state = game.state
    battery = state.pieces["cs-battery"]
    battery.unit.spec = evolve(battery.unit.spec, gun_type=gun)
    battery.brigade.order = "engage"
    assert move.change_cost(state, battery, "limbered") == cost
    x, y = battery.unit.x, battery.unit.y
    move.move(game, state, battery, Intent("advance", goal=(x, y - 400.0)), state.enemies(battery.side))
    assert battery.unit.formation == "limbered"
    if cost == 1:  # the whole move spent limbering: the battery stays where it was
        assert battery.moved == 1.0 and (battery.unit.x, battery.unit.y) == (x, y)
    else:  # half the move left to go on with
        assert battery.unit.y < y


def _optioned(*options: str, scenario: str = "drill-musketry") -> Game:
    rules = build_rules("sumter", options=options)
    game = Game.new(rules, load_scenario(find_scenario(scenario)), 1, EventLog(enabled=True))
    game.state = rules.muster(game)
    return game


@pytest.mark.parametrize("option, as_dps", [("", 2), ("every-hit-a-casualty", 0), ("hits-fill-dps-to-the-cap", 3)])
def test_the_readings_of_su_d1_split_hits_into_dps_and_figures(option: str, as_dps: int) -> None:
    # SU-D1: hits fill DPs to 3 (default), to the cap of 5, or every hit is a figure
    game = _optioned(*([option] if option else []))
    p = next(iter(game.state.pieces.values()))
    p.dps, figures = 1, p.figures
    combat.take_hits(game, game.state, p, 3, "musketry", 100)
    assert p.dps == 1 + as_dps and figures - p.figures == 3 - as_dps


@pytest.mark.parametrize("option, grade", [("", "raw"), ("green-as-trained", "trained")])
def test_green_units_are_raw_or_with_the_option_trained(option: str, grade: str) -> None:
    game = _optioned(*([option] if option else []), scenario="big-bethel")
    greens = [p for p in game.state.pieces.values() if p.unit.spec.experience == "green"]
    militia = [p for p in game.state.pieces.values() if p.unit.spec.experience == "militia"]
    assert greens and {p.grade for p in greens} == {grade} and {p.grade for p in militia} == {"raw"}


@pytest.mark.parametrize("option, tests", [("", 0), ("test-when-hit", 1)])
def test_a_unit_that_took_only_dps_tests_with_the_option(option: str, tests: int) -> None:
    game = _optioned(*([option] if option else []))
    p = next(iter(game.state.pieces.values()))
    combat.take_hits(game, game.state, p, 1, "musketry", 100)  # one hit: a DP, no figure
    assert p.lost == 0 and p.dps == 1
    morale.morale_step(game, game.state)
    assert [e["unit"] for e in _resolutions(game, "unit-morale")] == [p.id] * tests


def test_a_unit_that_did_not_move_passes_no_battery() -> None:
    """A move of no length (one that ends at once at an engage order's range) crosses nothing and
    does not divide by its length (a ZeroDivisionError in play before)."""
    from referee.plugins.sumter.move import pass_batteries
    from referee.testing import new_game

    game = new_game("sumter", "big-bethel")
    game.state = state = game.rules.muster(game)
    foot = next(p for p in state.pieces.values() if p.side == "union" and p.arm == "infantry")
    guns = next(p for p in state.pieces.values() if p.side == "union" and p.arm == "artillery")
    guns.unit.formation = "unlimbered"
    guns.unit.x, guns.unit.y = foot.unit.x, foot.unit.y
    dps = foot.dps
    pass_batteries(game, state, foot, foot.unit.x, foot.unit.y)
    assert foot.dps == dps


def test_skirmishers_may_charge_without_the_line_bonus_and_stay_skirmishers() -> None:
    """SU-G9: a unit in skirmish order on Assault is offered the charge (the commander's answer),
    tests to charge citing SU-G9, and goes in on its initial dice without the Charge (Line) bonus,
    still in skirmish order."""
    from referee.core.engine.reach import capabilities

    game = _game(Steady())
    state = game.state
    p = state.pieces["us-regiment"]
    p.unit.formation = "skirmish"
    p.brigade.order = "assault"
    caps = capabilities(game, p.unit)
    assert caps is not None and caps.may_charge, caps
    p.unit.y = 470.0
    state.intents = {"union": {"us-regiment": Intent("charge", target="cs-battery")}}
    move.charge_step(game, state, "union")
    tests = [e for e in _resolutions(game, "unit-morale") if e["values"]["column"] == "charge"]
    assert len(tests) == 1 and "SU-G9" in tests[0]["rulings"]
    assert p.charging == "cs-battery" and p.bonus == "" and p.unit.formation == "skirmish"


def test_an_order_unit_asked_for_skirmish_order_takes_it_up_for_a_whole_move() -> None:
    """SU-G6 and SU-G9: a unit in line or column whose order asks skirmish order takes it up,
    paying the sheet's Line/Column to Skirmish, a whole move (it covers no ground that turn), then
    moves on its skirmish dice; it stays in skirmish order without a Skirmish Recall."""
    for start in ("line", "column"):
        game = _game()
        state = game.state
        p = state.pieces["us-regiment"]
        p.unit.formation = start
        x, y = p.unit.x, p.unit.y
        ask = Intent("advance", goal=(x, y + 300.0), target="cs-battery", formation="skirmish", order="attack")
        p.moved = 0.0
        move.move(game, state, p, ask, state.enemies(p.side))
        assert (p.unit.formation, p.moved, p.unit.x, p.unit.y) == ("skirmish", 1.0, x, y), start
        p.moved = 0.0
        move.move(game, state, p, ask, state.enemies(p.side))
        assert p.unit.formation == "skirmish" and p.unit.y > y, start
        skirmish = state.tables["movement"]["rates"][p.rate]["skirmish"]  # the change throws for DPs (SU-G10), then the move
        moves = _resolutions(game, "movement")
        assert [(e["inputs"]["dice"], e["inputs"]["for"]) for e in moves] == [(skirmish, "formation change"), (skirmish, "move")], start
        assert not _resolutions(game, "skirmish-recall"), start


class _Recalled:
    """A house rule: +20 on every Skirmish Recall (so every recall passes)."""

    @hookimpl
    def referee_modifiers(self, mechanic: str, situation: Any) -> list[Modifier]:
        return [Modifier("recalled", 20, "house")] if mechanic == "skirmish-recall" else []


class _Lowest(random.Random):
    """Every die shows its lowest face: each movement die a 1 or a 2, so each a DP."""

    def random(self) -> float:
        return 0.0


@pytest.mark.parametrize("unit, start, grade, intent, dice, dps, moves", [
    # a whole move into skirmish order: the skirmish dice, skirmishers at most 1 DP
    ("us-regiment", "line", "trained", Intent("advance", goal=(500.0, 550.0), formation="skirmish"), 2, 1, False),
    # out of skirmish order (recalled) into line, a whole move: the fewest of "1 or 2", no cap
    ("us-regiment", "skirmish", "veteran", Intent("advance", goal=(500.0, 550.0), formation="line"), 1, 1, False),
    # Reg & Vet column to line standing, half a move: the line's fewest dice
    ("us-regiment", "column", "regular", Intent("hold", formation="line"), 1, 1, False),
    # a battery unlimbering where it stands (Limber/Unlimber Artillery 1/2): its 1 Ave D
    ("cs-battery", "limbered", "regular", Intent("hold"), 1, 1, False),
    # half a move's change and then a move: one throw, the move's (two dice toward a far goal)
    ("us-regiment", "column", "regular", Intent("withdraw", goal=(500.0, 0.0), formation="line"), 2, 2, True),
])
def test_a_formation_change_still_throws_for_dps(unit: str, start: str, grade: str, intent: Intent, dice: int,
                                                 dps: int, moves: bool) -> None:
    """"Formation changes (Still incur rolls for DPs)" (ruling SU-G10): a change that covers no
    ground throws the dice of a move in its new formation for their DPs; a change that is part of
    a move is thrown with it, once."""
    game = _game(_Recalled())
    game.roller = SampledRoller(_Lowest())
    state = game.state
    p = state.pieces[unit]
    p.unit.formation, p.grade, p.dps, p.moved = start, grade, 0, 0.0
    if p.arm != "artillery":
        p.rate = "foot-good" if grade in ("veteran", "regular") else "foot-poor"
    x, y = p.unit.x, p.unit.y
    move.move(game, state, p, intent, state.enemies(p.side))
    throws = _resolutions(game, "movement")
    assert len(throws) == 1 and "SU-G10" in throws[0]["rulings"], throws
    assert throws[0]["inputs"]["for"] == ("move" if moves else "formation change")
    assert (throws[0]["inputs"]["dice"], p.dps) == (dice, dps)
    assert ((p.unit.x, p.unit.y) != (x, y)) == moves and p.unit.formation != start


@pytest.mark.parametrize("inches", [0, 0.0, 1, 1.5, 2.25, 1 / 3])
def test_a_movement_throw_adds_its_fixed_inches_as_the_mechanic_reads_them(inches: float) -> None:
    """``move.roll_move`` (no fraction made for no fixed inches) gives what the movement mechanic
    gives the same dice with the fixed inches as a Fraction: the inches, the DPs and the log."""
    from referee.plugins.sumter import dice

    for seed in range(6):
        game = _game()
        game.roller = SampledRoller(seed)
        p = game.state.pieces["us-regiment"]
        got = move.roll_move(game, game.state, p, "d6", 2, inches, "move")
        want = dice.movement(SampledRoller(seed), game.state.tables, "d6", 2, Fraction(inches).limit_denominator(100), p.skirmish, {})
        logged = _resolutions(game, "movement")[-1]
        assert got == float(want.values["inches"]) and p.dps == want.values["dps"]
        assert (logged["total"], logged["values"]["inches"]) == (jsonable(want.total), jsonable(want.values["inches"]))


@pytest.mark.parametrize("moved, fires", [(0.0, True), (0.25, True), (0.5, True), (0.51, False), (1.0, False)])
def test_order_foot_fires_after_at_most_half_its_move(moved: float, fires: bool) -> None:
    game = _game()
    p = game.state.pieces["us-regiment"]
    p.moved = moved
    assert p.order_foot and combat.may_fire(game.state, p) == fires


@pytest.mark.parametrize("start, want", [("line", None), ("column", "line")])
def test_a_move_goes_as_far_as_its_dice_less_its_change(start: str, want: str | None) -> None:
    """A unit that keeps its formation goes the whole of its throw; a regular one changing column
    to line (half a move) goes half of it."""
    for seed in range(4):
        game = _game(seed=seed)
        state = game.state
        p = state.pieces["us-regiment"]
        p.unit.formation, p.moved, p.grade = start, 0.0, "regular"  # (a regular's column to line: half a move)
        x, y = p.unit.x, p.unit.y
        away = 1000.0 if y < game.scenario.height / 2 else -1000.0  # (a goal beyond its throw, on the table)
        move.move(game, state, p, Intent("withdraw", goal=(x, y + away), formation=want), state.enemies(p.side))
        thrown = state.yards(float(_resolutions(game, "movement")[-1]["values"]["inches"]))
        assert abs(math.hypot(p.unit.x - x, p.unit.y - y) - thrown * (1.0 if want is None else 0.5)) < 1e-6, seed
        assert p.moved == 1.0 and p.unit.formation == "line"


@pytest.mark.parametrize("seed", range(4))
def test_the_brigades_with_a_unit_broken_this_turn_test_and_no_others(seed: int) -> None:
    """SU-B2, against a scan of every brigade's units: each brigade not already retiring with a
    unit broken this turn takes one Brigade Morale Test; a phase with none broken takes none."""
    game = _game(scenario="big-bethel", seed=seed)
    state = game.state
    rng = random.Random(seed)
    for p in state.pieces.values():
        p.broke = rng.random() < 0.15
    for b in state.brigades.values():
        b.failed = rng.random() < 0.2
    want = [b.id for b in state.brigades.values() if any(p.broke for p in b.pieces) and not b.failed]
    morale.morale_step(game, state)
    assert [e["unit"] for e in _resolutions(game, "brigade-morale")] == want
    quiet = _game(scenario="big-bethel", seed=seed)
    morale.morale_step(quiet, quiet.state)
    assert not _resolutions(quiet, "brigade-morale")


def test_each_cinc_is_placed_at_the_centre_of_his_sides_fit_units() -> None:
    game = _game(scenario="big-bethel")
    state = game.state
    rng = random.Random(3)
    for p in state.pieces.values():
        p.unit.x, p.unit.y = rng.uniform(0, 3000), rng.uniform(0, 3000)
        p.state = rng.choice(["ok", "ok", "halted", "retreat", "gone"])
    morale.end_turn(game, state)
    placed = 0
    for side, ld in state.cinc.items():
        fit = [p.unit for p in state.by_side[side] if p.state in ("ok", "halted")]
        if ld is not None and fit:
            assert (ld.x, ld.y) == pytest.approx((sum(u.x for u in fit) / len(fit), sum(u.y for u in fit) / len(fit)), abs=1e-9)
            placed += 1
    assert placed


@pytest.mark.parametrize("seed", range(4))
def test_the_units_that_test_in_the_morale_phase_are_those_the_rules_name(seed: int) -> None:
    """SU-U1 against a scan of every unit: a unit on the field retreating or routing, not broken
    this turn, tests to rally; a fit one not in melee that lost figures tests (Other); no other."""
    game = _game(scenario="big-bethel", seed=seed)
    state = game.state
    rng = random.Random(seed)
    for p in state.pieces.values():
        p.state = rng.choice(["ok", "ok", "halted", "retreat", "rout", "gone"])
        p.unit.on_field = rng.random() < 0.85
        p.broke, p.lost, p.hit = rng.random() < 0.3, rng.choice([0, 0, 1, 2]), rng.random() < 0.5
        p.melee = rng.choice([None, None, None, "someone"])
    want = [p.id for p in state.pieces.values() if p.unit.on_field and p.state != "gone"
            and (p.state in ("retreat", "rout") and not p.broke or p.state in ("ok", "halted") and p.lost and not p.melee)]
    morale.morale_step(game, state)
    assert [e["unit"] for e in _resolutions(game, "unit-morale")] == want and want


def test_a_tactical_march_stops_each_unit_20_inches_from_its_nearest_enemy() -> None:
    """Tactical March, against each unit's nearest enemy measured by a scan: no march when a
    unit of the brigade is within 20" of an enemy; else each advancing unit goes its march, or
    to 20" from its nearest enemy if that is nearer."""
    marches = []
    for seed in range(12):
        game = _game(scenario="big-bethel", seed=seed)
        state = game.state
        rng = random.Random(seed)
        b = max((b for b in state.brigades.values() if len(b.pieces) > 1), key=lambda b: len(b.pieces))
        mv = state.tables["movement"]
        stop = state.yards(mv["march_stop_inches"])
        enemies = state.enemies(b.side)
        intents = {}
        w, h = game.scenario.width, game.scenario.height  # (on the table: no move is cut short by its edge)
        for p in b.pieces:
            p.unit.x, p.unit.y = rng.uniform(0, w), rng.uniform(0, h)
            intents[p.id] = Intent("advance", goal=(rng.uniform(0, w), rng.uniform(0, h)))
        before = {p.id: (p.unit.x, p.unit.y, min(math.hypot(e.unit.x - p.unit.x, e.unit.y - p.unit.y) for e in enemies))
                  for p in b.pieces}
        ready = [p for p in b.pieces if p.fit and not p.melee]
        marched = move.tactical_march(game, state, b, intents, enemies)
        assert marched == all(before[p.id][2] > stop for p in ready), seed
        marches.append(marched)
        for p in ready:
            x, y, gap = before[p.id]
            march = state.yards(mv["march_inches_fast" if p.rate.startswith("horse") else "march_inches_foot"])
            goal = math.hypot(intents[p.id].goal[0] - x, intents[p.id].goal[1] - y)
            went = math.hypot(p.unit.x - x, p.unit.y - y)
            assert went == pytest.approx(min(max(0.0, gap - stop), march, goal) if marched else 0.0, abs=1e-6), (seed, p.id)
    assert 2 <= sum(marches) <= 10, marches  # (both ways tried)


@pytest.mark.parametrize("firer, target", [("us-regiment", "cs-battery"), ("cs-battery", "us-regiment")])
def test_a_unit_fires_at_an_enemy_within_its_weapons_long_range_and_contact_and_not_beyond(firer: str, target: str) -> None:
    """SU-F9: ranges from centre to centre less the contact distance; a unit with no target
    named, or with that enemy named its target, fires at an enemy just inside its long range and
    contact, not at one just beyond."""
    from referee.plugins.sumter.tables import load_tables

    t = load_tables()
    for (past, fires), intent in itertools.product(((-0.5, True), (1.5, False)), (None, Intent("hold", target=target))):
        game = _game()
        state = game.state
        p, e = state.pieces[firer], state.pieces[target]
        p.unit.formation = "unlimbered" if p.arm == "artillery" else "line"
        long = t.gun_reach[p.unit.spec.gun_type] if p.arm == "artillery" else t.firearm_reach[p.unit.spec.weapon]
        e.unit.x, e.unit.y = p.unit.x, p.unit.y + (long + t["scale"]["contact_inches"]) * t.scale.yards_per_inch + past
        landed: list[Any] = []
        hits = combat.shoot(game, state, p, intent, Foes.of(state.enemies(p.side)), landed)
        assert (hits is not None) == fires, (past, intent)


def test_a_general_joins_the_stationary_unit_of_his_brigade_with_the_most_dps() -> None:
    """SU-G1 against the rule read over every unit: the fit unit with the most DPs of those
    that did not move (the first of those equal; the first fit unit when every one moved)."""
    for seed in range(20):
        game = _game(scenario="big-bethel", seed=seed)
        state = game.state
        rng = random.Random(seed)
        for b in state.brigades.values():
            if b.general is None:
                continue
            for p in b.pieces:
                p.dps, p.moved = rng.choice([0, 0, 1, 2, 3]), rng.choice([0.0, 0.0, 0.5])
                p.state = rng.choice(["ok", "halted", "retreat"])
            fit = [p for p in b.pieces if p.state in ("ok", "halted")]
            was = b.general.attached_to
            morale.place_general(state, b)
            if not fit:
                assert b.general.attached_to == was
                continue
            most = max(-1 if p.moved else p.dps for p in fit)
            want = next(p for p in fit if (-1 if p.moved else p.dps) == most)
            assert (b.general.attached_to, b.general.x, b.general.y) == (want.id, want.unit.x, want.unit.y), seed
