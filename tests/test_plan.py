"""Plans with conditions in play: each trigger fires, orders begin in sequence, the doctrine
follows them (spent units never advance, reserves wait formed), a break-off ends the game with
its reason, and men who go off an edge that is no line of retreat are captured."""

from __future__ import annotations

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.doctrine import (
    ASSAULT_YARDS,
    EFFECTIVE_YARDS,
    SPENT_SHARE,
    DefaultDoctrine,
)
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plan import Layout, Plan
from referee.core.engine.plugins import build_rules
from referee.core.engine.world import Order, SidePlan, Trigger
from referee.core.input.scenario import find_scenario, load_scenario

DOCTRINE = DefaultDoctrine()


def drill(**changes):  # type: ignore[no-untyped-def]
    return evolve(load_scenario(find_scenario("drill-musketry")), **changes)


def game_of(scenario, ruleset: str = "rff", seed: int = 1, log: bool = False) -> Game:  # type: ignore[no-untyped-def]
    game = Game.new(build_rules(ruleset), scenario, seed, EventLog(enabled=log))
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game


def sequence(*orders: Order):  # type: ignore[no-untyped-def]
    """The drill with these orders for the Union brigade (the Confederates hold)."""
    return drill(orders=(*orders, Order("cs-brigade", "hold", id="cs.1")))


# ----------------------------------------------------------------------------- triggers


def union_unit(game: Game):  # type: ignore[no-untyped-def]
    return next(u for u in game.world.units.values() if u.side == "union")


def confederate_unit(game: Game):  # type: ignore[no-untyped-def]
    return next(u for u in game.world.units.values() if u.side == "confederate")


def begun_after(trigger: Trigger, change) -> tuple[bool, bool]:  # type: ignore[no-untyped-def]
    """Whether the order waiting on ``trigger`` has begun before and after ``change(game)``."""
    game = game_of(sequence(Order("us-brigade", "hold", id="wait"),
                            Order("us-brigade", "withdraw", id="go", when=(trigger,))))
    game.plan.update(game)
    before = "go" in game.plan.begun
    change(game)
    game.plan.update(game)
    return before, "go" in game.plan.begun


def test_a_time_trigger_fires_when_the_clock_reaches_it() -> None:
    def later(game: Game) -> None:
        game.world.minute = 10 * 60 + 30
    assert begun_after(Trigger("time", minute=10 * 60 + 30), later) == (False, True)


WHENS = st.one_of(  # an order's triggers: none, times only, or a time with a trigger that is no time
    st.just(()), st.lists(st.integers(9 * 60, 11 * 60), min_size=1, max_size=2).map(lambda ms: tuple(Trigger("time", minute=m) for m in ms)),
    st.integers(9 * 60, 11 * 60).map(lambda m: (Trigger("time", minute=m), Trigger("darkness"))))


@settings(max_examples=200, deadline=None)
@given(st.lists(WHENS, min_size=1, max_size=6), st.integers(9 * 60 - 10, 11 * 60 + 10))
def test_a_look_passes_a_command_over_only_while_every_later_order_waits_for_its_time(whens, minute) -> None:  # type: ignore[no-untyped-def]
    """``Layout.wakes``: a command is passed over at ``minute`` exactly when every order after the
    one in force has only time triggers and none has come (so none of them could begin)."""
    orders = [Order("us-brigade", "hold", id=f"o{i}", when=when) for i, when in enumerate(whens)]
    layout = Layout.of(sequence(*orders))
    for now in range(-1, len(orders) - 1):
        waiting = all(o.when and all(t.kind == "time" and minute < t.minute for t in o.when) for o in orders[now + 1:])  # type: ignore[operator]
        assert (minute < layout.wakes["us-brigade"][now + 1]) == waiting


def test_taken_and_lost_fire_when_an_objective_changes_hands() -> None:
    def union_takes(game: Game) -> None:
        game.world.passed.append((game.world.minute, "cs-ground", "union"))
    assert begun_after(Trigger("taken", objective="cs-ground"), union_takes) == (False, True)

    def confederates_take(game: Game) -> None:
        game.world.passed.append((game.world.minute, "us-ground", "confederate"))
    assert begun_after(Trigger("lost", objective="us-ground"), confederates_take) == (False, True)
    assert begun_after(Trigger("lost", objective="us-ground"), union_takes) == (False, False)


