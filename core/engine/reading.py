"""Checked reading of a TOML input file: where each key is, and typed access that collects problems.

A :class:`Reader` gathers every problem of one file (with its key path and line) instead of
stopping at the first; a :class:`Table` gives typed access to one TOML table; the converters
turn raw values into checked ones or raise :class:`Bad` with what would be valid.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from attrs import define, field

from .errors import InvalidInput, Problem, did_you_mean
from .limits import DEGREES, FILE_BYTES, ITEMS, NESTING, NUMBER, TEXT
from .text import quoted
from .world import Point

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_TIME = re.compile(r"(\d{1,2}):(\d{2})")


# ----------------------------------------------------------------------------- files and TOML


def read_bounded(path: str | Path, what: str, missing: str = "no such file", limit: int = FILE_BYTES) -> str:
    """The text of an input file, read with a bound: a missing file (the ``missing`` message), a
    folder, a device, a FIFO, a file larger than ``limit`` bytes or one that is not UTF-8 is
    refused with a message saying which."""
    source = str(path)

    def refuse(message: str) -> InvalidInput:
        return InvalidInput([Problem(message, source=source)], what)

    try:  # without blocking: a FIFO with no writer would wait for one forever
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise refuse(missing) from None
    except OSError as error:
        raise refuse(f"cannot read: {error.strerror or error}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise refuse(f"is {kind_of_file(mode)}, not a file")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise refuse(f"cannot read: {error.strerror or error}") from None
    if len(data) > limit:
        raise refuse(f"is larger than {limit:,} bytes, the most an input file may be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InvalidInput([Problem(f"not UTF-8 text (byte {error.start})", source=source, line=line)], what) from None


def kind_of_file(mode: int) -> str:
    """What a file that is not a regular file is, for a message."""
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def parse_toml(text: str, source: str, what: str) -> dict[str, Any]:
    """TOML text as data; a syntax error, a number of thousands of digits or nesting deep enough
    to exhaust the parser is an :class:`InvalidInput` at its line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message, line = syntax_error(error)
    except RecursionError:
        message, line = f"arrays or tables nested too deeply (at most {NESTING} levels)", _line_of_match(_DEEP, text)
    except ValueError:  # an integer past Python's limit on digits
        message, line = f"a number far too large (numbers are at most {NUMBER:,} in size)", _line_of_match(_LONG_NUMBER, text)
    raise InvalidInput([Problem(message, source=source, line=line)], what) from None


_DEEP = re.compile(r"(?:[\[{]\s*(?:[\w\"'.-]+\s*=\s*)?){" + str(NESTING) + "}")
_LONG_NUMBER = re.compile(r"[0-9_]{1000,}")


def _line_of_match(pattern: re.Pattern[str], text: str) -> int | None:
    found = pattern.search(text)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def syntax_error(error: Exception) -> tuple[str, int | None]:
    """A TOML syntax error's message without its position, and its line."""
    message = str(error)
    found = re.search(r"\s*\(at line (\d+), column \d+\)", message)
    if found is None:
        return f"TOML syntax error: {message}", None
    return f"TOML syntax error: {message[: found.start()] + message[found.end():]}", int(found.group(1))


def oversized(data: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """(key path, message) for each nesting, array or string of ``data`` past the limits (numbers
    are bounded where they are read)."""
    if depth > NESTING:
        yield path, f"nested too deeply (at most {NESTING} levels of arrays and tables)"
        return
    if isinstance(data, dict):
        for key, value in data.items():
            yield from oversized(value, join(path, key), depth + 1)
    elif isinstance(data, list):
        if len(data) > ITEMS:
            yield path, f"{len(data):,} items: an array holds at most {ITEMS:,}"
            return
        for i, value in enumerate(data):
            yield from oversized(value, f"{path}[{i}]", depth + 1)
    elif isinstance(data, str) and len(data) > TEXT:
        yield path, f"a string of {len(data):,} characters: at most {TEXT:,}"


_BIG_EXPONENT = re.compile(r"[eE][+-]?[0_]*[1-9][0-9_]{3}")


def fraction(text: str) -> Fraction:
    """A number written as text ("4", "4.5", "9/2", "1e3") as a Fraction; ``ValueError`` for
    anything else, ``OverflowError`` for an exponent of four digits or more (10 to the
    100,000,000th alone takes minutes to build)."""
    if _BIG_EXPONENT.search(text):
        raise OverflowError(f"exponent too large in {text[:40]!r}")
    return Fraction(text)


# ----------------------------------------------------------------------------- key lines


_HEADER = re.compile(r"\s*(\[\[?)([^\[\]]+)\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_PART = re.compile(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""")


def key_lines(text: str) -> dict[str, int]:
    """The line of each table header and key, by key path (``units[3].men``), and of each inline
    table or array in an array (``orders[2].when[1]``); best effort."""
    lines: dict[str, int] = {}
    counts: dict[str, int] = {}
    table = ""
    depth, quote = 0, None
    array, items = "", 0  # the array value being read (its key path) and how many items it has shown

    def item_lines(number: int, opened: int) -> None:
        nonlocal items
        for _ in range(opened if array else 0):
            lines.setdefault(f"{array}[{items}]", number)
            items += 1

    for number, line in enumerate(text.splitlines(), start=1):
        if depth > 0 or quote:
            depth, quote, opened = _scan(line, depth, quote)
            item_lines(number, opened)
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
            path = f"{table}.{path}" if table else path
            lines.setdefault(path, number)
            value = line[key.end():]
            array, items = (path, 0) if value.lstrip().startswith("[") else ("", 0)
            depth, quote, opened = _scan(value, 0, None)
            item_lines(number, opened)
    return lines


def _dotted(key: str) -> str:
    return ".".join(next(p for p in m.groups() if p is not None) for m in _PART.finditer(key))


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None, int]:
    """Bracket depth and open multi-line string after scanning ``line`` (to skip value lines), and
    how many brackets it opened at depth 1 (the inline tables and arrays of an array value)."""
    i, opened = 0, 0
    while i < len(line):
        if quote:
            if quote[0] == '"' and line[i] == "\\":
                i += 2  # an escape in a basic string: the next character is not its end
            elif line.startswith(quote, i):
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
        if line[i] in "[{":
            opened += depth == 1
            depth += 1
        elif line[i] in "]}":
            depth -= 1
        i += 1
    return depth, quote if quote in ('"""', "'''") else None, opened


