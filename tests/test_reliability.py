"""The reliability audit's defects, each reproduced and now refused or handled (issue 13).

The audit's reproducers are fixtures in tests/fixtures/reliability/ (the first line of each says
what it changes); the ids in the test names (A1, B3, ...) are the audit's. Hostile input ends in
one clear message and exit code 2; limits are stated and enforced at load time;
house rules answer for their own hooks; output files are written, never replaced when they are
devices; nothing from a scenario reaches the terminal as a control sequence or Rich markup.
Signals and interrupted comparisons are in tests/test_interrupts.py.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import referee.core.studies.compare as compare_module
from click.testing import CliRunner, Result
from referee.core.cli.cli import main
from referee.core.engine import limits
from referee.core.engine.errors import InvalidInput
from referee.core.input.scenario import find_scenario, load_scenario, parse_scenario
from referee.core.studies.compare import Stack, run_replications
from strategies import minimal_scenario, to_toml

FIXTURES = Path(__file__).parent / "fixtures" / "reliability"
HOUSE_RULES = FIXTURES / "house_rules"
DRILL = find_scenario("drill-musketry").read_text(encoding="utf-8")


def referee(*args: str) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def refused(result: Result, *must_say: str) -> str:
    """Exit code 2, no traceback, an "Error:" message saying each of ``must_say``."""
    assert result.exit_code == 2, (result.exit_code, result.output[-3000:], result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    message = result.stderr.split("Error:", 1)[1]
    for words in must_say:
        assert words in message, (words, message)
    return message


def scenario_text(change: str = "", **head: Any) -> str:
    """The minimal scenario with its [scenario] table updated and ``change`` appended."""
    data = minimal_scenario()
    data["scenario"].update(head)
    return to_toml(data) + change


def problems(text: str) -> str:
    with pytest.raises(InvalidInput) as caught:
        parse_scenario(text, "s.toml")
    return str(caught.value)


# ----------------------------------------------------------------------------- A, B, C: the reproducers


REPRODUCERS = {  # file -> what the message must say
    "tb01_map_1e20_yards_wide.toml": ["scenario.width", "<= 20000"],  # A1
    "tb02_nested_array_600_deep.toml": ["nested too deeply"],  # A2
    "tb03_nested_inline_table_600_deep.toml": ["nested too deeply"],  # A3
    "tb05_256_areas.toml": ["256 areas", "at most 250"],  # A4
    "tb04_integer_literal_4301_digits.toml": [":56:", "a number far too large"],  # A5
    "tb08_command_with_bad_id_and_parent.toml": ["commands[1].id", "expected an id"],  # A6
    "tb06_width_integer_above_float_range.toml": ["scenario.width", "int of 310 digits"],  # A7
    "tb07_facing_integer_above_float_range.toml": ["units[0].facing", "-720 to 720"],  # A8
    "hang01_hardtack_men_10e7.toml": ["units[0].men", "at most 5,000 men in one unit"],  # B1
    "hang02_hardtack_guns_10e6.toml": ["units[1].guns", "at most 24 guns in one unit"],  # B2
    "hang03_map_100000_yards_with_an_area.toml": ["scenario.width", "scenario.height"],  # B3
    "mem01_map_1e6_yards.toml": ["scenario.width", "<= 20000"],  # B4
    "mem02_map_1e9_yards_high.toml": ["scenario.height", "<= 20000"],  # B4
    "in01_rff_guns_10e309.toml": ["units[1].guns"],  # C1
}


@pytest.mark.parametrize("rules", ["rff", "hardtack"])
@pytest.mark.parametrize("name", sorted(REPRODUCERS))
def test_a_reproducer_is_refused_at_once(name: str, rules: str) -> None:
    refused(referee("run", FIXTURES / name, "--rules", rules, "--seed", "1", "--quiet"), *REPRODUCERS[name])


def test_every_reproducer_of_the_audit_is_a_fixture() -> None:
    named = set(REPRODUCERS) | {"g2_ansi_escape_title.toml", "tb09_compare_markup_title.toml"}
    named |= {f"slow01_{n}_extra_regiments_a_side.toml" for n in (50, 100, 200)}  # B5: hardtack's own speed
    named |= {"r1_unit_name_html_comment_script.toml"}  # R1 of 2026-11-29: tests/test_hostile_input.py
    assert named == {p.name for p in FIXTURES.glob("*.toml")}


@pytest.mark.parametrize("n", [50, 100, 200])
def test_a_battle_of_hundreds_of_regiments_is_within_the_limits(n: int) -> None:
    """B5's files load (their time under hardtack is hardtack's, not the loader's)."""
    scenario = load_scenario(FIXTURES / f"slow01_{n}_extra_regiments_a_side.toml")
    assert len(scenario.units) == 2 + 2 * n


