"""Rule tables as data: load, check, overlay, band lookups, and display.

Ruleset-neutral. A ruleset keeps its tables in ``referee.rulesets/<name>/*.toml`` and declares
a small schema per file (:class:`Record`, :class:`MapOf`, :class:`ListOf`, :class:`Int`, ...).
:func:`load_ruleset` reads every file and reports **every** problem at once as
:class:`~referee.core.engine.errors.InvalidInput`, each :class:`~referee.core.engine.errors.Problem` with its
key path, file and line. :func:`apply_overlay` lays a house rule's TOML over its base's tables
(it may only replace keys that exist). :class:`Bands` looks a total up in a range-band table
such as "8 or more / 3-7 / 1, 2 / 0, -1 / -2 or less". :class:`Table` is what
``referee tables`` prints.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from attrs import field, frozen

from .errors import InvalidInput, Problem, did_you_mean
from .reading import fraction, oversized, read_bounded
from .reading import parse_toml as parse_bounded

T = TypeVar("T")


# ----------------------------------------------------------------------------- display


@frozen
class Table:
    """A table as the ruleset reads it: title, citation, column heads, rows of cells, notes."""

    title: str
    ref: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()


# ----------------------------------------------------------------------------- problems


@frozen
class Where:
    """Where a file's keys are: its display name and the line of each key path."""

    source: str
    lines: Mapping[str, int] = field(factory=dict)

    def line_of(self, path: str) -> int | None:
        """The line of ``path``, or of its nearest enclosing key that has one."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = _parent(path)
        return None

    def problem(self, path: str, message: str) -> Problem:
        return Problem(message, path=path, source=self.source, line=self.line_of(path))


def _parent(path: str) -> str:
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


# ----------------------------------------------------------------------------- schema

Out = list[tuple[str, str]]  # (key path, message)


class Spec(Protocol):
    """A schema node: appends (path, message) for each problem of ``value``."""

    def check(self, value: Any, path: str, out: Out) -> None: ...

    def describe(self) -> str: ...


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


@frozen
class Int:
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any, path: str, out: Out) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            out.append((path, f"expected {self.describe()}, got {_kind(value)} {value!r}"))
        elif self.minimum is not None and value < self.minimum:
            out.append((path, f"{value} is below the minimum {self.minimum}"))
        elif self.maximum is not None and value > self.maximum:
            out.append((path, f"{value} is above the maximum {self.maximum}"))

    def describe(self) -> str:
        return "an integer"


@frozen
class Number:
    """An integer, a float, or a string fraction such as "1/2"; ``blank`` also allows that string."""

    minimum: Fraction | int | None = None
    blank: str = ""

    def check(self, value: Any, path: str, out: Out) -> None:
        if self.blank and value == self.blank:
            return
        parsed = to_fraction(value)
        if parsed is None:
            out.append((path, f"expected {self.describe()}, got {_kind(value)} {value!r}"))
        elif self.minimum is not None and parsed < self.minimum:
            out.append((path, f"{value} is below the minimum {self.minimum}"))

    def describe(self) -> str:
        extra = f' or "{self.blank}"' if self.blank else ""
        return f'a number such as 2 or "1/2"{extra}'


def to_fraction(value: Any) -> Fraction | None:
    """An int, float or "p/q" string as a Fraction; None if it is none of those."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, str)):
        return _fraction_of(value)
    return None


@lru_cache(maxsize=4096)
def _fraction_of(value: float | str) -> Fraction | None:
    """:func:`to_fraction` of a number or a text, kept (a pure function of an immutable value): a ruleset may read the same entry of its
    tables on every resolution, and parsing "1/2" costs thousands of instructions."""
    if not isinstance(value, str):
        return Fraction(value) if math.isfinite(value) else None  # TOML's nan and inf are no number of a table
    try:
        return fraction(value.strip())
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


