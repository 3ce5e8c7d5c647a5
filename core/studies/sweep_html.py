"""A sweep's summary as one self-contained HTML page in the report's style: each point's
measures with their intervals, each measure against a parameter with its band, and a heat map
for two parameters. The other parameters stay at the base point's values in a plot of one or two."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import matplotlib.pyplot as plt  # the backend: report_html's import below chooses it, before any figure

from .report_html import PLOT_STYLE, _ruleset_colours, _svg

MOST_POINTS = 40  # the most points the by-point plot shows


def render(data: Mapping[str, Any]) -> str:
    style = re.search(r"<style>.*?</style>", files("referee.core.studies").joinpath("report_page.html").read_text(encoding="utf-8"), re.DOTALL)
    parts = [f"<h1>{html.escape(data['title'])}</h1>",
             (f"<p class=\"meta\">{data['played']:,} of {data['games']:,} games; {data['replications']} replications a point, "
              f"seed {data['seed']}, base point {html.escape(data['base'])}; referee {html.escape(data['version'])}; "
              f"from {html.escape(data['source'])}</p>")]
    varying = [p for p in data["parameters"] if len(p["values"]) > 1]
    with plt.rc_context(PLOT_STYLE):
        for scenario, sides in data["sides"].items():
            points = [p for p in data["points"] if p["scenario"] == scenario and p["games"]]
            parts.append(f"<h2>{html.escape(scenario)}</h2>")
            parts.append(_table(points, sides))
            if len({p["point"] for p in points}) <= MOST_POINTS:
                parts.append(_plot_points(points, sides))
            for parameter in varying:
                if parameter["kind"] == "cell":
                    parts.append(_plot_parameter(points, sides, parameter, data))
            if len(varying) >= 2:
                parts += [_heat_map(points, sides, varying[0], varying[1], ruleset, data) for ruleset in dict.fromkeys(p["ruleset"] for p in points)]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(data['title'])}</title>\n{style.group(0) if style else ''}\n</head>\n<body><main>\n"
            + "\n".join(parts) + "\n</main></body>\n</html>\n")


def _table(points: Sequence[Mapping[str, Any]], sides: Sequence[str]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in ("point", "rules", "games", f"{sides[0]} wins", *(f"{s} men lost p10/p50/p90" for s in sides),
                                                            *(f"change in {s} men lost" for s in sides), "history's men lost"))
    rows = []
    for p in points:
        win = p["win"][sides[0]]
        cells = [html.escape(p["ruleset"]), str(p["games"]), f"{win['share']:.0%} [{win['ci95'][0]:.0%}-{win['ci95'][1]:.0%}]"]
        cells += [" / ".join(f"{p['men_lost'][s][q]:,.0f}" for q in ("p10", "p50", "p90")) for s in sides]
        against = p.get("against_base")
        for s in sides:
            d = (against or {}).get(f"{s} men lost")
            cells.append("base" if against is None else f"{d['mean']:+,.0f} [{d['ci95'][0]:+,.0f}, {d['ci95'][1]:+,.0f}]" if d else "")
        hist = p.get("history")
        cells.append("; ".join(f"{s}: {c['history']:,.0f}, percentile {c['percentile']:.0f} ({c['verdict']})"
                               for s, c in hist["men_lost"].items() if c["history"] is not None) if hist else "")
        rows.append(f"<tr><th>{html.escape(p['point'])}</th>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f"<table class=\"comparison\"><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _plot_points(points: Sequence[Mapping[str, Any]], sides: Sequence[str]) -> str:
    """Each point's win share (95 % interval) and men lost (p50, p10-p90), a row a point."""
    names = list(dict.fromkeys(p["point"] for p in points))
    rulesets = list(dict.fromkeys(p["ruleset"] for p in points))
    colours = _ruleset_colours(rulesets)
    fig, axes = plt.subplots(1, 1 + len(sides), figsize=(9, 1.2 + 0.35 * len(names) * max(1, len(rulesets)) ** 0.5), sharey=True)
    step = 0.6 / max(1, len(rulesets))
    for j, ruleset in enumerate(rulesets):
        mine = {p["point"]: p for p in points if p["ruleset"] == ruleset}
        ys = [i + (j - (len(rulesets) - 1) / 2) * step for i, name in enumerate(names) if name in mine]
        chosen = [mine[name] for name in names if name in mine]
        share = [p["win"][sides[0]]["share"] for p in chosen]
        lo = [s - p["win"][sides[0]]["ci95"][0] for s, p in zip(share, chosen)]
        hi = [p["win"][sides[0]]["ci95"][1] - s for s, p in zip(share, chosen)]
        axes[0].errorbar(share, ys, xerr=[lo, hi], fmt="o", color=colours[ruleset], label=ruleset, capsize=2)
        for ax, side in zip(axes[1:], sides):
            m = [p["men_lost"][side] for p in chosen]
            ax.errorbar([x["p50"] for x in m], ys, xerr=[[x["p50"] - x["p10"] for x in m], [x["p90"] - x["p50"] for x in m]],
                        fmt="o", color=colours[ruleset], capsize=2)
    axes[0].set_yticks(range(len(names)), names)
    axes[0].invert_yaxis()
    axes[0].set_xlim(0, 1)
    axes[0].set_title(f"{sides[0]} wins")
    axes[0].legend(frameon=False, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=min(4, len(rulesets)))
    for ax, side in zip(axes[1:], sides):
        ax.set_title(f"{side} men lost")
    fig.tight_layout()
    return _svg(fig) + "<p class=\"meta\">By point: the win share with its 95% interval; men lost, p50 with a bar from p10 to p90.</p>"


