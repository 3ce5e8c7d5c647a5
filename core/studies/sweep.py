"""Sweep files: which games a sweep plays, read with the checked reader of scenarios.

A sweep names scenarios, rulesets, replications and a base seed, and what varies: an optional
rule on or off, a house-rule file layered or not, or a number in the ruleset's tables (a TOML
overlay's cell) over a list or a range. Points are the full grid of those values or an
explicit list. Every game is a (point, scenario, ruleset, replication) and replication ``k``
plays on :func:`~referee.core.engine.game.replication_seed` ``(seed, k)`` at every point (common
random numbers). A point's stack under each ruleset is a :class:`Cell` that carries the text of
every file it layers, so a worker on another machine needs only referee installed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from attrs import field, frozen

from ..engine.errors import InvalidInput, RefereeError, did_you_mean
from ..engine.limits import REPLICATIONS, SWEEP_GAMES
from ..engine.plugins import build_rules, installed
from ..engine.reading import (
    Bad,
    Reader,
    Table,
    any_text,
    flag,
    key_lines,
    list_of,
    nonempty_text,
    number,
    oversized,
    parse_toml,
    read_bounded,
    whole,
)
from ..engine.tables import to_fraction
from ..input.scenario import find_scenario, parse_scenario

GAMES_ASKED = SWEEP_GAMES  # a sweep of more games than this runs only with --yes
POINTS = 10_000  # the most points a sweep may have
KINDS = ("option", "house_rule", "cell")
TOP = ("title", "scenarios", "rulesets", "options", "house_rules", "replications", "seed", "base", "vary", "points")
VARY = ("name", *KINDS, "values", "range", "shift", "scale")
_BARE = re.compile(r"[A-Za-z0-9_-]+")


@frozen
class Parameter:
    """One thing that varies: an option, a house-rule file, or a table cell (a dotted path by ruleset)."""

    name: str
    kind: str  # one of KINDS
    target: str  # the option's name or the house rule's path (cells: "")
    values: tuple[Any, ...]
    cells: Mapping[str, str] = field(factory=dict)  # ruleset -> dotted path (cells)
    shift: bool = False  # cells: a value is added to the cell's value in the ruleset's tables
    bases: Mapping[str, float] = field(factory=dict)  # ruleset -> the cell's value (shifts)
    where: str = ""  # its key path in the sweep file: vary[2]
    scales: Mapping[str, float] = field(factory=dict)  # shifts: ruleset -> what one step is in its table (default 1)


@frozen
class Point:
    name: str
    values: Mapping[str, Any]  # parameter name -> value (a parameter a point does not name is as printed)


@frozen
class Cell:
    """One point under one ruleset: its options and files (name, text), overlay last."""

    ruleset: str
    options: tuple[str, ...]
    files: tuple[tuple[str, str], ...]

    def digest(self) -> str:
        return hashlib.sha256(json.dumps([self.ruleset, self.options, self.files]).encode()).hexdigest()[:16]


@frozen
class Sweep:
    source: str
    title: str
    scenarios: tuple[tuple[str, str, str], ...]  # (name as given, id, scenario text)
    rulesets: tuple[str, ...]
    replications: int
    seed: int
    parameters: tuple[Parameter, ...]
    points: tuple[Point, ...]
    base: str
    cells: Mapping[tuple[int, str], Cell]  # (point index, ruleset) -> cell

    @property
    def games(self) -> int:
        return len(self.points) * len(self.scenarios) * len(self.rulesets) * self.replications

    def game(self, index: int) -> tuple[int, int, int, int]:
        """Game ``index`` as (point, scenario, ruleset, replication) indexes: replications vary
        fastest, then rulesets, scenarios and points."""
        rest, k = divmod(index, self.replications)
        rest, r = divmod(rest, len(self.rulesets))
        p, s = divmod(rest, len(self.scenarios))
        return p, s, r, k

    def digest(self) -> str:
        """What identifies the games and how they are played (a resumed run must match it)."""
        data = [[(sid, text) for _, sid, text in self.scenarios], self.rulesets, self.replications, self.seed, [p.values for p in self.points],
                [p.name for p in self.points], sorted((p, r, c.digest()) for (p, r), c in self.cells.items())]
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def read_sweep(path: str | Path, games_allowed: int = GAMES_ASKED) -> Sweep:
    """Read and check a sweep file; :class:`InvalidInput` lists every problem with its line and key."""
    source = str(path)
    what = f"sweep {source}"
    text = read_bounded(path, what)
    data = parse_toml(text, source, what)
    reader = Reader(source, key_lines(text))
    for where, message in oversized(data):
        reader.add(where, message)
    if reader.problems:
        raise InvalidInput(reader.problems, what)
    top = reader.table(data, "", TOP)
    assert top is not None
    folder = Path(source).parent
    title = top.get("title", any_text, "a title", Path(source).stem)
    scenarios = _scenarios(top, folder)
    rulesets = _rulesets(top)
    options = top.get("options", list_of(nonempty_text, "option names"), "an array of option names", ())
    house_rules = tuple(str(folder / p) for p in top.get("house_rules", list_of(nonempty_text, "file paths"), "an array of files", ()) or ())
    replications = top.get("replications", whole(1, REPLICATIONS, " replications"), "a whole number of replications")
    seed = top.get("seed", whole(0, 2**63 - 1), "a whole number", 1)
    parameters = [p for p in (_parameter(reader, t, folder) for t in top.array("vary", VARY)) if p is not None]
    _distinct(reader, parameters)
    if reader.problems:
        raise InvalidInput(reader.problems, what)
    points = _points(reader, top, parameters)
    base = top.get("base", nonempty_text, "a point's name", points[0].name if points else "")
    names = [p.name for p in points]
    if points and base not in names:
        reader.add("base", f"no point named {base!r}{did_you_mean(base, names)}")
    if reader.problems:
        raise InvalidInput(reader.problems, what)
    cells: dict[tuple[int, str], Cell] = {}
    parameters = [_with_bases(reader, p, rulesets, options, house_rules) for p in parameters]
    if not reader.problems:
        _check_stacks(reader, parameters, rulesets, options, house_rules)
    if reader.problems:
        raise InvalidInput(reader.problems, what)
    games = len(points) * len(scenarios) * len(rulesets) * replications
    if games > games_allowed:
        reader.add("replications", f"{len(points):,} points x {len(scenarios)} scenarios x {len(rulesets)} rulesets x "
                                   f"{replications:,} replications = {games:,} games, over {games_allowed:,}: "
                                   "run with --yes to play them all")
        raise InvalidInput(reader.problems, what)
    by_name = {p.name: p for p in parameters}
    for i, point in enumerate(points):
        for ruleset in rulesets:
            cells[(i, ruleset)] = cell(ruleset, options, house_rules, [(by_name[k], v) for k, v in point.values.items()])
    return Sweep(source, title, scenarios, rulesets, replications, seed, tuple(parameters), tuple(points), base, cells)


def _scenarios(top: Table, folder: Path) -> tuple[tuple[str, str, str], ...]:
    names = top.get("scenarios", list_of(nonempty_text, "scenario names or paths"), "an array of scenarios (bundled ids or .toml paths)")
    if names is None:
        return ()
    if not names:
        top.reader.add(top.at("scenarios"), "an empty array: name at least one scenario")
    found = []
    for i, name in enumerate(names):
        try:
            path = find_scenario(name)
            if str(path) == name:  # a path, not a bundled id: from the sweep file's folder
                path = folder / path
                name = str(path)
            text = read_bounded(path, f"scenario {name}")
            scenario = parse_scenario(text, str(path), default_id=path.stem)
        except RefereeError as error:
            top.reader.add(f"scenarios[{i}]", _flat(error))
            continue
        found.append((name, scenario.id, text))
    return tuple(found)


def _rulesets(top: Table) -> tuple[str, ...]:
    names = top.get("rulesets", list_of(nonempty_text, "ruleset names"), "an array of rulesets (`referee rulesets` lists them)")
    if names is None:
        return ()
    if not names:
        top.reader.add(top.at("rulesets"), "an empty array: name at least one ruleset")
    known = installed()
    for i, name in enumerate(names):
        if name not in known:
            top.reader.add(f"rulesets[{i}]", f"unknown ruleset {name!r}{did_you_mean(name, sorted(known))}")
    return tuple(names)


def _parameter(reader: Reader, t: Table | None, folder: Path) -> Parameter | None:
    if t is None:
        return None
    name = t.get("name", _name, "a name (letters, digits, '-' or '_')")
    kinds = [k for k in KINDS if k in t.raw]
    if len(kinds) != 1:
        reader.add(t.path, f"give exactly one of {', '.join(KINDS)} (what varies), got {', '.join(kinds) or 'none'}")
        return None
    kind = kinds[0]
    if kind in ("option", "house_rule"):
        target = t.get(kind, nonempty_text, "a name" if kind == "option" else "a file path")
        for key in ("range", "shift", "scale"):
            if key in t.raw:
                reader.add(t.at(key), f"only a cell takes {key!r}: an {kind} is on or off (values = [false, true])")
        values = t.get("values", list_of(flag, "true or false"), "an array of true/false", (False, True))
        if kind == "house_rule" and target is not None:
            target = str(folder / target)
        if values == ():
            reader.add(t.at("values"), "an empty array: a parameter needs at least one value")
        return None if name is None or target is None or values is None else Parameter(name, kind, target, values, where=t.path)
    cells = t.get("cell", _cell_paths, "a dotted path (fire.modifiers.fortified.value) or a table of them by ruleset")
    shift = t.get("shift", flag, "true or false", False)
    scales = t.get("scale", _scales, "a table of numbers by ruleset", {})
    if scales and not shift:
        reader.add(t.at("scale"), "a scale is for a shift: add shift = true, or drop it")
    if ("values" in t.raw) == ("range" in t.raw):
        reader.add(t.path, "give exactly one of values = [...] or range = { from, to, step }")
        return None
    values = t.get("values", list_of(number(), "numbers"), "an array of numbers") if "values" in t.raw else _range(t)
    if values == ():
        reader.add(t.at("values"), "an empty array: a parameter needs at least one value")
    if name is None or cells is None or values is None or shift is None or scales is None or not values:
        return None
    return Parameter(name, "cell", "", tuple(_tidy(v) for v in values), cells, shift, where=t.path, scales=scales)


def _scales(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        raise Bad(f"expected a table of numbers by ruleset (hardtack = -1), got {value!r}")
    return {ruleset: number()(v) for ruleset, v in value.items()}


def _name(value: Any) -> str:
    if not isinstance(value, str) or not _BARE.fullmatch(value) or value in ("name", "point"):
        raise Bad(f"expected a name (letters, digits, '-' or '_'; not 'name' or 'point'), got {value!r}")
    return value


def _cell_paths(value: Any) -> Mapping[str, str] | str:
    if isinstance(value, str):
        _path_parts(value)
        return {"*": value}
    if isinstance(value, dict) and value:
        for ruleset, path in value.items():
            if not isinstance(path, str):
                raise Bad(f"{ruleset}: expected a dotted path, got {path!r}")
            _path_parts(path)
        return dict(value)
    raise Bad(f"expected a dotted path (fire.modifiers.fortified.value) or a table of them by ruleset, got {value!r}")


def _path_parts(path: str) -> list[str]:
    parts = path.split(".")
    if len(parts) < 2 or not all(_BARE.fullmatch(p) for p in parts):
        raise Bad(f"expected a dotted path of a table file and keys (e.g. fire.modifiers.fortified.value), got {path!r}")
    return parts


def _range(t: Table) -> tuple[float, ...] | None:
    r = t.section("range", ("from", "to", "step"))
    if r is None:
        return None
    lo, hi = r.get("from", number(), "a number"), r.get("to", number(), "a number")
    step = r.get("step", number(above=0), "a number > 0", 1)
    if lo is None or hi is None or step is None:
        return None
    count = int((hi - lo) / step + 1e-9) + 1
    if count < 1:
        t.reader.add(r.path, f"an empty range: from {lo:g} to {hi:g} (to must be at least from)")
        return ()
    if count > POINTS:
        t.reader.add(r.path, f"{count:,} values: a range holds at most {POINTS:,}")
        return None
    return tuple(round(lo + i * step, 9) for i in range(count))


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def _distinct(reader: Reader, parameters: Sequence[Parameter]) -> None:
    seen: set[str] = set()
    for p in parameters:
        if p.name in seen:
            reader.add(f"{p.where}.name", f"a second parameter named {p.name!r}: names must differ")
        seen.add(p.name)


def _points(reader: Reader, top: Table, parameters: Sequence[Parameter]) -> list[Point]:
    """The explicit [[points]], or the full grid of the parameters' values."""
    names = [p.name for p in parameters]
    if "points" not in top.raw:
        grid = [dict(zip(names, values)) for values in itertools.product(*(p.values for p in parameters))]
        if len(grid) > POINTS:
            reader.add("vary", f"a grid of {len(grid):,} points: at most {POINTS:,}")
            return []
        return [Point(_label(values, parameters), values) for values in grid]
    points = []
    by_name = {p.name: p for p in parameters}
    for i, t in enumerate(top.array("points", ("name", *names))):
        if t is None:
            continue
        values: dict[str, Any] = {}
        for name in names:
            if name in t.raw:
                values[name] = t.get(name, flag if by_name[name].kind != "cell" else number(), _expects(by_name[name]))
        label = t.get("name", nonempty_text, "a name", None) or _label(values, parameters)
        points.append(Point(label, {k: v if isinstance(v, bool) else _tidy(v) for k, v in values.items() if v is not None}))
    if not points and not reader.problems:
        reader.add("points", "an empty list of points: give at least one [[points]], or drop it for the full grid")
    seen: set[str] = set()
    for i, point in enumerate(points):
        if point.name in seen:
            reader.add(f"points[{i}]", f"a second point named {point.name!r}: names must differ")
        seen.add(point.name)
    return points


