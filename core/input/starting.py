"""Scenarios seen before they are played: ``referee new-scenario`` (a commented file that plays,
to start from) and ``referee check`` (the file validated, and what each ruleset makes of each
unit, without playing)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..engine.errors import InvalidInput, Problem
from ..engine.events import clock
from ..engine.game import Game
from ..engine.plugins import Rules
from ..engine.world import Scenario

NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,59}")  # as a bundled scenario's id

TEMPLATE = '''\
# {title}: a scenario to start from (`referee new-scenario`). It plays as it stands:
#     referee draw {file} -o {id}.svg          # see the ground and the deployment
#     referee check {file}                    # is it valid, and what each ruleset makes of it
#     referee run {file} --rules rff          # one game, narrated
#     referee compare {file} -n 200           # every ruleset
# Every key is described in docs/scenario-format.md. Distances are yards; the map runs from
# x = 0 (west) to x = width (east) and from y = 0 (south) to y = height (north); bearings and
# facings are degrees clockwise from north (0 north, 90 east, 180 south).

[scenario]
id = "{id}"                      # lower case; the file name for a bundled scenario
title = "{title}"
date = "1862-06-01"              # the day; with sunset, it decides the light
summary = "A Union brigade attacks a Confederate regiment behind a fence on a low ridge. Replace this with what happened."
start = "14:00"
sunset = "19:45"
weather = "clear"                # clear, overcast, fog, rain (only some rulesets read weather)
width = 2000                     # the map, in yards
height = 1600
sides = ["union", "confederate"] # the first side moves first

[home_edges]                     # each side's rear, the way it withdraws and routs
union = 180
confederate = 0

# The command tree: orders go to commands; every unit belongs to one.
[[commands]]
id = "us-brigade"
name = "Union brigade"
side = "union"
level = "brigade"

[[commands]]
id = "cs-brigade"
name = "Confederate brigade"
side = "confederate"
level = "brigade"

[[leaders]]
id = "us-colonel"
name = "Col. A. Union"
command = "us-brigade"
rating = "average"               # superior, average, poor: how he led on the day
position = [1000, 380]

[[leaders]]
id = "cs-colonel"
name = "Col. B. Confederate"
command = "cs-brigade"
rating = "average"
position = [1000, 1160]

# Units: where each stands at the start (its centre), which way it faces, how it is formed.
[[units]]
id = "us-1st"
name = "1st Union Infantry"
command = "us-brigade"
arm = "infantry"
men = 600
position = [850, 400]
facing = 0
formation = "line"               # line, column, march-column, skirmish
experience = "green"             # militia, green, trained, regular, veteran, crack
weapon = "rifle-musket"

[[units]]
id = "us-2nd"
name = "2nd Union Infantry"
command = "us-brigade"
arm = "infantry"
men = 550
position = [1150, 400]
facing = 0
formation = "line"
experience = "trained"
weapon = "rifle-musket"

[[units]]
id = "us-battery"
name = "Union battery"
command = "us-brigade"
arm = "artillery"
men = 100
guns = 4
gun_type = "12-pdr-napoleon"
position = [1000, 330]
facing = 0
formation = "unlimbered"

[[units]]
id = "cs-1st"
name = "1st Confederate Infantry"
command = "cs-brigade"
arm = "infantry"
men = 450
position = [1000, 1120]
facing = 180
formation = "line"
experience = "veteran"
weapon = "rifle-musket"

# Ground: areas cover ground (a hill is an area with a height); features are lines.
[[areas]]
kind = "fields"
name = "the ridge"
height = 10
polygon = [[600, 1000], [1400, 1000], [1400, 1300], [600, 1300]]

[[areas]]
kind = "woods"
name = "the wood"
polygon = [[1500, 700], [1900, 700], [1900, 1100], [1500, 1100]]

[[features]]
kind = "fence"
name = "the rail fence"
points = [[650, 1080], [1350, 1080]]
front = 180                      # it covers troops behind it (north of it), facing south

# Objectives: what the plans aim at and what decides the game at the end.
[[objectives]]
id = "ridge"
name = "the ridge"
position = [1000, 1120]
radius = 200
held_by = "confederate"

# Orders: each command's sequence; the first is in force from the start.
[[orders]]
command = "us-brigade"
kind = "attack"
objective = "ridge"

[[orders]]
command = "cs-brigade"
kind = "hold"
objective = "ridge"

[victory]
end = "16:00"
objectives = ["ridge"]           # who holds them at the end wins, if no side is beaten first
beaten_at = 0.5                  # a side is beaten at this share of its men lost or broken

# [historical] records what really happened, so that comparisons can place it; see the format.
'''


def new_scenario(name: str, path: Path, title: str | None = None, start_from: Path | None = None) -> str:
    """The text of a new scenario file for ``path``: the commented template, or a copy of a
    bundled scenario (``start_from``) with its id changed to ``name``."""
    if not NAME.fullmatch(name):
        raise InvalidInput([Problem("a scenario's name is 1-60 lower-case letters, digits or '-', starting with a letter or "
                                    "digit", path="NAME")], "new scenario")
    if start_from is not None:
        text = start_from.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for i, line in enumerate(lines):
            if line.startswith("id = ") and i and any(x.strip() == "[scenario]" for x in lines[:i]):
                lines[i] = f'id = "{name}"\n'
                break
        return "".join(lines)
    return TEMPLATE.format(id=name, title=title or name.replace("-", " ").capitalize(), file=path.name)


def describe_units(rules: Rules, world: Scenario) -> dict[str, str | None]:
    """What ``rules`` makes of each unit of ``world`` at muster (``referee_describe``), by unit
    id; the scenario's options for the ruleset are checked on the way (as a game would)."""
    game = Game.new(rules, world, 1)
    game.state = rules.muster(game)
    return {unit.id: rules.describe(game, unit.id) for unit in world.units}


def summary(world: Scenario) -> dict[str, Any]:
    """The scenario's size, for ``referee check``."""
    return {"id": world.id, "title": world.title, "sides": list(world.sides),
            "units": {side: sum(1 for u in world.units if u.side == side) for side in world.sides},
            "men": {side: sum(u.men for u in world.units if u.side == side) for side in world.sides},
            "guns": {side: sum(u.guns for u in world.units if u.side == side) for side in world.sides},
            "objectives": len(world.objectives), "start": clock(world.start), "end": clock(world.victory.end)}
