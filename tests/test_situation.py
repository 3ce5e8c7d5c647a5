"""referee situation: one neutral situation under every ruleset, exact where a ruleset offers
one exchange, played and sampled otherwise; its input file, --set and their errors."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.cli.cli import main
from referee.core.engine import world
from referee.core.engine.chance import SampledRoller, exact
from referee.core.engine.errors import InvalidInput
from referee.core.engine.plugins import build_rules, installed
from referee.core.studies.situation import (
    COVER,
    GROUND,
    Party,
    Situation,
    exchange,
    field_of,
    play_once,
    read,
)
from referee.plugins.rff import lookup, mechanics
from referee.plugins.rff.tables import load_tables

BOX = re.compile("[\u2500-\u257f]")


def referee(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result


def test_the_default_situation_side_by_side_in_80_columns() -> None:
    text = referee("situation", "-n", "20").stdout
    assert "a (500 trained infantry with rifle-musket, line) faces b" in text and "200 yards" in text
    assert "One exchange, exact" in text and "15 minutes played, sampled (20 games" in text
    for name in installed():
        assert name in text
    assert max(len(line) for line in text.splitlines()) <= 80 and not BOX.search(text)


def test_json_says_which_answers_are_exact_and_which_sampled() -> None:
    data = json.loads(referee("situation", "--rules", "rff", "-n", "10", "--set", "range=150", "--json").stdout)
    assert data["situation"]["range"] == 150 and data["n"] == 10 and data["version"]
    rff = data["rulesets"]["rff"]
    assert rff["exchange"]["method"] == "exact" and "musketry" in rff["exchange"]["what"]
    assert rff["played"]["method"] == "sampled" and rff["played"]["games"] == 10
    lost = rff["played"]["men_lost"]["b"]
    assert lost["ci95"][0] <= lost["mean"] <= lost["ci95"][1] and lost["p10"] <= lost["p50"] <= lost["p90"]
    p = rff["exchange"]["disordered"]["b"]
    assert Fraction(p["exact"]) == pytest.approx(p["p"], abs=1e-4)


def test_a_ruleset_without_an_exchange_for_the_situation_is_reported_not_an_error() -> None:
    result = referee("situation", "-n", "4", "--set", "charge=true", "--set", "range=100")
    for name in installed():
        assert f"{name}: offers no exchange for this situation (answered by play below)" in result.stdout
    assert "P(charge carried)" in result.stdout
    data = json.loads(referee("situation", "--rules", "rff", "-n", "8", "--set", "charge=true", "--json").stdout)
    assert data["rulesets"]["rff"]["exchange"] is None
    charge = data["rulesets"]["rff"]["played"]["charge"]
    assert sum(v["p"] for v in charge.values()) == pytest.approx(1.0)


def test_a_ruleset_implementing_no_hook_is_answered_by_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.plugins import rff
    monkeypatch.delattr(rff, "referee_situation")  # as a ruleset written before the hook
    result = referee("situation", "--rules", "rff,hardtack", "-n", "4")
    assert "rff: offers no exchange for this situation (answered by play below)" in result.stdout
    assert "not offered" in result.stdout and "hardtack: one volley of a" in result.stdout
    data = json.loads(referee("situation", "--rules", "rff", "-n", "3", "--json").stdout)
    assert data["rulesets"]["rff"]["exchange"] is None and data["rulesets"]["rff"]["played"]["games"] == 3


def _rff_exchange(s: Situation):  # type: ignore[no-untyped-def]
    rules = build_rules("rff")
    offered = exchange(rules, field_of(s), s)
    assert offered is not None
    return offered


def test_the_rff_exchange_is_the_printed_table_read_exactly() -> None:
    """500 trained men in line at 200 yards: 12 stands of rifle muskets, read on the Musketry &
    Cannonade Table with no modifier; the same odds as resolving the table directly."""
    offered = _rff_exchange(Situation())
    dist = exact(offered.mechanic)
    assert sum(p for _, p in dist) == 1
    t = load_tables()  # the ruleset's own mechanic, read directly
    points = lookup.fire_points(t, "musketry", "RM", 200 / lookup.scale(t).yards_per_inch) * 12
    direct = exact(lambda roller, *args: mechanics.fire_die_values(roller, *args)[1], t, "musketry", points, "trained", (), False, False,
                   key=lambda v: tuple(sorted(v.items())))
    stands = sum(p for v, p in direct if v["stands_lost"] >= 1)
    disordered = sum(p for v, p in direct if v["disordered"])
    assert sum(p for r, p in dist if r.lost[1] >= 40) == stands  # one stand is 500 * 1 // 12 men or more
    assert sum(p for r, p in dist if r.status[1] != "good") == disordered


def test_an_exchange_that_leaves_the_morale_tests_to_play_does_not_decide_the_status() -> None:
    """sumter's one throw of musketry fills DPs and takes figures; whether b halts, retreats or
    routs is its morale tests', left to play: "not decided", not 0 % (as under hardtack)."""
    data = json.loads(referee("situation", "--rules", "sumter", "-n", "0", "--set", "range=150", "--json").stdout)
    offered = data["rulesets"]["sumter"]["exchange"]
    assert offered is not None and offered["men_lost"]["b"]["mean"] > 0
    assert offered["disordered"]["b"] is None and offered["broken"]["b"] is None