def line_of(lines: Mapping[str, int], path: str) -> int | None:
    """The line of ``path``, or of the nearest enclosing key or table that has one."""
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None


# ----------------------------------------------------------------------------- reader and tables


class Bad(Exception):
    """A value is wrong; the message says what would be valid."""


Convert = Callable[[Any], Any]
MISSING: Any = object()


@define
class Reader:
    """Collects the problems of one file."""

    source: str
    lines: Mapping[str, int]
    problems: list[Problem] = field(factory=list)

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(message, path=path, source=self.source, line=line_of(self.lines, path)))

    def table(self, raw: Any, path: str, keys: Sequence[str]) -> Table | None:
        if not isinstance(raw, dict):
            self.add(path, f"expected a table, got {show(raw)}")
            return None
        for key in raw:
            if key not in keys:
                self.add(join(path, key), f"unknown key {quoted(key)}{did_you_mean(key, keys)}")
        return Table(self, path, raw)

    def known(self, path: str, ref: str | None, known: Mapping[str, Any], kind: str) -> bool:
        """Is ``ref`` one of ``known``? An unknown one is a problem (with the closest ids)."""
        if ref is None or ref in known:
            return ref is not None
        self.add(path, f"no {kind} with id {quoted(ref)}{did_you_mean(ref, sorted(known))}")
        return False

    def known_side(self, path: str, side: str | None, sides: Sequence[str]) -> None:
        if side is not None and side not in sides:
            self.add(path, f"side {side!r} is not one of the scenario's sides ({', '.join(sides)})")


@define
class Table:
    """One TOML table with typed, checked access to its keys."""

    reader: Reader
    path: str
    raw: Mapping[str, Any]

    def at(self, key: str) -> str:
        return join(self.path, key)

    def get(self, key: str, convert: Convert, expect: str, default: Any = MISSING) -> Any:
        """The converted value; a missing required key or a bad value is a problem (gives None)."""
        if key not in self.raw:
            if default is MISSING:
                self.reader.add(self.at(key), f"missing key {key!r}: expected {expect}")
                return None
            return default
        try:
            return convert(self.raw[key])
        except Bad as bad:
            self.reader.add(self.at(key), str(bad))
            return None

    def section(self, key: str, keys: Sequence[str], required: bool = True) -> Table | None:
        if key not in self.raw:
            if required:
                self.reader.add(self.at(key), f"missing table [{self.at(key)}]")
            return None
        return self.reader.table(self.raw[key], self.at(key), keys)

    def array(self, key: str, keys: Sequence[str]) -> list[Table | None]:
        raw = self.raw.get(key, [])
        if not isinstance(raw, list):
            self.reader.add(self.at(key), f"expected an array of tables [[{key}]], got {show(raw)}")
            return []
        return [self.reader.table(item, f"{self.at(key)}[{i}]", keys) for i, item in enumerate(raw)]


