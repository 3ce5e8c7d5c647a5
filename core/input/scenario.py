"""Load a scenario file (TOML) into the neutral :class:`~referee.core.engine.world.Scenario`.

A scenario describes the battle as it was, in men, guns, yards, degrees and ``"HH:MM"`` times;
nothing in it names a ruleset except ``options``. Every problem in a file is reported at once as
one :class:`~referee.core.engine.errors.InvalidInput`, each with its key path (``units[3].men``), file
and line. The format is described key by key in ``docs/scenario-format.md``.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from attrs import define, evolve

from ..engine import world
from ..engine.errors import InvalidInput, UnknownName
from ..engine.events import clock
from ..engine.ground import CELL
from ..engine.limits import AREAS, GROUND_CELLS, GUNS, MAP_YARDS, MEN
from ..engine.plan import DUSK_AFTER_SUNSET, last_light
from ..engine.reading import (
    MISSING,
    Bad,
    Reader,
    Table,
    any_text,
    choice,
    clock_time,
    degrees,
    flag,
    ident,
    key_lines,
    list_of,
    nonempty_text,
    number,
    oversized,
    parse_toml,
    point,
    points,
    read_bounded,
    show,
    whole,
)
from ..engine.world import (
    Area,
    Command,
    Feature,
    Historical,
    Leader,
    Light,
    Objective,
    Point,
    Scenario,
    UnitSpec,
    Victory,
)
from . import plans_format
from .plans_format import PlacedOrder, PlacedPlan

PACKAGE = "referee.scenarios"
WEATHER = ("clear", "overcast", "fog", "rain")
MOON = ("none", "moonlit", "full")
DRAW = "draw"

TOP_KEYS = ("scenario", "home_edges", "commands", "leaders", "units", "areas", "features",
            "objectives", "orders", "plan", "edges", "victory", "historical")
SCENARIO_KEYS = ("id", "title", "date", "summary", "start", "sunset", "dusk", "weather", "moon", "width",
                 "height", "sides", "options")
COMMAND_KEYS = ("id", "name", "side", "level", "parent")
LEADER_KEYS = ("id", "name", "side", "command", "rating", "traits", "attached_to", "position")
UNIT_KEYS = ("id", "name", "side", "command", "arm", "men", "position", "facing", "formation",
             "experience", "weapon", "guns", "gun_type", "mounted", "entry", "hidden", "surprised")
AREA_KEYS = ("kind", "polygon", "name", "height")
FEATURE_KEYS = ("kind", "points", "name", "front")
OBJECTIVE_KEYS = ("id", "name", "position", "radius", "held_by", "key", "value")
VICTORY_KEYS = ("end", "objectives", "beaten_at", "break_off")
HISTORICAL_KEYS = ("winner", "men_lost", "guns_lost", "minutes", "note")

GUN_FORMATIONS = ("limbered", "unlimbered", "column", "march-column")
TROOP_FORMATIONS = ("line", "column", "march-column", "skirmish")

_SCENARIO_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_OPTION = re.compile(r"[A-Za-z0-9_-]+:[A-Za-z0-9_.-]+")

T = TypeVar("T")


# ----------------------------------------------------------------------------- public API


def load_scenario(path: Path | str) -> Scenario:
    """Read and check a scenario file; raise :class:`InvalidInput` listing every problem."""
    path = Path(path)
    source = str(path)
    return parse_scenario(read_bounded(path, f"scenario {source}"), source, default_id=path.stem)


def parse_scenario(text: str, source: str = "<string>", default_id: str | None = None) -> Scenario:
    """Check the TOML text of a scenario and build it; ``default_id`` stands in for a missing id.
    Nothing is built from a file past the limits of :mod:`referee.core.engine.limits`."""
    data = parse_toml(text, source, f"scenario {source}")
    reader = Reader(source, key_lines(text))
    for path, message in oversized(data):
        reader.add(path, message)
    scenario = None if reader.problems else _build(reader, data, default_id)
    if reader.problems or scenario is None:
        in_file_order = sorted(reader.problems, key=lambda p: (p.line is None, p.line or 0))
        raise InvalidInput(in_file_order, f"scenario {source}")
    return scenario


def find_scenario(name_or_path: str) -> Path:
    """A bundled id (``big-bethel``) or a path (it has a separator or ends in ``.toml``)."""
    separators = [s for s in (os.sep, os.altsep, "/") if s]
    if name_or_path.endswith(".toml") or any(s in name_or_path for s in separators):
        return Path(name_or_path)
    files = _bundled_files()
    if name_or_path not in files:
        raise UnknownName("scenario", name_or_path, files)
    return files[name_or_path]


def bundled() -> list[tuple[str, str, str]]:
    """Every bundled scenario as (id, title, one-line summary), sorted by id."""
    rows = []
    for sid, path in sorted(_bundled_files().items()):
        scenario = load_scenario(path)
        rows.append((sid, scenario.title, _first_sentence(scenario.summary)))
    return rows


def _bundled_files() -> dict[str, Path]:
    folder = resources.files(PACKAGE)
    return {entry.name[:-5]: Path(str(entry)) for entry in folder.iterdir()
            if entry.name.endswith(".toml") and entry.is_file()}


_SENTENCE_END = re.compile(r"(?<!\b[A-Z])(?<!\b(?:Lt|Mt|St))(?<!\b(?:Col|Gen|Maj))(?<!\bCapt)[.!?](?=\s)")


def _first_sentence(text: str) -> str:
    """The first sentence (initials such as "D. H." and ranks such as "Col." do not end one)."""
    flat = " ".join(text.split())
    end = _SENTENCE_END.search(flat)
    return flat if end is None else flat[: end.end()]


# ----------------------------------------------------------------------------- tables


def _scenario_id(value: Any) -> str:
    if not isinstance(value, str) or not _SCENARIO_ID.fullmatch(value):
        raise Bad(f"expected a scenario id (lower-case letters, digits and '-'), got {show(value)}")
    return value


def _date(value: Any) -> str:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    return nonempty_text(value)



def _head(t: Table, default_id: str | None) -> dict[str, Any]:
    """The [scenario] table; the id defaults to the file's name when that is a valid id."""
    fallback = default_id if default_id and _SCENARIO_ID.fullmatch(default_id) else MISSING
    return {
        "id": t.get("id", _scenario_id, "a scenario id (lower-case letters, digits and '-')", fallback),
        "title": t.get("title", nonempty_text, "a title"),
        "date": t.get("date", _date, "a date, e.g. 1861-06-10"),
        "summary": t.get("summary", nonempty_text, "a summary (its first sentence is the one-line summary)"),
        "start": t.get("start", clock_time, 'a time "HH:MM"'),
        "sunset": t.get("sunset", clock_time, 'a time "HH:MM"', None),
        "dusk": t.get("dusk", clock_time, 'a time "HH:MM"', None),
        "weather": t.get("weather", choice(WEATHER, "weather"), "weather", "clear"),
        "moon": t.get("moon", choice(MOON, "moon"), "moon", "none"),
        "width": t.get("width", number(above=0, at_most=MAP_YARDS), "the map's width in yards"),
        "height": t.get("height", number(above=0, at_most=MAP_YARDS), "the map's height in yards"),
        "sides": t.get("sides", _sides, 'the two sides in activation order, e.g. ["union", "confederate"]'),
        "options": t.get("options", list_of(_option, "options 'ruleset:option'"), "options", ()),
    }


