"""``referee new-house-rule NAME``: a house rule as an installable package, ready to edit.

The package registers itself in the entry-point group ``referee.rulesets`` as a layer on its
base (``BASE``), ships a TOML overlay (``OVERLAYS``) and implements one hook (a modifier on one
of the base's mechanics), with tests that pass once it is installed (``pip install -e``).
"""

from __future__ import annotations

import keyword
import os
import re
import shutil
from pathlib import Path

from ..engine.errors import InvalidInput, Problem
from ..engine.plugins import build_rules, installed

NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "referee-{name}"
version = "0.1.0"
description = "{title}: a house rule for {base} in referee"
requires-python = ">=3.10"
# It runs on the referee you have installed (from its source folder or a wheel): no package index
# serves referee, so it is not named here for pip to fetch. Install referee first.
dependencies = []

[project.optional-dependencies]
test = ["pytest>=7.4"]

[project.entry-points."referee.rulesets"]
{name} = "{module}"

[tool.setuptools]
packages = ["{module}"]

[tool.setuptools.package-data]
{module} = ["*.toml"]

[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["error"]
'''

MODULE = '''\
"""{title}: a house rule for {base}.

Play it with ``referee run drill-musketry --rules {name}``; measure it against {base} on the same
dice with ``referee compare SCENARIO --rules {name},{base} --baseline {base}``; see what its
overlay changes with ``referee tables {name} --diff {base}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.api import Game, Modifier, RulesetInfo, Scale, hookimpl

BASE = "{base}"  # the ruleset this layer goes on (it comes first in the stack)
PLUGIN_NAME = "{name}"
OVERLAYS = (str(Path(__file__).with_name("overlay.toml")),)  # its table changes, laid over the base's

MECHANIC = "{mechanic}"
BONUS = Modifier("{title} (house rule)", 1, "house rule {name}")


@hookimpl
def referee_house_rule() -> RulesetInfo:
    """How the layer describes itself (``referee rulesets``)."""
    return RulesetInfo("{name}", "{title}", "house rule", {scale}, kind="house-rule", base=BASE)


@hookimpl
def referee_modifiers(game: Game, mechanic: str, situation: Any) -> list[Modifier]:
    """One more modifier on every {mechanic} resolution: replace with your rule (see
    docs/hooks.md for what ``situation`` is for each mechanic)."""
    return [BONUS] if mechanic == MECHANIC else []
'''

OVERLAY = '''\
# Values of {base}'s tables that this house rule replaces. An overlay may only replace keys that
# exist, keeping their kind. `referee tables {base} --json` shows the tables; the files they
# are read from are in {base}'s rulesets folder. For example:
#
# [some_table.some_key]
# value = 2
'''

CONFTEST = '''\
pytest_plugins = ("referee.testing",)
'''

TEST = '''\
"""Tests of the {name} house rule: they pass once the package is installed (pip install -e .)."""

from __future__ import annotations

from pathlib import Path

import {module}
from referee.core.engine.plugins import build_rules, installed


def test_it_is_installed_as_a_layer_on_its_base() -> None:
    assert "{name}" in installed()
    rules = build_rules("{name}")
    assert [layer.name for layer in rules.layers] == ["{name}"]
    assert rules.pm.get_plugin("{name}") is not None


def test_it_ships_its_overlay() -> None:
    assert Path({module}.OVERLAYS[0]).is_file()
    assert Path({module}.OVERLAYS[0]) in build_rules("{name}").overlays


def test_it_adds_its_modifier_to_a_real_situation(referee_situation) -> None:
    game, situation = referee_situation({module}.MECHANIC, ruleset="{name}")
    assert {module}.referee_modifiers(game, {module}.MECHANIC, situation) == [{module}.BONUS]
    assert {module}.referee_modifiers(game, "no-such-mechanic", situation) == []
'''

README = '''\
# {title}

A house rule for `{base}` in referee. Install it next to the referee you have (from its source
folder or a wheel: `pip install /path/to/referee` first) and test it:

```
pip install -e '.[test]'
pytest
referee rulesets                                   # lists {name} (house rules on {base})
referee run drill-musketry --rules {name} --seed 1
referee compare drill-musketry --rules {name},{base} --baseline {base} -n 200
referee tables {name} --diff {base}
```
'''


def new_house_rule(name: str, base: str, folder: Path, title: str | None = None) -> Path:
    """Write the package ``folder/NAME``: its project file, module, overlay and tests. Returns the
    project folder."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name.replace("-", "_")):  # before the name reaches the file system
        raise InvalidInput([Problem("a house rule's name is 1-40 lower-case letters, digits or '-', starting with a letter",
                                    path="NAME")], "new house rule")
    problems = []
    if name in installed():
        problems.append(Problem(f"{name!r} is already an installed ruleset or house rule", path="NAME"))
    project = folder / name
    problems += _folder_problems(folder, project)
    if problems:
        raise InvalidInput(problems, "new house rule")
    rules = build_rules(base)  # an unknown base is refused here, with the installed ones named
    module = f"referee_{name.replace('-', '_')}"
    title = title or name.replace("-", " ").capitalize()
    mechanic = min(rules.mechanics)
    s = rules.info.scale
    scale = (f"Scale(yards_per_inch={s.yards_per_inch!r}, men_per_piece={s.men_per_piece!r}, piece={s.piece!r}, "
             f"guns_per_model={s.guns_per_model!r}, minutes_per_turn={s.minutes_per_turn!r})")
    fields = {"name": name, "module": module, "title": title, "base": rules.info.name, "mechanic": mechanic, "scale": scale}
    files = {
        "pyproject.toml": PYPROJECT, "README.md": README, f"{module}/__init__.py": MODULE, f"{module}/overlay.toml": OVERLAY,
        "conftest.py": CONFTEST, f"tests/test_{module}.py": TEST,
    }
    try:
        for rel, template in files.items():
            path = project / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(template.format(**fields), encoding="utf-8")
    except OSError as error:  # a full disk, a folder that refuses new files: the user's to fix, and nothing half made left
        shutil.rmtree(project, ignore_errors=True)
        raise InvalidInput([Problem(f"cannot write the project there: {error.strerror or error}", source=str(project))],
                           "new house rule") from None
    return project


def _folder_problems(folder: Path, project: Path) -> list[Problem]:
    """Why the project cannot be made in ``folder`` (--dir), if it cannot: checked before anything
    is written. A folder that does not exist yet is made, if its nearest existing parent allows."""
    try:
        if project.exists() or project.is_symlink():
            return [Problem(f"{project} already exists: choose another name or folder", path="NAME")]
        existing = folder
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            return [Problem(f"{existing} is not a folder: give a folder to make the project in", path="--dir")]
        if not os.access(existing, os.W_OK | os.X_OK) or existing.resolve().is_relative_to("/proc"):
            return [Problem(f"cannot make a folder in {existing}: it is read-only or not yours to write in", path="--dir")]
    except OSError as error:  # a name the file system refuses (too long, a loop of links)
        return [Problem(f"cannot use {folder}: {error.strerror or error}", path="--dir")]
    return []