@frozen
class Str:
    choices: tuple[str, ...] = ()

    def check(self, value: Any, path: str, out: Out) -> None:
        if not isinstance(value, str):
            out.append((path, f"expected {self.describe()}, got {_kind(value)} {value!r}"))
        elif self.choices and value not in self.choices:
            out.append((path, f"{value!r} is not valid{did_you_mean(value, self.choices)}"))

    def describe(self) -> str:
        return f"one of {', '.join(self.choices)}" if self.choices else "a string"


@frozen
class Bool:
    def check(self, value: Any, path: str, out: Out) -> None:
        if not isinstance(value, bool):
            out.append((path, f"expected true or false, got {_kind(value)} {value!r}"))

    def describe(self) -> str:
        return "true or false"


@frozen
class ListOf:
    item: Spec
    min_len: int = 0
    max_len: int | None = None

    def check(self, value: Any, path: str, out: Out) -> None:
        if not isinstance(value, list):
            out.append((path, f"expected {self.describe()}, got {_kind(value)}"))
            return
        if len(value) < self.min_len or (self.max_len is not None and len(value) > self.max_len):
            most = "" if self.max_len is None else f" and at most {self.max_len}"
            out.append((path, f"has {len(value)} entries; expected at least {self.min_len}{most}"))
        for i, item in enumerate(value):
            self.item.check(item, _join(path, i), out)

    def describe(self) -> str:
        return f"an array of {self.item.describe()}"


@frozen
class MapOf:
    """A table with free keys (ids), each value checked by ``value``; ``keys`` restricts the keys."""

    value: Spec
    keys: tuple[str, ...] = ()
    min_len: int = 1

    def check(self, value: Any, path: str, out: Out) -> None:
        if not isinstance(value, dict):
            out.append((path, f"expected a table of {self.value.describe()}, got {_kind(value)}"))
            return
        if len(value) < self.min_len:
            out.append((path, f"expected at least {self.min_len} entries"))
        for key, item in value.items():
            if self.keys and key not in self.keys:
                out.append((_join(path, key), f"unknown key {key!r}{did_you_mean(key, self.keys)}"))
            else:
                self.value.check(item, _join(path, key), out)

    def describe(self) -> str:
        return "a table"


@frozen
class Record:
    """A table with named keys: ``required`` must be there, ``optional`` may be; no others."""

    required: Mapping[str, Spec] = field(factory=dict)
    optional: Mapping[str, Spec] = field(factory=dict)

    def check(self, value: Any, path: str, out: Out) -> None:
        if not isinstance(value, dict):
            out.append((path, f"expected a table, got {_kind(value)} {value!r}"))
            return
        known = {**self.required, **self.optional}
        for key in self.required:
            if key not in value:
                out.append((path, f"missing key {key!r} ({self.required[key].describe()})"))
        for key, item in value.items():
            if key in known:
                known[key].check(item, _join(path, key), out)
            else:
                out.append((_join(path, key), f"unknown key {key!r}{did_you_mean(key, list(known))}"))

    def describe(self) -> str:
        return "a table"


@frozen
class BandsOf:
    """An array of bands ``{min, max, result}`` (min/max optional for open ends) that must
    cover every integer exactly once; ``extra`` declares further optional keys per band."""

    result: Spec
    extra: Mapping[str, Spec] = field(factory=dict)

    def check(self, value: Any, path: str, out: Out) -> None:
        row = Record({"result": self.result}, {"min": Int(), "max": Int(), "label": Str(), "ruling": Str(), **self.extra})
        before = len(out)
        ListOf(row, min_len=1).check(value, path, out)
        if len(out) == before:
            out.extend((path, message) for message in band_problems(value))

    def describe(self) -> str:
        return "an array of bands {min, max, result}"


