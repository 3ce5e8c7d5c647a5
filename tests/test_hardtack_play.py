"""Hardtack in play: the neutral world written back, golden Big Bethel, and the speed-ups
changing nothing (memoised geometry, deferred sync)."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path

import pytest
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario

GOLDEN = Path(__file__).parent / "golden"


class StepWatcher:
    """A ``referee_step_done`` observer: records the neutral world after every step."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, float, float, str]] = []

    @hookimpl
    def referee_step_done(self, game, step):  # type: ignore[no-untyped-def]
        for uid, unit in sorted(game.world.units.items()):
            self.seen.append((uid, unit.men, round(unit.x, 6), round(unit.y, 6), unit.status))


def played(scenario_id: str, seed: int, watcher: StepWatcher | None = None) -> tuple[Game, EventLog]:
    rules = build_rules("hardtack")
    if watcher is not None:
        rules.register(watcher, "watcher")
    log = EventLog(enabled=True)
    game = Game.new(rules, load_scenario(find_scenario(scenario_id)), seed, log)
    play(game)
    return game, log


def without_positions(log: EventLog) -> list[dict[str, object]]:
    return [{k: v for k, v in e.items() if k != "seq"} for e in log.events if e["kind"] != "positions"]


def test_an_observer_sees_the_world_after_every_step_and_changes_nothing() -> None:
    """Without a step observer the neutral world is written back once a turn (a speed-up);
    with one, after every step. The game is the same either way (only the log's positions,
    which show the neutral world, come after every step)."""
    watcher = StepWatcher()
    game, watched = played("drill-musketry", 3, watcher)
    _, plain = played("drill-musketry", 3)
    assert without_positions(watched) == without_positions(plain)
    assert len(watched.events) > len(plain.events)
    men = {uid: [m for u, m, *_ in watcher.seen if u == uid] for uid in game.world.units}
    assert all(a >= b for seq in men.values() for a, b in pairwise(seq))  # men only fall
    assert any(seq[0] > seq[-1] for seq in men.values())  # and they are seen falling mid-turn
    state = game.state
    for unit in game.world.units.values():  # after the last turn the world matches the table
        companies = state.regiments[unit.spec.id].companies
        assert unit.men == unit.spec.men * sum(c.figures for c in companies) // sum(c.start for c in companies)


def test_geometry_kept_across_games_does_not_change_a_game() -> None:
    """Memoised cover, sight and ground walks (the scenario's Terrain) are computed from their
    keys alone: a game played after others (memos full) is the game played first (memos empty)."""
    from referee.plugins.hardtack import state

    state._terrains.clear()
    _, first = played("big-bethel", 5)
    played("big-bethel", 6)
    _, again = played("big-bethel", 5)
    assert first.jsonl() == again.jsonl()


@pytest.mark.parametrize("seed", [7])
def test_big_bethel_golden_log(seed: int) -> None:
    path = GOLDEN / f"big-bethel-hardtack-seed{seed}.jsonl"
    fresh = played("big-bethel", seed)[1].jsonl().encode()
    if os.environ.get("REFEREE_UPDATE_GOLDEN") == "1":
        path.write_bytes(fresh)
    assert path.exists(), f"{path} is missing; write it with REFEREE_UPDATE_GOLDEN=1"
    old, new = path.read_bytes().decode().splitlines(), fresh.decode().splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), None)
    assert old == new, f"{path.name}: the game played differently from line {first} ({len(old)} lines golden, {len(new)} now)"


def test_a_regiment_in_line_holds_its_real_frontage_in_its_works() -> None:
    """HT-O5: the 1st North Carolina's main body in Hill's work (592 men, line) stands in one row
    over its neutral frontage (about 180 yards), every company behind the works and In Position
    (HT-G3)."""
    from referee.core.engine.footprint import frontage
    from referee.plugins.hardtack import geometry

    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 1)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    nc = game.state.regiments["1st-nc"].companies
    xs, ys = [c.x for c in nc], [c.y for c in nc]
    width = frontage("infantry", 592, 0, "line")
    assert len(set(ys)) == 1 and max(xs) - min(xs) == pytest.approx(width * (len(nc) - 1) / len(nc), rel=0.05)
    assert all(geometry.cover(game, c) == "hard" and c.in_position for c in nc)


