"""The class decorator for the small values the core and the rulesets build many times a game.

:func:`record` is attrs' ``define`` with field-wise equality and hashing, like ``frozen``, but
not declared frozen: attrs builds a frozen instance by calling ``object.__setattr__`` for each
field, which costs thousands of instructions for a handful of fields, and these values (an
intent, a step, a modifier, a shot) are built hundreds of times a game. Treat them as frozen all
the same: nothing changes one after it is built (``attrs.evolve`` makes a new one). The test
suite holds the code to that: in its strict build (``REFEREE_STRICT`` set, as tests/conftest.py
does) records are built frozen, so any code that changes one fails there; mypy reads them as
frozen. The strict build also checks the speed caches that offer to (a ruleset's kept answers)
against answers worked out afresh.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from attrs import define, frozen

__all__ = ["STRICT", "record"]

STRICT = bool(os.environ.get("REFEREE_STRICT"))
"""The test suite's strict build: records frozen, kept answers checked at each use."""

if TYPE_CHECKING:  # to the type checker a record is frozen: it flags any assignment to one
    from attrs import frozen as record
else:
    record = frozen if STRICT else define(unsafe_hash=True)
