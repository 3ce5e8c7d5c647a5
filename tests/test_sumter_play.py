"""sumter in play: determinism and its golden log, the doctrine's command intents and reactive
choices, steps for both sides and for one brigade, the new neutral names under every ruleset,
and bad input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.engine.errors import InvalidInput
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, Outcome, Step, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules, installed
from referee.core.engine.tables import load_texts
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
from referee.plugins.sumter.tables import SCHEMA

GOLDEN = Path(__file__).parent / "golden" / "big-bethel-sumter-seed7.jsonl"


def played(scenario: str = "big-bethel", seed: int = 7, *plugins: object) -> tuple[Game, EventLog]:
    rules = build_rules("sumter")
    for i, plugin in enumerate(plugins):
        rules.register(plugin, name=f"probe-{i}")
    log = EventLog(enabled=True)
    game = Game.new(rules, load_scenario(find_scenario(scenario)), seed, log)
    play(game)
    return game, log


def test_golden_log() -> None:
    """Big Bethel, seed 7, byte for byte (REFEREE_UPDATE_GOLDEN=1 rewrites it)."""
    text = played()[1].jsonl()
    if os.environ.get("REFEREE_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_same_seed_same_log_other_seed_other_log() -> None:
    assert played("kernstown", 3)[1].jsonl() == played("kernstown", 3)[1].jsonl()
    assert played("kernstown", 3)[1].jsonl() != played("kernstown", 4)[1].jsonl()


def test_every_mechanic_of_the_game_is_cited() -> None:
    _, log = played()
    resolutions = [e for e in log.events if e["kind"] == "resolution"]
    assert {e["mechanic"] for e in resolutions} >= {"order-change", "movement", "artillery-fire", "unit-morale", "brigade-morale"}
    assert all(e["ruleset"] == "sumter" and e["ref"].startswith("QRS v6.2") for e in resolutions)


def test_steps_for_both_sides_and_for_one_brigade() -> None:
    _, log = played()
    steps = [e["text"] for e in log.events if e["kind"] == "step"]
    assert "both sides phase fire" in steps and "both sides phase morale" in steps
    assert any(s.startswith("union orders orders (") for s in steps)
    assert Step("phase", "melee", None).describe() == "both sides phase melee"
    assert Step("orders", "orders", "union", command="us-duryee").describe() == "union orders orders (us-duryee)"


class Asked:
    """Records the reactive choices asked and answers them its own way."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.asked: list[str] = []
        self.answers = answers

    @hookimpl(tryfirst=True)
    def referee_choose(self, game, side, unit, question, options):  # type: ignore[no-untyped-def]
        self.asked.append(question)
        return self.answers.get(question)


def test_reactive_choices_are_asked_of_the_doctrine() -> None:
    probe = Asked({})
    played("kernstown", 7, probe)
    assert "move-and-fire" in probe.asked
    full = Asked({"move-and-fire": "full"})  # a different commander changes play
    _, log = played("kernstown", 7, full)
    assert log.jsonl() != played("kernstown", 7)[1].jsonl()
    melee = Asked({})
    played("drill-cavalry", 6, melee)  # a charge is met: countercharge or stand (follow up: test_sumter_rules)
    assert "charged" in melee.asked


def test_rebel_yell_is_asked_and_spent_once() -> None:
    """The charge drill with the sides swapped: Confederate order foot charging may yell."""
    text = find_scenario("drill-charge-battery").read_text(encoding="utf-8")
    text = text.replace("union", "SIDE").replace("confederate", "union").replace("SIDE", "confederate")
    asked = Asked({})
    rules = build_rules("sumter")
    rules.register(asked, name="probe")
    log = EventLog(enabled=True)
    play(Game.new(rules, parse_scenario(text, "swapped.toml"), 2, log))
    assert asked.asked.count("rebel-yell") == 1
    charge = next(e for e in log.events if e["kind"] == "resolution" and e["values"].get("column") == "charge")
    assert any(m["name"] == "rebel-yell" and m["value"] == 2 for m in charge["modifiers"])


class HoldEverywhere:
    @hookimpl(tryfirst=True)
    def referee_command_intents(self, game, side):  # type: ignore[no-untyped-def]
        from referee.core.engine.doctrine import CommandIntent
        return {c.id: CommandIntent("hold") for c in game.scenario.commands if c.side == side}


def test_brigade_orders_come_from_the_command_intents() -> None:
    game, log = played("big-bethel", 7, HoldEverywhere())
    assert {b.order for b in game.state.brigades.values()} <= {"hold", "retire"}
    assert not any(e.get("mechanic") == "movement" and e["inputs"].get("for") == "charge" for e in log.events)


def test_default_command_intents_read_the_plan() -> None:
    game, _ = played("drill-charge-battery", 1)
    intents = game.command_intents("union")
    assert set(intents) == {"us-brigade"}
    assert intents["us-brigade"].stance in ("assault", "engage", "advance", "hold", "support", "withdraw")


NEW_NAMES = [("gun_type", g) for g in ("heavy-rifle", "siege", "naval", "gatling")] + [("experience", "regular")]


