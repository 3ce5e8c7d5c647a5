"""Load a scenario file (TOML) into the neutral :class:`~referee.core.world.Scenario`.

A scenario describes the battle as it was, in men, guns, yards, degrees and ``"HH:MM"`` times;
nothing in it names a ruleset except ``options``. Every problem in a file is reported at once as
one :class:`~referee.core.errors.InvalidInput`, each with its key path (``units[3].men``), file
and line. The format is described key by key in ``docs/scenario-format.md``.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from attrs import define, evolve, field

from . import world
from .errors import InvalidInput, Problem, UnknownName, did_you_mean
from .world import (
    Area, Command, Feature, Historical, Leader, Light, Objective, Order, Point, Scenario, UnitSpec,
    Victory,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PACKAGE = "referee.scenarios"
WEATHER = ("clear", "overcast", "fog", "rain")
MOON = ("none", "moonlit", "full")
DRAW = "draw"

TOP_KEYS = ("scenario", "home_edges", "commands", "leaders", "units", "areas", "features",
            "objectives", "orders", "victory", "historical")
SCENARIO_KEYS = ("id", "title", "date", "summary", "start", "sunset", "weather", "moon", "width",
                 "height", "sides", "options")
COMMAND_KEYS = ("id", "name", "side", "level", "parent")
LEADER_KEYS = ("id", "name", "side", "command", "rating", "traits", "attached_to", "position")
UNIT_KEYS = ("id", "name", "side", "command", "arm", "men", "position", "facing", "formation",
             "experience", "weapon", "guns", "gun_type", "mounted", "entry")
AREA_KEYS = ("kind", "polygon", "name", "height")
FEATURE_KEYS = ("kind", "points", "name", "front")
OBJECTIVE_KEYS = ("id", "name", "position", "radius", "held_by", "key", "value")
ORDER_KEYS = ("command", "kind", "objective", "route", "from", "when_enemy_within")
VICTORY_KEYS = ("end", "objectives", "beaten_at")
HISTORICAL_KEYS = ("winner", "men_lost", "guns_lost", "minutes", "note")

GUN_FORMATIONS = ("limbered", "unlimbered", "column", "march-column")
TROOP_FORMATIONS = ("line", "column", "march-column", "skirmish")

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_SCENARIO_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_OPTION = re.compile(r"[A-Za-z0-9_-]+:[A-Za-z0-9_.-]+")
_TIME = re.compile(r"(\d{1,2}):(\d{2})")

T = TypeVar("T")


# ----------------------------------------------------------------------------- public API


def load_scenario(path: Path | str) -> Scenario:
    """Read and check a scenario file; raise :class:`InvalidInput` listing every problem."""
    path = Path(path)
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidInput([Problem("no such file", source=source)], f"scenario {source}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput([Problem(f"cannot read the file: {error}", source=source)],
                           f"scenario {source}") from None
    return parse_scenario(text, source, default_id=path.stem)


def parse_scenario(text: str, source: str = "<string>", default_id: str | None = None) -> Scenario:
    """Check the TOML text of a scenario and build it; ``default_id`` stands in for a missing id."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message, line = _syntax_error(error)
        raise InvalidInput([Problem(message, source=source, line=line)], f"scenario {source}") from None
    reader = _Reader(source, key_lines(text))
    scenario = _build(reader, data, default_id)
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


def _syntax_error(error: Exception) -> tuple[str, int | None]:
    message = str(error)
    found = re.search(r"\s*\(at line (\d+), column \d+\)", message)
    if found is None:
        return f"TOML syntax error: {message}", None
    return f"TOML syntax error: {message[: found.start()] + message[found.end():]}", int(found.group(1))


# ----------------------------------------------------------------------------- key lines


_HEADER = re.compile(r"\s*(\[\[?)([^\[\]]+)\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_PART = re.compile(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""")