def test_a_broken_company_keeps_to_its_cover_and_routs_when_assaulted() -> None:
    """HT-C3 (SG2 Broken): in cover it stays; in the open it falls back; assaulted, it routs."""
    from referee.plugins.hardtack import activation, assault
    from referee.plugins.hardtack.state import BROKEN, ROUTED

    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 1)
    game.state = game.rules.pm.hook.referee_muster(game=game)
    state = game.state
    held, open_ = state.regiments["1st-nc"].companies[0], state.regiments["wythe-rifles"].companies[0]
    for c in (held, open_):
        c.level = BROKEN
        before = (c.x, c.y)
        activation.action(game, state, c, None, 0, [])
        assert ((c.x, c.y) == before) is (c is held)
    for seed in range(30):  # until the attacker passes its own reaction test (HT-A1)
        game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), seed, EventLog(enabled=True))
        game.state = state = game.rules.pm.hook.referee_muster(game=game)
        held = state.regiments["1st-nc"].companies[0]
        held.level = BROKEN
        attacker = state.regiments["3rd-ny"].companies[0]
        attacker.x, attacker.y = held.x, held.y - 20
        before = held.y
        assault.assault(game, state, attacker, held)
        if any("routs before" in e.get("text", "") for e in game.log.events):
            assert held.level == ROUTED and held.y > before  # routed, and gone to its rear (north)
            assert not any(e.get("mechanic") == "close-assault" for e in game.log.events)  # no fight
            return
    pytest.fail("no attacker passed its reaction test in 30 seeds")


def test_replications_do_not_depend_on_the_worker_count() -> None:
    """Kept geometry (cover, sight, walks) is computed from its key, never from whichever game
    asked first: one worker and two play the same games."""
    from referee.core.studies.compare import Stack, run_replications

    path = str(find_scenario("big-bethel"))
    one, _ = run_replications(Stack("hardtack"), path, 6, 3, workers=1)
    two, _ = run_replications(Stack("hardtack"), path, 6, 3, workers=2)
    assert one == two and len(one) == 6


def _bethel(seed: int):  # type: ignore[no-untyped-def]
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), seed, EventLog(enabled=True))
    game.state = game.rules.pm.hook.referee_muster(game=game)
    return game, game.state


@pytest.mark.parametrize("gap, reaches", [(35.0, False), (30.0, True)])
def test_a_close_assault_pays_for_crossing_the_works(gap: float, reaches: bool) -> None:
    """HT-A6 (p.14: linear obstacles are poor ground for infantry; HT-M4): a skirmishing company
    (6") 35 yards in front of the 3rd Virginia's breastwork on the hill beyond the creek, in the
    fields (poor going, p.14: 30 yards for its 6"), would reach contact (30 yards) over the fields
    alone, but crossing the works costs an inch more: it gets 25 yards and stops short; from
    30 yards it goes in. (The 1st North Carolina's work has the creek's marsh in front of it,
    which costs ground of its own.)"""
    from referee.plugins.hardtack import assault

    for seed in range(30):  # until the attacker passes its own reaction test (HT-A1)
        game, state = _bethel(seed)
        held, attacker = state.regiments["3rd-va"].companies[0], state.regiments["3rd-ny"].companies[0]
        attacker.form("skirmish")
        attacker.x, attacker.y = held.x, held.y - gap
        assert game.ground.kind_at(attacker.x, attacker.y) == "fields"  # cultivated: poor going
        assault.assault(game, state, attacker, held)
        if attacker.y != held.y - gap:  # it passed and moved
            fought = any(e.get("mechanic") == "close-assault" or e.get("why") == "to stand" for e in game.log.events)
            assert fought is reaches
            if not reaches:
                assert any("cannot reach" in e.get("text", "") and "works" in e.get("text", "") for e in game.log.events)
                assert held.y - attacker.y >= assault.CONTACT_YARDS + 5  # short of contact
            return
    pytest.fail("no attacker passed its reaction test in 30 seeds")


def test_a_flight_pays_for_the_ground_it_crosses() -> None:
    """HT-M6: a broken company runs one move for its rear, over the ground as any move (HT-M4):
    a Union company in the marsh before the works (poor ground) covers less than its 60 yards."""
    from referee.plugins.hardtack import move

    game, state = _bethel(1)
    held, c = state.regiments["1st-nc"].companies[0], state.regiments["3rd-ny"].companies[0]
    c.x, c.y = held.x, held.y - 70
    c.form("skirmish")
    assert game.ground.kind_at(c.x, c.y) == "marsh"
    move.flee(game, state, c)
    assert 0 < held.y - 70 - c.y < 60


