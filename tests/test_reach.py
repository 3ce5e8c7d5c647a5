"""The commander asks each ruleset what its units can do (hook ``referee_capabilities``), and
orders keep their range (``Intent.standoff``): answers against the printed tables, the charge
offered inside a unit's reach and not outside, the log line for a charge not made, and an
engage order held at its range under every ruleset (tests/scenarios/drill-engage.toml)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from referee.core.engine.doctrine import (
    ASSAULT_YARDS,
    DEMONSTRATE_YARDS,
    DEPLOY_YARDS,
    GUN_STAND_YARDS,
    DefaultDoctrine,
    Intent,
)
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules, installed
from referee.core.engine.reach import Capabilities, capabilities, short_of
from referee.core.engine.world import Order
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario

DRILLS = Path(__file__).parent / "scenarios"
RULESETS = sorted(installed())  # every installed ruleset and layer: the contract holds for each
ENGAGE = DRILLS / "drill-engage.toml"
RANGE = 300.0  # the drill's engage order
ROUNDING = 10.0  # yards: the tolerance for one move's rounding


def mustered(ruleset: str, scenario: Path | str = ENGAGE, seed: int = 1, log: bool = False) -> Game:
    path = scenario if isinstance(scenario, Path) else find_scenario(scenario)
    game = Game.new(build_rules(ruleset), load_scenario(path), seed, EventLog(enabled=log))
    game.state = game.rules.muster(game)
    return game


class Gaps:
    """Records, after every step, how far the engaging regiment stands from the enemy."""

    def __init__(self) -> None:
        self.gaps: list[float] = []

    @hookimpl
    def referee_step_done(self, game, step) -> None:  # type: ignore[no-untyped-def]
        us, them = game.world.units["us-regiment"], game.world.units["cs-regiment"]
        if us.on_field and them.on_field and them.fit:
            self.gaps.append(math.hypot(us.x - them.x, us.y - them.y))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_engage_order_holds_at_its_range(ruleset: str) -> None:
    """No move ends nearer than the range less a move's rounding; and it does come to its range
    (in some seed: the militia may break under its fire before it gets there)."""
    nearest = []
    for seed in (1, 2, 3):
        rules = build_rules(ruleset)
        probe = Gaps()
        rules.register(probe, name="gaps")
        play(Game.new(rules, load_scenario(ENGAGE), seed))
        assert probe.gaps, "no step was played"
        assert min(probe.gaps) >= RANGE - ROUNDING, (ruleset, seed, [round(g) for g in probe.gaps])
        nearest.append(min(probe.gaps))
    # it comes to its range: within a move's rounding, and (hardtack) the few yards its companies
    # that fire rather than move leave the regiment's centre behind its commander's
    assert min(nearest) <= RANGE + 2 * ROUNDING, (ruleset, "never came to its range", nearest)


def test_short_of_stops_where_the_move_would_come_inside() -> None:
    assert short_of(0, 0, 0, 1000, 0, 1000, 300, 1000) == pytest.approx(700)  # straight at it
    assert short_of(0, 0, 0, 1000, 0, 1000, 300, 200) == 200  # not far enough to come inside
    assert short_of(0, 800, 0, 1000, 0, 1000, 300, 100) == 0  # already inside: no nearer
    assert short_of(0, 800, 0, 0, 0, 1000, 300, 100) == 100  # already inside: may draw away
    assert short_of(0, 0, 0, 1000, 500, 500, 300, 1000) == 1000  # passes wide


# ----------------------------------------------------------------------------- the hook, against the tables


def test_rff_answers_from_its_movement_and_musketry_tables() -> None:
    game = mustered("rff")
    caps = capabilities(game, game.world.units["us-regiment"])
    assert isinstance(caps, Capabilities)
    ypi = 37.5  # QRS II: 2" = 75 yards
    t = game.state.tables
    line = t.movement.rate("infantry", "line", "open")
    assert caps.charge_yards == pytest.approx(float(line.full) * ypi)  # RFF-CR1: a full move (Well Handled)
    assert caps.effective_yards == pytest.approx(6 * ypi)  # RM: 1 point to 6", 1/2 beyond (RFF-CR2)
    assert caps.close_yards == pytest.approx(3 * ypi)  # close range 3"
    assert caps.move_yards == pytest.approx(9 * ypi)  # RFF-CR3: the line's full rate on open ground
    assert caps.may_charge
    smooth = capabilities(game, game.world.units["cs-regiment"])
    assert smooth is not None and smooth.effective_yards == pytest.approx(3 * ypi)  # SM: 1 to 3", 1/2 to 6"


def test_hynds_inherits_rffs_answer() -> None:
    game = mustered("hynds")
    caps = capabilities(game, game.world.units["us-regiment"])
    assert caps is not None and caps.rulings[0] == "RFF-P9"
    ypi = game.state.tables.scale.yards_per_inch
    assert caps.close_yards == pytest.approx(game.state.tables.close_range_inches * ypi)
    assert ypi == 20 and caps.move_yards == pytest.approx(9 * 20)  # rff's 9" line move ("all movement remains the same")


def test_sumter_answers_its_charge_dice_expected_throw() -> None:
    game = mustered("sumter")
    caps = capabilities(game, game.world.units["us-regiment"])
    assert caps is not None
    # veteran foot: 2 Ave D (mean 3.5 each) + 2" = 9" at 25 yards an inch (SU-CR1); rifle musket effective 8"
    assert caps.charge_yards == pytest.approx(9 * 25)
    assert caps.effective_yards == pytest.approx(8 * 25) and caps.close_yards == caps.effective_yards
    assert caps.move_yards == pytest.approx(7 * 25)  # SU-CR3: a line's 2 Ave D, 3.5 each
    game.world.units["us-regiment"].formation = game.state.pieces["us-regiment"].unit.formation = "column"
    game.turn += 1
    column = capabilities(game, game.world.units["us-regiment"])
    assert column is not None and column.move_yards == pytest.approx((3.5 + 3) * 25)  # 1 Ave D + 3"
    assert not caps.may_charge and "Assault" in caps.why_not  # its brigade is not on Assault orders (SU-C7)
    smooth = capabilities(game, game.world.units["cs-regiment"])
    assert smooth is not None and smooth.effective_yards == pytest.approx(6 * 25)


def test_hardtack_answers_two_actions_of_its_base_move() -> None:
    game = mustered("hardtack")
    caps = capabilities(game, game.world.units["us-regiment"])
    assert caps is not None
    # infantry base 6", a line one die down: 4"; a Move and the assault's move, 10 yards an inch,
    # from its farthest company (HT-CR1)
    alive = [c for c in game.state.regiments["us-regiment"].companies if c.alive]
    figures = sum(c.figures for c in alive)
    cx, cy = sum(c.x * c.figures for c in alive) / figures, sum(c.y * c.figures for c in alive) / figures
    spread = max(math.hypot(c.x - cx, c.y - cy) for c in alive)
    assert spread > 0
    assert caps.charge_yards == pytest.approx(2 * 4 * 10 + spread)
    assert caps.move_yards == pytest.approx(2 * 4 * 10)  # HT-CR3: two Moves of a line's 4"
    company = alive[0]
    assert caps.close_yards == pytest.approx(company.quality * 10)  # the first band (HT-CR2)
    assert caps.effective_yards >= caps.close_yards
    assert caps.may_charge


def test_the_answer_is_kept_for_the_turn() -> None:
    game = mustered("rff")
    unit = game.world.units["us-regiment"]
    first = capabilities(game, unit)
    assert capabilities(game, unit) is first
    game.turn += 1
    assert capabilities(game, unit) == first


# ----------------------------------------------------------------------------- the doctrine


def _attack_at(ruleset: str, gap: float, log: bool = False) -> tuple[Game, str]:
    """The drill turned into an assault on the Confederate ground, the regiments ``gap`` apart."""
    game = mustered(ruleset, log=log)
    game.memory["test.order"] = Order("us-brigade", "attack", "cs-ground", id="test-attack")
    us = game.world.units["us-regiment"]
    them = game.world.units["cs-regiment"]
    us.y = them.y - gap
    return game, "us-regiment"


def _intent(game: Game, unit: str, reach: float) -> str:
    us = game.world.units[unit]
    them = game.world.units["cs-regiment"]
    doctrine = DefaultDoctrine()
    order = game.memory["test.order"]
    gap = math.hypot(us.x - them.x, us.y - them.y)
    return doctrine.advance(game.world, us, order, them, gap, {}, "attack", game).action


class Reach:
    """A ruleset answer for the doctrine tests: a charge reach of 250 yards."""

    def __init__(self, may: bool = True) -> None:
        self.may = may

    @hookimpl(tryfirst=True)
    def referee_capabilities(self, game, unit):  # type: ignore[no-untyped-def]
        return Capabilities(250.0, 200.0, 100.0, self.may, "" if self.may else "its brigade is not on Assault orders", ("X-1",))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_charge_is_offered_inside_the_reach_and_not_outside(ruleset: str) -> None:
    game, unit = _attack_at(ruleset, 240.0)
    game.rules.register(Reach(), name="reach")
    assert _intent(game, unit, 250.0) == "charge"  # beyond the neutral 120 yards, inside its ruleset's reach
    game.world.units[unit].y -= 20.0  # 260 yards
    game.turn += 1
    assert _intent(game, unit, 250.0) == "advance"
    assert 240.0 > ASSAULT_YARDS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ruleset_offers_the_charge_within_its_own_reach(ruleset: str) -> None:
    game, unit = _attack_at(ruleset, 1000.0)
    caps = capabilities(game, game.world.units[unit])
    assert caps is not None
    game.world.units[unit].y = game.world.units["cs-regiment"].y - (caps.charge_yards - 1.0)
    game.turn += 1
    expected = "charge" if caps.may_charge else "advance"
    assert _intent(game, unit, caps.charge_yards) in (expected, "hold")
    if caps.may_charge:
        assert _intent(game, unit, caps.charge_yards) == "charge"


def test_a_charge_not_made_is_logged_with_its_reason() -> None:
    game, unit = _attack_at("rff", 240.0, log=True)
    game.rules.register(Reach(may=False), name="reach")
    assert _intent(game, unit, 250.0) == "advance"
    lines = [e for e in game.log.events if e["kind"] == "no-charge"]
    assert len(lines) == 1
    assert lines[0]["unit"] == unit and lines[0]["target"] == "cs-regiment"
    assert "its brigade is not on Assault orders" in lines[0]["text"] and lines[0]["rulings"] == ["X-1"]
    _intent(game, unit, 250.0)  # asked again in the same turn: said once
    assert len([e for e in game.log.events if e["kind"] == "no-charge"]) == 1


class Short:
    """A ruleset whose close range (150) is beyond its charge reach (100): hardtack's shape."""

    def __init__(self, may: bool) -> None:
        self.may = may

    @hookimpl(tryfirst=True)
    def referee_capabilities(self, game, unit):  # type: ignore[no-untyped-def]
        return Capabilities(100.0, 200.0, 150.0, self.may, "" if self.may else "shaken", ())


