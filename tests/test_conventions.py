"""What a user of a Python command line expects (issue 25): ``python -m referee``, a LICENSE,
examples in ``--help`` that parse, completion of scenario and ruleset names, progress on every
command that plays games."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner
from referee.core.cli import cli
from referee.core.cli.cli import main
from referee.core.engine.plugins import build_rules
from referee.core.studies import situation
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent


def test_python_dash_m_referee_is_the_referee_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "referee", "--version"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("referee, version ")


def test_the_license_is_the_mit_license_pyproject_names() -> None:
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "MIT"' in project and 'license-files = ["LICENSE"]' in project
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_has_examples_that_parse(name: str) -> None:
    command = main.commands[name]
    assert command.epilog and "Examples:" in command.epilog, name
    lines = [line.strip() for line in command.epilog.splitlines() if line.strip().startswith("referee ")]
    assert lines, name
    for line in lines:
        words = shlex.split(line.split(" > ")[0])
        assert words[:2] == ["referee", name], line
        with command.make_context(name, words[2:], resilient_parsing=False) as ctx:  # parses, checks types; runs nothing
            assert ctx.command is command


def completions(args: list[str], incomplete: str) -> list[str]:
    return [item.value for item in ShellComplete(main, {}, "referee", "_REFEREE_COMPLETE").get_completions(args, incomplete)]


def test_scenario_names_complete() -> None:
    assert completions(["run"], "big") == ["big-bethel", "big"]  # then files, for a path
    assert "kernstown" in completions(["compare"], "") and "valverde" in completions(["history"], "v")


def test_ruleset_names_complete_one_by_one_in_a_list() -> None:
    assert completions(["run", "big-bethel", "--rules"], "r") == ["rff"]
    assert completions(["compare", "big-bethel", "--rules"], "rff,h") == ["rff,hardtack", "rff,hynds"]
    assert completions(["tables"], "s") == ["sumter"]
    assert "musketry" in completions(["resolve", "rff"], "mus")
    assert completions(["tables", "hardtack"], "weap") == ["weapons"]


def test_situation_reports_each_game_played() -> None:
    s = situation.read(None, ())
    ticks: list[int] = []
    situation.answer(build_rules("rff"), s, 7, 1, (50, 50), lambda: ticks.append(1))
    assert len(ticks) == 7



def test_a_quiet_game_shows_on_a_terminal_that_it_is_being_played(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=screen, force_terminal=True, width=80))
    result = CliRunner().invoke(main, ["run", "drill-musketry", "--rules", "rff", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "playing drill-musketry under rff" in screen.getvalue()


def test_situation_shows_a_bar_of_the_games_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=screen, force_terminal=True, width=80))
    result = CliRunner().invoke(main, ["situation", "--rules", "rff", "-n", "3"])
    assert result.exit_code == 0, result.output
    assert "3/3" in screen.getvalue()


def test_every_type_ignore_says_why() -> None:
    """mypy --strict is the project's setting; a line it cannot follow is ignored only with the
    error code and a reason beside it (``# type: ignore[code]  # why``)."""
    bare = []
    for folder in ("core", "plugins", "testing", "launcher", "examples"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "type: ignore" in line and not re.search(r"# type: ignore\[[\w-]+(, *[\w-]+)*\]  # \S", line):
                    bare.append(f"{path.relative_to(ROOT)}:{n}")
    assert not bare, f"type: ignore without its code and a reason: {bare}"