def test_logged_ranges_are_kept_by_their_own_value() -> None:
    """The fire mechanics keep each logged range's Fraction by the value itself: a float and a
    Fraction of equal value give the same answer, whichever asked first."""
    from fractions import Fraction

    from referee.plugins.hardtack import mechanics

    for x in (10.0, 13.337, Fraction(27, 2), 7, 1 / 3):
        mechanics._ranges.clear()
        assert mechanics._inches(x) == Fraction(x).limit_denominator(100)
        assert mechanics._inches(Fraction(x)) == Fraction(x).limit_denominator(100)
        assert mechanics._fraction(x) == Fraction(x)


@pytest.mark.parametrize("friend, masks", [("line", True), ("column", True), ("skirmish", False), (None, False)])
def test_a_company_does_not_fire_through_a_friendly_close_formation(friend: str | None, masks: bool) -> None:
    """HT-G4 (p.17): a company may fire through a friendly company in skirmish order, not through
    one in line or column; masked, the commander fires at the nearest target he may (HT-F6)."""
    from referee.plugins.hardtack import fire

    game, state = _bethel(1)
    c, f = state.regiments["3rd-ny"].companies[0], state.regiments["3rd-ny"].companies[1]
    e, other = state.regiments["1st-nc"].companies[0], state.regiments["1st-nc"].companies[1]
    c.facing = 0.0  # in the open south of the creek, facing north
    c.form("line")
    e.x, e.y, e.in_position = c.x, c.y + 80, False  # an enemy 80 yards ahead
    other.x, other.y, other.in_position = c.x + 90, c.y + 80, False  # another, further off, to one side
    if friend is None:
        f.x = f.y = 0.0
    else:
        f.facing, f.x, f.y = 0.0, c.x, c.y + 30  # across the line of fire
        f.form(friend)
    chosen = fire.choose_target(game, state, c, [e, other], None)
    assert chosen is (other if masks else e)
    assert any(ev["kind"] == "masked" and "HT-G4" in ev["rulings"] for ev in game.log.events) is masks


def test_a_gun_fires_its_new_load_at_the_target_it_loaded_for_as_a_full_search_would() -> None:
    """The search that fires a gun's load just chosen is answered from the one that chose it
    (Aims.loading): the same target, with the same HT-G4 line for the target passed over, as a
    full search gives; a load that cannot tell on the kept target is searched for anew."""
    from referee.plugins.hardtack import fire

    game, state = _bethel(1)
    g, f = state.companies["greble-guns/1"], state.regiments["3rd-ny"].companies[0]
    e, other = state.regiments["1st-nc"].companies[0], state.regiments["1st-nc"].companies[1]
    g.facing = 0.0
    e.x, e.y, e.in_position = g.x, g.y + 80, False  # ahead, masked by f
    other.x, other.y, other.in_position = g.x + 90, g.y + 80, False
    f.facing, f.x, f.y = 0.0, g.x, g.y + 30
    f.form("line")
    state.aims.masks = {}  # one lone company acts (activation.play_step)
    assert fire.choose_target(game, state, g, [e, other], None) is other
    assert state.aims.loading is not None and state.aims.loading[1] is other
    g.loaded = "canister"

    def masked() -> list[dict[str, object]]:
        return [{k: v for k, v in ev.items() if k != "seq"} for ev in game.log.events if ev["kind"] == "masked"]

    assert fire.choose_target(game, state, g, [e, other], None) is other
    assert len(masked()) == 2 and masked()[1] == masked()[0]
    state.aims.loading = None
    assert fire.choose_target(game, state, g, [e, other], None) is other
    assert len(masked()) == 3 and masked()[2] == masked()[1]
    far = g.gun.canister * state.tables.yards_per_inch + 20  # beyond canister, within shot
    other.x, other.y = g.x, g.y + far
    state.aims.loading = (g, other, [(e, f.id)])
    assert fire.choose_target(game, state, g, [e, other], None) is None  # canister cannot reach it


