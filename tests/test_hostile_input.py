"""Hostile input found by the reliability audit of 2026-11-29 (issue 25): each ends in a result or
one clear message (exit code 2), never a traceback, a silent block or a quadratic scan."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from referee.core.cli import scaffold
from referee.core.cli.cli import main
from referee.core.cli.files import open_fifo, write_atomic
from referee.core.engine import plugins
from referee.core.engine.reading import _scan, key_lines
from referee.core.input.scenario import find_scenario
from referee.core.studies.report_html import script_json


def referee(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def refused(result: Result, *words: str) -> str:
    """Exit 2 with one message naming each of ``words``; no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "Error:" in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


# Q1: the key-line scan reads each character of a line a bounded number of times.

class Counted(str):
    """A line that counts the characters its readers take out of it (one per index, the length
    of each slice): a scan that copies the line before each quote takes quadratically many."""

    taken = 0

    def __getitem__(self, key: int | slice) -> str:  # type: ignore[override]
        part = str.__getitem__(self, key)
        Counted.taken += len(part)
        return part


@pytest.mark.parametrize("value", ['"' + '\\"' * 20_000 + '"', "[" + ",".join(['""'] * 20_000) + "]",
                                   '"' + "\\\\" * 20_000 + '"', "'''" + "x" * 40_000 + "'''"])
def test_the_key_line_scan_takes_each_character_a_bounded_number_of_times(value: str) -> None:
    Counted.taken = 0
    depth, quote, _ = _scan(Counted(value), 0, None)
    assert (depth, quote) == (0, None)
    assert Counted.taken <= 2 * len(value), Counted.taken  # the old scan took ~n**2/2: 10**9 characters here


def test_a_two_megabyte_line_of_escaped_quotes_is_refused_with_its_line(tmp_path: Path) -> None:
    base = find_scenario("drill-musketry").read_text(encoding="utf-8")
    text = base.replace('summary = "', 'summary = "' + '\\"' * 990_000, 1)
    assert len(text) > 1_980_000
    assert key_lines(text)["scenario.summary"] == next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("summary"))
    path = tmp_path / "quad.toml"
    path.write_text(text, encoding="utf-8")
    refused(referee("run", str(path), "--rules", "rff", "--quiet"), "scenario.summary", "at most 10,000")


def test_escapes_in_basic_strings_do_not_end_them_and_literal_strings_have_none() -> None:
    text = 'a = "x\\"]"\nb = [\n "\\\\", \'\\\', {c = 1},\n]\nd = 2\n'
    assert key_lines(text) == {"a": 1, "b": 2, "b[0]": 3, "d": 5}


# H1: a TOML overlay with nan or inf is the overlay's fault, with its file and line.

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
@pytest.mark.parametrize("ruleset", ["rff", "hynds"])
def test_an_overlay_value_of_nan_or_inf_is_blamed_on_the_overlay(tmp_path: Path, value: str, ruleset: str) -> None:
    overlay = tmp_path / "ov.toml"
    overlay.write_text(f"[maneuver.modifiers.fresh]\nvalue = {value}\n", encoding="utf-8")
    for args in (("run", "drill-charge-battery", "--rules", ruleset, "--quiet"), ("tables", ruleset, "maneuver-modifiers")):
        said = refused(referee(*args, "--house-rule", str(overlay)), f"{overlay}:2", "maneuver.modifiers.fresh.value")
        assert "plugin" not in said


# R1: names in the report page's embedded data cannot end or nest its script element.

@pytest.mark.parametrize("name", ["U <!--<script>", "</script><script>alert(1)</script>", "a & b > c", "<!-- -->"])
def test_embedded_json_has_no_markup_and_reads_back(name: str) -> None:
    text = script_json(json.dumps({"units": {name: [name]}}))
    assert not set("<>&") & set(text)
    assert json.loads(text) == {"units": {name: [name]}}


