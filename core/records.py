"""The class decorator for the small values the core and the rulesets build many times a game.

:func:`record` is attrs' ``define`` with field-wise equality and hashing, like ``frozen``, but
not declared frozen: attrs builds a frozen instance by calling ``object.__setattr__`` for each
field, which costs thousands of instructions for a handful of fields, and these values (an
intent, a step, a modifier) are built hundreds of times a game. Treat them as frozen all the
same: nothing changes one after it is built (``attrs.evolve`` makes a new one).
"""

from __future__ import annotations

from attrs import define

record = define(unsafe_hash=True)