def test_a9_b10_resolve_refuses_numbers_too_large_to_compute() -> None:
    for args in (("rff", "musketry", "--set", "fire_points=1e5000", "--exact"),
                 ("rff", "musketry", "--set", "fire_points=1e100000000", "--exact"),
                 ("hardtack", "fire", "--set", "firepower=4", "--set", "range=1e5000", "--seed", "1"),
                 ("hardtack", "shot", "--set", "range=1e100000000", "--exact")):
        refused(referee("resolve", *args), "--set", "at most 1,000,000 in size")


# ----------------------------------------------------------------------------- limits


def test_the_map_may_be_as_large_as_the_limit_and_no_larger() -> None:
    side = limits.MAP_YARDS
    assert parse_scenario(scenario_text(width=side, height=side)).width == side
    assert "scenario.height: expected a number > 0 and <= 20000, got 20001" in problems(scenario_text(height=side + 1))


def test_men_and_guns_per_unit() -> None:
    assert "at most 5,000 men in one unit, got int 5001" in problems(scenario_text().replace("men = 500", "men = 5001", 1))
    assert parse_scenario(scenario_text().replace("men = 500", f"men = {limits.MEN}", 1)).units[0].men == limits.MEN
    battery = ('\n[[units]]\nid = "guns"\nname = "Guns"\ncommand = "us"\narm = "artillery"\nmen = 100\nposition = [400, 300]\n'
               'facing = 0\nformation = "unlimbered"\ngun_type = "3-inch-rifle"\nguns = {}\n')
    assert parse_scenario(scenario_text(battery.format(limits.GUNS))).units[-1].guns == limits.GUNS
    assert "at most 24 guns in one unit, got int 25" in problems(scenario_text(battery.format(limits.GUNS + 1)))


def area(x: float, corners: int = 3, size: float = 10) -> str:
    points = ", ".join(f"[{x + size * (i % 2)}, {10 + size * (i // 2 % 2) + i * 0.001}]" for i in range(corners))
    return f'\n[[areas]]\nkind = "woods"\npolygon = [{points}]\n'


def test_areas_at_most_250() -> None:
    assert len(parse_scenario(scenario_text("".join(area(3 * i) for i in range(limits.AREAS)))).areas) == limits.AREAS
    assert "areas: 251 areas: a scenario has at most 250" in problems(scenario_text("".join(area(3 * i) for i in range(limits.AREAS + 1))))


def test_areas_that_would_take_long_to_draw_are_refused() -> None:
    """B3: the drawing budget counts the cells of the box round each area times its corners."""
    big = scenario_text("".join(area(0, corners=200, size=10_000) for _ in range(2)), width=10_000, height=10_000)
    assert "cell tests to draw" in problems(big) and "at most 10,000,000" in problems(big)
    within = scenario_text(area(0, corners=60, size=10_000), width=10_000, height=10_000)  # 9.6 million tests
    parse_scenario(within)
    from referee.core.engine.ground import Ground

    Ground(parse_scenario(within))


def test_arrays_strings_nesting_and_numbers() -> None:
    assert "units[0].position: 1,001 items: an array holds at most 1,000" in problems(
        scenario_text().replace("position = [500, 300]", "position = [" + ", ".join(["1"] * 1001) + "]", 1))
    assert "scenario.title: a string of 10,001 characters: at most 10,000" in problems(scenario_text(title="x" * 10_001))
    assert parse_scenario(scenario_text(title="x" * limits.TEXT)).title == "x" * limits.TEXT
    deep = scenario_text().replace("facing = 0", "facing = " + "[" * 25 + "]" * 25, 1)
    assert "units[0].facing" in problems(deep) and "nested too deeply (at most 20 levels" in problems(deep)
    assert "(numbers are at most 1,000,000 in size)" in problems(scenario_text().replace("radius = 100", "radius = 1000001", 1))
    assert "-720 to 720" in problems(scenario_text().replace("facing = 0", "facing = 1e308", 1))  # G4