def _sides(value: Any) -> tuple[str, str]:
    sides = list_of(choice(world.SIDE_NAMES, "side"), "sides")(value)
    if len(sides) != 2:
        raise Bad(f"expected exactly two sides, got {len(sides)}")
    return (sides[0], sides[1])


def _option(value: Any) -> str:
    if not isinstance(value, str) or not _OPTION.fullmatch(value):
        raise Bad(f"expected 'ruleset:option', got {show(value)}")
    return value


def _command(t: Table) -> Command:
    return Command(
        id=t.get("id", ident, "an id"),
        name=t.get("name", nonempty_text, "a name"),
        side=t.get("side", choice(world.SIDE_NAMES, "side"), "a side"),
        level=t.get("level", choice(world.COMMAND_LEVELS, "command level"), "a command level"),
        parent=t.get("parent", ident, "a command id", None),
    )


def _leader(t: Table) -> Leader:
    return Leader(
        id=t.get("id", ident, "an id"),
        name=t.get("name", nonempty_text, "a name"),
        side=t.get("side", choice(world.SIDE_NAMES, "side"), "a side", None),
        command=t.get("command", ident, "the id of the command he leads"),
        rating=t.get("rating", choice(world.LEADER_RATINGS, "leader rating"), "a rating", "average"),
        traits=t.get("traits", list_of(choice(world.LEADER_TRAITS, "leader trait"), "traits"), "traits", ()),
        attached_to=t.get("attached_to", ident, "a unit id", None),
        position=t.get("position", point, "a point", None),
    )


