"""Mechanics at the table: what a ruleset offers to ``referee resolve``.

A ruleset lists :class:`MechanicSpec` s (hook ``referee_mechanics``). Each names its inputs with
their kinds and defaults, and runs as ``run(roller, inputs) -> Resolution`` — the same code that
the game calls, so a roll at the table and a roll in a simulated game cannot differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from attrs import frozen

from .chance import Roller, SampledRoller, exact
from .errors import InvalidInput, Problem
from .events import Resolution
from .limits import SET_TEXT, SET_VALUE
from .reading import fraction, setting


@frozen
class InputSpec:
    """One input of a mechanic: ``kind`` is "int", "number" (fractions allowed), "choice" or "bool"."""

    name: str
    kind: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: Fraction | int | None = None
    maximum: Fraction | int | None = None

    def parse(self, text: str) -> Any:
        """The value of ``text`` for this input; raises ``ValueError`` saying what is valid."""
        if self.kind == "choice":
            if text not in self.choices:
                raise ValueError(f"{text!r} is not one of {', '.join(self.choices)}")
            return text
        if self.kind == "bool":
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{text!r} is not true or false")
        what = "a whole number" if self.kind == "int" else "a number such as 4, 4.5 or 9/2"
        if len(text) > SET_TEXT:
            raise ValueError(f"{text[:SET_TEXT]!r}... is not {what} of at most {SET_TEXT} characters")
        try:
            value: Any = int(text) if self.kind == "int" else fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{text!r} is not {what}") from None
        except OverflowError:
            value = SET_VALUE + 1
        if abs(value) > SET_VALUE:
            raise ValueError(f"{text} is out of range: inputs are at most {SET_VALUE:,} in size")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"{text} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"{text} is above the maximum {self.maximum}")
        return value

    def describe(self) -> str:
        if self.kind == "choice":
            kind = " | ".join(self.choices)
        else:
            bounds = [f">= {self.minimum}" if self.minimum is not None else "", f"<= {self.maximum}" if self.maximum is not None else ""]
            kind = " ".join([self.kind, *[b for b in bounds if b]])
        default = "" if self.default is None else f" (default {self.default})"
        return f"{kind}{default}"


@frozen
class MechanicSpec:
    name: str
    summary: str
    ref: str
    inputs: tuple[InputSpec, ...]
    run: Callable[[Roller, Mapping[str, Any]], Resolution]
    values: Mapping[str, str]  # documented machine-readable fields of Resolution.values

    def parse_inputs(self, pairs: Sequence[str]) -> dict[str, Any]:
        """``KEY=VALUE`` strings to inputs, defaults filled in; every problem reported at once."""
        by_name = {i.name: i for i in self.inputs}
        given: dict[str, Any] = {}
        problems: list[Problem] = []
        for pair in pairs:
            read = setting(pair, sorted(by_name), "no such input")
            if isinstance(read, Problem):
                problems.append(read)
            else:
                key, text = read
                try:
                    given[key] = by_name[key].parse(text)
                except ValueError as err:
                    problems.append(Problem(str(err), path=f"--set {key}"))
        for spec in self.inputs:
            if spec.name not in given and not any(p.path == f"--set {spec.name}" for p in problems):
                if spec.default is None:
                    problems.append(Problem(f"required: {spec.describe()}", path=f"--set {spec.name}"))
                else:
                    given[spec.name] = spec.default
        if problems:
            raise InvalidInput(problems, what=f"mechanic {self.name}")
        return given

    def sample(self, seed: int, inputs: Mapping[str, Any]) -> Resolution:
        return self.run(SampledRoller(seed), inputs)

    def exact(self, inputs: Mapping[str, Any]) -> list[tuple[Resolution, Fraction]]:
        return exact(self.run, inputs, key=Resolution.outcome_key)
