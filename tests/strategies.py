"""Hypothesis strategies shared by the tests, and a small TOML writer for what they generate.

Add new strategies here rather than in a test module, so that every test draws the same shapes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st
from referee.core.engine import world

# ----------------------------------------------------------------------------- atoms

ids = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)
"""Ids as scenarios write them: lower case, digits and hyphens."""

names = st.text(
    st.characters(exclude_categories=("Cc", "Cs"), exclude_characters="\x7f"), min_size=1, max_size=30
).filter(lambda s: s.strip() != "")
"""Display names: any printable text."""

minutes = st.integers(min_value=0, max_value=23 * 60 + 59)
"""A time of day in minutes since midnight."""


def clock(minute: int) -> str:
    """Minutes since midnight as a scenario writes them: "HH:MM"."""
    return f"{minute // 60:02d}:{minute % 60:02d}"


def points(width: float, height: float) -> st.SearchStrategy[list[float]]:
    """A point [x, y] on a map of this size, in yards."""
    return st.tuples(
        st.floats(min_value=0, max_value=width, allow_nan=False),
        st.floats(min_value=0, max_value=height, allow_nan=False),
    ).map(list)


# ----------------------------------------------------------------------------- scenario tables

_TROOP_FORMATIONS = ("line", "column", "march-column", "skirmish")
_GUN_FORMATIONS = ("limbered", "unlimbered", "column", "march-column")


@st.composite
def unit_tables(draw: st.DrawFn, command: str, width: float = 1000, height: float = 800) -> dict[str, Any]:
    """A valid ``[[units]]`` table (as a dict) for a unit of ``command``, consistent with its arm."""
    arm = draw(st.sampled_from(world.ARMS))
    table: dict[str, Any] = {
        "id": draw(ids),
        "name": draw(names),
        "command": command,
        "arm": arm,
        "men": draw(st.integers(min_value=1, max_value=5000)),
        "position": draw(points(width, height)),
        "facing": draw(st.floats(min_value=-720, max_value=720, allow_nan=False)),
        "experience": draw(st.sampled_from(world.EXPERIENCE)),
    }
    if arm == "artillery":
        table["formation"] = draw(st.sampled_from(_GUN_FORMATIONS))
        table["guns"] = draw(st.integers(min_value=1, max_value=12))
        table["gun_type"] = draw(st.sampled_from(world.GUN_TYPES))
    else:
        table["formation"] = draw(st.sampled_from(_TROOP_FORMATIONS))
        table["weapon"] = draw(st.sampled_from(world.WEAPONS))
        if draw(st.booleans()):
            table["mounted"] = draw(st.booleans())
    return table


def minimal_scenario(start: int = 10 * 60, end: int = 10 * 60 + 45) -> dict[str, Any]:
    """A small valid scenario as a dict: one brigade and one regiment a side, one objective."""
    return {
        "scenario": {
            "id": "mini", "title": "Mini", "date": "1863-07-01", "summary": "A tiny test.",
            "start": clock(start), "width": 1000, "height": 800, "sides": ["union", "confederate"],
        },
        "commands": [
            {"id": "us", "name": "Union brigade", "side": "union", "level": "brigade"},
            {"id": "cs", "name": "Confederate brigade", "side": "confederate", "level": "brigade"},
        ],
        "units": [
            {"id": "blue", "name": "Blue", "command": "us", "arm": "infantry", "men": 500,
             "position": [500, 300], "facing": 0, "formation": "line", "weapon": "rifle-musket"},
            {"id": "grey", "name": "Grey", "command": "cs", "arm": "infantry", "men": 500,
             "position": [500, 500], "facing": 180, "formation": "line", "weapon": "rifle-musket"},
        ],
        "objectives": [{"id": "hill", "name": "the hill", "position": [500, 400], "radius": 100}],
        "victory": {"end": clock(end), "objectives": ["hill"]},
    }


_shares = st.floats(min_value=0, max_value=1, exclude_min=True, allow_nan=False)


@st.composite
def trigger_tables(draw: st.DrawFn, start: int, end: int, objectives: list[str], scopes: list[str],
                   beginning: list[str], ending: list[str]) -> tuple[dict[str, Any], world.Trigger]:
    """A valid trigger table (as a dict) for a game from ``start`` to ``end`` (minutes) naming only
    the ids given (``beginning``: orders that can begin, ``ending``: orders that can end), with the
    :class:`~referee.core.engine.world.Trigger` it reads as. ``darkness`` is drawn too: the scenario must
    have its last light before ``end``."""
    kind = draw(st.sampled_from(world.TRIGGERS))
    of = draw(st.none() | st.sampled_from(scopes))
    with_of = {} if of is None else {"of": of}
    if kind == "time":
        minute = draw(st.integers(start, end - 1))
        return {"time": clock(minute)}, world.Trigger("time", minute=minute)
    if kind in ("taken", "lost"):
        objective = draw(st.sampled_from(objectives))
        return {kind: objective}, world.Trigger(kind, objective=objective)
    if kind == "repulsed":
        objective, times = draw(st.sampled_from(objectives)), draw(st.none() | st.integers(1, 20))
        table = {"repulsed": objective, **({} if times is None else {"times": times})}
        return table, world.Trigger(kind, objective=objective, times=times or 1)
    if kind in ("losses", "low_ammo"):
        share = draw(_shares)
        return {kind: share, **with_of}, world.Trigger(kind, share=share, of=of)
    if kind == "enemy_within":
        yards = draw(st.floats(min_value=1, max_value=5000, allow_nan=False))
        return {kind: yards, **with_of}, world.Trigger(kind, yards=yards, of=of)
    if kind == "broken":
        scope = draw(st.sampled_from(scopes))
        return {kind: scope}, world.Trigger(kind, of=scope)
    if kind in ("begun", "ended"):
        order = draw(st.sampled_from(beginning if kind == "begun" else ending))
        return {kind: order}, world.Trigger(kind, order=order)
    if kind == "enemy_broke_off":
        return {kind: True}, world.Trigger(kind)
    return {"darkness": True}, world.Trigger("darkness")


# ----------------------------------------------------------------------------- TOML writer


def to_toml(data: Mapping[str, Any]) -> str:
    """Write a scenario-shaped dict as TOML: scalars and arrays inline, tables and arrays of tables
    as headers. Enough for what these strategies make, not a general TOML writer."""
    return "\n".join(_table_lines(data, "")) + "\n"


def _table_lines(data: Mapping[str, Any], prefix: str) -> list[str]:
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not _is_table(v) and not _is_tables(v)]
    for k, v in data.items():
        name = f"{prefix}.{_key(k)}" if prefix else _key(k)
        if _is_table(v):
            lines += ["", f"[{name}]", *_table_lines(v, name)]
        elif _is_tables(v):
            for item in v:
                lines += ["", f"[[{name}]]", *_table_lines(item, name)]
    return lines


def _is_table(v: Any) -> bool:
    return isinstance(v, Mapping)


def _is_tables(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(i, Mapping) for i in v)


def _key(k: str) -> str:
    return k if k and all(c.isalnum() and c.isascii() or c in "-_" for c in k) else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"TOML writer: {v} is not a finite number")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(i) for i in v) + "]"
    raise TypeError(f"TOML writer: cannot write {type(v).__name__}")


# ----------------------------------------------------------------------------- rule tables

die_modifiers = st.integers(min_value=-15, max_value=15)
"""A net die modifier, well past every band of a d10 table."""


@st.composite
def band_rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Range-band rows ``{min, max, result}`` covering every integer exactly once (open at both
    ends), in a random order, as a TOML table would hold them."""
    cuts = sorted(draw(st.sets(st.integers(min_value=-30, max_value=40), max_size=8)))
    lows: list[int | None] = [None, *cuts]
    rows: list[dict[str, Any]] = []
    for i, low in enumerate(lows):
        row: dict[str, Any] = {"result": f"r{i}"}
        if low is not None:
            row["min"] = low
        if i + 1 < len(lows):
            row["max"] = cuts[i] - 1
        rows.append(row)
    return draw(st.permutations(rows))