def _unit(t: Table) -> UnitSpec:
    arm = t.get("arm", choice(world.ARMS, "arm"), "an arm")
    unit = UnitSpec(
        id=t.get("id", ident, "an id"),
        name=t.get("name", nonempty_text, "a name"),
        side=t.get("side", choice(world.SIDE_NAMES, "side"), "a side", None),
        command=t.get("command", ident, "a command id"),
        arm=arm,
        men=t.get("men", whole(1, MEN, " men in one unit"), "the number of men (a whole number >= 1)"),
        position=t.get("position", point, "a point [x, y] in yards"),
        facing=t.get("facing", degrees, "degrees clockwise from north"),
        formation=t.get("formation", choice(world.FORMATIONS, "formation"), "a formation"),
        experience=t.get("experience", choice(world.EXPERIENCE, "experience"), "experience", "trained"),
        weapon=t.get("weapon", choice(world.WEAPONS, "weapon"), "a weapon", None),
        guns=t.get("guns", whole(0, GUNS, " guns in one unit"), "the number of guns", 0),
        gun_type=t.get("gun_type", choice(world.GUN_TYPES, "gun type"), "a gun type", None),
        mounted=t.get("mounted", flag, "true or false", arm == "cavalry"),
        entry=t.get("entry", clock_time, 'a time "HH:MM"', None),
        hidden=t.get("hidden", flag, "true or false", False),
        surprised=t.get("surprised", flag, "true or false", False),
    )
    _check_arm(t, unit)
    return unit


def _check_arm(t: Table, unit: UnitSpec) -> None:
    """Guns for artillery, a weapon for troops, and formations that fit the arm."""
    add = t.reader.add
    if unit.arm == "artillery":
        if "guns" not in t.raw:
            add(t.at("guns"), "missing key 'guns': artillery needs the number of guns (>= 1)")
        elif unit.guns == 0:
            add(t.at("guns"), "artillery needs at least 1 gun")
        if "gun_type" not in t.raw:
            add(t.at("gun_type"), f"missing key 'gun_type': artillery needs one of {', '.join(world.GUN_TYPES)}")
        if "weapon" in t.raw:
            add(t.at("weapon"), "artillery fights with its guns; give 'gun_type', not 'weapon'")
        wanted = GUN_FORMATIONS  # mounted = true: horse artillery
    elif unit.arm in ("infantry", "cavalry"):
        if "weapon" not in t.raw:
            add(t.at("weapon"), f"missing key 'weapon': {unit.arm} needs one of {', '.join(world.WEAPONS)}")
        if unit.guns:
            add(t.at("guns"), f"{unit.arm} has no guns; put guns in an artillery unit")
        if "gun_type" in t.raw:
            add(t.at("gun_type"), f"{unit.arm} has no gun type; put guns in an artillery unit")
        wanted = TROOP_FORMATIONS
    else:
        return
    if unit.formation is not None and unit.formation not in wanted:
        add(t.at("formation"), f"{unit.arm} cannot be in formation {unit.formation!r} (valid: {', '.join(wanted)})")


