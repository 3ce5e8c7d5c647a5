"""Every roll is cited: resolutions, the JSON Lines event log, and its narration.

A :class:`Resolution` is what a mechanic returns: ruleset, rule reference, inputs, each modifier
by name and value, the raw dice, the total, the result, machine-readable values, and the
rulings applied. The game's :class:`EventLog` turns resolutions and other happenings into
events; with logging off it keeps nothing and costs almost nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, TextIO

from attrs import define, field

from .records import record
from .text import printable

Number = int | Fraction


@record
class Modifier:
    """One modifier: its name, its value, what it applies to, and where the rule says so."""

    name: str
    value: Number
    ref: str = ""
    on: str = "die"  # "die", "fire points x", "shift", ...

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "value": jsonable(self.value), "on": self.on}
        if self.ref:
            out["ref"] = self.ref
        return out

    def __str__(self) -> str:
        if self.on == "die":
            return f"{self.value:+d} {self.name}" if isinstance(self.value, int) else f"{self.value} {self.name}"
        return f"{self.on}{jsonable(self.value)} {self.name}"


@define(eq=False)
class Resolution:
    """The cited result of one mechanic (treat it as frozen: see :mod:`.records`)."""

    ruleset: str
    mechanic: str
    ref: str
    result: str
    inputs: Mapping[str, Any] = field(factory=dict)
    modifiers: tuple[Modifier, ...] = ()
    dice: tuple[int, ...] = ()
    total: Number | None = None
    values: Mapping[str, Any] = field(factory=dict)
    rulings: tuple[str, ...] = ()

    def outcome_key(self) -> tuple[Any, ...]:
        """What two resolutions must share to count as the same outcome (dice aside)."""
        return (self.result, json.dumps(jsonable(self.values), sort_keys=True))

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "mechanic": self.mechanic,
            "ref": self.ref,
            "inputs": jsonable(self.inputs),
            "modifiers": [m.as_json() for m in self.modifiers],
            "dice": list(self.dice),
            "total": jsonable(self.total),
            "result": self.result,
            "values": jsonable(self.values),
            "rulings": list(self.rulings),
        }


def net(modifiers: Iterable[Modifier]) -> int:
    """The sum of the die modifiers (a Fraction counts its whole part)."""
    total = 0  # a plain loop: no comprehension frame, no call of sum (asked on every resolution)
    for m in modifiers:
        if m.on == "die":
            value = m.value
            total += value if value.__class__ is int else int(value)  # (int() costs a call: most values are ints already)
    return total


def jsonable(value: Any) -> Any:
    """Fractions as "p/q" strings (integers stay integers); containers recursively."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


UNSPOKEN = frozenset({"positions", "lost"})
"""Events kept in the log for machines (a replay, losses by cause) but not narrated (the
ruleset narrates its own losses in its own words)."""

CAUSES = {
    "musketry": "musketry",
    "canister": "canister",
    "case-shot": "case shot",
    "shell": "shell",
    "solid-shot": "solid shot",
    "shot-or-shell": "round shot or shell",
    "artillery": "artillery (ammunition not named)",
    "charge": "charge and melee",
    "rout": "rout and flight",
    "captured": "captured",
    "other": "other",
}
"""The neutral causes of a loss of men, in the order they are reported, with their plain words.
A ruleset maps its own mechanics onto them (``Game.lose``); where it does not say which
ammunition its guns fired it reports ``artillery``, and where it does not tell shell from
solid shot, ``shot-or-shell``. ``captured`` is reported by the core (``Game.leave_field``)."""

ARTILLERY = frozenset({"canister", "case-shot", "shell", "solid-shot", "shot-or-shell", "artillery"})
"""The causes that are artillery fire."""


@define(eq=False)
class EventLog:
    """The game's log; ``enabled=False`` records nothing (the fast path for comparisons)."""

    enabled: bool = True
    events: list[dict[str, Any]] = field(factory=list)
    stream: TextIO | None = None
    context: dict[str, Any] = field(factory=dict)

    def emit(self, kind: str, **data: Any) -> None:
        if not self.enabled:
            return
        event = {"seq": len(self.events), **self.context, "kind": kind, **jsonable(data)}
        self.events.append(event)
        if self.stream is not None and kind not in UNSPOKEN:
            self.stream.write(narrate(event) + "\n")

    def resolution(self, res: Resolution, **about: Any) -> None:
        if self.enabled:
            self.emit("resolution", **about, **res.as_json())

    def jsonl(self) -> str:
        return "".join(json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n" for e in self.events)


def clock(minute: int) -> str:
    """Minutes since midnight as HH:MM."""
    return f"{minute // 60:02d}:{minute % 60:02d}"


def narrate(event: Mapping[str, Any]) -> str:
    """One event as a referee would say it at the table, on one line; names from the scenario
    never reach the terminal as control characters."""
    return printable(_narration(event))


def _narration(event: Mapping[str, Any]) -> str:
    when = clock(event["minute"]) if "minute" in event else "     "
    kind = event["kind"]
    if kind == "resolution":
        who = " ".join(str(event[k]) for k in ("unit", "target") if event.get(k))
        who = f"{who}: " if who else ""
        mods = " ".join(
            f"{m['value']:+d} {m['name']}" if isinstance(m["value"], int) and m["on"] == "die" else f"{m['on']}{m['value']} {m['name']}"
            for m in event["modifiers"]
        )
        dice = "+".join(str(x) for x in event["dice"])
        total = f" = {event['total']}" if event.get("total") is not None else ""
        rulings = f" (ruling {', '.join(event['rulings'])})" if event["rulings"] else ""
        return f"{when}  {who}[{event['ruleset']} {event['ref']}] dice {dice or '-'} {mods}{total} -> {event['result']}{rulings}"
    text = event.get("text") or " ".join(f"{k}={v}" for k, v in event.items() if k not in ("seq", "kind", "minute", "turn"))
    rulings = f" (ruling {', '.join(event['rulings'])})" if event.get("rulings") else ""
    return f"{when}  {kind}: {text}{rulings}"