@pytest.mark.parametrize("ruleset, s", [
    ("rff", Situation(b=Party(formation="column"), range=120)),
    ("hardtack", Situation(a=Party(men=300, experience="veteran"), range=250)),
    ("hardtack", Situation(a=Party(arm="artillery", men=100, weapon=None, formation="unlimbered", guns=4, gun_type="12-pdr-napoleon"),
                           range=700)),
])
def test_exact_and_sampled_agree(ruleset: str, s: Situation) -> None:
    offered = exchange(build_rules(ruleset), field_of(s), s)
    assert offered is not None
    dist = exact(offered.mechanic)
    mean = sum(r.lost[1] * p for r, p in dist)
    roller = SampledRoller(random.Random(5))
    draws = [offered.mechanic(roller).lost[1] for _ in range(4000)]
    sd = (sum((x - float(mean)) ** 2 for x in draws) / len(draws)) ** 0.5
    assert abs(sum(draws) / len(draws) - float(mean)) < 4 * sd / len(draws) ** 0.5 + 1e-9
    for r, _ in dist:  # every exact outcome turns up about as often as it should
        k = sum(1 for x in draws if x == r.lost[1])
        share = sum(q for o, q in dist if o.lost[1] == r.lost[1])
        assert abs(k / len(draws) - float(share)) < 4 * (float(share) * (1 - float(share)) / len(draws)) ** 0.5 + 0.005


def test_a_battery_exchange_is_answered_exactly_without_playing() -> None:
    """(How long it takes is measured by benchmarks/, never asserted in a test.)"""
    from referee.core.studies.situation import answer
    rules = build_rules("rff")
    out = answer(rules, Situation(b=Party(arm="artillery", men=100, weapon=None, formation="unlimbered", guns=4,
                                          gun_type="12-pdr-napoleon")), 0, 1, (10, 10))
    assert out["exchange"]["method"] == "exact" and "played" not in out


def test_a_file_with_settings_over_it(tmp_path: Path) -> None:
    path = tmp_path / "volley.toml"
    path.write_text('range = 300\nminutes = 30\n\n[a]\nmen = 400\nexperience = "veteran"\n\n[b]\ncover = "works"\nground = "woods"\n')
    s = read(str(path), ["a.men=350", "b.weapon=smoothbore", 'b.formation="column"'])
    assert (s.range, s.minutes, s.a.men, s.a.experience) == (300, 30, 350, "veteran")
    assert (s.b.cover, s.b.ground, s.b.weapon, s.b.formation) == ("works", "woods", "smoothbore", "column")
    data = json.loads(referee("situation", str(path), "--rules", "rff", "-n", "3", "--json").stdout)
    assert data["situation"]["b"]["cover"] == "works" and data["described"].endswith("for 30 minutes")