def _area(t: Table) -> Area:
    return Area(
        kind=t.get("kind", choice(world.AREA_KINDS, "area kind"), "an area kind"),
        polygon=t.get("polygon", points(3), "a polygon of at least 3 points [x, y]"),
        name=t.get("name", any_text, "a name", ""),
        height=t.get("height", number(at_least=0), "yards above the plain", 0.0),
    )


def _feature(t: Table) -> Feature:
    return Feature(
        kind=t.get("kind", choice(world.LINE_KINDS, "line kind"), "a line kind"),
        points=t.get("points", points(2), "a line of at least 2 points [x, y]"),
        name=t.get("name", any_text, "a name", ""),
        front=t.get("front", degrees, "degrees clockwise from north: the way works, a wall or a fence face", None),
    )


def _objective(t: Table) -> Objective:
    return Objective(
        id=t.get("id", ident, "an id"),
        name=t.get("name", nonempty_text, "a name"),
        position=t.get("position", point, "a point [x, y] in yards"),
        radius=t.get("radius", number(above=0), "a radius in yards"),
        held_by=t.get("held_by", choice(world.SIDE_NAMES, "side"), "a side", None),
        key=t.get("key", flag, "true or false", False),
        value=t.get("value", whole(1), "a whole number >= 1", 1),
    )


def _victory(t: Table) -> Victory:
    return Victory(
        end=t.get("end", clock_time, 'a time "HH:MM"'),
        objectives=t.get("objectives", list_of(ident, "objective ids"), "objective ids", ()),
        beaten_at=t.get("beaten_at", number(above=0, at_most=1), "a share of men, 0 to 1", 0.5),
        break_off=_break_off_means(t),
    )


def _break_off_means(t: Table) -> tuple[tuple[str, str], ...]:
    """``break_off``: what a side's break-off means, for both sides (a string) or per side (a
    table ``{ union = "judged" }``); "defeat" where not given."""
    raw = t.raw.get("break_off")
    if raw is None:
        return ()
    valid = f"one of {', '.join(repr(m) for m in world.BREAK_OFF_MEANINGS)}"
    if isinstance(raw, str):
        given = {side: (raw, t.at("break_off")) for side in world.SIDE_NAMES}
    elif isinstance(raw, dict):
        sides = t.section("break_off", world.SIDE_NAMES)  # an unknown side is reported with its did-you-mean
        given = {side: (raw[side], sides.at(side)) for side in world.SIDE_NAMES if side in raw} if sides else {}
    else:
        t.reader.add(t.at("break_off"), f"expected what a side's break-off means ({valid}), or a table of them by "
                                        f'side such as {{ confederate = "judged" }}, got {show(raw)}')
        return ()
    means, reported = [], set()
    for side, (value, path) in given.items():
        if value not in world.BREAK_OFF_MEANINGS and path not in reported:
            reported.add(path)
            t.reader.add(path, f"a break-off means {valid} (defeat: the other side wins; draw; judged: by the "
                               f"objectives held, then the share of men lost), got {show(value)}")
        elif value in world.BREAK_OFF_MEANINGS and value != "defeat":
            means.append((side, value))
    return tuple(sorted(means))


def _historical(t: Table) -> Historical:
    winner = t.get("winner", choice((*world.SIDE_NAMES, DRAW), "winner"), "a side or \"draw\"")
    return Historical(
        winner=None if winner == DRAW else winner,
        men_lost=_per_side(t, "men_lost"),
        guns_lost=_per_side(t, "guns_lost"),
        minutes=t.get("minutes", whole(0), "minutes from the start to the decision", None),
        note=t.get("note", any_text, "a note", ""),
    )