def _at_base(points: Sequence[Mapping[str, Any]], free: Sequence[str], data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The points whose parameters other than ``free`` have the base point's values."""
    base: Mapping[str, Any] = next((p["values"] for p in data["points"] if p["point"] == data["base"]), {})
    names = [p["name"] for p in data["parameters"] if p["name"] not in free]
    return [p for p in points if all(p["values"].get(n) == base.get(n) for n in names) and all(f in p["values"] for f in free)]


def _plot_parameter(points: Sequence[Mapping[str, Any]], sides: Sequence[str], parameter: Mapping[str, Any],
                    data: Mapping[str, Any]) -> str:
    """The first side's win share and each side's men lost against one parameter, with their bands."""
    name = parameter["name"]
    chosen = _at_base(points, [name], data)
    if len({p["values"][name] for p in chosen}) < 2:
        return ""
    rulesets = list(dict.fromkeys(p["ruleset"] for p in chosen))
    colours = _ruleset_colours(rulesets)
    fig, axes = plt.subplots(1, 1 + len(sides), figsize=(9, 2.8))
    for ruleset in rulesets:
        mine = sorted((p for p in chosen if p["ruleset"] == ruleset), key=lambda p: p["values"][name])
        xs = [p["values"][name] for p in mine]
        win = [p["win"][sides[0]] for p in mine]
        axes[0].plot(xs, [w["share"] for w in win], marker="o", color=colours[ruleset], label=ruleset)
        axes[0].fill_between(xs, [w["ci95"][0] for w in win], [w["ci95"][1] for w in win], color=colours[ruleset], alpha=0.2)
        for ax, side in zip(axes[1:], sides):
            m = [p["men_lost"][side] for p in mine]
            ax.plot(xs, [x["p50"] for x in m], marker="o", color=colours[ruleset])
            ax.fill_between(xs, [x["p10"] for x in m], [x["p90"] for x in m], color=colours[ruleset], alpha=0.2)
            h = mine[0].get("history", {}).get("men_lost", {}).get(side, {}).get("history") if mine else None
            if h is not None:
                ax.axhline(h, color="black", linestyle="--", linewidth=1)
    what = "shift of " if parameter.get("shift") else ""
    for ax in axes:
        ax.set_xlabel(f"{what}{name}")
    axes[0].set_ylim(0, 1)
    axes[0].set_title(f"{sides[0]} wins")
    axes[0].legend(frameon=False, fontsize=8)
    for ax, side in zip(axes[1:], sides):
        ax.set_title(f"{side} men lost")
    fig.tight_layout()
    return _svg(fig) + (f"<p class=\"meta\">Against {html.escape(name)}, the other parameters as at the base point: the win "
                        "share with its 95% interval as a band; men lost, p50 with the band from p10 to p90; history "
                        "dashed.</p>")


def _heat_map(points: Sequence[Mapping[str, Any]], sides: Sequence[str], a: Mapping[str, Any], b: Mapping[str, Any], ruleset: str,
              data: Mapping[str, Any]) -> str:
    """The first side's win share over two parameters under one ruleset."""
    chosen = [p for p in _at_base(points, [a["name"], b["name"]], data) if p["ruleset"] == ruleset]
    xs, ys = list(a["values"]), list(b["values"])
    grid = [[math.nan] * len(xs) for _ in ys]
    for p in chosen:
        x, y = p["values"][a["name"]], p["values"][b["name"]]
        if x in xs and y in ys:
            grid[ys.index(y)][xs.index(x)] = p["win"][sides[0]]["share"]
    if all(math.isnan(v) for row in grid for v in row):
        return ""
    fig, ax = plt.subplots(figsize=(1.8 + 0.7 * len(xs), 1.2 + 0.45 * len(ys)))
    image = ax.imshow(grid, cmap="Blues", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(xs)), [_tick(x) for x in xs])
    ax.set_yticks(range(len(ys)), [_tick(y) for y in ys])
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=8, color="white" if v > 0.6 else "black")
    ax.set_xlabel(a["name"])
    ax.set_ylabel(b["name"])
    ax.set_title(f"{ruleset}: {sides[0]} wins")
    fig.colorbar(image, ax=ax, fraction=0.05)
    fig.tight_layout()
    return _svg(fig)


def _tick(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else f"{value:g}"