def key_lines(text: str) -> dict[str, int]:
    """The line of each table header and key, by key path (``units[3].men``); best effort."""
    lines: dict[str, int] = {}
    counts: dict[str, int] = {}
    table = ""
    depth, quote = 0, None
    for number, line in enumerate(text.splitlines(), start=1):
        if depth > 0 or quote:
            depth, quote = _open_after(line, depth, quote)
            continue
        header = _HEADER.match(line)
        if header:
            name = _dotted(header.group(2))
            if header.group(1) == "[[":
                index = counts.get(name, 0)
                counts[name] = index + 1
                name = f"{name}[{index}]"
            table = name
            lines.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            path = _dotted(key.group(1))
            lines.setdefault(f"{table}.{path}" if table else path, number)
            depth, quote = _open_after(line[key.end():], 0, None)
    return lines


def _dotted(key: str) -> str:
    return ".".join(next(p for p in m.groups() if p is not None) for m in _PART.finditer(key))


def _open_after(line: str, depth: int, quote: str | None) -> tuple[int, str | None]:
    """Bracket depth and open multi-line string after scanning ``line`` (to skip value lines)."""
    i = 0
    while i < len(line):
        if quote:
            if line.startswith(quote, i) and not (quote[0] == '"' and _escaped(line, i)):
                i, quote = i + len(quote), None
            else:
                i += 1
            continue
        if line[i] == "#":
            break
        quote = next((q for q in ('"""', "'''", '"', "'") if line.startswith(q, i)), None)
        if quote:
            i += len(quote)
            continue
        depth += (line[i] in "[{") - (line[i] in "]}")
        i += 1
    return depth, quote if quote in ('"""', "'''") else None


def _escaped(line: str, i: int) -> bool:
    slashes = len(line[:i]) - len(line[:i].rstrip("\\"))
    return slashes % 2 == 1


def _line_of(lines: Mapping[str, int], path: str) -> int | None:
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None


# ----------------------------------------------------------------------------- reading values


class _Bad(Exception):
    """A value is wrong; the message says what would be valid."""


Convert = Callable[[Any], Any]
_MISSING: Any = object()


@define
class _Reader:
    """Collects the problems of one file."""

    source: str
    lines: Mapping[str, int]
    problems: list[Problem] = field(factory=list)

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(message, path=path, source=self.source, line=_line_of(self.lines, path)))

    def table(self, raw: Any, path: str, keys: Sequence[str]) -> _Table | None:
        if not isinstance(raw, dict):
            self.add(path, f"expected a table, got {_show(raw)}")
            return None
        for key in raw:
            if key not in keys:
                self.add(_join(path, key), f"unknown key {key!r}{did_you_mean(key, keys)}")
        return _Table(self, path, raw)


@define
class _Table:
    """One TOML table with typed, checked access to its keys."""

    reader: _Reader
    path: str
    raw: Mapping[str, Any]

    def at(self, key: str) -> str:
        return _join(self.path, key)

    def get(self, key: str, convert: Convert, expect: str, default: Any = _MISSING) -> Any:
        """The converted value; a missing required key or a bad value is a problem (gives None)."""
        if key not in self.raw:
            if default is _MISSING:
                self.reader.add(self.at(key), f"missing key {key!r}: expected {expect}")
                return None
            return default
        try:
            return convert(self.raw[key])
        except _Bad as bad:
            self.reader.add(self.at(key), str(bad))
            return None

    def section(self, key: str, keys: Sequence[str], required: bool = True) -> _Table | None:
        if key not in self.raw:
            if required:
                self.reader.add(self.at(key), f"missing table [{self.at(key)}]")
            return None
        return self.reader.table(self.raw[key], self.at(key), keys)

    def array(self, key: str, keys: Sequence[str]) -> list[_Table | None]:
        raw = self.raw.get(key, [])
        if not isinstance(raw, list):
            self.reader.add(self.at(key), f"expected an array of tables [[{key}]], got {_show(raw)}")
            return []
        return [self.reader.table(item, f"{self.at(key)}[{i}]", keys) for i, item in enumerate(raw)]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, str):
        return f"string {value!r}"
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text if len(text) <= 40 else text[:37] + '...'}"


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"expected a non-empty string, got {_show(value)}")
    return value


def _any_text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(f"expected a string, got {_show(value)}")
    return value


