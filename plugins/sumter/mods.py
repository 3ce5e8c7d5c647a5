"""Modifiers from the tables by name: one :class:`~referee.core.engine.events.Modifier` per entry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from referee.api import Modifier


def mods(table: Mapping[str, int], ref: str, names: Iterable[str | tuple[str, int]]) -> tuple[Modifier, ...]:
    """A modifier per name (``(name, n)``: n times the value, e.g. each DP), zero values left out."""
    out = []
    for item in names:
        name, n = (item, 1) if isinstance(item, str) else item
        value = table[name] * n
        if value:
            out.append(Modifier(name if n == 1 else f"{name} x{n}", value, ref))
    return tuple(out)