def test_bad_input_says_where_and_what_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('range = 300\n[a]\nmen = -4\nweapon = "musket"\n[c]\nx = 1\n')
    out = referee("situation", str(path), "--set", "b.wepon=x", "--set", "minutes=0", code=2).output
    assert f"{path}:3 a.men: expected a whole number >= 1" in out
    assert f"{path}:4 a.weapon: unknown weapon 'musket'; did you mean 'rifle-musket'?" in out
    assert f"{path}:5 c: unknown key 'c'" in out
    assert "--set b.wepon: unknown key 'b.wepon'; did you mean 'b.weapon'" in out
    assert "--set minutes: expected a whole number >= 1, got 0" in out
    assert "Traceback" not in out
    out = referee("situation", "--set", "a.arm=artillery", "--set", "charge=true", "--set", "b.guns=2", code=2).output
    assert "artillery does not charge" in out and "b.guns: infantry has no guns" in out
    assert "no such file" in referee("situation", str(tmp_path / "none.toml"), code=2).output
    (tmp_path / "syntax.toml").write_text("range = [\n")
    assert "TOML syntax error" in referee("situation", str(tmp_path / "syntax.toml"), code=2).output
    assert "expected KEY=VALUE" in referee("situation", "--set", "range", code=2).output
    assert "--at-least: expected a whole number" in referee("situation", "--at-least", "x", "-n", "0", code=2).output
    assert "unknown ruleset" in referee("situation", "--rules", "rfff", "-n", "0", code=2).output


parties = st.builds(
    lambda arm, weapon, experience, formation, facing, ground, cover, men: (
        Party(men=men, arm=arm, weapon=None if arm == "artillery" else weapon, experience=experience,
              formation="unlimbered" if arm == "artillery" else formation, facing=facing, guns=4 if arm == "artillery" else 0,
              gun_type="3-inch-rifle" if arm == "artillery" else None, mounted=arm == "cavalry", ground=ground, cover=cover)),
    st.sampled_from(world.ARMS), st.sampled_from(world.WEAPONS), st.sampled_from(world.EXPERIENCE),
    st.sampled_from(("line", "column", "skirmish")), st.sampled_from((0.0, 45.0, 180.0)), st.sampled_from(GROUND),
    st.sampled_from(COVER), st.integers(20, 1200))


@settings(max_examples=12, deadline=None)
@given(a=parties, b=parties, rng=st.integers(1, 2000), charge=st.booleans(), minutes=st.integers(1, 30))
def test_any_situation_makes_a_field_every_ruleset_plays(a: Party, b: Party, rng: int, charge: bool, minutes: int) -> None:
    s = Situation(a, b, rng, minutes, charge and a.arm != "artillery")
    scenario = field_of(s)
    for name in sorted(installed()):
        rules = build_rules(name)
        offered = exchange(rules, scenario, s)
        if offered is not None:
            assert sum(p for _, p in exact(offered.mechanic)) == 1
        result, _, minutes = play_once(rules, scenario, s, 1)
        assert 0 < minutes <= minutes_limit(s, rules)
        assert 0 <= result.lost[0] <= a.men and 0 <= result.lost[1] <= b.men


def minutes_limit(s: Situation, rules) -> int:  # type: ignore[no-untyped-def]
    turn = rules.info.scale.minutes_per_turn
    return -(-s.minutes // turn) * turn  # whole turns


def test_the_situation_module_refuses_what_read_refuses() -> None:
    with pytest.raises(InvalidInput, match="range"):
        read(None, ["range=99999"])


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parent.parent / "examples" / "situations").glob("*.toml")), ids=lambda p: p.stem)
def test_the_example_situations_are_answered(path: Path) -> None:
    data = json.loads(referee("situation", str(path), "-n", "3", "--json").stdout)
    assert set(data["rulesets"]) == set(installed())
    assert all(r["played"]["games"] == 3 for r in data["rulesets"].values())
