"""Results as rows of text, for the terminal and the report page; and a console that prints
tables to fit the terminal, or as plain ASCII text when the output is not a terminal."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table

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
    """A console whose tables fit its width (the terminal's; 80 columns when the output is not a
    terminal) and, when the output is not a terminal, are plain ASCII without styles."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
        if not self.is_terminal:
            objects = tuple(_plain(o) for o in objects)
        super().print(*objects, **kwargs)


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
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
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
