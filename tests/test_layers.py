"""The layers of docs/architecture.md: the core names no ruleset, its layers (engine, input,
studies, cli) import only downward, and no two modules import each other at load time (a circle
makes the order of imports matter and hides a module's real job).

Imports are read from the source (the AST), so a test fails on the line that breaks the rule;
imports inside a function (deferred) and under ``if TYPE_CHECKING:`` are not load-time imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGES = {"core": "referee.core", "plugins": "referee.plugins", "testing": "referee.testing"}


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for folder, package in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = (path, path.name == "__init__.py")
    return found


MODULES = _modules()


def load_time_imports(name: str) -> dict[str, int]:
    """The modules ``name`` imports as it loads, each with the line of its first import."""
    path, is_package = MODULES[name]
    here = name if is_package else name.rsplit(".", 1)[0]
    found: dict[str, int] = {}

    def target(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = here.split(".")
        return ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    found.setdefault(alias.name, node.lineno)
            elif isinstance(node, ast.ImportFrom):
                module = target(node)
                for alias in node.names:
                    whole = f"{module}.{alias.name}"
                    found.setdefault(whole if whole in MODULES else module, node.lineno)
            elif isinstance(node, ast.ClassDef):
                visit(node.body)
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


@pytest.mark.parametrize("name", sorted(m for m in MODULES if m.startswith("referee.core")))
def test_the_core_imports_no_ruleset(name: str) -> None:
    path, _ = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # deferred imports count too: the core never reaches for a ruleset by name
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("referee.plugins"):
            pytest.fail(f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}")
        if isinstance(node, ast.ImportFrom) and node.level >= 2 and (node.module or "").startswith("plugins"):
            pytest.fail(f"{path.relative_to(ROOT)}:{node.lineno} imports a ruleset")
        if isinstance(node, ast.Import) and any(a.name.startswith("referee.plugins") for a in node.names):
            pytest.fail(f"{path.relative_to(ROOT)}:{node.lineno} imports a ruleset")


def circles(graph: dict[str, set[str]]) -> list[str]:
    """Each module from which a chain of imports leads back to it, with that chain."""
    found = []
    for start in sorted(graph):
        chain = _way_back(graph, start, [start], set())
        if chain:
            found.append(" -> ".join(chain))
    return found


def _way_back(graph: dict[str, set[str]], start: str, path: list[str], seen: set[str]) -> list[str] | None:
    for nxt in sorted(graph[path[-1]]):
        if nxt == start:
            return [*path, start]
        if nxt not in seen:
            seen.add(nxt)
            chain = _way_back(graph, start, [*path, nxt], seen)
            if chain:
                return chain
    return None


def test_no_import_circle_at_load_time() -> None:
    graph = {name: {m for m in load_time_imports(name) if m in MODULES and m != name} for name in MODULES}
    assert not circles(graph), "load-time import circles:\n" + "\n".join(circles(graph))


def test_the_circle_finder() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a -> b -> c -> a", "b -> c -> a -> b",
                                                                          "c -> a -> b -> c"]
    assert circles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_deferred_and_type_only_imports_are_not_load_time() -> None:
    imports = load_time_imports("referee.core.engine.doctrine")
    assert "referee.core.engine.world" in imports  # a plain relative import is read
    source = MODULES["referee.core.studies.compare"][0].read_text(encoding="utf-8")
    assert "import ctypes" in source and "ctypes" not in load_time_imports("referee.core.studies.compare")  # inside a function


# ----------------------------------------------------------------------------- the core's layers

LAYERS = ("engine", "input", "studies", "cli")  # each imports only from itself and the layers before it


def run_time_imports(path: Path, name: str, is_package: bool = False) -> dict[str, int]:
    """The referee modules the module ``name`` (at ``path``) imports when it runs, each with the line
    of its first import: deferred imports inside functions count; ``if TYPE_CHECKING:`` ones do not."""
    here = name if is_package else name.rsplit(".", 1)[0]
    found: dict[str, int] = {}

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            parts = here.split(".")
            module = (node.module or "") if not node.level else ".".join(
                parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                found.setdefault(f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module, node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m: line for m, line in found.items() if m.startswith("referee.")}


def layer_of(module: str) -> str | None:
    """The layer of a ``referee.core`` module (``referee.core.engine.game`` is in "engine")."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["referee", "core"] and parts[2] in LAYERS else None


def upward_imports(path: Path, name: str, is_package: bool = False) -> list[str]:
    """Where the core module ``name`` imports from a layer above its own."""
    mine = layer_of(name)
    assert mine is not None, f"{name} is in none of the core's layers {LAYERS}"
    return [f"{path.relative_to(ROOT)}:{line} ({mine}) imports {module}"
            for module, line in run_time_imports(path, name, is_package).items()
            if (theirs := layer_of(module)) is not None and LAYERS.index(theirs) > LAYERS.index(mine)]


