"""The data of a one-page report: the comparison with history, the explanation, the ground, and
one game per ruleset to replay on the map.

Everything here is plain JSON-able data; :mod:`~referee.core.studies.report_html` draws it. The game
replayed is replication 0 of the comparison (the same seed under every ruleset).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.metadata import version
from typing import Any

from ..engine.events import clock
from ..engine.footprint import depth, frontage
from ..engine.game import POSITION_FIELDS, replication_seed
from ..engine.world import Scenario
from .compare import Stack, summarise
from .explain import GameRecord, explain, record
from .timeline import frames, lost_so_far

REPLAY_FIELDS = ("x", "y", "facing", "front", "depth", "formation", "men", "guns", "status")
"""What a replay frame says of each unit that changed: POSITION_FIELDS with the unit's
footprint in yards (front and depth, from :mod:`~referee.core.engine.footprint`) after the facing."""


def terrain(scenario: Scenario) -> dict[str, Any]:
    """The ground in yards: areas (polygons), lines (roads, streams, works ...) and objectives."""
    return {
        "width": scenario.width, "height": scenario.height,
        "areas": [{"kind": a.kind, "name": a.name, "height": a.height, "points": [list(p) for p in a.polygon]}
                  for a in scenario.areas],
        "lines": [{"kind": f.kind, "name": f.name, "points": [list(p) for p in f.points]} for f in scenario.features],
        "objectives": [{"id": o.id, "name": o.name, "x": o.position[0], "y": o.position[1], "radius": o.radius}
                       for o in scenario.objectives],
    }


def replay(stack: Stack, scenario_path: str, scenario: Scenario, seed: int) -> dict[str, Any]:
    """One game, played with the log on, as frames for the map: each frame lists the units that
    changed (REPLAY_FIELDS), each side's men lost so far and what was narrated on the way to it.
    Each unit carries its label (:func:`~referee.core.studies.draw.short_names`)."""
    from .draw import (
        short_names,  # (draw imports matplotlib: only the report command needs it)
    )
    played, log = record(stack, scenario_path, seed)
    lost = lost_so_far(log.events, scenario)
    labels = short_names(scenario.units)
    arm = {u.id: u.arm for u in scenario.units}
    at = {name: POSITION_FIELDS.index(name) for name in POSITION_FIELDS}
    shown = []
    for frame, lost_now in zip(frames(log.events, scenario.start), lost, strict=True):
        units = {}
        for uid in frame.changed:
            v = frame.units[uid]
            men, guns, formation = v[at["men"]], v[at["guns"]], v[at["formation"]]
            units[uid] = [v[at["x"]], v[at["y"]], v[at["facing"]],
                          round(frontage(arm[uid], men, guns, formation)), round(depth(arm[uid], men, guns, formation)),
                          formation, men, guns, v[at["status"]]]
        shown.append({"clock": clock(frame.minute), "turn": frame.turn, "units": units, "lost": lost_now,
                      "narration": [line.strip() for line in frame.narration]})
    return {
        "replication": 0, "seed": seed, "outcome": played.outcome.as_json(),
        "units": {u.id: {"name": u.name, "label": labels[u.id], "side": u.side, "arm": u.arm, "men": u.men, "guns": u.guns}
                  for u in scenario.units},
        "frames": shown,
    }


def build(scenario: Scenario, scenario_path: str, stacks: Mapping[str, Stack], records: Mapping[str, Sequence[GameRecord]],
          seed: int, options: Sequence[str], house_rules: Sequence[str], baseline: str | None = None) -> dict[str, Any]:
    """The report's data from the logged replications of each ruleset (replication order); the
    paired differences are taken against ``baseline`` (by default the first ruleset)."""
    from .draw import side_colours
    history = scenario.historical
    return {
        "version": version("referee"),
        "scenario": {"id": scenario.id, "title": scenario.title, "date": scenario.date, "summary": scenario.summary,
                     "sides": list(scenario.sides), "start": clock(scenario.start),
                     "colours": list(side_colours(scenario).values())},
        "seed": seed, "n": min(len(rs) for rs in records.values()), "options": list(options), "house_rules": list(house_rules),
        "comparison": {name: summarise([r.outcome for r in rs], scenario) for name, rs in records.items()},
        "history": None if history is None else {
            "winner": history.winner or "draw", "men_lost": dict(history.men_lost), "guns_lost": dict(history.guns_lost),
            "minutes": history.minutes, "note": history.note},
        "explain": explain(records, scenario, baseline),
        "terrain": terrain(scenario),
        "replays": {name: replay(stack, scenario_path, scenario, replication_seed(seed, 0)) for name, stack in stacks.items()},
    }