def test_losses_fire_at_the_share_of_the_unit_or_command_named() -> None:
    def bleed(game: Game) -> None:
        unit = union_unit(game)
        unit.men = unit.spec.men * 7 // 10
    assert begun_after(Trigger("losses", share=0.3, of="us-brigade"), bleed) == (False, True)
    assert begun_after(Trigger("losses", share=0.31, of="us-brigade"), bleed) == (False, False)
    assert begun_after(Trigger("losses", share=0.3), bleed) == (False, True)  # of: the order's own command


def test_broken_fires_for_a_unit_and_for_a_command() -> None:
    def rout(game: Game) -> None:
        union_unit(game).status = "routed"
    unit_id = next(u.id for u in drill().units if u.side == "union")
    assert begun_after(Trigger("broken", of=unit_id), rout) == (False, True)
    assert begun_after(Trigger("broken", of="us-brigade"), rout) == (False, True)

    def shaken(game: Game) -> None:
        union_unit(game).status = "disordered"
    assert begun_after(Trigger("broken", of="us-brigade"), shaken) == (False, False)


def test_enemy_within_fires_when_an_enemy_comes_that_close() -> None:
    def close_up(game: Game) -> None:
        enemy, mine = confederate_unit(game), union_unit(game)
        enemy.x, enemy.y = mine.x, mine.y + 90
    assert begun_after(Trigger("enemy_within", yards=100), close_up) == (False, True)
    assert begun_after(Trigger("enemy_within", yards=80), close_up) == (False, False)


def test_begun_and_ended_follow_another_command() -> None:
    game = game_of(drill(orders=(
        Order("us-brigade", "hold", id="us-first"),
        Order("us-brigade", "attack", objective="cs-ground", id="us-attack", when=(Trigger("time", minute=615),)),
        Order("cs-brigade", "hold", id="cs-first"),
        Order("cs-brigade", "withdraw", id="cs-go", when=(Trigger("ended", order="us-first"),)),
    )))
    game.plan.update(game)
    assert "cs-go" not in game.plan.begun
    game.world.minute = 615
    game.plan.update(game)
    assert game.plan.ended["us-first"] == 615 and "us-attack" in game.plan.begun
    assert "cs-go" in game.plan.begun  # in the same update, whichever command is looked at first
    assert game.plan.order_of(confederate_unit(game).id).id == "cs-go"


def test_repulses_count_once_per_unit_and_turn() -> None:
    game = game_of(drill())
    attacker, defender = union_unit(game), confederate_unit(game)
    objective = next(o for o in game.scenario.objectives if o.held_by == "confederate")
    defender.x, defender.y = objective.position
    for _ in range(3):  # three companies' assaults in one turn are one repulse
        game.report_assault(attacker.id, defender.id, carried=False)
    game.report_assault(attacker.id, defender.id, carried=True)
    assert game.world.repulses == {("union", objective.id): 1}
    game.turn += 1
    game.report_assault(attacker.id, defender.id, carried=False)
    assert game.world.repulses == {("union", objective.id): 2}


def test_darkness_and_low_ammunition() -> None:
    def night(game: Game) -> None:
        game.world.minute = 19 * 60 + 30 + 30  # the drill's sunset and half an hour of twilight
    assert begun_after(Trigger("darkness"), night) == (False, True)

    def short(game: Game) -> None:
        union_unit(game).low_ammo = True
    assert begun_after(Trigger("low_ammo", share=0.5), short) == (False, True)


def test_an_attack_whose_trigger_fires_after_dark_is_not_begun_unless_ordered() -> None:
    late = Trigger("time", minute=20 * 60 + 30)
    for night, begun in ((False, False), (True, True)):
        game = game_of(sequence(Order("us-brigade", "hold", id="wait"),
                                Order("us-brigade", "attack", objective="cs-ground", id="go", when=(late,), night=night)))
        game.world.minute = 20 * 60 + 30
        game.plan.update(game)
        assert ("go" in game.plan.begun) is begun