@pytest.mark.parametrize("may, beyond, within", [(True, "advance", "charge"), (False, "advance", "hold")])
def test_a_unit_that_may_charge_closes_to_its_reach_and_one_that_may_not_stands_inside_it(
        may: bool, beyond: str, within: str) -> None:
    game, unit = _attack_at("rff", 120.0)
    game.rules.register(Short(may), name="short")
    assert _intent(game, unit, 100.0) == beyond  # inside its close range, beyond its reach: it goes on
    game.world.units[unit].y += 30.0  # 90 yards
    game.turn += 1
    assert _intent(game, unit, 100.0) == within


def test_a_sumter_unit_at_its_dp_cap_reads_good_and_is_offered_the_charge() -> None:
    """SU-D5: DPs bar no charge (the Unit Morale Test weighs them, -1 each), so a unit at the
    cap reads as good to the neutral world (SU-D4) and, on Assault orders, is sent in; a halted
    unit still reads as disordered and is not."""
    from referee.plugins.sumter.state import sync

    game, unit = _attack_at("sumter", 1000.0)
    piece = game.state.pieces[unit]
    piece.brigade.order = "assault"
    piece.dps = game.state.tables["morale"]["dp_cap"]
    sync(game.state)
    assert game.world.units[unit].status == "good"
    caps = capabilities(game, game.world.units[unit])
    assert caps is not None and caps.may_charge
    game.world.units[unit].y = game.world.units["cs-regiment"].y - (caps.charge_yards - 1.0)
    assert _intent(game, unit, caps.charge_yards) == "charge"
    piece.state = "halted"
    sync(game.state)
    game.turn += 1
    assert game.world.units[unit].status == "disordered"
    assert _intent(game, unit, caps.charge_yards) != "charge"