# ----------------------------------------------------------------------------- statistics


@st.composite
def share_counts(draw: st.DrawFn, max_n: int = 100_000) -> tuple[int, int]:
    """``(successes, n)`` with ``0 <= successes <= n`` and ``n >= 1``: a win count out of a run."""
    n = draw(st.integers(min_value=1, max_value=max_n))
    return draw(st.integers(min_value=0, max_value=n)), n


loss_samples = st.lists(st.integers(min_value=0, max_value=1_000_000), min_size=1, max_size=50)
"""Men (or guns, or minutes) lost in a run of replications: whole numbers, at least one."""

percents = st.floats(min_value=0, max_value=100, allow_nan=False)
"""A percentile's q, 0-100."""


# --------------------------------------------------------------------------- games and dice

seeds = st.integers(min_value=0, max_value=2**32)
"""A game's seed."""

ladder_steps = st.integers(min_value=-6, max_value=6)
"""A shift along Stargrunt's die ladder, past its ends included."""


# ----------------------------------------------------------------------------- hostile input


def bundled_texts() -> dict[str, str]:
    """Every bundled scenario's TOML text, by id."""
    from importlib import resources

    folder = resources.files("referee.scenarios")
    return {entry.name[:-5]: entry.read_text(encoding="utf-8") for entry in sorted(folder.iterdir(), key=lambda e: e.name)
            if entry.name.endswith(".toml")}


