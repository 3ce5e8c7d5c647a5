"""rff's and hynds' boundary, as issue 23 draws it: rff's hooks are called through its typed
facade (plugins/rff/hooks.py), never by a string; hynds keeps its game state in HyndsState,
never under string keys of game.memory; neither reaches into a private name of rff."""

from __future__ import annotations

import re
from pathlib import Path

from referee.core.engine.plugins import build_rules

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"


def _sources(*packages: str) -> dict[str, str]:
    return {f"{p}/{f.name}": f.read_text() for p in packages for f in sorted((PLUGINS / p).glob("*.py"))}


def test_rff_hooks_are_called_only_through_the_facade() -> None:
    by_name = [name for name, text in _sources("rff", "hynds").items()
               if re.search(r"""callers\[["']rff_""", text) and name != "rff/hooks.py"]
    assert by_name == []


def test_the_facade_has_a_method_for_every_rff_hook() -> None:
    from referee.plugins.rff import hookspecs
    from referee.plugins.rff.hooks import RffHooks

    hooks = {name.removeprefix("rff_") for name in vars(hookspecs) if name.startswith("rff_")}
    assert hooks and hooks <= set(vars(RffHooks))
    rff = build_rules("rff")
    assert {f"rff_{h}" for h in hooks} <= set(vars(rff.pm.hook))  # declared
    assert not {f"rff_{h}" for h in hooks} & rff.implemented  # plain rff asks none of them


def test_hynds_keeps_no_state_under_string_keys_and_no_private_name_of_rff() -> None:
    for name, text in _sources("hynds").items():
        if name != "hynds/state.py":
            assert "game.memory" not in text, name
        assert not re.search(r"\b(geo|rff_\w+|lookup)\._[a-z]", text), name
