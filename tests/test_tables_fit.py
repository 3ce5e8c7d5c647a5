"""Tables keep every number at any width, in a file or a pipe (issue 25): labels wrap, and a table
too wide is split into several; nothing is cut with "…"."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.studies.tabular import WIDE, FittingConsole
from rich.table import Table

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
PART = re.compile(r" \(\d+ of \d+\)")  # "(1 of 2)": the title of a table split in parts

COMMANDS = {
    "compare": ("compare", "drill-musketry", "-n", "5", "--workers", "1"),
    "compare --baseline": ("compare", "drill-musketry", "--rules", "rff,hynds,sumter", "--baseline", "rff", "-n", "3", "--workers", "1"),
    "history": ("history", "big-bethel", "-n", "2", "--workers", "1"),
    "explain": ("explain", "drill-musketry", "-n", "3", "--workers", "1"),
    "situation": ("situation", "-n", "10", "--set", "b.cover=fence"),
    "resolve": ("resolve", "rff", "musketry", "--set", "fire_points=9", "--exact"),
    "tables rff": ("tables", "rff"),
    "tables hardtack": ("tables", "hardtack"),
}


def text_at(args: tuple[str, ...], width: int | None) -> str:
    result = CliRunner().invoke(main, [*args, *(["--width", str(width)] if width else [])])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def wide() -> dict[str, str]:
    """Each command's text at 1000 columns, where nothing needs to wrap (and history's long form,
    which a console narrower than WIDE gets, at WIDE - 1)."""
    return {**{name: text_at(args, 1000) for name, args in COMMANDS.items()}, "history long": text_at(COMMANDS["history"], WIDE - 1)}


def numbers(text: str) -> set[str]:
    return set(NUMBER.findall(PART.sub("", text)))


@pytest.mark.parametrize("width", [60, 80, 200])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_number_is_printed_whole_at_any_width(wide: dict[str, str], name: str, width: int) -> None:
    text = text_at(COMMANDS[name], width)
    assert "…" not in text and "..." not in text.replace("... ", "")
    table_lines = [line for line in text.splitlines() if line.startswith(("|", "+"))]
    assert table_lines and max(map(len, table_lines)) <= width
    assert numbers(text) == numbers(wide["history long" if name == "history" and width < WIDE else name])


def json_numbers(data: Any) -> Iterator[float]:
    if isinstance(data, dict):
        for value in data.values():
            yield from json_numbers(value)
    elif isinstance(data, list):
        for value in data:
            yield from json_numbers(value)
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        yield data


@pytest.mark.parametrize("width", [60, 80, 200])
def test_compare_prints_every_summary_number_of_its_json(width: int) -> None:
    args = COMMANDS["compare"]
    data = json.loads(text_at((*args, "--json"), None))
    shown = NUMBER.findall(text_at(args, width))
    for r in data["rulesets"].values():
        for side in ("union", "confederate"):
            for q in ("mean", "p10", "p50", "p90"):
                assert f"{r['men_lost'][side][q]:.0f}" in shown
            w = r["win"][side]
            assert {f"{100 * w['share']:.1f}", f"{100 * w['ci95'][0]:.1f}", f"{100 * w['ci95'][1]:.1f}"} <= set(shown)
        assert f"{r['minutes']['p50']:.0f}" in shown


@pytest.mark.parametrize("width", [60, 80, 200])
def test_history_prints_every_percentile_of_its_json(width: int) -> None:
    args = COMMANDS["history"]
    data = json.loads(text_at((*args, "--json"), None))
    shown = set(NUMBER.findall(text_at(args, width)))
    for row in data["rows"]:
        for side, cell in row["men_lost"].items():
            assert f"{cell['percentile']:.1f}" in shown, (row["ruleset"], side)


def test_a_table_too_wide_is_split_with_the_first_column_in_each_part() -> None:
    table = Table(title="t")
    for header in ("", *(f"ruleset{i}" for i in range(6))):
        table.add_column(header)
    table.add_row("label", *(f"{i}00.0% [{i}1.5%-{i}9.9%]" for i in range(6)))
    console = FittingConsole(width=60, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    try:
        console.print(table)
        text = console.export_text()
    finally:
        console.file.close()
    assert text.count("label") == 2 and "t (2 of 2)" in text  # 3 columns a part: as even as 2 parts allow
    assert max(map(len, text.splitlines())) <= 60
    for i in range(6):
        assert f"{i}00.0%" in text and f"[{i}1.5%-{i}9.9%]" in text


def test_a_sweeps_tables_keep_every_number(tmp_path: Any) -> None:
    spec = tmp_path / "small.toml"
    spec.write_text('title = "small"\nscenarios = ["drill-musketry"]\nrulesets = ["rff", "hynds"]\nreplications = 3\n'
                    'seed = 1\nbase = "massed-artillery=off"\n\n[[vary]]\nname = "massed-artillery"\n'
                    'option = "massed-artillery"\n', encoding="utf-8")
    texts = {}
    for width in (60, 80, 1000):
        args = ("sweep", str(spec), "--out", str(tmp_path / f"out{width}"), "--workers", "1", "--no-html")
        texts[width] = text_at(args, width).replace(str(tmp_path / f"out{width}"), "")
        assert "…" not in texts[width]
    assert numbers(texts[60]) == numbers(texts[80]) == numbers(texts[1000])