def test_a_column_does_not_fire() -> None:
    """HT-G4 (p.17): every member of a close formation must see the target without firing
    through another member of his company; a column (three or more rows, p.6) cannot."""
    from referee.plugins.hardtack import fire

    game, state = _bethel(1)
    c, e = state.regiments["3rd-ny"].companies[0], state.regiments["1st-nc"].companies[0]
    c.facing = 0.0
    c.form("line")
    e.x, e.y, e.in_position = c.x, c.y + 80, False
    assert fire.choose_target(game, state, c, [e], None) is e
    c.form("column")
    assert fire.choose_target(game, state, c, [e], None) is None
    assert any(ev["kind"] == "masked" and "column" in ev["text"] for ev in game.log.events)


@pytest.mark.parametrize("gap, transfers", [(50.0, True), (70.0, False)])
def test_a_commander_transfers_a_fire_action_to_a_company_within_6_inches(gap: float, transfers: bool) -> None:
    """HT-T7 (SG2 Transfer; Hardtack pp.9, 11): a regimental commander with nothing else to do
    gives an action to a company within 6" that has a target, even one already activated; it is
    that company's Fire. Beyond 6" he cannot."""
    from referee.plugins.hardtack import activation

    game, state = _bethel(1)
    reg = state.regiments["3rd-ny"]
    c, d, e = reg.companies[0], reg.companies[1], state.regiments["1st-nc"].companies[0]
    for other in reg.companies[2:]:
        other.gone = True
    state.forget()
    c.facing, c.activated = 0.0, True  # it has had its own activation
    c.form("line")
    e.x, e.y, e.in_position = c.x, c.y + 80, False
    reg.x, reg.y = c.x - gap, c.y  # the commander at the centre of c and d (HT-T6: he stays)
    d.x, d.y = c.x - 2 * gap, c.y  # a column does not fire (HT-G4)
    d.form("column")
    state.intents = {s: {} for s in game.scenario.sides}
    step = activation._next(game, state, "union")
    assert (step is not None and step.name == "transfer") is transfers
    if transfers:
        assert step is not None
        activation.play_step(game, step)
        assert c.reload  # it fired
        assert any(ev["kind"] == "transfer" and "HT-T7" in ev["rulings"] for ev in game.log.events)


@pytest.mark.parametrize("mover, friend, passes", [
    ("line", "line", False), ("column", "line", False), ("line", "skirmish", True),
    ("skirmish", "line", True), ("skirmish", "skirmish", True),
])
def test_movement_through_friendly_formations(mover: str, friend: str, passes: bool) -> None:
    """HT-M7 (p.15): a skirmisher may move through any friendly company, a close formation
    through a friendly skirmisher but not through another close formation, where it halts, its
    footprint touching the other's. A close formation that moves through a company, or has one
    move through it, is disordered (skirmish order, p.7)."""
    from referee.plugins.hardtack import move

    game, state = _bethel(1)
    c, f = state.regiments["3rd-ny"].companies[0], state.regiments["5th-ny-2nd"].companies[0]
    c.facing, f.facing = 0.0, 0.0
    f.form(friend)
    c.form(mover)
    f.x, f.y = c.x, c.y + 40  # 40 yards ahead, across its way
    start = c.y
    moved = move.step_toward(game, state, c, c.x, c.y + 80, 80, [])
    assert (moved == 80) is passes
    if not passes:
        assert c.y - start == pytest.approx(40 - sum(move.geo.half_footprint(state, x)[1] for x in (c, f)) + move.TOUCH_YARDS)
    assert c.formation == ("skirmish" if passes else mover)
    assert f.formation == ("skirmish" if passes else friend)
    assert any("HT-M7" in e.get("rulings", ()) for e in game.log.events) is (passes and "line" in (mover, friend))


def test_moving_beside_a_friend_or_among_its_own_regiment_is_not_moving_through() -> None:
    """HT-M7: footprints that only touch (companies side by side) and the companies of one's own
    regiment (their places kept in its line, HT-M5) are never passed through."""
    from referee.plugins.hardtack import move

    game, state = _bethel(1)
    c, own, other = state.regiments["3rd-ny"].companies[0], state.regiments["3rd-ny"].companies[1], state.regiments["5th-ny-2nd"].companies[0]
    for x in (c, own, other):
        x.facing = 0.0
        x.form("line")
    own.x, own.y = c.x, c.y + 40
    width = 2 * move.geo.half_footprint(state, c)[0]
    other.x, other.y = c.x + width, c.y + 40  # beside the path, footprints touching
    assert move.step_toward(game, state, c, c.x, c.y + 80, 80, []) == 80
    assert {x.formation for x in (c, own, other)} == {"line"}


