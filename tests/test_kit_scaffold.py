"""``referee new-house-rule``: the package it makes is installable as written (its entry point,
read from its own pyproject.toml) and its tests pass once it is installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.engine.tables import parse_toml


def _install(project: Path, site: Path) -> None:
    """What ``pip install -e`` leaves for importlib.metadata: a dist-info with the project's
    entry points (read from its pyproject.toml), the project folder on the path."""
    data, _, problems = parse_toml((project / "pyproject.toml").read_text(), "pyproject.toml")
    assert data is not None and not problems
    meta = data["project"]
    info = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
    groups = meta["entry-points"]
    (info / "entry_points.txt").write_text("".join(f"[{g}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) for g, eps in groups.items()))


@pytest.mark.parametrize("base", ["rff", "hardtack"])
def test_the_scaffold_installs_and_its_tests_pass(tmp_path: Path, base: str) -> None:
    result = CliRunner().invoke(main, ["new-house-rule", "steady-lads", "--base", base, "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    project = tmp_path / "steady-lads"
    assert {p.name for p in project.rglob("*") if p.is_file()} >= {
        "pyproject.toml", "README.md", "__init__.py", "overlay.toml", "conftest.py", "test_referee_steady_lads.py"}
    _install(project, tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(project), str(tmp_path / "site")])}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
                         cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert " passed" in run.stdout and "failed" not in run.stdout
    listed = subprocess.run([sys.executable, "-c", "from referee.core.cli.cli import main; main()", "rulesets"], cwd=project, env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert f"steady-lads  Steady lads (house rules on {base})" in listed.stdout, listed.stdout + listed.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["Bad_Name", "--base", "rff"], "lower-case letters"),
    (["rff", "--base", "rff"], "'rff' is already an installed ruleset"),
    (["mine"], "Missing option '--base'"),
    (["mine", "--base", "fnf"], "unknown ruleset 'fnf'"),
])
def test_a_bad_scaffold_request_is_one_clear_message(tmp_path: Path, args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, ["new-house-rule", *args, "--dir", str(tmp_path)])
    assert result.exit_code == 2 and says in result.output, result.output
    assert not any(tmp_path.iterdir())


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    result = CliRunner().invoke(main, ["new-house-rule", "mine", "--base", "rff", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "already exists" in result.output
    assert not any((tmp_path / "mine").iterdir())