def _per_side(t: Table, key: str) -> dict[str, int]:
    table = t.section(key, world.SIDE_NAMES)
    if table is None:
        return {}
    return {side: table.get(side, whole(0), "a whole number >= 0") for side in world.SIDE_NAMES}


def _home_edges(t: Table | None) -> dict[str, float]:
    if t is None:
        return {}
    return {side: t.get(side, degrees, "degrees") for side in world.SIDE_NAMES if side in t.raw}


# ----------------------------------------------------------------------------- the whole file


@define
class _Parts:
    """What was read, before cross-checking; any field may be None where it was wrong."""

    head: dict[str, Any]
    commands: list[tuple[str, Command]]
    leaders: list[tuple[str, Leader]]
    units: list[tuple[str, UnitSpec]]
    areas: list[Area]
    features: list[Feature]
    objectives: list[tuple[str, Objective]]
    orders: list[PlacedOrder]
    plans: list[PlacedPlan]
    edges: dict[str, tuple[str, ...]]
    victory: Victory | None
    historical: Historical | None
    home_edges: dict[str, float]


def _build(reader: Reader, data: dict[str, Any], default_id: str | None) -> Scenario | None:
    root = reader.table(data, "", TOP_KEYS)
    assert root is not None  # tomllib always gives a table
    head_table = root.section("scenario", SCENARIO_KEYS)
    victory_table = root.section("victory", VICTORY_KEYS)
    historical_table = root.section("historical", HISTORICAL_KEYS, required=False)
    parts = _Parts(
        head=_head(head_table, default_id) if head_table else {},
        commands=_read(root, "commands", COMMAND_KEYS, _command),
        leaders=_read(root, "leaders", LEADER_KEYS, _leader),
        units=_read(root, "units", UNIT_KEYS, _unit),
        areas=[a for _, a in _read(root, "areas", AREA_KEYS, _area)],
        features=[f for _, f in _read(root, "features", FEATURE_KEYS, _feature)],
        objectives=_read(root, "objectives", OBJECTIVE_KEYS, _objective),
        orders=plans_format.read_orders(root),
        plans=plans_format.read_plans(root),
        edges=plans_format.read_edges(root),
        victory=_victory(victory_table) if victory_table else None,
        historical=_historical(historical_table) if historical_table else None,
        home_edges=_home_edges(root.section("home_edges", world.SIDE_NAMES, required=False)),
    )
    _cross_check(reader, parts)
    if reader.problems or not parts.head or parts.victory is None:
        return None
    return _scenario(parts, reader.source)


def _read(root: Table, key: str, keys: Sequence[str], make: Callable[[Table], T]) -> list[tuple[str, T]]:
    """Each table of an array, made into its value, with its path."""
    return [(t.path, make(t)) for t in root.array(key, keys) if t is not None]


def _scenario(parts: _Parts, source: str) -> Scenario:
    h = parts.head
    assert parts.victory is not None
    return Scenario(
        id=h["id"], title=h["title"], date=h["date"], summary=h["summary"], source=source,
        width=h["width"], height=h["height"], start=h["start"],
        light=Light(sunset=h["sunset"], dusk=h["dusk"], weather=h["weather"], moon=h["moon"]),
        sides=h["sides"],
        commands=tuple(c for _, c in parts.commands),
        leaders=tuple(ld for _, ld in parts.leaders),
        units=tuple(u for _, u in parts.units),
        areas=tuple(parts.areas),
        features=tuple(parts.features),
        objectives=tuple(o for _, o in parts.objectives),
        orders=tuple(p.order for p in parts.orders),
        victory=parts.victory,
        historical=parts.historical,
        options=h["options"],
        home_edges=parts.home_edges,
        plans={p.plan.side: p.plan for p in parts.plans},
        retreat_edges=parts.edges,
    )