def _ident(value: Any) -> str:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise _Bad(f"expected an id (letters, digits, '-' or '_', e.g. \"5th-ny\"), got {_show(value)}")
    return value


def _scenario_id(value: Any) -> str:
    if not isinstance(value, str) or not _SCENARIO_ID.fullmatch(value):
        raise _Bad(f"expected a scenario id (lower-case letters, digits and '-'), got {_show(value)}")
    return value


def _date(value: Any) -> str:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    return _text(value)


def _number(above: float | None = None, at_least: float | None = None,
            at_most: float | None = None) -> Convert:
    """A finite number within the bounds given (``above`` is exclusive)."""
    bounds = [f"> {above:g}" if above is not None else "", f">= {at_least:g}" if at_least is not None else "",
              f"<= {at_most:g}" if at_most is not None else ""]
    wanted = " and ".join(b for b in bounds if b)
    expect = f"a number {wanted}".strip()

    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise _Bad(f"expected {expect}, got {_show(value)}")
        if ((above is not None and value <= above) or (at_least is not None and value < at_least)
                or (at_most is not None and value > at_most)):
            raise _Bad(f"expected {expect}, got {value:g}")
        return float(value)

    return convert


def _whole(at_least: int) -> Convert:
    def convert(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"expected a whole number >= {at_least}, got {_show(value)}")
        if value < at_least:
            raise _Bad(f"expected a whole number >= {at_least}, got {value}")
        return value

    return convert


def _choice(choices: Sequence[str], what: str) -> Convert:
    def convert(value: Any) -> str:
        if not isinstance(value, str):
            raise _Bad(f"expected {what} (one of {', '.join(choices)}), got {_show(value)}")
        if value not in choices:
            raise _Bad(f"unknown {what} {value!r}{did_you_mean(value, choices)}")
        return value

    return convert


def _list_of(convert: Convert, what: str, unique: bool = True) -> Convert:
    def convert_all(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _Bad(f"expected an array of {what}, got {_show(value)}")
        items = []
        for i, item in enumerate(value):
            try:
                items.append(convert(item))
            except _Bad as bad:
                raise _Bad(f"item {i}: {bad}") from None
        if unique and len(set(items)) < len(items):
            raise _Bad(f"expected distinct {what}, got duplicates in {value!r}")
        return tuple(items)

    return convert_all


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"expected true or false, got {_show(value)}")
    return value


def _time(value: Any) -> int:
    """``"HH:MM"`` (or a TOML local time) to minutes since midnight."""
    if isinstance(value, dt.time):
        return value.hour * 60 + value.minute
    found = _TIME.fullmatch(value) if isinstance(value, str) else None
    if found is None or int(found.group(1)) > 23 or int(found.group(2)) > 59:
        raise _Bad(f"expected a time \"HH:MM\" (00:00 to 23:59), got {_show(value)}")
    return int(found.group(1)) * 60 + int(found.group(2))


def _point(value: Any) -> Point:
    coordinate = _number()
    if not isinstance(value, list) or len(value) != 2:
        raise _Bad(f"expected a point [x, y] in yards, got {_show(value)}")
    try:
        return (coordinate(value[0]), coordinate(value[1]))
    except _Bad:
        raise _Bad(f"expected a point [x, y] of two numbers (yards), got {value!r}") from None


def _points(at_least: int) -> Convert:
    def convert(value: Any) -> tuple[Point, ...]:
        points = _list_of(_point, "points [x, y]", unique=False)(value)
        if len(points) < at_least:
            raise _Bad(f"expected at least {at_least} points [x, y], got {len(points)}")
        return points

    return convert


