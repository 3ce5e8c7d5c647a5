"""The glue every table-driven ruleset needs, written once.

A ruleset keeps its printed tables as TOML files, checks them against a schema, lays a stack's
data house rules (overlays) over them and builds what its play reads. :class:`TableSource` does
that and keeps each answer. :class:`TableHooks` gives the four hooks that only pass those tables
on (``referee_options``, ``referee_tables``, ``referee_mechanics``, ``referee_muster``)::

    # tables.py
    TABLES = TableSource("mygame", SCHEMA, build)           # rulesets/mygame/*.toml -> MyTables

    # __init__.py
    GLUE = TableHooks(TABLES, display_tables, mechanic_specs, muster, options=lambda t: t.options)
    referee_options, referee_tables = GLUE.referee_options, GLUE.referee_tables
    referee_mechanics, referee_muster = GLUE.referee_mechanics, GLUE.referee_muster

pluggy registers the ruleset's module; the four names make these methods its hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .hookspecs import hookimpl
from .tables import Spec, Table, TomlFile, apply_overlay, load_ruleset

if TYPE_CHECKING:
    from .game import Game
    from .mechanics import MechanicSpec
    from .rules import OptionSpec

T = TypeVar("T")
Overlays = tuple[str | Path, ...]  # the paths of a stack's overlays, in order


class TableSource(Generic[T]):
    """A ruleset's tables: every ``<package>/<folder>/*.toml``, checked against ``schema``, with
    a stack's overlays laid over them in order, built by ``build`` into what play reads."""

    def __init__(self, folder: str, schema: Mapping[str, Spec], build: Callable[[Mapping[str, TomlFile]], T],
                 package: str = "referee.rulesets") -> None:
        self.folder, self.schema, self.build, self.package = folder, schema, build, package
        self.files_kept: dict[Overlays, Mapping[str, TomlFile]] = {}
        """The checked files by the overlays laid over them (their paths, in order): the files
        ship with the package and an overlay is read once, so an entry is never stale."""
        self.built: dict[Overlays, T] = {}
        """:meth:`load`'s answers, by the same key."""

    def files(self, *overlays: str | Path) -> Mapping[str, TomlFile]:
        """The checked files with ``overlays`` laid over them in order (none: the ruleset's own)."""
        files = self.files_kept.get(overlays)
        if files is None:
            files = load_ruleset(self.folder, self.schema, self.package) if not overlays else self.files()
            for overlay in overlays:
                files = apply_overlay(files, overlay, self.schema)
            self.files_kept[overlays] = files
        return files

    def load(self, *overlays: str | Path) -> T:
        """The tables as play reads them, with ``overlays`` laid over them in order (none: the
        ruleset's own): read, checked and built once."""
        tables = self.built.get(overlays)
        if tables is None:
            tables = self.built[overlays] = self.build(self.files(*overlays))
        return tables


def _no_options(tables: Any) -> Sequence[OptionSpec]:
    return ()


class TableHooks(Generic[T]):
    """The hooks of a ruleset that only hand its tables (``source``, with the stack's overlays)
    to its own functions: ``display`` for ``referee tables``, ``mechanics`` for ``referee
    resolve``, ``muster`` for a game's state, ``options`` for the options it offers."""

    def __init__(self, source: TableSource[T], display: Callable[[T], dict[str, Table]],
                 mechanics: Callable[[T], Sequence[MechanicSpec]], muster: Callable[[Game, T], Any],
                 options: Callable[[T], Sequence[OptionSpec]] = _no_options) -> None:
        self.source, self.display, self.mechanics, self.muster, self.options = source, display, mechanics, muster, options

    @hookimpl
    def referee_options(self) -> list[OptionSpec]:
        return list(self.options(self.source.load()))

    @hookimpl
    def referee_tables(self, overlays: tuple[Path, ...]) -> dict[str, Table]:
        return self.display(self.source.load(*overlays))

    @hookimpl
    def referee_mechanics(self, overlays: tuple[Path, ...]) -> list[MechanicSpec]:
        return list(self.mechanics(self.source.load(*overlays)))

    @hookimpl
    def referee_muster(self, game: Game) -> Any:
        return self.muster(game, self.source.load(*game.rules.overlays))
