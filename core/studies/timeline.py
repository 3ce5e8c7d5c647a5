"""Reading a game's log back: the replay frames, losses by time, by cause and by range, and the
mechanics rolled.

Works on the JSON events of any ruleset: it reads only the neutral ``positions`` events (see
:data:`~referee.core.engine.game.POSITION_FIELDS`), the ``lost`` events (``Game.lose``), the ``leaves``
events of men who went off the map, and the ``resolution`` events' mechanic and result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from attrs import frozen

from ..engine.events import CAUSES, UNSPOKEN, narrate
from ..engine.game import POSITION_FIELDS
from ..engine.world import Scenario

BUCKET = 30  # minutes per bucket of losses by time


@frozen
class Frame:
    """The field after one positions event: every unit's fields (POSITION_FIELDS), the clock,
    and what was narrated since the frame before."""

    minute: int
    turn: int
    units: Mapping[str, tuple[Any, ...]]
    changed: tuple[str, ...]
    narration: tuple[str, ...]


def frames(events: Iterable[Mapping[str, Any]], start: int) -> list[Frame]:
    """One frame per positions event, each with the whole field (the events list only what
    changed); the narration before the first frame goes with it, the rest with the frame it led to."""
    field: dict[str, tuple[Any, ...]] = {}
    out: list[Frame] = []
    said: list[str] = []
    for event in events:
        if event["kind"] == "positions":
            field.update({uid: tuple(v) for uid, v in event["units"].items()})
            out.append(Frame(event.get("minute", start), event.get("turn", 0), dict(field),
                             tuple(event["units"]), tuple(said)))
            said = []
        elif event["kind"] not in UNSPOKEN:
            said.append(narrate(event))
    if said and out:  # what was said after the last positions event (the end)
        last = out[-1]
        out[-1] = Frame(last.minute, last.turn, last.units, last.changed, last.narration + tuple(said))
    return out


def losses_by_time(events: Iterable[Mapping[str, Any]], scenario: Scenario, bucket: int = BUCKET) -> dict[str, list[int]]:
    """Men lost by each side in each ``bucket`` minutes from the start, read from the positions
    (men gone from a unit) and from men captured going off the map; the buckets run to the
    scenario's time limit, and their sum is the game's ``men_lost``."""
    side_of = {u.id: u.side for u in scenario.units}
    count = -(-(scenario.victory.end - scenario.start) // bucket)
    lost = {side: [0] * count for side in scenario.sides}
    men: dict[str, int] = {u.id: u.men for u in scenario.units}
    at = POSITION_FIELDS.index("men")
    for event in events:
        kind = event["kind"]
        if kind not in ("positions", "leaves"):
            continue
        i = min(count - 1, max(0, (event.get("minute", scenario.start) - scenario.start) // bucket))
        if kind == "leaves":
            if event["captured"]:
                lost[side_of[event["unit"]]][i] += event["men"]
            continue
        for uid, fields in event["units"].items():
            lost[side_of[uid]][i] += men[uid] - fields[at]
            men[uid] = fields[at]
    return lost


def lost_so_far(events: Iterable[Mapping[str, Any]], scenario: Scenario) -> list[dict[str, int]]:
    """Men lost by each side from the start up to each positions event (one entry per frame of
    :func:`frames`), counted as :func:`losses_by_time` counts them: the last entry is the game's
    ``men_lost`` once the men captured after the last positions event are in."""
    side_of = {u.id: u.side for u in scenario.units}
    men: dict[str, int] = {u.id: u.men for u in scenario.units}
    lost = dict.fromkeys(scenario.sides, 0)
    at = POSITION_FIELDS.index("men")
    out: list[dict[str, int]] = []
    for event in events:
        if event["kind"] == "leaves" and event["captured"]:
            lost[side_of[event["unit"]]] += event["men"]
        elif event["kind"] == "positions":
            for uid, fields in event["units"].items():
                lost[side_of[uid]] += men[uid] - fields[at]
                men[uid] = fields[at]
            out.append(dict(lost))
    if out:
        out[-1] = dict(lost)  # what was lost after the last positions event (the end) goes with the last frame
    return out


def losses_by_cause(events: Iterable[Mapping[str, Any]], scenario: Scenario) -> dict[str, dict[str, int]]:
    """Men lost by each side to each cause (in the order of :data:`~referee.core.engine.events.CAUSES`),
    read from the ``lost`` events and the men captured going off the map; their sum is the
    game's ``men_lost``."""
    side_of = {u.id: u.side for u in scenario.units}
    lost: dict[tuple[str, str], int] = {}
    for event in events:
        kind = event["kind"]
        if kind == "lost":
            key = (side_of[event["unit"]], event["cause"])
        elif kind == "leaves" and event["captured"]:
            key = (side_of[event["unit"]], "captured")
        else:
            continue
        lost[key] = lost.get(key, 0) + event["men"]
    return {side: {c: lost[side, c] for c in CAUSES if (side, c) in lost} for side in scenario.sides}


def losses_by_range(events: Iterable[Mapping[str, Any]], scenario: Scenario, bands: tuple[int, ...]) -> dict[str, dict[str, list[int]]]:
    """Men lost by each side to each cause of fire whose ``lost`` events give the range, in range
    bands: band ``i`` holds ranges up to ``bands[i]`` yards, the last one everything beyond."""
    side_of = {u.id: u.side for u in scenario.units}
    out: dict[str, dict[str, list[int]]] = {side: {} for side in scenario.sides}
    for event in events:
        if event["kind"] != "lost" or "yards" not in event:
            continue
        i = next((k for k, top in enumerate(bands) if event["yards"] <= top), len(bands))
        row = out[side_of[event["unit"]]].setdefault(event["cause"], [0] * (len(bands) + 1))
        row[i] += event["men"]
    return out


def mechanics_rolled(events: Iterable[Mapping[str, Any]]) -> dict[str, Counter[str]]:
    """Each mechanic resolved in the game, with how often each result came up."""
    rolled: dict[str, Counter[str]] = {}
    for event in events:
        if event["kind"] == "resolution":
            rolled.setdefault(event["mechanic"], Counter())[event["result"]] += 1
    return rolled