@pytest.mark.parametrize("ruleset", ["rff", "hynds", "sumter", "hardtack"])
def test_attacking_guns_go_into_action_at_their_rulesets_effective_range(ruleset: str) -> None:
    """A battery under an attack order marches limbered, keeping off at its effective range under
    its ruleset (the move ends there), and unlimbers once an enemy is within it; with no ruleset's
    answer, at the neutral GUN_STAND_YARDS; a demonstration keeps it at the order's distance if
    that is farther."""
    game = mustered(ruleset, "big-bethel")
    guns, enemy = game.world.units["greble-guns"], game.world.units["parrott-gun"]
    caps = capabilities(game, guns)
    assert caps is not None
    order = Order("us-greble", "attack", "bridge", id="test-guns")
    doctrine = DefaultDoctrine()

    def intent(gap: float, kind: str = "attack", asked: Game | None = game) -> Intent:
        guns.x, guns.y = enemy.x, enemy.y - gap
        game.turn += 1
        return doctrine.advance(game.world, guns, order, enemy, gap, {}, kind, asked)

    beyond = intent(caps.effective_yards + 5.0)
    assert beyond.action == "advance" and beyond.formation == "limbered" and beyond.standoff == caps.effective_yards
    within = intent(caps.effective_yards - 5.0)
    assert within.action == "hold" and within.formation == "unlimbered"
    assert intent(GUN_STAND_YARDS - 5.0, asked=None).action == "hold"
    assert intent(GUN_STAND_YARDS + 5.0, asked=None).standoff == GUN_STAND_YARDS
    if caps.effective_yards < DEMONSTRATE_YARDS:
        assert intent(DEMONSTRATE_YARDS - 5.0).action == "advance"  # an attack goes in closer
        assert intent(DEMONSTRATE_YARDS - 5.0, "demonstrate").action == "hold"  # a demonstration keeps off


