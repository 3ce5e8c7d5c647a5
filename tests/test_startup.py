"""Start-up: a command imports only what it uses (checked by the modules loaded, not by time)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import importlib.util, json, sys
sys.argv = ["referee", *json.loads(sys.argv[1])]
from referee.core.cli.launch import main
try:
    main()
except SystemExit:
    pass
loaded = [k for k, m in sys.modules.items() if not isinstance(m, importlib.util._LazyModule)]
print(json.dumps(loaded), file=sys.stderr)
"""


def loaded_by(*args: str) -> set[str]:
    """The modules a fresh ``referee ARGS`` process has loaded (imported and run) when it ends."""
    proc = subprocess.Popen([sys.executable, "-c", PROBE, json.dumps(args)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return set(json.loads(err.strip().splitlines()[-1]))


NEVER_FOR_TABLE_USE = ("matplotlib", "numpy", "rich.progress", "referee.core.studies.compare", "referee.core.studies.report",
                       "referee.core.studies.report_html", "referee.core.studies.explain", "referee.core.studies.history", "referee.core.cli.scaffold")


def _any(loaded: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if m.startswith(prefixes))


def test_help_loads_no_game_no_ruleset_no_plots() -> None:
    loaded = loaded_by("--help")
    assert "referee.core.cli.cli" in loaded
    assert _any(loaded, NEVER_FOR_TABLE_USE + ("referee.plugins", "referee.core.engine.game", "referee.core.engine.plugins",
                                               "referee.core.engine.doctrine", "referee.core.engine.world")) == []


@pytest.mark.parametrize("ruleset", ["rff", "sumter"])
def test_resolve_loads_its_ruleset_only(ruleset: str) -> None:
    mechanic = {"rff": "charge", "sumter": "skirmish-fire"}[ruleset]
    loaded = loaded_by("resolve", ruleset, mechanic, "--exact", "--json")
    assert f"referee.plugins.{ruleset}.mechanics" in loaded
    others = tuple(f"referee.plugins.{r}" for r in ("rff", "hynds", "sumter", "hardtack") if r != ruleset)
    assert _any(loaded, NEVER_FOR_TABLE_USE + others) == []