def setting(pair: str, valid: Sequence[str], unknown: str) -> tuple[str, str] | Problem:
    """One ``--set KEY=VALUE``: the key, which must be one of ``valid``, and its value's text; or
    the problem with it (``unknown`` names a key that is not valid: ``{key}`` stands for it)."""
    key, sep, value = pair.partition("=")
    key = key.strip()
    if not sep:
        return Problem(f"expected KEY=VALUE, got {pair!r}", path="--set")
    if key not in valid:
        return Problem(unknown.format(key=repr(key)) + did_you_mean(key, valid), path=f"--set {key}")
    return key, value.strip()


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def show(value: Any) -> str:
    """A raw value as a message quotes it: its kind and (shortened) text."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, str):
        return f"string {quoted(value)}"
    if isinstance(value, list) and len(value) > 8:
        return f"an array of {len(value):,} items"
    if isinstance(value, int) and abs(value) >= 10**40:
        return f"int of {len(str(abs(value))):,} digits"
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text if len(text) <= 40 else text[:37] + '...'}"


# ----------------------------------------------------------------------------- converters


def nonempty_text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Bad(f"expected a non-empty string, got {show(value)}")
    return value


def any_text(value: Any) -> str:
    if not isinstance(value, str):
        raise Bad(f"expected a string, got {show(value)}")
    return value


def ident(value: Any) -> str:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise Bad(f"expected an id (letters, digits, '-' or '_', e.g. \"5th-ny\"), got {show(value)}")
    return value


def number(above: float | None = None, at_least: float | None = None, at_most: float | None = None) -> Convert:
    """A finite number within the bounds given (``above`` is exclusive)."""
    bounds = [f"> {above:g}" if above is not None else "", f">= {at_least:g}" if at_least is not None else "",
              f"<= {at_most:g}" if at_most is not None else ""]
    wanted = " and ".join(b for b in bounds if b)
    expect = f"a number {wanted}".strip()

    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and math.isnan(value)):
            raise Bad(f"expected {expect}, got {show(value)}")
        if ((above is not None and value <= above) or (at_least is not None and value < at_least)
                or (at_most is not None and value > at_most)):
            raise Bad(f"expected {expect}, got {_number_text(value)}")
        if not -NUMBER <= value <= NUMBER:
            raise Bad(f"expected {expect}, got {_number_text(value)} (numbers are at most {NUMBER:,} in size)")
        return float(value)

    return convert


def _number_text(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) or abs(value) < 10**15 else show(value)


def whole(at_least: int, at_most: int = NUMBER, what: str = "") -> Convert:
    """A whole number from ``at_least`` to ``at_most``; ``what`` says why the most is the most."""
    def convert(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Bad(f"expected a whole number >= {at_least}, got {show(value)}")
        if value < at_least:
            raise Bad(f"expected a whole number >= {at_least}, got {value}")
        if value > at_most:
            most = f"at most {at_most:,}{what}" if what else f"a whole number <= {at_most:,}"
            raise Bad(f"expected {most}, got {show(value)}")
        return value

    return convert


def choice(choices: Sequence[str], what: str) -> Convert:
    def convert(value: Any) -> str:
        if not isinstance(value, str):
            raise Bad(f"expected {what} (one of {', '.join(choices)}), got {show(value)}")
        if value not in choices:
            raise Bad(f"unknown {what} {quoted(value)}{did_you_mean(value, choices)}")
        return value

    return convert


def list_of(convert: Convert, what: str, unique: bool = True) -> Convert:
    def convert_all(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise Bad(f"expected an array of {what}, got {show(value)}")
        items = []
        for i, item in enumerate(value):
            try:
                items.append(convert(item))
            except Bad as bad:
                raise Bad(f"item {i}: {bad}") from None
        if unique and len(set(items)) < len(items):
            raise Bad(f"expected distinct {what}, got duplicates in {show(value)}")
        return tuple(items)

    return convert_all


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Bad(f"expected true or false, got {show(value)}")
    return value


def clock_time(value: Any) -> int:
    """``"HH:MM"`` (or a TOML local time) to minutes since midnight."""
    if isinstance(value, dt.time):
        return value.hour * 60 + value.minute
    found = _TIME.fullmatch(value) if isinstance(value, str) else None
    if found is None or int(found.group(1)) > 23 or int(found.group(2)) > 59:
        raise Bad(f"expected a time \"HH:MM\" (00:00 to 23:59), got {show(value)}")
    return int(found.group(1)) * 60 + int(found.group(2))


def point(value: Any) -> Point:
    coordinate = number()
    if not isinstance(value, list) or len(value) != 2:
        raise Bad(f"expected a point [x, y] in yards, got {show(value)}")
    try:
        return (coordinate(value[0]), coordinate(value[1]))
    except Bad:
        raise Bad(f"expected a point [x, y] of two numbers (yards), got {show(value)}") from None


def points(at_least: int) -> Convert:
    def convert(value: Any) -> tuple[Point, ...]:
        found: tuple[Point, ...] = list_of(point, "points [x, y]", unique=False)(value)
        if len(found) < at_least:
            raise Bad(f"expected at least {at_least} points [x, y], got {len(found)}")
        return found

    return convert


def degrees(value: Any) -> float:
    """A bearing from -720 to 720, normalised to 0 <= degrees < 360."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -DEGREES <= value <= DEGREES:
        raise Bad(f"expected degrees clockwise from north (a number from {-DEGREES} to {DEGREES}), got {show(value)}")
    bearing = value % 360.0
    return 0.0 if bearing >= 360.0 else bearing  # a tiny negative angle rounds up to 360