@pytest.mark.parametrize("formation, stance", [(None, "advance"), ("column", "advance"), ("line", "engage"),
                                               ("skirmish", "engage")])
def test_a_command_sent_forward_deployed_is_in_contact_however_far_the_enemy(formation: str | None,
                                                                             stance: str) -> None:
    """The command's stance agrees with its units' formation: an order that names line or skirmish
    order sends them forward deployed, so the command is in contact (not on the march) though the
    enemy is beyond DEPLOY_YARDS (sumter's brigades then go on Engage or Assault orders, not Move
    with its tactical march in column of march)."""
    text = ENGAGE.read_text(encoding="utf-8")
    if formation is not None:
        text = text.replace('kind = "engage"\n', f'kind = "engage"\nformation = "{formation}"\n')
    game = Game.new(build_rules("sumter"), parse_scenario(text, "drill.toml"), 1, EventLog(enabled=False))
    game.state = game.rules.muster(game)
    us, them = game.world.units["us-regiment"], game.world.units["cs-regiment"]
    assert math.hypot(us.x - them.x, us.y - them.y) > DEPLOY_YARDS
    assert game.command_intents("union")["us-brigade"].stance == stance


@pytest.mark.parametrize("objective, stance", [(True, "advance"), (False, "hold")])
def test_a_command_marching_to_the_post_its_hold_order_names_is_on_the_march(objective: bool, stance: str) -> None:
    """A hold order whose objective is away from its units moves them there (the doctrine's
    intent), so their command is on the march (sumter: Move orders, which let them move; Hold
    orders let nobody advance, SU-C8); at its post, or with no post named, it holds."""
    text = ENGAGE.read_text(encoding="utf-8").replace('kind = "engage"\nobjective = "cs-ground"\nrange = 300\n',
                                                      'kind = "hold"\nobjective = "cs-ground"\n' if objective else 'kind = "hold"\n')
    assert 'kind = "engage"' not in text
    game = Game.new(build_rules("sumter"), parse_scenario(text, "drill.toml"), 1, EventLog(enabled=False))
    game.state = game.rules.muster(game)
    assert game.command_intents("union")["us-brigade"].stance == stance
    play(game)
    us = game.world.units["us-regiment"]
    ground = game.scenario.objectives_by_id["cs-ground"].position
    assert (math.hypot(us.x - ground[0], us.y - ground[1]) < 900.0) is objective  # it went (it started 1,000 away)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_says_how_far_its_units_move(ruleset: str) -> None:
    """Every bundled ruleset gives each unit's move this turn, a positive distance no longer than
    the map (its printed table at its scale, not the doctrine's fallback)."""
    game = mustered(ruleset)
    for unit in game.world.units.values():
        caps = capabilities(game, unit)
        assert caps is not None and caps.move_yards is not None, (ruleset, unit.id)
        assert 0 < caps.move_yards < game.scenario.height, (ruleset, unit.id, caps.move_yards)