# ----------------------------------------------------------------------------- cross-checks


def _cross_check(r: Reader, p: _Parts) -> None:
    """References, sides, the map's bounds and times: everything that needs more than one table."""
    sides = p.head.get("sides") or world.SIDE_NAMES
    commands = _unique(r, p.commands, "command")
    units = _unique(r, p.units, "unit")
    objectives = _unique(r, p.objectives, "objective")
    _unique(r, p.leaders, "leader")
    _check_commands(r, p.commands, commands, sides)
    p.units = [(path, _check_unit(r, path, u, commands, p)) for path, u in p.units]
    p.leaders = [(path, _check_leader(r, path, ld, commands, units, p)) for path, ld in p.leaders]
    for path, o in p.objectives:
        _inside(r, f"{path}.position", o.position, p)
        r.known_side(f"{path}.held_by", o.held_by, sides)
    _check_orders(r, p, commands, units, objectives)
    _check_ground(r, p)
    _check_sides(r, p, sides)
    _check_times(r, p)
    _check_weather(r, p.head.get("weather"))
    plans_format.check(r, _setting(p, commands, objectives), p.orders, p.plans)
    if p.victory is not None:
        for i, oid in enumerate(p.victory.objectives or ()):
            r.known(f"victory.objectives[{i}]", oid, objectives, "objective")
    for side in p.home_edges:
        r.known_side(f"home_edges.{side}", side, sides)


def _unique(r: Reader, items: list[tuple[str, Any]], kind: str) -> dict[str, Any]:
    """Items by id; a repeated id is a problem."""
    seen: dict[str, Any] = {}
    first: dict[str, str] = {}
    for path, item in items:
        if item.id is None:
            continue
        if item.id in seen:
            r.add(f"{path}.id", f"duplicate {kind} id {item.id!r} (first at {first[item.id]})")
        else:
            seen[item.id], first[item.id] = item, path
    return seen


def _inside(r: Reader, path: str, point: Point | None, p: _Parts) -> None:
    width, height = p.head.get("width"), p.head.get("height")
    if point is None or width is None or height is None:
        return
    x, y = point
    if not (0 <= x <= width and 0 <= y <= height):
        r.add(path, f"point ({x:g}, {y:g}) is off the map (x 0..{width:g}, y 0..{height:g} yards)")


def _check_commands(r: Reader, items: list[tuple[str, Command]], by_id: dict[str, Command],
                    sides: Sequence[str]) -> None:
    for path, c in items:
        r.known_side(f"{path}.side", c.side, sides)
        if not r.known(f"{path}.parent", c.parent, by_id, "command"):
            continue
        parent = by_id[str(c.parent)]
        if c.side and parent.side and parent.side != c.side:
            r.add(f"{path}.parent", f"parent command {c.parent!r} is on the {parent.side} side, not {c.side}")
        levels = world.COMMAND_LEVELS
        if c.level in levels and parent.level in levels and levels.index(parent.level) >= levels.index(c.level):
            r.add(f"{path}.parent", f"{_a(c.level)} cannot be under {_a(parent.level)} "
                                    f"(levels from the top: {', '.join(levels)})")
        elif _cycles(c, by_id):
            r.add(f"{path}.parent", f"command {c.id!r} is its own ancestor")


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def _cycles(command: Command, by_id: dict[str, Command]) -> bool:
    seen, cid = set(), command.parent
    while cid is not None and cid in by_id:
        if cid == command.id or cid in seen:
            return True
        seen.add(cid)
        cid = by_id[cid].parent
    return False


def _own_side(r: Reader, path: str, side: str | None, command: str | None,
              commands: dict[str, Command], what: str) -> str | None:
    """The side of a unit or leader: as given, else its command's; a mismatch is a problem."""
    if not r.known(f"{path}.command", command, commands, "command"):
        return side
    command_side = commands[command].side  # type: ignore[index]  # r.known has checked that the command is one of commands
    if side is not None and command_side is not None and side != command_side:
        r.add(f"{path}.side", f"{what} is on the {side} side but its command {command!r} is {command_side}")
    return side or command_side