_LIMIT_EDGES = ("0", "-1", "1", "0.5", "24", "25", "250", "251", "5000", "5001", "20000", "20001", "720", "-721",
                "1000000", "1000001", "1e308", "-1e308", "inf", "-inf", "nan", "1" + "0" * 400, "9" * 4301)
"""Numbers at and past the limits, and past what a float or an int string can hold."""

_ODD_VALUES = ('""', '" "', '"x"', '"nonesuch"', '"12:00"', '"25:99"', "23:59:00", "1861-06-10", "true", "false", "[]",
               "[1, 2]", "[[1, 2], [3, 4]]", "{}", "{ a = 1 }", '"\\u001b[2J\\u001b]0;pwned\\u0007"', '"[/bold] [link=x]y"',
               '"' + "x" * 10_001 + '"', "[" * 30 + "]" * 30, "[" * 600 + "]" * 600, "{a=" * 600 + "}" * 600, "[" + ", ".join(["0"] * 1001) + "]")
"""Values of the wrong type, empty, malformed, escape sequences, Rich markup, and past the size limits."""

_KEY_LINE = re.compile(r"^(\s*[A-Za-z0-9_.\"-]+\s*=\s*)(.+)$")
_ID_VALUE = re.compile(r'"([a-z0-9][a-z0-9_.-]*)"')


@st.composite
def _swap_value(draw: st.DrawFn, lines: list[str]) -> list[str]:
    """A one-line ``key = value`` given another value: a boundary number, a wrong type, another id."""
    found = [i for i, line in enumerate(lines) if _KEY_LINE.match(line) and not line.rstrip().endswith(("[", "{", '"""'))]
    if not found:
        return lines
    i = draw(st.sampled_from(found))
    ids = sorted(set(_ID_VALUE.findall("\n".join(lines))))
    value = draw(st.sampled_from(_LIMIT_EDGES) | st.sampled_from(_ODD_VALUES) | st.sampled_from(ids or ['"x"']).map(lambda s: f'"{s}"'))
    head = _KEY_LINE.match(lines[i]).group(1)  # type: ignore[union-attr]
    return [*lines[:i], head + value, *lines[i + 1:]]


_NUMBER_LINE = re.compile(r"^(\s*[A-Za-z0-9_-]+\s*=\s*)(-?\d+(?:\.\d+)?)(\s*(?:#.*)?)$")


@st.composite
def _nudge_number(draw: st.DrawFn, lines: list[str]) -> list[str]:
    """A number changed to another plausible one (halved, doubled, ten times, negated, one more):
    the scenario usually stays valid and plays somewhere new."""
    found = [i for i, line in enumerate(lines) if _NUMBER_LINE.match(line)]
    if not found:
        return lines
    i = draw(st.sampled_from(found))
    head, number, tail = _NUMBER_LINE.match(lines[i]).groups()  # type: ignore[union-attr]
    value = float(number)
    new = draw(st.sampled_from((0.0, value / 2, value * 2, value * 10, -value, value + 1)))
    text = str(int(new)) if new.is_integer() and "." not in number else repr(new)
    return [*lines[:i], head + text + tail, *lines[i + 1:]]


@st.composite
def _edit_lines(draw: st.DrawFn, lines: list[str]) -> list[str]:
    """A line removed (a missing key), repeated (a duplicate key or table) or a block of lines
    repeated (a table twice: duplicate ids)."""
    if not lines:
        return lines
    i = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(("remove", "repeat", "block")))
    if kind == "remove":
        return lines[:i] + lines[i + 1:]
    if kind == "repeat":
        return lines[:i + 1] + lines[i:]
    j = draw(st.integers(i, min(len(lines), i + 15)))
    return lines[:j] + lines[i:j] * draw(st.integers(1, 4)) + lines[j:]