@pytest.mark.parametrize("ruleset", sorted(installed()))
@pytest.mark.parametrize("key, value", NEW_NAMES)
def test_new_neutral_names_play_under_every_ruleset(ruleset: str, key: str, value: str) -> None:
    text = find_scenario("drill-charge-battery").read_text(encoding="utf-8")
    text = text.replace('gun_type = "12-pdr-napoleon"', f'gun_type = "{value}"') if key == "gun_type" else text.replace('experience = "trained"', 'experience = "regular"')
    assert value in text
    outcome = play(Game.new(build_rules(ruleset), parse_scenario(text, "drill.toml"), 1))
    assert outcome.turns >= 1


def test_bad_tables_are_reported_with_file_line_and_path() -> None:
    files = {p.stem: p.read_text(encoding="utf-8") for p in (Path(__file__).parents[1] / "rulesets" / "sumter").glob("*.toml")}
    files["fire"] = files["fire"].replace('hit_on = 6', 'hit_on = 7').replace('"1/2" = 7', '"1/2" = "x"')
    files["command"] = files["command"].replace('hold = "retire"', 'hold = "flee"', 1)
    with pytest.raises(InvalidInput) as bad:
        load_texts(files, SCHEMA, prefix="sumter/")
    text = str(bad.value)
    assert "fire.toml" in text and "skirmish.hit_on" in text and "semi_hits" in text and "command.toml" in text and "flee" in text


def test_bad_input_at_the_table_exits_2() -> None:
    result = CliRunner().invoke(main, ["resolve", "sumter", "fire", "--exact", "--set", "figures=lots", "--set", "grade=elite"])
    assert result.exit_code == 2
    assert "figures" in result.output and "grade" in result.output and "Traceback" not in result.output


def test_compare_runs_with_the_other_rulesets() -> None:
    result = CliRunner().invoke(main, ["compare", "drill-musketry", "--rules", "rff,hardtack,sumter", "-n", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert "sumter" in result.output


class StatusWatcher:
    """After every step but the orders (whose results are shown once the turn's intents are
    given), each unit's neutral status is the one its piece gives (``state.show_status``)."""

    def __init__(self) -> None:
        self.steps = 0
        self.seen: set[str] = set()

    @hookimpl
    def referee_step_done(self, game, step):  # type: ignore[no-untyped-def]  # an observer, typed as the hookspec
        if step.name != "orders":
            self.check(game, step.describe())

    @hookimpl(trylast=True)
    def referee_end_turn(self, game):  # type: ignore[no-untyped-def]  # an observer, after the ruleset's end of turn
        self.check(game, "end of turn")

    def check(self, game: Game, when: str) -> None:
        from referee.plugins.sumter.state import STATUS

        self.steps += 1
        for p in game.state.pieces.values():
            gone = p.state == "gone" or p.figures <= 0
            want = "gone" if gone else "disordered" if p.state == "ok" and p.brigade.failed else STATUS[p.state]
            assert p.unit.status == want, (game.turn, when, p.id, p.state, p.brigade.failed)
            self.seen.add(want)


@pytest.mark.parametrize(("scenario", "seed"), [("big-bethel", 3), ("kernstown", 1), ("valverde", 7)])
def test_status_is_written_where_it_changes(scenario: str, seed: int) -> None:
    """No step writes back every unit: a piece's state, figures and brigade's failure are shown
    where they change (``set_state``, ``set_failed``), so the world reads right after each step."""
    watcher = StatusWatcher()
    played(scenario, seed, watcher)
    assert watcher.steps > 20
    assert len(watcher.seen) >= 3, watcher.seen  # statuses do change in these games



class Orders:
    """Counts the orders steps it is shown."""

    def __init__(self) -> None:
        self.steps = 0

    @hookimpl
    def referee_step_done(self, game: Game, step: Step) -> None:
        self.steps += step.name == "orders"


@pytest.mark.parametrize(("scenario", "seed"), [("big-bethel", 2), ("kernstown", 3), ("valverde", 5)])
def test_with_nothing_watching_the_steps_a_brigade_keeping_its_order_has_no_orders_step(
        scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A brigade whose plan asks for the order it has, and which is not retiring, makes no orders
    step when neither the log nor a layer watches the steps (``move.order_wanted``): the game is the
    same as the one with every brigade's step, logged or watched, and fewer steps are played."""
    from referee.plugins import sumter

    def game(*plugins: object, logged: bool = False) -> tuple[Game, Outcome]:
        rules = build_rules("sumter")
        for i, plugin in enumerate(plugins):
            rules.register(plugin, name=f"probe-{i}")
        g = Game.new(rules, load_scenario(find_scenario(scenario)), seed, EventLog(enabled=logged))
        return g, play(g)

    watched = Orders()
    (logged, by_log), (seen, by_watch) = game(logged=True), game(watched)
    brigades, turns = len(seen.state.brigades), seen.turn
    assert watched.steps == brigades * turns
    assert sum(e["kind"] == "step" and " orders orders " in e["text"] for e in logged.log.events) == brigades * turns
    played_orders: list[str] = []
    orders_step = sumter.orders_step
    monkeypatch.setattr(sumter, "orders_step", lambda g, state, b: (played_orders.append(b), orders_step(g, state, b)))
    _, unwatched = game()
    assert by_log == by_watch == unwatched
    assert 0 < len(played_orders) < brigades * turns