def test_a_unit_named_with_an_html_comment_and_script_keeps_every_replay(tmp_path: Path) -> None:
    page = tmp_path / "r1.html"
    fixture = Path(__file__).parent / "fixtures" / "reliability" / "r1_unit_name_html_comment_script.toml"
    result = referee("report", str(fixture), "--rules", "rff,hynds", "-n", "1", "--workers", "1", "-o", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    opening = '<script type="application/json" class="replay-data">'
    blocks = [part.split("</script>", 1)[0] for part in text.split(opening)[1:]]
    assert len(blocks) == 2 and not any("<" in block for block in blocks)  # no "<!--" or "<script" to trip the parser
    assert [json.loads(block)["ruleset"] for block in blocks] == ["rff", "hynds"]
    assert any(unit.get("name") == "U <!--<script>" for unit in json.loads(blocks[0])["units"].values())


# N1: new-house-rule in a folder it cannot use.

@pytest.mark.parametrize("folder, words", [("/proc", ["--dir", "/proc"]), ("/dev/null", ["/dev/null is not a folder"]),
                                           ("y" * 300, ["--dir", "File name too long"])])
def test_new_house_rule_in_a_folder_it_cannot_use(tmp_path: Path, folder: str, words: list[str]) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        refused(referee("new-house-rule", "my-rule", "--base", "rff", "--dir", folder), *words)
    finally:
        os.chdir(here)
    assert not list(tmp_path.iterdir())


def test_a_256_character_name_is_refused_by_the_name_rule(tmp_path: Path) -> None:
    refused(referee("new-house-rule", "x" * 256, "--base", "rff", "--dir", str(tmp_path)), "1-40 lower-case letters")


def test_a_folder_that_refuses_new_files_leaves_nothing_half_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = []

    def refuse_the_third(self: Path, *args: object, **kwargs: object) -> int:
        if len(written) == 2:
            raise PermissionError(13, "Permission denied")
        written.append(self)
        return 0

    monkeypatch.setattr(Path, "write_text", refuse_the_third)
    refused(referee("new-house-rule", "my-rule", "--base", "rff", "--dir", str(tmp_path)), "Permission denied", "my-rule")
    assert len(written) == 2 and not (tmp_path / "my-rule").exists()


def test_a_read_only_folder_is_refused_before_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.access
    monkeypatch.setattr(scaffold.os, "access", lambda path, mode: real(path, mode) and not (Path(path) == tmp_path and mode & os.W_OK))
    refused(referee("new-house-rule", "my-rule", "--base", "rff", "--dir", str(tmp_path)), "read-only or not yours")
    assert not list(tmp_path.iterdir())


# F1: an output FIFO with no reader: said, then written when a reader comes.

def test_an_output_fifo_with_no_reader_is_waited_for_aloud(tmp_path: Path) -> None:
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    waited = []

    def waiting() -> None:
        waited.append(True)
        reader.start()

    try:
        with os.fdopen(open_fifo(fifo, waiting), "w", encoding="utf-8") as handle:
            handle.write("{}\n")
    finally:
        if not reader.is_alive() and not waited:
            reader.start()  # (so that the join below cannot wait for a thread never started)
        reader.join(10)
    assert waited == [True] and got == ["{}\n"]


def test_write_atomic_to_a_fifo_says_it_waits(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    real_open = os.open

    def opened(path: object, flags: int, *args: int) -> int:
        if flags & os.O_NONBLOCK or reader.is_alive():
            return real_open(path, flags, *args)  # type: ignore[arg-type]
        reader.start()  # the blocking open, after the message: a reader comes
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", opened)
    try:
        write_atomic(fifo, "{}\n")
    finally:
        if reader.is_alive() or reader.ident:
            reader.join(10)
    assert got == ["{}\n"] and "waiting for a process to read the FIFO" in capsys.readouterr().err


# L2, L4: empty output names and an empty --rules.

@pytest.mark.parametrize("args", [("run", "drill-musketry", "--rules", "rff", "--quiet", "--log", ""),
                                  ("compare", "drill-musketry", "--rules", "rff", "-n", "1", "--out", ""),
                                  ("report", "drill-musketry", "--rules", "rff", "-n", "1", "-o", "")])
def test_an_empty_output_name_is_refused(args: tuple[str, ...]) -> None:
    refused(referee(*args), "an empty file name")


@pytest.mark.parametrize("rules", ["", ",", " , "])
@pytest.mark.parametrize("command", [("compare", "drill-musketry", "-n", "1"), ("history", "-n", "1"), ("situation", "-n", "0")])
def test_an_empty_rules_is_refused_not_read_as_every_ruleset(command: tuple[str, ...], rules: str) -> None:
    refused(referee(*command, "--rules", rules), "names no ruleset", "rff")


# An installed house rule whose module has gone.

@pytest.fixture()
def gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A distribution installed on the path whose entry point names a module that is not there."""
    info = tmp_path / "referee_gone_rule-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: referee-gone-rule\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[referee.rulesets]\ngone-rule = referee_gone_rule_module\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.installed.cache_clear()
    yield "gone-rule"
    plugins.installed.cache_clear()


def test_a_broken_installed_house_rule_is_named_with_its_package_and_how_to_remove_it(gone: str) -> None:
    said = refused(referee("run", "drill-musketry", "--rules", gone, "--quiet"), "referee-gone-rule 0.1.0",
                   "gone-rule = referee_gone_rule_module", "pip uninstall referee-gone-rule", "ModuleNotFoundError")
    assert len(said.splitlines()) <= 3


@pytest.mark.parametrize("args", [("rulesets",), ("run", "drill-musketry", "--rules", "rff", "--quiet"),
                                  ("compare", "drill-musketry", "-n", "1", "--workers", "1"), ("situation", "-n", "0"),
                                  ("scenarios",), ("tables", "rff", "fire-effects")])
def test_commands_that_do_not_need_a_broken_house_rule_still_work(gone: str, args: tuple[str, ...]) -> None:
    result = referee(*args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    if args[0] in ("rulesets", "compare", "situation"):  # those that take every ruleset say which they skipped
        assert "skipped" in result.stderr and "pip uninstall referee-gone-rule" in result.stderr