class Moves:
    """A ruleset answer for the doctrine tests: a charge reach of 250 yards and a move of ``move``."""

    def __init__(self, move: float | None) -> None:
        self.move = move

    @hookimpl(tryfirst=True)
    def referee_capabilities(self, game, unit):  # type: ignore[no-untyped-def]
        return Capabilities(250.0, 200.0, 100.0, True, "", ("X-1",), self.move)


@pytest.mark.parametrize("move", [100.0, None])
def test_a_concerted_assault_dresses_one_move_outside_its_reach(move: float | None) -> None:
    """The dressing line is the charge reach plus the ruleset's move; MOVE_YARDS only when
    the ruleset gives none."""
    from referee.core.engine.doctrine import MOVE_YARDS

    game, unit = _attack_at("rff", 1000.0)
    game.rules.register(Moves(move), name="moves")
    order = game.memory["test.order"] = Order("us-brigade", "attack", "cs-ground", id="test-attack", together="g")
    us, them = game.world.units[unit], game.world.units["cs-regiment"]
    intent = DefaultDoctrine().advance(game.world, us, order, them, 1000.0, {}, "attack", game)
    assert intent.action == "advance"
    assert intent.standoff == pytest.approx(250.0 + (MOVE_YARDS if move is None else move))


@pytest.mark.parametrize(("formation", "gap", "marches"), [
    ("column", 650.0, True),   # beyond DEPLOY_YARDS: a marching unit goes on in column
    ("line", 650.0, False),    # deployed, the enemy less than a move beyond it: it stays in line
    ("line", 720.0, True),     # deployed, the enemy more than a move beyond it: column again
    ("column", 550.0, False),  # within DEPLOY_YARDS: line
])
def test_a_deployed_unit_does_not_form_column_again_at_the_boundary(formation: str, gap: float, marches: bool) -> None:
    """A unit in line just beyond DEPLOY_YARDS (driven back, or its enemy stepped back) stays in
    line until the enemy is a full move (the ruleset's) beyond it; one in column goes on in column."""
    from referee.core.engine.doctrine import DEPLOY_YARDS

    assert 550.0 < DEPLOY_YARDS < 650.0 < DEPLOY_YARDS + 100.0 < 720.0
    game, unit = _attack_at("rff", gap)
    game.rules.register(Moves(100.0), name="moves")
    order = game.memory["test.order"]
    us, them = game.world.units[unit], game.world.units["cs-regiment"]
    us.formation = formation
    intent = DefaultDoctrine().advance(game.world, us, order, them, gap, {}, "attack", game)
    assert intent.action == "advance"
    assert intent.formation == ("column" if marches else "line")
