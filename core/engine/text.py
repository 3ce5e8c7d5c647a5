"""Text that came from an input, made safe to show: control characters escaped, long values cut.

A scenario's title, a unit's name or a key in a file reaches the terminal in narration, tables
and error messages; none of it may move the cursor, retitle the window or flood the screen.
"""

from __future__ import annotations

from .limits import SHOWN


def printable(text: str, newlines: bool = False) -> str:
    """``text`` with every character a terminal would act on (escape, carriage return, bidi
    overrides...) written as its Python escape, e.g. ``\\x1b``; newlines are kept if asked."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or (newlines and c == "\n") else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def shorten(text: str, limit: int = SHOWN) -> str:
    """At most ``limit`` characters, the cut marked with how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def quoted(value: str, limit: int = SHOWN) -> str:
    """A value as a message quotes it: its repr (control characters escaped), shortened."""
    return shorten(repr(value), limit)