def _degrees(value: Any) -> float:
    """Any bearing, normalised to 0 <= degrees < 360."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _Bad(f"expected degrees clockwise from north (a number), got {_show(value)}")
    degrees = value % 360.0
    return 0.0 if degrees >= 360.0 else degrees  # a tiny negative angle rounds up to 360


# ----------------------------------------------------------------------------- tables


def _head(t: _Table, default_id: str | None) -> dict[str, Any]:
    """The [scenario] table; the id defaults to the file's name when that is a valid id."""
    fallback = default_id if default_id and _SCENARIO_ID.fullmatch(default_id) else _MISSING
    return {
        "id": t.get("id", _scenario_id, "a scenario id (lower-case letters, digits and '-')", fallback),
        "title": t.get("title", _text, "a title"),
        "date": t.get("date", _date, "a date, e.g. 1861-06-10"),
        "summary": t.get("summary", _text, "a summary (its first sentence is the one-line summary)"),
        "start": t.get("start", _time, 'a time "HH:MM"'),
        "sunset": t.get("sunset", _time, 'a time "HH:MM"', None),
        "weather": t.get("weather", _choice(WEATHER, "weather"), "weather", "clear"),
        "moon": t.get("moon", _choice(MOON, "moon"), "moon", "none"),
        "width": t.get("width", _number(above=0), "the map's width in yards"),
        "height": t.get("height", _number(above=0), "the map's height in yards"),
        "sides": t.get("sides", _sides, 'the two sides in activation order, e.g. ["union", "confederate"]'),
        "options": t.get("options", _list_of(_option, "options 'ruleset:option'"), "options", ()),
    }


def _sides(value: Any) -> tuple[str, str]:
    sides = _list_of(_choice(world.SIDE_NAMES, "side"), "sides")(value)
    if len(sides) != 2:
        raise _Bad(f"expected exactly two sides, got {len(sides)}")
    return (sides[0], sides[1])


def _option(value: Any) -> str:
    if not isinstance(value, str) or not _OPTION.fullmatch(value):
        raise _Bad(f"expected 'ruleset:option', got {_show(value)}")
    return value


def _command(t: _Table) -> Command:
    return Command(
        id=t.get("id", _ident, "an id"),
        name=t.get("name", _text, "a name"),
        side=t.get("side", _choice(world.SIDE_NAMES, "side"), "a side"),
        level=t.get("level", _choice(world.COMMAND_LEVELS, "command level"), "a command level"),
        parent=t.get("parent", _ident, "a command id", None),
    )


def _leader(t: _Table) -> Leader:
    return Leader(
        id=t.get("id", _ident, "an id"),
        name=t.get("name", _text, "a name"),
        side=t.get("side", _choice(world.SIDE_NAMES, "side"), "a side", None),
        command=t.get("command", _ident, "the id of the command he leads"),
        rating=t.get("rating", _choice(world.LEADER_RATINGS, "leader rating"), "a rating", "average"),
        traits=t.get("traits", _list_of(_choice(world.LEADER_TRAITS, "leader trait"), "traits"), "traits", ()),
        attached_to=t.get("attached_to", _ident, "a unit id", None),
        position=t.get("position", _point, "a point", None),
    )


def _unit(t: _Table) -> UnitSpec:
    arm = t.get("arm", _choice(world.ARMS, "arm"), "an arm")
    unit = UnitSpec(
        id=t.get("id", _ident, "an id"),
        name=t.get("name", _text, "a name"),
        side=t.get("side", _choice(world.SIDE_NAMES, "side"), "a side", None),
        command=t.get("command", _ident, "a command id"),
        arm=arm,
        men=t.get("men", _whole(1), "the number of men (a whole number >= 1)"),
        position=t.get("position", _point, "a point [x, y] in yards"),
        facing=t.get("facing", _degrees, "degrees clockwise from north"),
        formation=t.get("formation", _choice(world.FORMATIONS, "formation"), "a formation"),
        experience=t.get("experience", _choice(world.EXPERIENCE, "experience"), "experience", "trained"),
        weapon=t.get("weapon", _choice(world.WEAPONS, "weapon"), "a weapon", None),
        guns=t.get("guns", _whole(0), "the number of guns", 0),
        gun_type=t.get("gun_type", _choice(world.GUN_TYPES, "gun type"), "a gun type", None),
        mounted=t.get("mounted", _flag, "true or false", arm == "cavalry"),
        entry=t.get("entry", _time, 'a time "HH:MM"', None),
    )
    _check_arm(t, unit)
    return unit


def _check_arm(t: _Table, unit: UnitSpec) -> None:
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


