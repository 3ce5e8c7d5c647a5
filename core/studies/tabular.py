"""Results as rows of text, for the terminal and the report page; and a console that prints
tables to fit the terminal, or as plain ASCII text when the output is not a terminal."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Column, Table
from rich.text import Text

Row = tuple[str, list[str], str]  # label, one cell per ruleset, history


def comparison_rows(rulesets: Mapping[str, Mapping[str, Any]], sides: Sequence[str],
                    history: Mapping[str, Any] | None) -> list[Row]:
    """The rows of a comparison table: one cell per ruleset's summary (``compare.summarise``)."""
    rows: list[Row] = []

    def row(label: str, cell: Callable[..., str], hist: str = "") -> None:
        rows.append((label, [cell(r) for r in rulesets.values()], hist))

    def win(r: Mapping[str, Any], k: str) -> str:
        w = r["win"][k]
        return f"{w['share']:.1%} [{w['ci95'][0]:.1%}-{w['ci95'][1]:.1%}]"

    def spread(s: Mapping[str, float]) -> str:
        return f"{s['mean']:.0f} ({s['p10']:.0f}/{s['p50']:.0f}/{s['p90']:.0f})"

    for key in (*sides, "draw"):
        row("draws" if key == "draw" else f"{key} wins", lambda r, k=key: win(r, k),
            "yes" if history and history["winner"] == key else "")
    for side in sides:
        row(f"{side} men lost (p10/p50/p90)", lambda r, s=side: spread(r["men_lost"][s]),
            str(history["men_lost"].get(side, "")) if history else "")
        row(f"{side} guns lost", lambda r, s=side: f"{r['guns_lost'][s]['mean']:.2f}",
            str(history["guns_lost"].get(side, "")) if history else "")
        row(f"{side} men who left the field", lambda r, s=side: f"{r['men_left'][s]['mean']:.0f}")
    for reason in sorted({k for r in rulesets.values() for k in r["ended_by"]}):
        row(f"ended by: {reason}", lambda r, k=reason: f"{r['ended_by'].get(k, 0):.1%}")
    row("verdict decided by a break-off", lambda r: _broke_off(r.get("broke_off", {})))
    for side in sides:
        row(f"{side} yards gained (p50)", lambda r, s=side: f"{r['yards_gained'][s]['mean']:.0f} ({r['yards_gained'][s]['p50']:.0f})")
    row("minutes to decision (p50)", lambda r: f"{r['minutes']['mean']:.0f} ({r['minutes']['p50']:.0f})",
        str(history["minutes"] or "") if history else "")
    if history:
        for side in sides:
            row(f"history's {side} losses, percentile", lambda r, s=side: f"{r['historical']['men_lost_percentile'][s]:.1f}")
    return rows


def _broke_off(shares: Mapping[str, float]) -> str:
    from .history import broke_off_text

    return broke_off_text(dict(shares)) or "-"