def _check_unit(r: Reader, path: str, u: UnitSpec, commands: dict[str, Command], p: _Parts) -> UnitSpec:
    _inside(r, f"{path}.position", u.position, p)
    return evolve(u, side=_own_side(r, path, u.side, u.command, commands, "unit"))  # type: ignore[arg-type]  # None only with a problem reported


def _check_leader(r: Reader, path: str, ld: Leader, commands: dict[str, Command],
                  units: dict[str, UnitSpec], p: _Parts) -> Leader:
    _inside(r, f"{path}.position", ld.position, p)
    side = _own_side(r, path, ld.side, ld.command, commands, "leader")
    if r.known(f"{path}.attached_to", ld.attached_to, units, "unit"):
        unit = units[ld.attached_to]  # type: ignore[index]  # r.known has checked that the unit is one of units
        unit_side = unit.side or (commands[unit.command].side if unit.command in commands else None)
        if side and unit_side and unit_side != side:
            r.add(f"{path}.attached_to", f"unit {ld.attached_to!r} is on the {unit_side} side, not {side}")
    return evolve(ld, side=side)  # type: ignore[arg-type]  # None only with a problem reported


def _check_ground(r: Reader, p: _Parts) -> None:
    """The areas can be drawn on the ground's grid: at most AREAS of them, and no more than
    GROUND_CELLS cell tests (each area tests the cells of the box round it, on the map, against
    each of its corners)."""
    if len(p.areas) > AREAS:
        r.add("areas", f"{len(p.areas)} areas: a scenario has at most {AREAS}")
    width, height = p.head.get("width"), p.head.get("height")
    if width is None or height is None:
        return
    cols, rows = math.ceil(width / CELL), math.ceil(height / CELL)
    work = 0
    for area in p.areas:
        if area.polygon:
            xs, ys = [x for x, _ in area.polygon], [y for _, y in area.polygon]
            across = min(cols - 1, int(max(xs) // CELL)) - max(0, int(min(xs) // CELL)) + 1
            up = min(rows - 1, int(max(ys) // CELL)) - max(0, int(min(ys) // CELL)) + 1
            work += max(0, across) * max(0, up) * len(area.polygon)
    if work > GROUND_CELLS:
        r.add("areas", f"the areas take {work:,} cell tests to draw (the {CELL}-yard cells of the box round each "
                       f"area, times its corners); at most {GROUND_CELLS:,}: draw fewer, smaller or simpler areas")


def _check_orders(r: Reader, p: _Parts, commands: dict[str, Command], units: dict[str, UnitSpec],
                  objectives: dict[str, Objective]) -> None:
    """What each order names exists, and its places are on the map (the older form of a reserve,
    read as two orders, is checked once)."""
    seen: set[str] = set()
    for placed in p.orders:
        path, o = placed.path, placed.order
        if path in seen:
            continue
        seen.add(path)
        if o.unit:
            if r.known(f"{path}.unit", o.command, units, "unit") and o.command in commands:
                r.add(f"{path}.unit", f"{o.command!r} is the id of a unit and of a command; an order to one unit "
                                      "needs an id of its own: rename one of them")
        else:
            r.known(f"{path}.command", o.command, commands, "command")
        r.known(f"{path}.objective", o.objective, objectives, "objective")
        for i, place in enumerate(o.route or ()):
            _inside(r, f"{path}.route[{i}]", place, p)
        _inside(r, f"{path}.to", o.to, p)
        width, height = p.head.get("width"), p.head.get("height")
        if o.range is not None and width is not None and height is not None and o.range > math.hypot(width, height):
            r.add(f"{path}.range", f"{o.range:g} yards is beyond the map: no two points of it are farther apart than "
                                   f"its diagonal, {math.hypot(width, height):.0f} yards; give a range within it")


def _setting(p: _Parts, commands: dict[str, Command], objectives: dict[str, Objective]) -> plans_format.Setting:
    """What the plans are checked against (units with their sides as checked)."""
    units: dict[str, UnitSpec] = {}
    for _, u in p.units:
        units.setdefault(u.id, u)
    start, end = p.head.get("start"), p.victory.end if p.victory is not None else None
    if start is not None and end is not None and end <= start:
        end = None
    return plans_format.Setting(start, end, last_light(p.head.get("sunset"), p.head.get("dusk")), units, commands,
                                objectives)


def _check_sides(r: Reader, p: _Parts, sides: Sequence[str]) -> None:
    """Both sides have units (a unit's side is its command's)."""
    if p.head.get("sides") is None:
        return
    used = {u.side for _, u in p.units}
    for side in sides:
        if side not in used:
            r.add("scenario.sides", f"side {side!r} has no units; the sides must be the two that have [[units]]")
    if p.historical is not None:
        _check_losses(r, p)


def _check_losses(r: Reader, p: _Parts) -> None:
    """Historical losses cannot exceed what a side brought."""
    assert p.historical is not None
    for key, what in (("men_lost", "men"), ("guns_lost", "guns")):
        for side, value in getattr(p.historical, key).items():
            had = sum(getattr(u, what) or 0 for _, u in p.units if u.side == side)
            if value is not None and value > had:
                r.add(f"historical.{key}.{side}", f"{value} lost but the {side} side has only {had}")


def _check_weather(r: Reader, weather: str | None) -> None:
    """Weather other than clear is refused unless an installed ruleset plays it (each says which
    values in ``RulesetInfo.weather``); the message names the values played and by which."""
    if weather is None or weather == "clear":
        return
    from ..engine.plugins import (
        weathers,  # (asked only for weather other than clear: it loads every ruleset)
    )

    played = weathers()
    if any(weather in values for values in played.values()):
        return
    by: dict[str, list[str]] = {}
    for name, values in played.items():
        for value in values:
            by.setdefault(value, []).append(name)
    supported = "; ".join(f"{value!r} ({'every ruleset' if len(names) == len(played) else ', '.join(names)})"
                          for value, names in by.items())
    r.add("scenario.weather", f"weather {weather!r} is played by no installed ruleset; the values played: "
                              f"{supported or 'none'}")


def _check_times(r: Reader, p: _Parts) -> None:
    start = p.head.get("start")
    end = p.victory.end if p.victory is not None else None
    if start is None:
        return
    if end is not None and end <= start:
        r.add("victory.end", f"the game must end after it starts ({clock(start)}), got {clock(end)}")
        end = None
    for path, u in p.units:
        _within(r, f"{path}.entry", u.entry, start, end, "enters")
    for placed in p.orders:
        _within(r, f"{placed.path}.from", placed.order.from_minute, start, end, "takes effect")
    sunset, dusk = p.head.get("sunset"), p.head.get("dusk")
    if sunset is not None and dusk is not None and dusk <= sunset:
        r.add("scenario.dusk", f"the last light ({clock(dusk)}) goes after sunset ({clock(sunset)}); "
                               f"without 'dusk' it is sunset + {DUSK_AFTER_SUNSET} minutes")
    history = p.historical
    if history is not None and history.minutes is not None and end is not None and start + history.minutes > end:
        r.add("historical.minutes", f"the historical decision ({clock(start + history.minutes)}) falls after "
                                    f"the game's end ({clock(end)}); end the game later")


def _within(r: Reader, path: str, minute: int | None, start: int, end: int | None, verb: str) -> None:
    if minute is None:
        return
    if minute < start or (end is not None and minute >= end):
        last = f" and before the end ({clock(end)})" if end is not None else ""
        r.add(path, f"{clock(minute)} is outside the game: it {verb} at or after the start ({clock(start)}){last}")