def test_the_file_size_is_read_with_a_bound(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(scenario_text() + "#" * limits.FILE_BYTES)
    refused(referee("run", path, "--rules", "rff"), "is larger than 2,000,000 bytes")


@pytest.mark.parametrize(("where", "says"), [("/dev/zero", "is a character device, not a file"),  # B8
                                             ("fifo", "is a FIFO (named pipe), not a file"),  # B9
                                             ("folder", "is a folder, not a file")])
@pytest.mark.parametrize("command", ["run", "compare"])
def test_devices_fifos_and_folders_are_refused_without_waiting(tmp_path: Path, where: str, says: str, command: str) -> None:
    if where == "fifo":
        os.mkfifo(tmp_path / "fifo.toml")
        where = str(tmp_path / "fifo.toml")  # no writer: opening it for reading the usual way waits forever
    elif where == "folder":
        (tmp_path / "folder.toml").mkdir()
        where = str(tmp_path / "folder.toml")
    if not os.path.exists(where):
        pytest.skip(f"no {where} here")
    done: list[Result] = []
    thread = threading.Thread(target=lambda: done.append(referee(command, where, "--rules", "rff", "-n", "1")
                                                         if command == "compare" else referee(command, where, "--rules", "rff")),
                              daemon=True)
    thread.start()
    thread.join(120)  # a hang guard: refusing takes well under a second
    assert done, "the command is still waiting"
    refused(done[0], says)


def test_limits_of_the_command_line() -> None:
    refused(referee("compare", "drill-musketry", "--rules", "rff", "-n", "1000000000000"), "'-n'", "1<=x<=1000000")  # B6
    refused(referee("compare", "drill-musketry", "--rules", "rff", "-n", "2", "--workers", "1000"), "'--workers'", "1<=x<=64")  # B7
    refused(referee("resolve", "rff", "maneuver", "--set", "modifier=" + "9" * 50, "--exact"), "at most 40 characters")
    assert "at most 40 characters, a number at most 1,000,000 in size" in " ".join(CliRunner().invoke(main, ["resolve", "--help"]).stdout.split())
    for command in ("compare", "history"):
        help_text = " ".join(CliRunner().invoke(main, [command, "--help"]).stdout.split())
        assert "at most 1,000,000" in help_text and "at most 64" in help_text and "chunks of work" in help_text


def test_workers_never_outnumber_the_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """B7: two games on "1,000 workers" start two processes."""
    started = []
    real = compare_module.multiprocessing.get_context

    class Counting:
        def __init__(self) -> None:
            self.context = real()
            self.Pipe = self.context.Pipe

        def Process(self, **kwargs: Any) -> Any:
            started.append(kwargs)
            return self.context.Process(**kwargs)

    monkeypatch.setattr(compare_module.multiprocessing, "get_context", Counting)
    outcomes, interrupted = run_replications(Stack("rff"), str(find_scenario("drill-musketry")), 2, 1, workers=1000)
    assert len(outcomes) == 2 and interrupted is None
    assert len(started) == 2


def test_a_huge_n_is_not_laid_out_in_advance(monkeypatch: pytest.MonkeyPatch) -> None:
    """B6: the chunks are made as they are handed out (here the first game stops the run)."""
    def first_game_then_ctrl_c(*args: Any) -> Any:
        os.kill(os.getpid(), 2)
        raise AssertionError("the interrupt did not stop the run")

    monkeypatch.setattr(compare_module, "replicate", first_game_then_ctrl_c)
    outcomes, interrupted = run_replications(Stack("rff"), str(find_scenario("drill-musketry")), 10**12, 1, workers=1)
    assert interrupted is not None and outcomes == []


def test_the_limits_are_documented_with_the_same_numbers() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    section = docs.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for name in ("FILE_BYTES", "NESTING", "ITEMS", "TEXT", "NUMBER", "MAP_YARDS", "MEN", "GUNS", "AREAS", "GROUND_CELLS",
                 "DEGREES", "REPLICATIONS", "WORKERS", "SET_VALUE", "SET_TEXT", "MODIFIER", "PROBLEMS"):
        value = getattr(limits, name)
        assert f"{value:,}" in section or str(value) in section, (name, value)


# ----------------------------------------------------------------------------- C, F: house rules


HOOK_FAILURES = {  # house rule -> (hook, what the message says)
    "modifiers_returns_int.py": ("referee_modifiers", "returned int 5; expected a list of Modifier"),  # C3
    "modifiers_returns_str.py": ("referee_modifiers", "returned str 'x'"),  # C3
    "modifiers_returns_none_in_a_list.py": ("referee_modifiers", "returned list [None]"),  # C3
    "resolved_returns_str.py": ("referee_resolved", "returned str 'changed'; expected a Resolution"),  # C3
    "raises_weird_str.py": ("referee_modifiers", "Weird: <its message could not be shown"),  # C4
    "modifier_of_a_half.py": ("referee_modifiers", "value=0.5"),  # F
    "modifier_of_ten_to_the_30.py": ("referee_modifiers", "1000000000000000000000000000000"),  # F
    "exits_in_a_hook.py": ("referee_modifiers", "it called sys.exit(0)"),  # F
    "raises_keyboard_interrupt.py": ("referee_modifiers", "KeyboardInterrupt"),  # F
    "options_returns_an_int_in_a_list.py": ("referee_options", "returned list [42]; expected a list of OptionSpec"),  # A11
    "tables_returns_an_int.py": ("referee_tables", "returned int 42; expected a dict of Table by name"),  # A12
}
PLAYING = [name for name, (hook, _) in HOOK_FAILURES.items() if hook in ("referee_modifiers", "referee_resolved")]


@pytest.mark.parametrize("name", sorted(HOOK_FAILURES))
def test_a_failing_house_rule_is_named_with_its_hook(name: str) -> None:
    hook, says = HOOK_FAILURES[name]
    result = referee("run", "drill-charge-battery", "--rules", "rff", "--quiet", "--house-rule", HOUSE_RULES / name)
    message = refused(result, f"plugin 'referee_house_rule_{name[:-3]}' failed in hook {hook}", says)
    assert "'rff'" not in message and "referee_step" not in message


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("name", sorted(PLAYING))
def test_a_failing_house_rule_is_named_through_compare(name: str, workers: str) -> None:
    hook, says = HOOK_FAILURES[name]
    result = referee("compare", "drill-charge-battery", "--rules", "rff", "-n", "4", "--workers", workers,
                        "--house-rule", HOUSE_RULES / name)
    refused(result, f"plugin 'referee_house_rule_{name[:-3]}' failed in hook {hook}", says)


def test_a_house_rule_that_exits_while_loading_is_an_error() -> None:
    refused(referee("run", "drill-musketry", "--rules", "rff", "--house-rule", HOUSE_RULES / "exits_at_import.py"),
            "exits_at_import.py: failed to import: it called sys.exit(3)")


def test_c2_a_deep_overlay_is_its_own_fault_not_the_rulesets() -> None:
    message = refused(referee("tables", "rff", "--house-rule", HOUSE_RULES / "deep_overlay.toml"),
                      "deep_overlay.toml:2", "nested too deeply")
    assert "plugin 'rff'" not in message


@pytest.mark.parametrize(("name", "says"), [("unknown_hook.py", "unknown hook 'referee_no_such_hook'"),
                                           ("wrong_argument.py", "Argument(s) {'sitch'} are declared in the hookimpl")])
def test_a_house_rule_that_does_not_fit_a_hook_names_its_file(name: str, says: str) -> None:
    message = refused(referee("run", "drill-musketry", "--rules", "rff", "--house-rule", HOUSE_RULES / name), says, name)
    assert "<module" not in message and "\\n" not in message


@pytest.mark.parametrize(("kind", "says"), [("folder", "is a folder, not a file"), ("fifo", "is a FIFO (named pipe), not a file"),
                                            ("device", "is a character device, not a file")])
@pytest.mark.parametrize("suffix", [".py", ".toml"])
def test_g3_a_house_rule_that_is_not_a_file_is_named_for_what_it_is(tmp_path: Path, kind: str, says: str, suffix: str) -> None:
    path = tmp_path / f"rule{suffix}"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif os.path.exists("/dev/null"):
        path = Path(f"/dev/null{suffix}") if os.path.exists(f"/dev/null{suffix}") else tmp_path / f"null{suffix}"
        path.symlink_to("/dev/null")
    refused(referee("tables", "rff", "--house-rule", path), says)


# ----------------------------------------------------------------------------- E: output files


def log_to(path: Path | str, *more: str) -> Result:
    return referee("run", "drill-musketry", "--rules", "rff", "--quiet", "--log", path, *more)


def test_e1_a_symlink_is_followed_to_its_target(tmp_path: Path) -> None:
    target, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    target.write_text("old\n")
    link.symlink_to(target)
    assert log_to(link).exit_code == 0
    assert link.is_symlink() and target.read_text().startswith('{"kind":"start"')


def test_e1_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert log_to(fifo).exit_code == 0
    reader.join(10)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert read and read[0].startswith(b'{"kind":"start"')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.fifo"]  # no temporary file left


def test_e1_a_device_is_written_through_not_replaced(tmp_path: Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a private /dev/null
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot make a device node here")
    assert log_to(null).exit_code == 0
    assert stat.S_ISCHR(null.stat().st_mode)
    result = referee("compare", "drill-musketry", "--rules", "rff", "-n", "2", "--workers", "1", "--out", null)
    assert result.exit_code == 0 and stat.S_ISCHR(null.stat().st_mode)


def test_a_dash_is_standard_output() -> None:
    result = log_to("-")
    assert result.exit_code == 0 and result.stdout.startswith('{"kind":"start"')


def test_nothing_is_made_under_proc() -> None:
    refused(log_to("/proc/referee-test.jsonl"), "no such device or file")


def test_e2_a_rewritten_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text("old\n")
    old.chmod(0o640)
    was = os.umask(0o027)
    try:
        assert log_to(old).exit_code == 0
        assert log_to(tmp_path / "new.jsonl").exit_code == 0
    finally:
        os.umask(was)
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text().startswith("{")
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o640  # 0o666 less the umask, not mkstemp's 0o600


# ----------------------------------------------------------------------------- G, A10: what reaches the terminal


def test_g2_escapes_in_a_title_and_a_name_are_shown_not_obeyed() -> None:
    result = referee("run", FIXTURES / "g2_ansi_escape_title.toml", "--rules", "rff", "--seed", "1")
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "start: \\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mRED under rff" in result.stdout
    compared = referee("compare", FIXTURES / "g2_ansi_escape_title.toml", "--rules", "rff", "-n", "2", "--workers", "1")
    assert compared.exit_code == 0 and "\x1b" not in compared.stdout


def test_a10_rich_markup_in_a_title_is_printed_as_written() -> None:
    result = referee("compare", FIXTURES / "tb09_compare_markup_title.toml", "--rules", "rff", "-n", "2", "--workers", "1")
    assert result.exit_code == 0, (result.output, result.exception)
    assert "[/bold] evil [link=file:///etc/passwd]x" in result.stdout


def test_g1_error_output_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "many.toml"
    path.write_text(scenario_text("".join(f"\n[unknown{i}]\n" for i in range(20_000))))
    message = refused(referee("run", path, "--rules", "rff"), "20,000 problems", "and 19,980 more")
    assert len(message) < 5_000
    path.write_text(scenario_text().replace("[scenario]", f"[scenario]\n{'k' * 100_000} = 1", 1))
    message = refused(referee("run", path, "--rules", "rff"), "unknown key 'kkkk", "more characters")
    assert len(message) < 3_000


def test_g2_control_characters_in_an_error_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(scenario_text().replace("[scenario]", '[scenario]\n"\\u001b[2J\\u202e" = 1', 1))
    message = refused(referee("run", path, "--rules", "rff"), "unknown key")
    assert "\x1b" not in message and "\u202e" not in message and "\\x1b[2J" in message


def test_messages_quote_long_values_short() -> None:
    long_arm = scenario_text().replace('arm = "infantry"', 'arm = "' + "z" * 5_000 + '"', 1)
    assert re.search(r"unknown arm 'z{199}\.\.\. \(4,802 more characters\)", problems(long_arm))


def test_sys_executable_is_what_runs_the_tests() -> None:
    assert Path(sys.executable).exists()  # the subprocess tests of tests/test_interrupts.py start this interpreter