class FittingConsole(Console):
    """A console whose tables fit its width (``--width``, else the terminal's; 80 columns when
    the output is not a terminal) without cutting a word or a number: labels wrap, and a table
    too wide even so is printed as several, each with the first column and as many of the others
    as fit (:func:`fitted`). When the output is not a terminal, tables are plain ASCII without styles."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._given_width = self._width  # (COLUMNS, if set)

    def fit_to(self, width: int | None) -> None:
        """Print to ``width`` columns from now on (None: the terminal's, COLUMNS or 80 again)."""
        self._width = width if width is not None else self._given_width

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if not self.is_terminal:
            objects = tuple(_plain(o) for o in objects)
        shown: list[Any] = []
        for o in objects:
            shown.extend(fitted(o, self) if isinstance(o, Table) else [o])
        super().print(*shown, **kwargs)


def fitted(table: Table, console: Console) -> list[Table]:
    """``table`` as one or more tables that fit ``console.width`` with every word whole: each
    column at least as wide as its longest word, the columns with the most room to spare narrowed
    first (their text wraps at spaces); if the longest words alone are too wide, one table per
    group of the columns after the first, each group as large as fits."""
    if not table.columns:
        return [table]
    words, lines, cells = zip(*(_extent(column, console) for column in table.columns))
    room = console.width - table._extra_width - sum(table._get_padding_width(i) for i in range(len(table.columns)))
    if sum(words) <= room:
        widths = list(lines)
        labels = [max(w, c) if column.justify == "right" else w for w, c, column in zip(words, cells, table.columns)]
        for floor in (list(map(max, words, cells)), labels, list(words)):  # headers wrap first, then labels, then any cell
            while sum(widths) > room and any(map(int.__gt__, widths, floor)):  # the column with the most to spare
                i = max(range(len(widths)), key=lambda k: widths[k] - floor[k])
                widths[i] -= max(1, min(widths[i] - floor[i], sum(widths) - room) // 2)
        for column, width in zip(table.columns, widths):
            column.width, column.overflow, column.no_wrap = max(width, 1), "fold", False
        return [table]
    groups: list[list[int]] = []
    for i in range(1, len(table.columns)):
        group = [*(groups[-1] if groups else []), i]
        padding = 3 * (len(group) + 1) + 1  # ASCII or box borders and a space either side of each cell
        if groups and words[0] + sum(words[k] for k in group) + padding <= console.width:
            groups[-1] = group
        else:
            groups.append([i])
    if len(groups) == 1:  # a word wider than the console: nothing to split; folded onto lines, never cut
        for column in table.columns:
            column.overflow, column.no_wrap = "fold", False
        return [table]
    size = -(-(len(table.columns) - 1) // len(groups))  # as even as the same number of tables allows
    even = [list(range(i, min(i + size, len(table.columns)))) for i in range(1, len(table.columns), size)]
    if len(even) == len(groups) and all(words[0] + sum(words[k] for k in g) + 3 * (len(g) + 1) + 1 <= console.width for g in even):
        groups = even
    return [fitted(_columns(table, [0, *group], f" ({k} of {len(groups)})"), console)[0] for k, group in enumerate(groups, 1)]


def _extent(column: Column, console: Console) -> tuple[int, int, int]:
    """The longest word, the longest line, and the longest line of a cell (the header aside) of a
    column, in cells."""
    texts = [console.render_str(c) if isinstance(c, str) else c for c in (column.header, *column._cells)]
    plain = [t.plain if isinstance(t, Text) else "" for t in texts]
    word = max((cell_len(w) for t in plain for w in _WORD.findall(t)), default=1)
    longest = [max((cell_len(x) for x in t.splitlines()), default=0) for t in plain]
    return word, max(*longest, word), max(longest[1:], default=0)


_WORD = re.compile(r"^[ \t]*\S+|\S+", re.MULTILINE)  # a line's indent belongs to its first word


def _columns(table: Table, keep: list[int], part: str) -> Table:
    """A copy of ``table`` with only the columns ``keep``, its title marked with ``part``."""
    new = copy.copy(table)
    new.columns = []
    for index, i in enumerate(keep):
        column = copy.copy(table.columns[i])
        column._index = index
        new.columns.append(column)
    new.title = f"{table.title}{part}" if isinstance(table.title, str) else table.title
    return new


def _plain(renderable: RenderableType) -> RenderableType:
    if isinstance(renderable, Table):
        renderable.box = box.ASCII
        renderable.header_style = renderable.title_style = renderable.caption_style = ""
        renderable.safe_box = True
    return renderable


WIDE = 120  # columns the wide history table needs to read well; narrower consoles get the long form


def history_long(report: Mapping[str, Any]) -> Table:
    """``referee history`` for a narrow console: one row per battle, ruleset and measure."""
    from .history import BROKE_OFF_LEGEND, number, winner_text

    table = Table(title=f"History among the outcomes: {report['n']} replications per battle and ruleset, seed {report['seed']}",
                  caption="p10 / p50 / p90 of the games; history (its percentile) and its verdict\n" + BROKE_OFF_LEGEND)
    for header, justify in (("battle, rules", "left"), ("measure", "left"), ("p10 / p50 / p90", "right"),
                            ("history (pct)", "right"), ("", "left")):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]  # rich types justify as a Literal; these are its values
    for r in report["rows"]:
        who = f"{r['scenario']}\n{r['ruleset']} ({r['replications']})"
        winner, share, interval = winner_text(r["winner"])
        from .history import broke_off_text

        marked = "\n".join(filter(None, [f"{share} {interval}", broke_off_text(r.get("broke_off", {}))]))
        table.add_row(who, f"{winner} wins", marked, "", "", end_section=False)
        cells = [(f"men lost, {s}", c) for s, c in r["men_lost"].items()]
        cells += [(f"guns lost, {s}", c) for s, c in r["guns_lost"].items()] + [("minutes", r["minutes"])]
        for i, (label, c) in enumerate(cells):
            hist = "" if c["history"] is None else f"{number(c['history'])} ({c['percentile']:.1f})"
            table.add_row("", label, " / ".join(number(round(c[q]) if abs(c[q]) >= 100 else c[q]) for q in ("p10", "p50", "p90")), hist, c["verdict"] or "",
                          end_section=i == len(cells) - 1)
    return table