def test_a_later_order_preempts_the_ones_before_it() -> None:
    game = game_of(sequence(
        Order("us-brigade", "hold", id="a"),
        Order("us-brigade", "attack", objective="cs-ground", id="b", when=(Trigger("time", minute=700),)),
        Order("us-brigade", "withdraw", id="c", when=(Trigger("losses", share=0.1),)),
    ))
    union_unit(game).men = 400
    game.plan.update(game)
    assert game.plan.begun.keys() == {"c", "cs.1"}  # "a" is skipped: "c" had fired by the first look


# ----------------------------------------------------------------------------- the doctrine


@settings(max_examples=60, deadline=None)
@given(share=st.floats(0.0, SPENT_SHARE - 0.01), gap=st.floats(ASSAULT_YARDS / 2, 1500.0),
       kind=st.sampled_from(["attack", "engage", "demonstrate"]), status=st.sampled_from(["good", "disordered"]))
def test_spent_units_never_advance(share: float, gap: float, kind: str, status: str) -> None:
    game = game_of(sequence(Order("us-brigade", kind, objective="cs-ground", id="go")))
    mine, enemy = union_unit(game), confederate_unit(game)
    mine.men, mine.status = int(mine.spec.men * share), status
    enemy.x, enemy.y = mine.x, mine.y + gap
    intent = DOCTRINE.referee_intents(game, "union")[mine.id]
    assert intent.action in ("hold", "withdraw")
    if intent.action == "withdraw":
        assert gap <= EFFECTIVE_YARDS
        assert intent.goal is not None
        assert abs(intent.goal[1] - enemy.y) > gap  # away from the enemy


def test_a_reserve_waits_formed_as_ordered_and_is_released_on_time() -> None:
    game = game_of(sequence(
        Order("us-brigade", "reserve", formation="line", id="wait"),
        Order("us-brigade", "attack", objective="cs-ground", id="go", when=(Trigger("time", minute=620),), formation="column"),
    ))
    mine = union_unit(game)
    waiting = DOCTRINE.referee_intents(game, "union")[mine.id]
    assert (waiting.action, waiting.formation, waiting.order) == ("hold", "line", "reserve")
    game.world.minute = 620
    confederate_unit(game).y += 1000  # far off: the attack marches in its ordered formation
    going = DOCTRINE.referee_intents(game, "union")[mine.id]
    assert (going.action, going.order) == ("advance", "attack")


def test_no_assault_out_of_reach_of_every_leader_of_the_chain() -> None:
    game = game_of(sequence(Order("us-brigade", "attack", objective="cs-ground", id="go")))
    mine, enemy = union_unit(game), confederate_unit(game)
    enemy.x, enemy.y = mine.x, mine.y + ASSAULT_YARDS - 10
    assert DOCTRINE.referee_intents(game, "union")[mine.id].action == "charge"
    for leader in game.world.leaders.values():
        if leader.spec.side == "union":
            leader.attached_to, leader.status = None, "dead"
    assert DOCTRINE.referee_intents(game, "union")[mine.id].action == "hold"


def test_a_side_that_breaks_off_withdraws_and_its_rear_guard_holds() -> None:
    scenario = sequence(Order("us-brigade", "hold", id="a"))
    scenario = evolve(scenario, plans={"union": SidePlan("union", break_off=(Trigger("time", minute=600),))})
    game = game_of(scenario)
    intents = DOCTRINE.referee_intents(game, "union")
    assert {i.action for i in intents.values()} == {"withdraw"}
    guarded = evolve(scenario, plans={"union": SidePlan("union", break_off=(Trigger("time", minute=600),),
                                                        rear_guard=("us-brigade",))})
    game = game_of(guarded)
    assert {i.action for i in DOCTRINE.referee_intents(game, "union").values()} == {"hold"}