def _expects(p: Parameter) -> str:
    return "a number" if p.kind == "cell" else "true or false"


def _label(values: Mapping[str, Any], parameters: Sequence[Parameter]) -> str:
    """A point's name from its values: "skirmishers=on,works=-2", "printed" for none."""
    parts = [f"{p.name}={_shown(values[p.name])}" for p in parameters if p.name in values]
    return ",".join(parts) or "printed"


def _shown(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else f"{value:g}"


# ----------------------------------------------------------------------------- stacks


def cell(ruleset: str, options: Sequence[str], house_rules: Sequence[str], values: Sequence[tuple[Parameter, Any]]) -> Cell:
    """One point's stack under ``ruleset``: options on (true) or off (``no-NAME``), house
    rules layered, and the cells' numbers as one TOML overlay on top."""
    opts = list(options)
    files = [(Path(p).name, read_bounded(p, "house rule")) for p in house_rules]
    overlay: list[str] = []
    for parameter, value in values:
        if parameter.kind == "option":
            opts.append(parameter.target if value else f"no-{parameter.target}")
        elif parameter.kind == "house_rule" and value:
            files.append((Path(parameter.target).name, read_bounded(parameter.target, "house rule")))
        elif parameter.kind == "cell":
            path = cell_path(parameter, ruleset)
            step = parameter.scales.get(ruleset, 1.0)
            number_ = round(parameter.bases[ruleset] + value * step, 9) if parameter.shift else value
            overlay.append(f"{path} = {_toml_number(_tidy(number_))}  # sweep parameter {parameter.name}")
    if overlay:
        files.append(("sweep_overlay.toml", "\n".join(overlay) + "\n"))
    return Cell(ruleset, tuple(dict.fromkeys(opts)), tuple(files))


def cell_path(parameter: Parameter, ruleset: str) -> str:
    return parameter.cells.get(ruleset) or parameter.cells["*"]


def _toml_number(value: float) -> str:
    return repr(value)


def _with_bases(reader: Reader, p: Parameter, rulesets: Sequence[str], options: Sequence[str], house_rules: Sequence[str]) -> Parameter:
    """A cell parameter with a path for every ruleset, and the cell's value under each (shifts)."""
    if p.kind != "cell":
        return p
    where = f"{p.where}.cell"
    missing = [r for r in rulesets if r not in p.cells and "*" not in p.cells]
    if missing:
        reader.add(where, f"no path for ruleset {', '.join(missing)}: give one for every ruleset of the sweep")
        return p
    extra = [r for r in [*p.cells, *p.scales] if r != "*" and r not in rulesets]
    if extra:
        reader.add(where, f"a path for {', '.join(extra)}, which is not among the sweep's rulesets ({', '.join(rulesets)})")
    if not p.shift:
        return p
    bases = {}
    for ruleset in rulesets:
        try:
            rules = build_rules(ruleset, options, [h for h in house_rules if h.endswith(".toml")])
        except RefereeError:
            return p  # said again by _check_stacks
        found = table_value(rules.base.name if rules.base else rules.info.name, rules.overlays, cell_path(p, ruleset))
        found = to_fraction(found) if isinstance(found, str) else found  # "3/10": a number written as a fraction
        if isinstance(found, bool) or not isinstance(found, (int, float, Fraction)):
            what = "no such cell" if found is None else f"it holds {found!r}, not a number"
            reader.add(where, f"{cell_path(p, ruleset)} under {ruleset}: cannot shift ({what})")
            continue
        bases[ruleset] = float(found)
    return Parameter(p.name, p.kind, p.target, p.values, p.cells, p.shift, bases, p.where, p.scales)


def table_value(ruleset: str, overlays: Sequence[Path], path: str) -> Any:
    """The value at a dotted ``path`` of ``ruleset``'s packaged tables after ``overlays``; None if there is none."""
    table, *keys = path.split(".")
    found = None
    try:
        text = (resources.files("referee.rulesets") / ruleset / f"{table}.toml").read_text(encoding="utf-8")
        found = _dig(parse_toml(text, path, "tables"), keys)
    except (FileNotFoundError, InvalidInput):
        pass
    for overlay in overlays:
        try:
            over = _dig(parse_toml(Path(overlay).read_text(encoding="utf-8"), str(overlay), "overlay"), [table, *keys])
        except (OSError, InvalidInput):
            continue
        found = over if over is not None else found
    return found


def _dig(data: Any, keys: Sequence[str]) -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _check_stacks(reader: Reader, parameters: Sequence[Parameter], rulesets: Sequence[str], options: Sequence[str],
                  house_rules: Sequence[str]) -> None:
    """Build each ruleset with the sweep's own options and files, then with each parameter's
    every value alone: a bad option, file or cell is reported at its key, once."""
    import tempfile

    for ruleset in rulesets:
        try:
            build_rules(ruleset, options, house_rules)
        except RefereeError as error:
            reader.add("house_rules" if house_rules else "options" if options else "rulesets", f"{ruleset}: {_flat(error)}")
            return
    with tempfile.TemporaryDirectory(prefix="referee-sweep-check-") as folder:
        for p in parameters:
            for ruleset in rulesets:
                for value in p.values:
                    try:
                        c = cell(ruleset, options, house_rules, [(p, value)])
                        build_rules(ruleset, c.options, materialize(c, Path(folder)))
                    except RefereeError as error:
                        what = f"{cell_path(p, ruleset)} = {_shown(value)} under {ruleset}" if p.kind == "cell" else f"under {ruleset}"
                        reader.add(f"{p.where}.{p.kind}", f"{what}: {_flat(error, p.kind != 'cell')}")
                        break
                else:
                    continue
                break


def _flat(error: Exception, paths: bool = True) -> str:
    """An error's problems on one line, without their files (a sweep's own) and lists of valid keys."""
    if isinstance(error, InvalidInput):
        text = "; ".join(str(p) if paths else p.message for p in error.problems)
    else:
        lines = [line.strip().removeprefix("- ") for line in str(error).splitlines()]
        text = "; ".join(line for line in lines[1:] or lines if line)
    return re.sub(r" \(valid: [^)]*\)|; an overlay may only replace existing keys", "", text)


def materialize(c: Cell, folder: Path) -> list[str]:
    """Write the cell's files under ``folder`` (each in a folder named by its digest, kept if
    there already) and return their paths, in order."""
    paths = []
    for name, text in c.files:
        place = folder / hashlib.sha256(text.encode()).hexdigest()[:16] / name
        if not place.exists():
            place.parent.mkdir(parents=True, exist_ok=True)
            partial = place.with_suffix(place.suffix + ".part")
            partial.write_text(text, encoding="utf-8")
            partial.replace(place)
        paths.append(str(place))
    return paths
