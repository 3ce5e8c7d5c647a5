"""How Hynds' rules are cited: references and ruling ids the core credits to ``hynds``."""

from __future__ import annotations

from functools import lru_cache

from referee.api import Modifier

SOURCE = "Hynds FF Regimental v2.1"
CITES = (SOURCE, "HYNDS-")  # resolutions citing these are Hynds' (RulesetInfo.cites)


def ref(section: str, ruling: str = "") -> str:
    return f"{SOURCE}, {section}" + (f"; docs/rulings/hynds.md, {ruling}" if ruling else "")


@lru_cache(maxsize=None, typed=True)  # built once: a Modifier is immutable (typed: a 1 and a 1.0 print differently)
def modifier(name: str, value: int, section: str, ruling: str = "") -> Modifier:
    return Modifier(f"{name} (Hynds)", value, ref(section, ruling))