@frozen
class Check:
    """A node plus a whole-value check returning (relative path, message) pairs, run when the
    node itself is clean (cross-references between keys of one table)."""

    spec: Spec
    extra: Callable[[Any], Iterable[tuple[str, str]]]

    def check(self, value: Any, path: str, out: Out) -> None:
        before = len(out)
        self.spec.check(value, path, out)
        if len(out) == before:
            out.extend((_join(path, sub) if sub else path, message) for sub, message in self.extra(value))

    def describe(self) -> str:
        return self.spec.describe()


# ----------------------------------------------------------------------------- bands


@frozen
class Band(Generic[T]):
    """One row of a range-band table: totals from ``min`` to ``max`` (None = open end)."""

    min: int | None
    max: int | None
    result: T
    label: str = ""  # as printed, when it differs from the plain reading
    ruling: str = ""

    def __contains__(self, total: int) -> bool:
        return (self.min is None or total >= self.min) and (self.max is None or total <= self.max)

    def text(self) -> str:
        """As a table prints it: "8 or more", "3 - 7", "1, 2", "0", "-2 or less"."""
        if self.label:
            return self.label
        lo, hi = self.min, self.max
        if lo is None and hi is None:
            return "any"
        if lo is None:
            return f"{hi} or less"
        if hi is None:
            return f"{lo} or more"
        if lo == hi:
            return str(lo)
        if hi - lo == 1:
            return f"{lo}, {hi}"
        return f"{lo} - {hi}"


@frozen
class Bands(Generic[T]):
    """Range bands covering every integer exactly once, lowest first; ``lookup`` bisects."""

    bands: tuple[Band[T], ...]
    _lows: tuple[int, ...] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_lows", tuple(b.min for b in self.bands[1:]))

    @classmethod
    def from_rows(cls, rows: Sequence[Mapping[str, Any]], convert: Callable[[Any], T] = lambda r: r) -> Bands[T]:
        """Bands from TOML rows; raises :class:`InvalidInput` listing every gap and overlap."""
        problems = band_problems(rows)
        if problems:
            raise InvalidInput([Problem(m) for m in problems], what="bands")
        built = [
            Band(r.get("min"), r.get("max"), convert(r["result"]), r.get("label", ""), r.get("ruling", ""))
            for r in rows
        ]
        return cls(tuple(sorted(built, key=lambda b: -(10**9) if b.min is None else b.min)))

    def band(self, total: int) -> Band[T]:
        """The band holding ``total``."""
        return self.bands[bisect.bisect_right(self._lows, total)]

    def lookup(self, total: int) -> T:
        return self.band(total).result

    def highest_first(self) -> tuple[Band[T], ...]:
        return tuple(reversed(self.bands))