def _area(t: _Table) -> Area:
    return Area(
        kind=t.get("kind", _choice(world.AREA_KINDS, "area kind"), "an area kind"),
        polygon=t.get("polygon", _points(3), "a polygon of at least 3 points [x, y]"),
        name=t.get("name", _any_text, "a name", ""),
        height=t.get("height", _number(at_least=0), "yards above the plain", 0.0),
    )


def _feature(t: _Table) -> Feature:
    return Feature(
        kind=t.get("kind", _choice(world.LINE_KINDS, "line kind"), "a line kind"),
        points=t.get("points", _points(2), "a line of at least 2 points [x, y]"),
        name=t.get("name", _any_text, "a name", ""),
        front=t.get("front", _degrees, "degrees clockwise from north: the way works, a wall or a fence face", None),
    )


def _objective(t: _Table) -> Objective:
    return Objective(
        id=t.get("id", _ident, "an id"),
        name=t.get("name", _text, "a name"),
        position=t.get("position", _point, "a point [x, y] in yards"),
        radius=t.get("radius", _number(above=0), "a radius in yards"),
        held_by=t.get("held_by", _choice(world.SIDE_NAMES, "side"), "a side", None),
        key=t.get("key", _flag, "true or false", False),
        value=t.get("value", _whole(1), "a whole number >= 1", 1),
    )


def _order(t: _Table) -> Order:
    order = Order(
        command=t.get("command", _ident, "a command id"),
        kind=t.get("kind", _choice(world.ORDERS, "order"), "an order"),
        objective=t.get("objective", _ident, "an objective id", None),
        route=t.get("route", _points(1), "waypoints [[x, y], ...]", ()),
        from_minute=t.get("from", _time, 'a time "HH:MM"', None),
        when_enemy_within=t.get("when_enemy_within", _number(above=0), "yards", None),
    )
    if order.kind == "attack" and "objective" not in t.raw:
        t.reader.add(t.at("objective"), "missing key 'objective': an attack needs an objective id")
    return order


def _victory(t: _Table) -> Victory:
    return Victory(
        end=t.get("end", _time, 'a time "HH:MM"'),
        objectives=t.get("objectives", _list_of(_ident, "objective ids"), "objective ids", ()),
        beaten_at=t.get("beaten_at", _number(above=0, at_most=1), "a share of men, 0 to 1", 0.5),
    )


def _historical(t: _Table) -> Historical:
    winner = t.get("winner", _choice((*world.SIDE_NAMES, DRAW), "winner"), "a side or \"draw\"")
    return Historical(
        winner=None if winner == DRAW else winner,
        men_lost=_per_side(t, "men_lost"),
        guns_lost=_per_side(t, "guns_lost"),
        minutes=t.get("minutes", _whole(0), "minutes from the start to the decision", None),
        note=t.get("note", _any_text, "a note", ""),
    )


def _per_side(t: _Table, key: str) -> dict[str, int]:
    table = t.section(key, world.SIDE_NAMES)
    if table is None:
        return {}
    return {side: table.get(side, _whole(0), "a whole number >= 0") for side in world.SIDE_NAMES}


def _home_edges(t: _Table | None) -> dict[str, float]:
    if t is None:
        return {}
    return {side: t.get(side, _degrees, "degrees") for side in world.SIDE_NAMES if side in t.raw}


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
    orders: list[tuple[str, Order]]
    victory: Victory | None
    historical: Historical | None
    home_edges: dict[str, float]


def _build(reader: _Reader, data: dict[str, Any], default_id: str | None) -> Scenario | None:
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
        orders=_read(root, "orders", ORDER_KEYS, _order),
        victory=_victory(victory_table) if victory_table else None,
        historical=_historical(historical_table) if historical_table else None,
        home_edges=_home_edges(root.section("home_edges", world.SIDE_NAMES, required=False)),
    )
    _cross_check(reader, parts)
    if reader.problems or not parts.head or parts.victory is None:
        return None
    return _scenario(parts, reader.source)


