"""One root error type; each subclass says what went wrong, where, and what would be valid.

Domain errors become click errors (exit code 2) only at the CLI boundary.
"""

from __future__ import annotations

import difflib
import pickle
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen

from .limits import PROBLEMS, SHOWN
from .text import printable, quoted, shorten


@frozen
class Problem:
    """One thing wrong with an input: where it is and what would be valid."""

    message: str
    path: str = ""  # key path, e.g. "forces.union.units[2].men"
    source: str = ""  # file name
    line: int | None = None

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        parts = [p for p in (where, shorten(self.path)) if p]
        return f"{' '.join(parts)}: {self.message}" if parts else self.message


class RefereeError(Exception):
    """Root of every error that a user (not a bug) can cause."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Subclasses take other constructor arguments than the message, and errors cross
        # process boundaries in a comparison: rebuild from the message and what pickles.
        state = {k: v for k, v in vars(self).items() if _picklable(v)}
        return (_rebuild, (type(self), str(self), state))


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001  (anything may fail to pickle, and the answer is only yes or no)
        return False
    return True


def _rebuild(cls: type[RefereeError], message: str, state: dict[str, Any]) -> RefereeError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class InvalidInput(RefereeError):
    """One or more problems with a file or a value, all reported at once (the message lists the
    first :data:`~referee.core.engine.limits.PROBLEMS` of them, each on one line of bounded length)."""

    def __init__(self, problems: Sequence[Problem], what: str = "input") -> None:
        self.problems = tuple(problems)
        self.what = what
        lines = [f"  - {printable(shorten(str(p), 4 * SHOWN))}" for p in self.problems[:PROBLEMS]]
        if len(self.problems) > PROBLEMS:
            lines.append(f"  - and {len(self.problems) - PROBLEMS:,} more")
        noun = "problem" if len(self.problems) == 1 else "problems"
        super().__init__(f"{printable(shorten(what))}: {len(self.problems):,} {noun}\n" + "\n".join(lines))


class UnknownName(RefereeError):
    """A name (ruleset, scenario, mechanic, option, table, input) that does not exist."""

    def __init__(self, kind: str, name: str, choices: Iterable[str]) -> None:
        self.kind, self.name, self.choices = kind, name, sorted(choices)
        super().__init__(f"unknown {kind} {quoted(name)}{did_you_mean(name, self.choices)}")


class PluginFailed(RefereeError):
    """A plugin raised inside a hook; names the plugin and the hook."""

    def __init__(self, plugin: str, hook: str, error: BaseException, source: str = "") -> None:
        self.plugin, self.hook, self.error = plugin, hook, error
        where = f" (file {source})" if source else ""
        super().__init__(f"plugin {plugin!r} failed in hook {hook}{where}: {describe(error)}")


def describe(error: BaseException) -> str:
    """``Type: message`` of an exception, even one whose ``__str__`` fails; ``sys.exit`` as such."""
    if isinstance(error, SystemExit):
        return f"it called sys.exit({error.code!r}) (a plugin must raise an exception, not exit)"
    try:
        text = str(error)
    except Exception as failed:  # noqa: BLE001  (a plugin's exception whose __str__ fails is still reported)
        text = f"<its message could not be shown: {type(failed).__name__}>"
    return f"{type(error).__name__}: {shorten(text, 2 * SHOWN)}" if text else type(error).__name__


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """A hint naming the closest valid choices, and all of them when there are few."""
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.5) if len(name) <= SHOWN else []
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    if len(choices) <= 24:
        hint += f" (valid: {', '.join(choices)})"
    return hint