CORE_MODULES = sorted(m for m in MODULES if m.startswith("referee.core.") and layer_of(m) is not None)


def test_every_core_module_sits_in_a_layer() -> None:
    flat = [m for m in MODULES if m.startswith("referee.core") and m != "referee.core" and layer_of(m) is None]
    assert flat == [], f"core modules outside {LAYERS}: {flat}"
    assert {layer_of(m) for m in CORE_MODULES} == set(LAYERS)


@pytest.mark.parametrize("name", CORE_MODULES)
def test_the_core_layers_import_only_downward(name: str) -> None:
    path, is_package = MODULES[name]
    assert upward_imports(path, name, is_package) == []


def test_the_layer_check_finds_an_upward_import(tmp_path: Path) -> None:
    probe = tmp_path / "core" / "engine" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from typing import TYPE_CHECKING\nfrom .world import World\nif TYPE_CHECKING:\n"
                     "    from ..cli import cli\ndef f():\n    from ..studies.compare import Stack\n", encoding="utf-8")
    global ROOT
    here, ROOT = ROOT, tmp_path
    try:
        found = upward_imports(probe, "referee.core.engine.probe")
    finally:
        ROOT = here
    assert found == ["core/engine/probe.py:6 (engine) imports referee.core.studies.compare"]


# ----------------------------------------------------------------------------- what a plugin imports

PLUGIN_FILES = sorted([*(ROOT / "plugins").rglob("*.py"), *(ROOT / "examples").rglob("*.py")])


def _base_of(path: Path) -> str | None:
    """The BASE a plugin file or its package declares (``BASE = "rff"``), if any."""
    for candidate in (path, path.parent / "__init__.py"):
        if candidate.is_file():
            for node in ast.parse(candidate.read_text(encoding="utf-8")).body:
                if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "BASE" for t in node.targets)
                        and isinstance(node.value, ast.Constant)):
                    return str(node.value.value)
    return None


def _own(path: Path) -> str | None:
    """The plugin package a file of plugins/ belongs to (``referee.plugins.rff``); None elsewhere."""
    parts = path.relative_to(ROOT).parts
    return f"referee.plugins.{parts[1]}" if parts[0] == "plugins" and len(parts) > 2 else None


def plugin_import_problems(path: Path) -> list[str]:
    """Where ``path`` imports referee other than through referee.api, its own package, or (for a
    layer or a house rule with a BASE) its base ruleset's public names."""
    allowed = ["referee.api", *filter(None, [_own(path)])]
    base = _base_of(path)
    if base and base != "any":
        allowed.append(f"referee.plugins.{base}")
    problems = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("referee"):
            module = node.module or ""
            if not any(module == a or module.startswith(a + ".") for a in allowed):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {module}")
            elif not module.startswith(tuple(filter(None, [_own(path), "referee.api"]))):
                private = [a.name for a in node.names if a.name.startswith("_")]
                if private:
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno} imports private {module}.{private[0]}")
        elif isinstance(node, ast.Import):
            problems += [f"{path.relative_to(ROOT)}:{node.lineno} imports {a.name}" for a in node.names
                         if a.name.startswith("referee") and a.name != "referee.api"]
    imported = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0
                and (node.module or "").startswith("referee.plugins") and not (node.module or "").startswith(_own(path) or "-")
                for a in node.names}
    problems += [f"{path.relative_to(ROOT)}:{node.lineno} reads private {node.value.id}.{node.attr}" for node in ast.walk(tree)
                 if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in imported
                 and node.attr.startswith("_")]
    return problems


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_plugin_imports_referee_api_its_own_package_and_its_bases_public_names(path: Path) -> None:
    assert plugin_import_problems(path) == []


def test_the_import_check_finds_a_reach_into_another_plugin(tmp_path: Path) -> None:
    (tmp_path / "plugins" / "mine").mkdir(parents=True)
    rule = tmp_path / "plugins" / "mine" / "rule.py"
    rule.write_text("from referee.core.engine.events import Modifier\nfrom referee.plugins.rff import geometry\n"
                    "from referee.plugins.rff.state import _hidden\nx = geometry._kept\n", encoding="utf-8")
    global ROOT
    here, ROOT = ROOT, tmp_path
    try:
        found = plugin_import_problems(rule)
    finally:
        ROOT = here
    assert found == ["plugins/mine/rule.py:1 imports referee.core.engine.events", "plugins/mine/rule.py:2 imports referee.plugins.rff",
                     "plugins/mine/rule.py:3 imports referee.plugins.rff.state", "plugins/mine/rule.py:4 reads private geometry._kept"]
