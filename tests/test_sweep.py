"""``referee sweep``: the points a sweep file names, common random numbers, rows, resume, bad files.

Kept small: drill-musketry under rff, a few games a point.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from referee.core.cli.cli import main
from referee.core.input.scenario import find_scenario
from referee.core.studies.compare import Stack, run_replications
from referee.core.studies.sweep import read_sweep
from referee.core.studies.sweep_out import read_games

STEADY = Path(__file__).parent.parent / "examples" / "house_rules" / "steady.toml"
SPEC = f"""\
title = "fresh troops and skirmishers"
scenarios = ["drill-musketry"]
rulesets = ["rff"]
replications = 3
seed = 5

[[vary]]
name = "fresh"
cell = "maneuver.modifiers.fresh.value"
values = [2, -3]

[[vary]]
name = "steady"
house_rule = "{STEADY}"
"""


def sweep(*args: str) -> Result:
    return CliRunner().invoke(main, ["sweep", *args])


def write(tmp_path: Path, text: str, name: str = "spec.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_grid_rows_and_common_random_numbers(tmp_path: Path) -> None:
    spec = write(tmp_path, SPEC)
    result = sweep(str(spec), "--out", str(tmp_path / "out"), "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [p["point"] for p in data["points"]] == ["fresh=2,steady=off", "fresh=2,steady=on", "fresh=-3,steady=off", "fresh=-3,steady=on"]
    assert data["complete"] and data["played"] == 12
    games = read_games(tmp_path / "out" / "games.parquet").to_pylist()
    assert len(games) == 12 and [g["replication"] for g in games[:3]] == [0, 1, 2]
    assert games[0]["fresh"] == 2.0 and games[0]["steady"] is False and games[3]["steady"] is True
    # replication k of a point is compare's replication k of the same stack (common random numbers)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    for p, point in enumerate(manifest["points"]):
        stack = point["rulesets"]["rff"]
        outcomes, _ = run_replications(Stack("rff", tuple(stack["options"]), tuple(f["path"] for f in stack["files"])),
                                       str(find_scenario("drill-musketry")), 3, 5)
        mine = games[3 * p: 3 * p + 3]
        assert [(o.seed, o.winner, o.men_lost["union"], o.men_lost["confederate"], o.minutes) for o in outcomes] == \
            [(g["seed"], g["winner"], g["men_lost_1"], g["men_lost_2"], g["minutes"]) for g in mine]
    # the cell is played: steady (fresh +1) and fresh=-3 change some game; the base point has no difference
    assert "against_base" not in data["points"][0]
    assert data["points"][2]["against_base"]["games_changed"] > 0
    assert (tmp_path / "out" / "sweep.html").read_text().count("<svg") >= 2


def test_explicit_points_and_shift(tmp_path: Path) -> None:
    spec = write(tmp_path, """\
scenarios = ["drill-musketry"]
rulesets = ["rff"]
replications = 2
base = "printed"

[[vary]]
name = "fresh"
cell = "maneuver.modifiers.fresh.value"
shift = true
values = [-1, -5]

[[vary]]
name = "skirmishers"
option = "skirmishers"

[[points]]
name = "printed"

[[points]]
fresh = -5
""")
    sweep_ = read_sweep(spec)
    assert [p.name for p in sweep_.points] == ["printed", "fresh=-5"]
    assert sweep_.cells[(0, "rff")].files == ()
    assert sweep_.cells[(1, "rff")].files[-1][1].startswith("maneuver.modifiers.fresh.value = -3  ")  # printed +2, shifted by -5


BAD = [
    ("unknown key", "colour = 3\n" + SPEC, "toml:1 colour: unknown key 'colour'"),
    ("no table cell", SPEC.replace("maneuver.modifiers.fresh.value", "maneuver.modifiers.frsh.value"),
     "toml:9 vary[0].cell: maneuver.modifiers.frsh.value = 2 under rff: unknown key 'frsh'; did you mean 'fresh'?"),
    ("empty grid", SPEC.replace("values = [2, -3]", "values = []"), "toml:10 vary[0].values: an empty array"),
    ("too many games", SPEC.replace("replications = 3", "replications = 300000"),
     "toml:4 replications: 4 points x 1 scenarios x 1 rulesets x 300,000 replications = 1,200,000 games, over 1,000,000"),
]


@pytest.mark.parametrize(("case", "text", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_sweep_files(tmp_path: Path, case: str, text: str, message: str) -> None:
    spec = write(tmp_path, text)
    result = sweep(str(spec), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert "1 problem" in result.output and message in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_yes_allows_a_large_sweep(tmp_path: Path) -> None:
    spec = write(tmp_path, SPEC.replace("replications = 3", "replications = 300000"))
    assert read_sweep(spec, games_allowed=sys.maxsize).games == 1_200_000


def test_an_earlier_run_is_not_overwritten(tmp_path: Path) -> None:
    spec = write(tmp_path, SPEC.replace("replications = 3", "replications = 1"))
    assert sweep(str(spec), "--out", str(tmp_path / "out"), "--workers", "1", "--no-html").exit_code == 0
    again = sweep(str(spec), "--out", str(tmp_path / "out"))
    assert again.exit_code == 2 and "--resume" in again.output
    other = write(tmp_path, SPEC.replace("replications = 3", "replications = 2"))
    changed = sweep(str(other), "--out", str(tmp_path / "out"), "--resume")
    assert changed.exit_code == 2 and "other games" in changed.output


LAUNCH = """\
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
from referee.core.cli.launch import main
main()
"""


def test_resume_after_interrupt_repeats_no_game_and_misses_none(tmp_path: Path) -> None:
    spec = write(tmp_path, SPEC.replace("replications = 3", "replications = 40"))  # 160 games
    whole = sweep(str(spec), "--out", str(tmp_path / "whole"), "--workers", "2", "--no-html")
    assert whole.exit_code == 0, whole.output
    out = tmp_path / "cut"
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, "sweep", str(spec), "--out", str(out), "--workers", "2", "--no-html"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        journal = out / "journal.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 10):
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, err
    assert b"--resume" in err
    first = [json.loads(line)[0] for line in journal.read_text().splitlines() if line.strip()]
    assert 10 <= len(first) < 160 and not (out / "games.parquet").exists()
    resumed = sweep(str(spec), "--out", str(out), "--resume", "--workers", "2", "--no-html", "--json")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.output)["played_now"] == 160 - len(first)
    played = [json.loads(line)[0] for line in journal.read_text().splitlines() if line.strip()]
    assert sorted(played) == list(range(160))  # none repeated, none missed
    assert played[:len(first)] == first
    assert (out / "games.parquet").read_bytes() == (tmp_path / "whole" / "games.parquet").read_bytes()


@pytest.mark.parametrize("name", ["kernstown-options", "big-bethel-works"])
def test_shipped_examples_read(name: str) -> None:
    example = read_sweep(Path(__file__).parent.parent / "examples" / "sweeps" / f"{name}.toml")
    assert example.games <= 200  # under a minute on two cores
    if name == "big-bethel-works":  # hardtack's hard cover (2) one step less protection is 1
        assert example.cells[(2, "hardtack")].files[-1][1].startswith("fire.cover.hard = 1  ")
        assert example.cells[(2, "rff")].files[-1][1].startswith("fire.modifiers.fortified.value = -2  ")