def test_a_routed_company_runs_through_a_close_formation_and_disorders_it() -> None:
    """HT-M7 (p.15): broken and routed companies take the shortest way, through close
    formations too; the formation they pass through is disordered."""
    from referee.plugins.hardtack import move
    from referee.plugins.hardtack.state import ROUTED

    game, state = _bethel(1)
    c, f = state.regiments["3rd-ny"].companies[0], state.regiments["5th-ny-2nd"].companies[0]
    c.level = ROUTED
    c.form("skirmish")
    f.facing = 0.0
    f.form("line")
    f.x, f.y = c.x, c.y - 20  # just behind it (the Union's rear is south; its flight over the fields is 30 yards)
    before = c.y
    move.flee(game, state, c)
    assert c.y < f.y < before and f.formation == "skirmish"


def _drill_cavalry():  # type: ignore[no-untyped-def]
    """The drill's mounted carbine company (trained, D8: its fire reaches 40", 400 yards) and an
    enemy infantry company."""
    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("drill-cavalry")), 1, EventLog(enabled=True))
    game.state = state = game.rules.pm.hook.referee_muster(game=game)
    c, e = state.regiments["us-cavalry"].companies[0], state.regiments["cs-regiment"].companies[0]
    c.facing = 0.0
    c.form("line")
    return game, state, c, e


@pytest.mark.parametrize("gap, dismounts", [(350.0, True), (450.0, False)])
def test_holding_cavalry_dismount_when_an_enemy_comes_within_their_fire(gap: float, dismounts: bool) -> None:
    """HT-K2 (pp.6, 9): cavalry holding dismount with a Reorganise action once an enemy is within
    the reach of their fire (five 8" bands of a D8 company's carbines); the same action takes up
    the formation wanted."""
    from referee.core.engine.doctrine import Intent
    from referee.plugins.hardtack import activation

    game, state, c, e = _drill_cavalry()
    assert c.mounted
    e.x, e.y = c.x, c.y + gap
    activation.action(game, state, c, Intent("hold", (c.x, c.y), e.unit.id, "line", "defend"), 0, [e])
    assert c.mounted is not dismounts
    assert any("HT-K2" in ev.get("rulings", ()) and "dismounts" in ev["text"] for ev in game.log.events) is dismounts


@pytest.mark.parametrize("kind, ahead, mounts", [("charge", 100.0, True), ("withdraw", -300.0, True), ("advance", 300.0, True),
                                                 ("advance", 100.0, False)])
def test_dismounted_cavalry_mount_to_charge_withdraw_or_advance_far(kind: str, ahead: float, mounts: bool) -> None:
    """HT-K2: dismounted cavalry mount (one Reorganise) to charge, to withdraw, or to advance
    further than two dismounted Moves (120 yards); a shorter advance is made on foot."""
    from referee.core.engine.doctrine import Intent
    from referee.plugins.hardtack import activation

    game, state, c, _ = _drill_cavalry()
    c.mounted = False
    start = (c.x, c.y)
    activation.action(game, state, c, Intent(kind, (c.x, c.y + ahead), None, "line", "attack"), 0, [])
    assert c.mounted is mounts
    assert ((c.x, c.y) == start) is mounts  # mounting is the action; on foot, it moves


def test_dismounted_cavalry_leave_one_figure_in_four_holding_horses() -> None:
    """p.9: one horse holder for every four figures or fraction, who cannot fire."""
    from referee.plugins.hardtack import fire

    game, state, c, e = _drill_cavalry()
    c.figures, c.mounted = 9, False
    e.x, e.y = c.x, c.y + 100
    e.form("line")
    fire.fire(game, state, c, e)
    shot = next(ev for ev in game.log.events if ev.get("mechanic") == "fire")
    assert fire.firing_figures(game.state.tables, c) == 6 and shot["inputs"]["firepower"] == 6


def _colonel_with(state, n: int):  # type: ignore[no-untyped-def]
    """The 3rd New York's first ``n`` companies in line side by side, its commander at the first."""
    reg = state.regiments["3rd-ny"]
    for i, c in enumerate(reg.companies):
        c.facing, c.x, c.y, c.level = 0.0, 500.0 + 20 * i, 500.0, 0
        c.form("line")
        c.gone = i >= n
    state.forget()
    reg.x, reg.y = reg.companies[0].x, reg.companies[0].y
    return reg