# ----------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("ruleset", ["rff", "hardtack"])
def test_a_break_off_ends_the_game_with_its_reason(ruleset: str) -> None:
    scenario = drill(plans={"union": SidePlan("union", break_off=(Trigger("losses", share=0.02),))})
    game = Game.new(build_rules(ruleset), scenario, 3, EventLog(enabled=True))
    outcome = play(game)
    assert outcome.winner == "confederate"
    assert outcome.reason.startswith("union broke off (union has lost")
    assert any(e["kind"] == "plan" and e["text"].startswith("union breaks off") for e in game.log.events)


@pytest.mark.parametrize("ruleset", ["rff", "hardtack"])
def test_a_side_beaten_at_its_own_share(ruleset: str) -> None:
    lenient = drill(plans={"union": SidePlan("union", beaten_at=0.05, count_broken=False)})
    outcome = play(Game.new(build_rules(ruleset), lenient, 3))
    assert outcome.reason.startswith("union beaten") and outcome.reason.endswith("of its men lost)")


def test_men_off_an_edge_that_is_no_line_of_retreat_are_captured() -> None:
    for edges, captured in (({}, False), ({"south": ("confederate",)}, True)):
        game = game_of(drill(retreat_edges=edges))
        mine = union_unit(game)
        assert game.leave_field(mine.id, mine.x, -20.0, 300) is captured
        outcome = game.outcome(play_nothing())
        assert outcome.men_lost["union"] == (300 if captured else 0)
        assert outcome.men_left["union"] == (0 if captured else 300)


def play_nothing():  # type: ignore[no-untyped-def]
    from referee.core.engine.victory import Verdict
    return Verdict(True, None, "")


@pytest.mark.parametrize("ruleset", ["rff", "hardtack"])
def test_plans_are_deterministic(ruleset: str) -> None:
    scenario = load_scenario(find_scenario("big-bethel"))
    logs = []
    for _ in range(2):
        game = Game.new(build_rules(ruleset), scenario, 11, EventLog(enabled=True))
        play(game)
        logs.append(game.log.jsonl())
    assert logs[0] == logs[1] and '"kind":"plan"' in logs[0]


def test_a_fresh_plan_has_no_order_until_it_is_updated() -> None:
    plan = Plan.start(drill())
    unit = next(u.id for u in drill().units)
    assert plan.order_of(unit) is None


# ----------------------------------------------------------------------------- two updates in a row


def test_a_break_off_fires_the_enemys_order_at_the_next_update() -> None:
    """Two updates with nothing changed between them need not do the same: a side breaking off
    fires the other side's ``enemy_broke_off`` (looked at before the break-offs) at the next."""
    game = game_of(drill(orders=(Order("us-brigade", "hold", id="us.1"), Order("cs-brigade", "hold", id="cs.1"),
                                 Order("cs-brigade", "attack", objective="us-ground", id="cs.2",
                                       when=(Trigger("enemy_broke_off"),))),
                         plans={"union": SidePlan("union", break_off=(Trigger("time", minute=630),))}))
    game.plan.update(game)
    game.world.minute = 630
    assert game.plan.update(game) and "union" in game.world.broken_off and "cs.2" not in game.plan.begun
    assert game.plan.update(game) and "cs.2" in game.plan.begun
    assert not game.plan.update(game)


def test_an_attack_withheld_after_dark_lets_an_earlier_order_begin_at_the_next_update() -> None:
    """An attack whose time comes after dark is withheld and nothing begins; the next update,
    with nothing else changed, begins the earlier order whose time has also come."""
    late = Trigger("time", minute=20 * 60 + 30)
    game = game_of(sequence(Order("us-brigade", "hold", id="wait"), Order("us-brigade", "withdraw", id="back", when=(late,)),
                            Order("us-brigade", "attack", objective="cs-ground", id="go", when=(late,))))
    game.plan.update(game)
    game.world.minute = 20 * 60 + 30
    assert not game.plan.update(game) and game.plan.withheld == {"go"} and "back" not in game.plan.begun
    assert game.plan.update(game) and "back" in game.plan.begun
