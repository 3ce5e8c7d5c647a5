"""The Raising Sumter mechanics at the table (``referee resolve sumter ...``)."""

from __future__ import annotations

from typing import Any

from referee.core.mechanics import MechanicSpec


def mechanic_specs(t: Any) -> list[MechanicSpec]:
    return []