@pytest.mark.parametrize("away, hit", [(0.0, True), (40.0, False)])
def test_a_regimental_commander_is_hit_only_with_the_company_he_stands_with(away: float, hit: bool) -> None:
    """HT-L2 (SG2: hits fall on random figures): a commander standing with a company is one more
    figure among its figures when it takes casualties; 40 yards off he is with none of them."""
    from referee.plugins.hardtack import morale

    seen = False
    for seed in range(40):
        game, state = _bethel(seed)
        reg = _colonel_with(state, 3)
        reg.x += away
        morale.casualties(game, state.tables, reg.companies[0], 4, "fired-on", "musketry", 100.0)
        seen |= any(ev["kind"] == "commander" and "HT-L2" in ev["rulings"] for ev in game.log.events)
    assert seen is hit


def test_a_fallen_regimental_commander_is_replaced_and_his_formation_tests() -> None:
    """p.7 (HT-L2): the best-quality company leader of the formation takes the regiment, his
    company's leader replaced as though killed, with no further test; every other company of the
    formation tests at "Unit Leader becomes casualty"; companies outside it (in skirmish order,
    or beyond 6") do not."""
    from referee.plugins.hardtack import morale

    game, state = _bethel(1)
    reg = _colonel_with(state, 5)
    hit, best, other, skirmish, far = reg.companies[:5]
    best.quality, best.lv, reg.lv = 10, 1, 2
    skirmish.form("skirmish")
    far.x = reg.x + 70
    assert morale.commander_falls(game, state.tables, hit)  # the hit company is in the formation
    assert (reg.lv, best.lv) == (1, 2) and reg.commander
    tested = [ev["unit"] for ev in game.log.events if ev.get("why") == "regimental commander hit"]
    assert tested == [best.id, other.id]
    assert all(ev["inputs"]["threat"] == 3 - 1 for ev in game.log.events if ev.get("why") == "regimental commander hit")


@pytest.mark.parametrize("formation, hit", [("limbered", True), ("unlimbered", False)])
def test_a_limbered_guns_team_is_hit_with_its_crew_and_moves_slower(formation: str, hit: bool) -> None:
    """HT-S6 (p.13): a limbered gun's team stands among its crew's figures when it takes
    casualties; hit, its movement die shifts down one (D10 to D8). An unlimbered gun's team is
    away from the gun (a detached element) and is not hit with its crew."""
    from referee.plugins.hardtack import morale, move

    seen = False
    for seed in range(20):
        game, state = _bethel(seed)
        gun = state.regiments["greble-guns"].companies[0]
        gun.figures = 6
        gun.form(formation)
        assert move.base_inches(state.tables, gun) == (10 if formation == "limbered" else 4)
        morale.casualties(game, state.tables, gun, 2, "fired-on", "musketry", 100.0)
        if gun.team_hit:
            seen = True
            assert move.base_inches(state.tables, gun) == 8
            assert any(ev["kind"] == "team" and "HT-S6" in ev["rulings"] for ev in game.log.events)
    assert seen is hit


def test_no_footprint_outgrows_its_sides_widest() -> None:
    """geometry.widest bounds every company's half-diagonal, in every formation, before and after
    a game's casualties, guns lost and changes of formation: the friends in the way and the
    masking friends are only looked at within it (move.friends_in_way, geometry._masked)."""
    from referee.plugins.hardtack import geometry as geo

    game = Game.new(build_rules("hardtack"), load_scenario(find_scenario("big-bethel")), 1, EventLog(enabled=False))
    game.state = game.rules.pm.hook.referee_muster(game=game)
    bounds = {side: geo.widest(game.state, side) for side in game.state.by_side}

    def check() -> None:
        for c in game.state.companies.values():
            every, close = bounds[c.side]
            assert geo.half_footprint(game.state, c)[2] <= (close if c.close else every), c.id
            for formation in ("line", "column", "skirmish", "limbered", "unlimbered"):
                radius = geo._half_footprint(c.arm, c.figures * game.state.men_per_figure, c.guns, formation)[2]
                assert radius <= every and (formation not in ("line", "column") or radius <= close), (c.id, formation)

    check()
    play(game)
    assert any(c.figures < c.start for c in game.state.companies.values())  # (the game changed them)
    check()
    assert {side: geo.widest(game.state, side) for side in game.state.by_side} == bounds