def _read(root: _Table, key: str, keys: Sequence[str], make: Callable[[_Table], T]) -> list[tuple[str, T]]:
    """Each table of an array, made into its value, with its path."""
    return [(t.path, make(t)) for t in root.array(key, keys) if t is not None]


def _scenario(parts: _Parts, source: str) -> Scenario:
    h = parts.head
    assert parts.victory is not None
    return Scenario(
        id=h["id"], title=h["title"], date=h["date"], summary=h["summary"], source=source,
        width=h["width"], height=h["height"], start=h["start"],
        light=Light(sunset=h["sunset"], weather=h["weather"], moon=h["moon"]),
        sides=h["sides"],
        commands=tuple(c for _, c in parts.commands),
        leaders=tuple(ld for _, ld in parts.leaders),
        units=tuple(u for _, u in parts.units),
        areas=tuple(parts.areas),
        features=tuple(parts.features),
        objectives=tuple(o for _, o in parts.objectives),
        orders=tuple(o for _, o in parts.orders),
        victory=parts.victory,
        historical=parts.historical,
        options=h["options"],
        home_edges=parts.home_edges,
    )


# ----------------------------------------------------------------------------- cross-checks


def _cross_check(r: _Reader, p: _Parts) -> None:
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
        _known_side(r, f"{path}.held_by", o.held_by, sides)
    _check_orders(r, p, commands, objectives)
    _check_sides(r, p, sides)
    _check_times(r, p)
    if p.victory is not None:
        for i, oid in enumerate(p.victory.objectives or ()):
            _known(r, f"victory.objectives[{i}]", oid, objectives, "objective")
    for side in p.home_edges:
        _known_side(r, f"home_edges.{side}", side, sides)


def _unique(r: _Reader, items: list[tuple[str, Any]], kind: str) -> dict[str, Any]:
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


def _known(r: _Reader, path: str, ref: str | None, known: Mapping[str, Any], kind: str) -> bool:
    if ref is None or ref in known:
        return ref is not None
    r.add(path, f"no {kind} with id {ref!r}{did_you_mean(ref, sorted(known))}")
    return False


def _known_side(r: _Reader, path: str, side: str | None, sides: Sequence[str]) -> None:
    if side is not None and side not in sides:
        r.add(path, f"side {side!r} is not one of the scenario's sides ({', '.join(sides)})")


def _inside(r: _Reader, path: str, point: Point | None, p: _Parts) -> None:
    width, height = p.head.get("width"), p.head.get("height")
    if point is None or width is None or height is None:
        return
    x, y = point
    if not (0 <= x <= width and 0 <= y <= height):
        r.add(path, f"point ({x:g}, {y:g}) is off the map (x 0..{width:g}, y 0..{height:g} yards)")


def _check_commands(r: _Reader, items: list[tuple[str, Command]], by_id: dict[str, Command],
                    sides: Sequence[str]) -> None:
    for path, c in items:
        _known_side(r, f"{path}.side", c.side, sides)
        if not _known(r, f"{path}.parent", c.parent, by_id, "command"):
            continue
        parent = by_id[c.parent]
        if c.side and parent.side and parent.side != c.side:
            r.add(f"{path}.parent", f"parent command {c.parent!r} is on the {parent.side} side, not {c.side}")
        levels = world.COMMAND_LEVELS
        if c.level in levels and parent.level in levels and levels.index(parent.level) >= levels.index(c.level):
            r.add(f"{path}.parent", f"{_a(c.level)} cannot be under {_a(parent.level)} "
                                    f"(levels from the top: {', '.join(levels)})")
        elif _cycles(c.id, by_id):
            r.add(f"{path}.parent", f"command {c.id!r} is its own ancestor")


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def _cycles(start: str, by_id: dict[str, Command]) -> bool:
    seen, cid = set(), by_id[start].parent
    while cid is not None and cid in by_id:
        if cid == start or cid in seen:
            return True
        seen.add(cid)
        cid = by_id[cid].parent
    return False