@st.composite
def _damage(draw: st.DrawFn, text: str) -> str:
    """Syntax damage: the text cut short, or a few characters inserted or removed somewhere."""
    at = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(("cut", "insert", "remove")))
    if kind == "cut":
        return text[:at]
    if kind == "insert":
        return text[:at] + draw(st.text(st.sampled_from('[]{}"\'=#,.\n\\ 0a\x00\x1b\u202e'), min_size=1, max_size=4)) + text[at:]
    return text[:at] + text[at + draw(st.integers(1, 20)):]


@st.composite
def mutated_scenarios(draw: st.DrawFn, texts: Mapping[str, str]) -> str:
    """A bundled scenario (from ``texts``, by id) with one to three changes: a number nudged; a
    value swapped for a boundary value, a wrong type or another id; a key or table missing or
    repeated; syntax damage."""
    text = texts[draw(st.sampled_from(sorted(texts)))]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("nudge", "nudge", "value", "value", "lines", "damage")))
        if kind == "damage":
            text = draw(_damage(text))
        else:
            lines = text.split("\n")
            change = {"nudge": _nudge_number, "value": _swap_value, "lines": _edit_lines}[kind]
            text = "\n".join(draw(change(lines)))
    return text


_CLI_VALUES = ("0", "-1", "1", "2", "x", "", " ", "1e12", "1000001", "65", "9" * 5000, "-", "/dev/null", "/dev/zero",
               "/nonexistent/file", "[/bold]", "\x1b[2J", "rff", "hardtack", "nonesuch", "big-bethel", "drill-musketry")
_CLI_COMMANDS = {
    "rulesets": ("--json",), "scenarios": ("--json",),
    "run": ("--rules", "--seed", "--option", "--house-rule", "--log", "--quiet", "--json"),
    "compare": ("--rules", "-n", "--seed", "--workers", "--option", "--house-rule", "--out", "--width", "--json"),
    "history": ("--rules", "-n", "--seed", "--workers", "--width", "--json"),
    "resolve": ("--set", "--seed", "--exact", "--list", "--option", "--width", "--json"),
    "tables": ("--option", "--house-rule", "--width", "--json"),
}
_FLAGS = ("--quiet", "--json", "--exact", "--list")


@st.composite
def cli_arguments(draw: st.DrawFn) -> list[str]:
    """Arguments for ``referee``: a command, a few of its options with boundary or nonsense values,
    and arguments; never a long run (compare and history replicate at most 3 times, on a drill)."""
    command = draw(st.sampled_from(sorted(_CLI_COMMANDS)))
    args = [command]
    if command in ("run", "compare"):
        args.append(draw(st.sampled_from(("drill-musketry", "drill-charge-battery", "nonesuch", "/dev/null", "x.toml", "[/bold]"))))
    elif command == "history":
        args.append(draw(st.sampled_from(("nonesuch", "drill-musketry", "/dev/zero"))))
    elif command in ("resolve", "tables"):
        args.append(draw(st.sampled_from(("rff", "hardtack", "nonesuch"))))
        if command == "resolve":
            args.append(draw(st.sampled_from(("musketry", "fire", "shot", "maneuver", "nonesuch"))))
    for option in draw(st.lists(st.sampled_from(_CLI_COMMANDS[command]), max_size=4)):
        if option in _FLAGS:
            args.append(option)
        elif option == "-n":
            args += [option, draw(st.sampled_from(("0", "-1", "1", "3", "x", "1e12", "1000001", "9" * 5000)))]
        elif option == "--workers":
            args += [option, draw(st.sampled_from(("0", "1", "2", "65", "1000", "x")))]
        elif option == "--set":
            key = draw(st.sampled_from(("fire_points", "range", "firepower", "modifier", "target", "nonesuch", "")))
            args += [option, f"{key}={draw(st.sampled_from(_CLI_VALUES + ('1e5000', '1e100000000', '9/2', '1/0')))}"]
        else:
            args += [option, draw(st.sampled_from(_CLI_VALUES))]
    if command in ("compare", "history") and "-n" not in args:
        args += ["-n", "2"]
    return args
