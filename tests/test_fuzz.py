"""Fuzzing, the short profile: mutated bundled scenarios and odd command lines end in a result or
one clear error (exit code 2), never a traceback, a hang or a flood of output.

The long profile (thousands of cases, each in its own process under a time and memory limit) is
``tools/fuzz.py``; its last result is in docs/reliability.md.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from referee.core.cli.cli import main
from referee.core.engine.errors import InvalidInput
from referee.core.engine.limits import PROBLEMS
from referee.core.input.scenario import parse_scenario
from strategies import bundled_texts, cli_arguments, mutated_scenarios

TEXTS = bundled_texts()
DRILLS = {sid: text for sid, text in TEXTS.items() if sid.startswith("drill-")}
FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


@contextmanager
def a_folder_of_its_own() -> Iterator[None]:
    """The test works in a fresh folder (a --log or --out value may name a file in it)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(here)


def clean_ending(result: Result) -> None:
    """Exit 0, or exit 2 with one "Error:" message of bounded size; no traceback."""
    event(f"exit code {result.exit_code}")
    assert result.exit_code in (0, 2), (result.exit_code, result.output[-2000:], result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert "Error:" in result.stderr, result.output[-2000:]
        assert len(result.stderr) < 20_000, len(result.stderr)


@settings(FUZZ, max_examples=150)
@given(mutated_scenarios(TEXTS))
def test_a_mutated_scenario_loads_or_is_refused_with_its_problems(text: str) -> None:
    try:
        parse_scenario(text, "fuzz.toml")
        event("loaded")
    except InvalidInput as bad:
        event("refused")
        assert bad.problems
        assert str(bad).count("\n") <= PROBLEMS + 1  # at most PROBLEMS lines, then "and N more"
        assert len(str(bad)) < 20_000


@settings(FUZZ, max_examples=40)
@given(mutated_scenarios(DRILLS), st.sampled_from(("rff", "hardtack")))
def test_a_mutated_drill_plays_or_is_refused(text: str, rules: str) -> None:
    runner = CliRunner()
    with a_folder_of_its_own():
        Path("fuzz.toml").write_text(text, encoding="utf-8")
        result = runner.invoke(main, ["run", "fuzz.toml", "--rules", rules, "--seed", "1", "--quiet"])
        clean_ending(result)


@settings(FUZZ, max_examples=40)
@given(cli_arguments())
def test_odd_command_lines(args: list[str]) -> None:
    runner = CliRunner()
    with a_folder_of_its_own():
        result = runner.invoke(main, args)
        clean_ending(result)