def band_problems(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every gap, overlap and inverted band in ``rows`` (dicts with optional min/max)."""
    out: list[str] = []
    spans: list[tuple[float, float, str]] = []
    for row in rows:
        lo, hi = row.get("min"), row.get("max")
        name = repr(row.get("result"))
        if lo is not None and hi is not None and lo > hi:
            out.append(f"band {name} has min {lo} above max {hi}")
            continue
        spans.append((float("-inf") if lo is None else lo, float("inf") if hi is None else hi, name))
    spans.sort()
    covered, last = float("-inf"), ""
    first = True
    for lo, hi, name in spans:
        if first:
            if lo != float("-inf"):
                out.append(f"totals of {_num(lo - 1)} or less are in no band (give the lowest band no min)")
        elif lo > covered + 1:
            out.append(f"{_totals(covered + 1, lo - 1)} in no band (gap between {last} and {name})")
        elif lo <= covered:
            out.append(f"{_totals(lo, min(hi, covered))} in two bands ({last} and {name})")
        if first or hi > covered:
            covered, last = hi, name
        first = False
    if spans and covered != float("inf"):
        out.append(f"totals of {_num(covered + 1)} or more are in no band (give the highest band no max)")
    return out


def _num(x: float) -> str:
    return str(int(x))


def _totals(lo: float, hi: float) -> str:
    if lo == float("-inf"):
        return f"totals of {_num(hi)} or less are"
    if hi == float("inf"):
        return f"totals of {_num(lo)} or more are"
    return f"total {_num(lo)} is" if lo == hi else f"totals {_num(lo)} to {_num(hi)} are"


# ----------------------------------------------------------------------------- loading


@frozen
class TomlFile:
    """One parsed, checked table file."""

    name: str  # the table's name: the file stem, e.g. "fire"
    data: Mapping[str, Any]
    where: Where


def parse_toml(text: str, source: str) -> tuple[dict[str, Any] | None, Where, list[Problem]]:
    """Parse ``text``; a syntax error becomes a problem at its line."""
    where = Where(source, key_lines(text))
    try:
        data = parse_bounded(text, source, source)
    except InvalidInput as bad:
        return None, where, list(bad.problems)
    problems = [where.problem(path, message) for path, message in oversized(data)]
    return (None if problems else data), where, problems


def check(spec: Spec, data: Any, where: Where, path: str = "") -> list[Problem]:
    """Every problem of ``data`` against ``spec``, located in ``where``."""
    out: Out = []
    spec.check(data, path, out)
    return [where.problem(p, m) for p, m in out]


def load_ruleset(ruleset: str, schema: Mapping[str, Spec], package: str = "referee.rulesets") -> dict[str, TomlFile]:
    """Read and check every ``<package>/<ruleset>/*.toml``; each file's stem must be in
    ``schema`` and every schema entry must have its file. Raises :class:`InvalidInput` with
    every problem of every file."""
    folder = resources.files(package) / ruleset
    texts = {
        entry.name.removesuffix(".toml"): entry.read_text(encoding="utf-8")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }
    return load_texts(texts, schema, prefix=f"{ruleset}/", what=f"ruleset {ruleset} tables")


def load_texts(texts: Mapping[str, str], schema: Mapping[str, Spec], prefix: str = "", what: str = "tables") -> dict[str, TomlFile]:
    """Parse and check ``{table name: TOML text}``; every problem at once."""
    files: dict[str, TomlFile] = {}
    problems: list[Problem] = []
    for name in sorted(texts):
        source = f"{prefix}{name}.toml"
        if name not in schema:
            problems.append(Problem(f"unknown table file{did_you_mean(name, list(schema))}", source=source))
            continue
        data, where, errors = parse_toml(texts[name], source)
        problems += errors
        if data is not None:
            problems += check(schema[name], data, where)
            files[name] = TomlFile(name, data, where)
    problems += [Problem("missing table file", source=f"{prefix}{name}.toml") for name in schema if name not in texts]
    if problems:
        raise InvalidInput(problems, what=what)
    return files


# ----------------------------------------------------------------------------- overlays


def apply_overlay(
    base: Mapping[str, TomlFile], overlay: str | Path, schema: Mapping[str, Spec], text: str | None = None
) -> dict[str, TomlFile]:
    """Lay a house rule's TOML over ``base``: its top-level keys name tables, and below them
    it may only replace keys that exist (tables merge key by key; other values, arrays
    included, are replaced whole and must keep their kind). The merged tables are checked
    again. Raises :class:`InvalidInput` with every problem, located in the overlay file."""
    source = str(overlay)
    if text is None:
        text = read_bounded(overlay, f"overlay {source}")
    data, where, problems = parse_toml(text, source)
    if data is None:
        raise InvalidInput(problems, what=f"overlay {source}")
    merged = dict(base)
    for name, value in data.items():
        if name not in base:
            problems.append(where.problem(name, f"unknown table {name!r}{did_you_mean(name, list(base))}"))
            continue
        out: Out = []
        new = _merge(base[name].data, value, name, out)
        problems += [where.problem(p, m) for p, m in out]
        if not out:
            problems += [where.problem(_join(name, p.path) if p.path else name, p.message) for p in check(schema[name], new, Where(source))]
            merged[name] = TomlFile(name, new, base[name].where)
    if problems:
        raise InvalidInput(problems, what=f"overlay {source}")
    return merged


def _merge(base: Any, over: Any, path: str, out: Out) -> Any:
    if isinstance(base, dict):
        if not isinstance(over, dict):
            out.append((path, f"expected a table (to merge into), got {_kind(over)}"))
            return base
        merged = dict(base)
        for key, value in over.items():
            if key not in base:
                out.append((_join(path, key), f"unknown key {key!r}; an overlay may only replace existing keys{did_you_mean(key, list(base))}"))
            else:
                merged[key] = _merge(base[key], value, _join(path, key), out)
        return merged
    if _kind(base) != _kind(over) and not (isinstance(base, (int, float, str)) and to_fraction(over) is not None and to_fraction(base) is not None):
        out.append((path, f"expected {_kind(base)} like the base table, got {_kind(over)} {over!r}"))
        return base
    return over


# ----------------------------------------------------------------------------- key lines


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")


def _dotted(key: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r"""(?:"[^"]*"|'[^']*'|[^.]+)""", key)]


def key_lines(text: str) -> dict[str, int]:
    """Best effort: the line of each table header, key and array element of a TOML text, by
    key path ("a.b[2].c"). Problems fall back to the nearest enclosing path that has a line."""
    lines: dict[str, int] = {}
    table = ""
    arrays: dict[str, int] = {}  # array-of-tables path -> current index
    stack: list[list[Any]] = []  # open containers in a value: [kind, path, index]
    in_string = ""
    for no, line in enumerate(text.splitlines(), 1):
        if not stack and not in_string:
            header = _HEADER.match(line)
            if header:
                parts, path = _dotted(header[2]), ""
                for i, part in enumerate(parts):
                    path = _join(path, part)
                    if i == len(parts) - 1 and header[1] == "[[":
                        arrays[path] = arrays.get(path, -1) + 1
                    if path in arrays:
                        path = _join(path, arrays[path])
                table = path
                lines.setdefault(table, no)
                continue
            key = _KEY.match(line)
            if not key:
                continue
            path = table
            for part in _dotted(key[1]):
                path = _join(path, part)
            lines.setdefault(path, no)
            rest = line[key.end():]
            stack = [["value", path, 0]]
        else:
            rest = line
        in_string = _scan(rest, no, stack, lines, in_string)
        if stack and stack[0][0] == "value" and len(stack) == 1:
            stack = []
    return lines


def _scan(rest: str, no: int, stack: list[list[Any]], lines: dict[str, int], in_string: str) -> str:
    """Walk one line of a value, tracking strings and open arrays and inline tables."""
    i = 0
    while i < len(rest):
        if in_string:
            end = rest.find(in_string, i)
            if in_string == '"':
                while end > 0 and rest[end - 1] == "\\":
                    end = rest.find('"', end + 1)
            if end < 0:
                return in_string if len(in_string) == 3 else ""
            i, in_string = end + len(in_string), ""
            continue
        ch = rest[i]
        if ch == "#":
            break
        top = stack[-1] if stack else None
        if top is not None and top[0] == "[" and ch not in " \t,]" and not top[3]:
            lines.setdefault(_join(top[1], top[2]), no)
            top[3] = True
        if ch in "\"'":
            in_string = rest[i : i + 3] if rest[i : i + 3] in ('"""', "'''") else ch
            i += len(in_string)
            continue
        if ch == "[" and top is not None:
            path = top[1] if top[0] == "value" else _join(top[1], top[2]) if top[0] == "[" else top[1]
            stack.append(["[", path, 0, False])
        elif ch == "{" and top is not None:
            stack.append(["{", _join(top[1], top[2]) if top[0] == "[" else top[1], 0])
        elif ch in "]}" and len(stack) > 1:
            stack.pop()
        elif ch == "," and top is not None and top[0] == "[":
            top[2] += 1
            top[3] = False
        i += 1
    return in_string