def _own_side(r: _Reader, path: str, side: str | None, command: str | None,
              commands: dict[str, Command], what: str) -> str | None:
    """The side of a unit or leader: as given, else its command's; a mismatch is a problem."""
    if not _known(r, f"{path}.command", command, commands, "command"):
        return side
    command_side = commands[command].side  # type: ignore[index]
    if side is not None and command_side is not None and side != command_side:
        r.add(f"{path}.side", f"{what} is on the {side} side but its command {command!r} is {command_side}")
    return side or command_side


def _check_unit(r: _Reader, path: str, u: UnitSpec, commands: dict[str, Command], p: _Parts) -> UnitSpec:
    _inside(r, f"{path}.position", u.position, p)
    return evolve(u, side=_own_side(r, path, u.side, u.command, commands, "unit"))


def _check_leader(r: _Reader, path: str, ld: Leader, commands: dict[str, Command],
                  units: dict[str, UnitSpec], p: _Parts) -> Leader:
    _inside(r, f"{path}.position", ld.position, p)
    side = _own_side(r, path, ld.side, ld.command, commands, "leader")
    if _known(r, f"{path}.attached_to", ld.attached_to, units, "unit"):
        unit = units[ld.attached_to]  # type: ignore[index]
        unit_side = unit.side or (commands[unit.command].side if unit.command in commands else None)
        if side and unit_side and unit_side != side:
            r.add(f"{path}.attached_to", f"unit {ld.attached_to!r} is on the {unit_side} side, not {side}")
    return evolve(ld, side=side)


def _check_orders(r: _Reader, p: _Parts, commands: dict[str, Command], objectives: dict[str, Objective]) -> None:
    ordered: dict[str, str] = {}
    for path, o in p.orders:
        if _known(r, f"{path}.command", o.command, commands, "command"):
            if o.command in ordered:
                r.add(f"{path}.command", f"command {o.command!r} already has an order (at {ordered[o.command]}); "
                                         "give each command one order")
            ordered.setdefault(o.command, path)  # type: ignore[arg-type]
        _known(r, f"{path}.objective", o.objective, objectives, "objective")
        for i, point in enumerate(o.route or ()):
            _inside(r, f"{path}.route[{i}]", point, p)


def _check_sides(r: _Reader, p: _Parts, sides: Sequence[str]) -> None:
    """Both sides have units (a unit's side is its command's)."""
    if p.head.get("sides") is None:
        return
    used = {u.side for _, u in p.units}
    for side in sides:
        if side not in used:
            r.add("scenario.sides", f"side {side!r} has no units; the sides must be the two that have [[units]]")
    if p.historical is not None:
        _check_losses(r, p)


def _check_losses(r: _Reader, p: _Parts) -> None:
    """Historical losses cannot exceed what a side brought."""
    assert p.historical is not None
    for key, what in (("men_lost", "men"), ("guns_lost", "guns")):
        for side, value in getattr(p.historical, key).items():
            had = sum(getattr(u, what) or 0 for _, u in p.units if u.side == side)
            if value is not None and value > had:
                r.add(f"historical.{key}.{side}", f"{value} lost but the {side} side has only {had}")


def _check_times(r: _Reader, p: _Parts) -> None:
    start = p.head.get("start")
    end = p.victory.end if p.victory is not None else None
    if start is None:
        return
    if end is not None and end <= start:
        r.add("victory.end", f"the game must end after it starts ({_clock(start)}), got {_clock(end)}")
        end = None
    for path, u in p.units:
        _within(r, f"{path}.entry", u.entry, start, end, "enters")
    for path, o in p.orders:
        _within(r, f"{path}.from", o.from_minute, start, end, "takes effect")
    history = p.historical
    if history is not None and history.minutes is not None and end is not None and start + history.minutes > end:
        r.add("historical.minutes", f"the historical decision ({_clock(start + history.minutes)}) falls after "
                                    f"the game's end ({_clock(end)}); end the game later")


def _within(r: _Reader, path: str, minute: int | None, start: int, end: int | None, verb: str) -> None:
    if minute is None:
        return
    if minute < start or (end is not None and minute >= end):
        last = f" and before the end ({_clock(end)})" if end is not None else ""
        r.add(path, f"{_clock(minute)} is outside the game: it {verb} at or after the start ({_clock(start)}){last}")


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"
