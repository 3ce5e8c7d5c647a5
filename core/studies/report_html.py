"""The report as one self-contained HTML page: plots drawn by matplotlib as inline SVG, the map
as SVG, the replay stepped by a few lines of inline JavaScript. Nothing is fetched when it opens.
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # (after the backend is chosen)
from matplotlib.figure import Figure

from ..engine.events import CAUSES
from .explain import LEAD
from .history import BROKE_OFF_LEGEND
from .tabular import comparison_rows

DRAW_COLOUR = "#d9c89e"
AREA_FILL = {"fields": "#eef0d8", "woods": "#9cc08a", "dense-woods": "#6f9e62", "rough": "#d8cfb0", "broken": "#d6c9a2",
             "swamp": "#b7d3c9", "marsh": "#b7d3c9", "buildings": "#b59a86"}
LINE_STYLE = {"road": ("#a5875f", 14, ""), "stream": ("#4a86c5", 10, ""), "fence": ("#7a5c3a", 5, "12 8"),
              "wall": ("#6d6d6d", 8, ""), "works": ("#5b3b1f", 16, ""), "bridge": ("#3d3d3d", 22, ""),
              "ford": ("#4a86c5", 22, "6 6")}
PLOT_STYLE: dict[Any, Any] = {"svg.fonttype": "none", "svg.hashsalt": "referee", "font.size": 11, "axes.labelsize": 11,
              "xtick.labelsize": 11, "ytick.labelsize": 11, "legend.fontsize": 11, "axes.titlesize": 12,
              "figure.titlesize": 12, "axes.titleweight": "bold", "axes.spines.top": False, "axes.spines.right": False}
"""Every text of a plot at least the axis labels' size (titles a little larger); every plot is
PLOT_WIDTH inches wide, so that on the page (where each fills the same width) they keep one scale."""
PLOT_WIDTH = 7.5


def _ruleset_colours(names: Sequence[str]) -> dict[str, str]:
    palette = ["#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6"]
    return {name: palette[i % len(palette)] for i, name in enumerate(names)}


def _svg(fig: Figure) -> str:
    """The figure as an inline SVG element that scales with the page."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    head, rest = text.split(">", 1)
    for attribute in ("width", "height"):  # let CSS size it from its viewBox
        start = head.index(f' {attribute}="')
        end = head.index('"', start + len(attribute) + 3)
        head = head[:start] + head[end + 1:]
    return head + ' class="plot">' + rest


def plot_wins(data: Mapping[str, Any]) -> Figure:
    sides = data["scenario"]["sides"]
    names = list(data["comparison"])
    fig, ax = plt.subplots(figsize=(PLOT_WIDTH, 1.0 + 0.5 * len(names)))
    for i, name in enumerate(names):
        left = 0.0
        for j, key in enumerate((*sides, "draw")):
            share = data["comparison"][name]["win"][key]["share"] or 0.0
            colour = DRAW_COLOUR if key == "draw" else data["scenario"]["colours"][j]
            ax.barh(i, share, left=left, color=colour, label=key if i == 0 else None, edgecolor="white")
            if share >= 0.08:
                ax.text(left + share / 2, i, f"{share:.0%}", ha="center", va="center",
                        color="white" if key != "draw" else "black")
            left += share
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("share of the games")
    history = data.get("history")
    ax.set_title("Who wins" + (f" (in history: {history['winner']})" if history else ""))
    ax.legend(ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.45), frameon=False)
    return fig


def plot_losses(data: Mapping[str, Any]) -> Figure:
    """Small multiples: a histogram of each side's men lost (a column a side) under each
    ruleset (a row a ruleset), on one scale per side, with history marked in every panel."""
    sides = data["scenario"]["sides"]
    names = list(data["comparison"])
    colours = _ruleset_colours(names)
    history = data.get("history")
    fig, axes = plt.subplots(len(names), len(sides), figsize=(PLOT_WIDTH, 0.9 + 1.3 * len(names)), sharex="col", squeeze=False)
    for column, side in enumerate(sides):
        lost = {name: [g["men_lost"][side] for g in r["games"]] for name, r in data["comparison"].items()}
        top = max([max(v) for v in lost.values()] + [history["men_lost"].get(side, 0) if history else 0, 1])
        bins = [top * i / 25 for i in range(26)]
        for row, name in enumerate(names):
            ax = axes[row][column]
            ax.hist(lost[name], bins=bins, color=colours[name])
            ax.set_yticks([])
            ax.spines["left"].set_visible(False)
            if column == 0:
                ax.set_ylabel(name, rotation=0, ha="right", va="center")
            if history and side in history["men_lost"]:
                ax.axvline(history["men_lost"][side], color="black", linestyle="--", linewidth=1.2)
                if row == 0:
                    ax.annotate(f"history: {history['men_lost'][side]:,}", (history["men_lost"][side], 1),
                                xycoords=("data", "axes fraction"), xytext=(4, 2), textcoords="offset points", va="bottom")
        axes[0][column].set_title(f"{side} men lost", pad=18 if history else 6)
        axes[-1][column].set_xlabel("men lost in a game")
    fig.tight_layout(h_pad=0.3)
    return fig


def plot_over_time(data: Mapping[str, Any]) -> Figure:
    sides = data["scenario"]["sides"]
    explained = data["explain"]["rulesets"]
    colours = _ruleset_colours(list(explained))
    fig, axes = plt.subplots(1, len(sides), figsize=(PLOT_WIDTH, 3.4), sharey=True)
    names = list(explained)
    width = 0.8 / max(1, len(names))
    for ax, side in zip(axes, sides):
        for i, name in enumerate(names):
            series = explained[name]["losses_by_time"]["men_lost"][side]
            ax.bar([k + (i - (len(names) - 1) / 2) * width for k in range(len(series))], series, width=width,
                   color=colours[name], label=name)
        labels = next(iter(explained.values()))["losses_by_time"]["from"]
        step = -(-len(labels) // 4)  # at most four labels
        ax.set_xticks(range(0, len(labels), step), labels[::step])
        ax.set_title(f"{side} men lost\nper half hour (mean)")
        ax.set_xlabel("half hour beginning at")
    axes[0].set_ylabel("men")
    axes[0].legend(frameon=False)
    fig.tight_layout()
    return fig


CAUSE_COLOURS = {"musketry": "#4f81bd", "canister": "#c0504d", "case-shot": "#d46a3f", "shell": "#e08a3c", "solid-shot": "#9c3d2e",
                 "shot-or-shell": "#b5553c", "artillery": "#d99694", "charge": "#8064a2", "rout": "#9bbb59", "captured": "#4bacc6",
                 "other": "#a6a6a6", "unreported": "#e6e6e6"}


def plot_causes(data: Mapping[str, Any]) -> Figure:
    """Per side, one bar per ruleset: the mean men lost a game, stacked by cause."""
    sides = data["scenario"]["sides"]
    explained = data["explain"]["rulesets"]
    names = list(explained)
    fig, axes = plt.subplots(1, len(sides), figsize=(PLOT_WIDTH, 1.6 + 0.45 * len(names)), sharey=True)
    shown: set[str] = set()
    for ax, side in zip(axes, sides):
        for i, name in enumerate(names):
            left = 0.0
            lost = explained[name]["losses_by_cause"][side]
            parts = [(cause, c["men"], CAUSES[cause]) for cause, c in lost["causes"].items()]
            parts += [("unreported", lost["unreported"], "cause not reported")] if lost["unreported"] >= 0.5 else []
            for cause, men, words in parts:
                ax.barh(i, men, left=left, color=CAUSE_COLOURS[cause], edgecolor="white", label=None if cause in shown else words)
                shown.add(cause)
                left += men
        ax.set_yticks(range(len(names)), names)
        ax.set_ylim(len(names) - 0.5, -0.5)
        ax.set_title(f"{side} men lost\nby cause (mean)")
        ax.set_xlabel("men lost in a game")
    fig.legend(loc="lower center", ncols=2, frameon=False, bbox_to_anchor=(0.5, -0.04 - 0.075 * ((len(shown) + 1) // 2)))
    fig.tight_layout()
    return fig


def plot_mechanics(data: Mapping[str, Any]) -> Figure:
    """Small multiples, two a row: how often each mechanic is rolled a game under each ruleset."""
    explained = data["explain"]["rulesets"]
    colours = _ruleset_colours(list(explained))
    most = max((len(r["mechanics"]) for r in explained.values()), default=1)
    columns = min(2, len(explained))
    rows = -(-len(explained) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(PLOT_WIDTH, rows * (0.9 + 0.3 * most)), squeeze=False)
    for ax, (name, r) in zip(axes.flat, explained.items()):
        mechanics = list(r["mechanics"].items())
        ax.barh(range(len(mechanics)), [v["per_game"] for _, v in mechanics], color=colours[name])
        ax.set_yticks(range(len(mechanics)), [m for m, _ in mechanics])
        ax.set_ylim(most - 0.5, -0.5)
        ax.set_title(name)
        ax.set_xlabel("rolls a game")
    for ax in list(axes.flat)[len(explained):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def plot_paired(data: Mapping[str, Any]) -> Figure | None:
    """Each ruleset less the baseline (``explain``'s ``paired``), game by game on the same seeds:
    the mean difference with its 95 % interval."""
    pairs = data["explain"]["paired"]
    if not pairs:
        return None
    sides = data["scenario"]["sides"]
    base = pairs[0]["a"]
    fig, axes = plt.subplots(1, 2, figsize=(PLOT_WIDTH, 1.9 + 0.45 * len(pairs) * len(sides)), gridspec_kw={"width_ratios": [3, 2]})
    rows = [(f"{p['b']}: {side}", p["men_lost"][side]) for p in pairs for side in sides]
    minutes = [(p["b"], p["minutes"]) for p in pairs]
    for ax, what, title, unit in ((axes[0], rows, "men lost", "men"), (axes[1], minutes, "minutes to decision", "minutes")):
        for i, (_, d) in enumerate(what):
            lo, hi = d["ci95"]
            ax.errorbar(d["mean"], i, xerr=[[d["mean"] - lo], [hi - d["mean"]]], fmt="o", color="#333333", capsize=3)
        ax.axvline(0, color="#999999", linewidth=0.8)
        ax.set_yticks(range(len(what)), [label for label, _ in what])
        ax.set_ylim(len(what) - 0.5, -0.5)
        ax.set_title(f"{title},\nless {base}'s")
        ax.set_xlabel(f"{unit} more than {base}")
    fig.tight_layout()
    return fig


def map_scale(terrain: Mapping[str, Any]) -> float:
    """How much bigger than on a 3,000-yard map strokes, labels and the least size of a unit
    are drawn (in yards), so that they look the same on any map."""
    width: float = terrain["width"]
    height: float = terrain["height"]
    return min(2.0, max(0.25, max(width, height) / 3000))


def map_svg(terrain: Mapping[str, Any]) -> str:
    """The ground as SVG, north up, one SVG unit a yard, with a scale bar in yards, a north arrow
    and a box for the time and the losses so far (units and their labels are drawn by the page)."""
    w, h = terrain["width"], terrain["height"]
    k = map_scale(terrain)

    def pts(points: Sequence[Sequence[float]]) -> str:
        return " ".join(f"{x:g},{h - y:g}" for x, y in points)

    parts = [f'<svg class="map" viewBox="0 0 {w:g} {h:g}" style="--k: {k:.3f}" xmlns="http://www.w3.org/2000/svg" role="img">',
             f'<rect width="{w:g}" height="{h:g}" fill="#f4f1e1"/>']
    for area in sorted(terrain["areas"], key=lambda a: (a["kind"] != "fields", a["height"])):
        fill = AREA_FILL.get(area["kind"], "#dddddd")
        stroke = f' stroke="#8a7a4a" stroke-width="{6 * k:.3g}"' if area["height"] else ""
        parts.append(f'<polygon class="area {area["kind"]}" points="{pts(area["points"])}" fill="{fill}"{stroke}>'
                     f'<title>{html.escape(area["name"] or area["kind"])}</title></polygon>')
    for line in terrain["lines"]:
        colour, width, dash = LINE_STYLE.get(line["kind"], ("#555555", 6, ""))
        dashes = f' stroke-dasharray="{" ".join(f"{int(d) * k:.3g}" for d in dash.split())}"' if dash else ""
        parts.append(f'<polyline class="line {line["kind"]}" points="{pts(line["points"])}" fill="none" stroke="{colour}" '
                     f'stroke-width="{width * k:.3g}"{dashes} stroke-linecap="round"><title>{html.escape(line["name"] or line["kind"])}</title></polyline>')
    for o in terrain["objectives"]:
        parts.append(f'<circle class="objective" cx="{o["x"]:g}" cy="{h - o["y"]:g}" r="{o["radius"]:g}" fill="none" stroke="#b8860b" '
                     f'stroke-width="{8 * k:.3g}" stroke-dasharray="{30 * k:.3g} {15 * k:.3g}"><title>{html.escape(o["name"])}</title></circle>'
                     f'<text class="objective-label" data-x="{o["x"]:g}" data-y="{h - o["y"]:g}" data-r="{o["radius"]:g}" '
                     f'x="{o["x"]:g}" y="{h - o["y"] + o["radius"] + 50 * k:.4g}">{html.escape(o["id"].replace("-", " "))}</text>')
    parts.append('<g class="units"></g><g class="leaders"></g><g class="labels"></g>')
    parts.append(_scale_bar(w, h, k) + _north_arrow(w, h, k) + _status_box(k))
    parts.append("</svg>")
    return "".join(parts)


def _scale_bar(w: float, h: float, k: float) -> str:
    """A bar of a round number of yards, about a fifth of the map's width, in the lower left."""
    from .draw import _round_yards  # (draw imports this module: imported when drawing)
    yards = _round_yards(w / 5)
    x, y, thick = 0.03 * w, h - 0.04 * h, 14 * k
    return (f'<g class="scale-bar"><rect x="{x - 12 * k:.4g}" y="{y - 70 * k:.4g}" width="{yards + 24 * k:.4g}" height="{86 * k:.4g}" '
            f'fill="#fff" fill-opacity="0.8"/>'
            f'<rect x="{x:.4g}" y="{y:.4g}" width="{yards / 2:.4g}" height="{thick:.3g}" fill="#111"/>'
            f'<rect x="{x + yards / 2:.4g}" y="{y:.4g}" width="{yards / 2:.4g}" height="{thick:.3g}" fill="#fff" stroke="#111" '
            f'stroke-width="{3 * k:.3g}"/>'
            f'<text x="{x + yards / 2:.4g}" y="{y - 16 * k:.4g}" text-anchor="middle">{yards:,.0f} yards</text></g>')


def _north_arrow(w: float, h: float, k: float) -> str:
    x, top = w - 80 * k, 40 * k
    return (f'<g class="north-arrow"><rect x="{x - 42 * k:.4g}" y="{top - 6 * k:.4g}" width="{84 * k:.4g}" height="{170 * k:.4g}" '
            f'fill="#fff" fill-opacity="0.8"/>'
            f'<path d="M {x:.4g} {top:.4g} L {x + 26 * k:.4g} {top + 90 * k:.4g} L {x:.4g} {top + 70 * k:.4g} '
            f'L {x - 26 * k:.4g} {top + 90 * k:.4g} Z" fill="#111"/>'
            f'<text x="{x:.4g}" y="{top + 150 * k:.4g}" text-anchor="middle">N</text></g>')


def _status_box(k: float) -> str:
    """The time and each side's men lost so far (filled in by the page at each step)."""
    x, y, line = 20 * k, 20 * k, 62 * k
    return (f'<g class="status"><rect x="{x:.4g}" y="{y:.4g}" width="{760 * k:.4g}" height="{3.3 * line:.4g}" rx="{8 * k:.3g}" '
            f'fill="#fff" fill-opacity="0.85" stroke="#999" stroke-width="{2 * k:.3g}"/>'
            + "".join(f'<text class="status-line line{i}" x="{x + 20 * k:.4g}" y="{y + (i + 0.95) * line:.4g}"></text>' for i in range(3))
            + "</g>")


def _swatch(inner: str) -> str:
    return f'<svg class="swatch" viewBox="0 0 36 16" width="36" height="16" aria-hidden="true">{inner}</svg>'


def map_legend(terrain: Mapping[str, Any], sides: Sequence[str], colours: Sequence[str]) -> str:
    """What the map's colours and shapes mean: the sides, the units' shapes and states, and the
    kinds of ground, lines and objectives on this map."""
    items = [(_swatch(f'<rect x="2" y="5" width="32" height="6" fill="{c}"/>'), html.escape(side)) for side, c in zip(sides, colours)]
    grey = "#777"
    items += [
        (_swatch(f'<rect x="2" y="6" width="32" height="4" fill="{grey}"/><line x1="2" y1="6" x2="34" y2="6" stroke="#111" stroke-width="2"/>'),
         "foot in line (front edge dark)"),
        (_swatch(f'<rect x="13" y="1" width="10" height="14" fill="{grey}"/><line x1="13" y1="1" x2="23" y2="1" stroke="#111" stroke-width="2"/>'),
         "foot in column"),
        (_swatch(f'<rect x="4" y="4" width="28" height="8" fill="{grey}"/><line x1="4" y1="12" x2="32" y2="4" stroke="#111" stroke-width="1.5"/>'),
         "horse"),
        (_swatch("".join(f'<line x1="{x}" y1="2" x2="{x}" y2="10" stroke="#111" stroke-width="2.5"/>'
                         f'<rect x="{x - 5}" y="9" width="10" height="4" fill="{grey}"/>' for x in (8, 18, 28))), "battery (a mark a gun)"),
        (_swatch(f'<rect x="4" y="3" width="28" height="10" fill="{grey}" stroke="#111" stroke-dasharray="4 2"/>'), "disordered"),
        (_swatch(f'<rect x="4" y="3" width="28" height="10" fill="{grey}" fill-opacity="0.55" stroke="#c00000" stroke-width="2"/>'),
         "broken or routed"),
        (_swatch(f'<rect x="4" y="3" width="28" height="10" fill="{grey}" stroke="#f0a000" stroke-width="3"/>'), "moved or hit this step"),
    ]
    for kind in sorted({a["kind"] for a in terrain["areas"]}):
        words = f"{kind} ground" if kind in ("broken", "rough") else kind
        items.append((_swatch(f'<rect x="2" y="1" width="32" height="14" fill="{AREA_FILL.get(kind, "#dddddd")}"/>'), html.escape(words)))
    if any(a["height"] for a in terrain["areas"]):
        items.append((_swatch('<rect x="3" y="2" width="30" height="12" fill="none" stroke="#8a7a4a" stroke-width="2"/>'), "high ground (edged)"))
    for kind in sorted({f["kind"] for f in terrain["lines"]}):
        colour, width, dash = LINE_STYLE.get(kind, ("#555555", 6, ""))
        dashes = f' stroke-dasharray="{" ".join(str(int(d) // 2) for d in dash.split())}"' if dash else ""
        items.append((_swatch(f'<line x1="2" y1="8" x2="34" y2="8" stroke="{colour}" stroke-width="{max(2, width // 3)}"{dashes}/>'),
                      html.escape(kind)))
    if terrain["objectives"]:
        items.append((_swatch('<circle cx="18" cy="8" r="6" fill="none" stroke="#b8860b" stroke-width="2" stroke-dasharray="4 2"/>'),
                      "objective"))
    return '<ul class="map-legend">' + "".join(f"<li>{swatch}{words}</li>" for swatch, words in items) + "</ul>"


def _table(data: Mapping[str, Any]) -> str:
    comparison = data["comparison"]
    history = data.get("history")
    rows = comparison_rows(comparison, data["scenario"]["sides"], history)
    head = "".join(f"<th>{html.escape(n)} <span class=n>(n={r['replications']})</span></th>" for n, r in comparison.items())
    head = f"<tr><th></th>{head}{'<th>history</th>' if history else ''}</tr>"
    body = "".join(
        f"<tr><th scope=row>{html.escape(label)}</th>{''.join(f'<td>{html.escape(c)}</td>' for c in cells)}"
        f"{f'<td class=hist>{html.escape(hist)}</td>' if history else ''}</tr>"
        for label, cells, hist in rows)
    legend = f"<caption>{html.escape(BROKE_OFF_LEGEND)}</caption>"
    return f'<table class="comparison">{legend}<thead>{head}</thead><tbody>{body}</tbody></table>'


def script_json(text: str) -> str:
    """JSON text safe inside a ``<script>`` element: every ``<``, ``>`` and ``&`` written as a
    JSON escape, so no ``</script>``, ``<!--`` or ``<script`` in a name can end or nest the element."""
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _replay_section(name: str, replay: Mapping[str, Any], terrain: Mapping[str, Any], sides: Sequence[str],
                    colours: Sequence[str]) -> str:
    outcome = replay["outcome"]
    result = f"{outcome['winner'] or 'draw'} after {outcome['minutes']} minutes: {outcome['reason']}"
    payload = json.dumps({"ruleset": name, "sides": list(sides), "colours": list(colours), "height": terrain["height"],
                          "width": terrain["width"], "scale": map_scale(terrain), **replay},
                         separators=(",", ":"))
    payload = script_json(payload)
    speeds = "".join(f'<option value="{v}"{" selected" if v == 1 else ""}>{label}</option>'
                     for v, label in ((0.5, "½ step a second"), (1, "1 step a second"), (2, "2 steps a second"),
                                      (4, "4 steps a second")))
    return (f'<section class="replay" data-ruleset="{html.escape(name)}"><h3>{html.escape(name)}: game {replay["replication"] + 1} '
            f'of the comparison, {html.escape(result)} <span class="seed">(seed {replay["seed"]})</span></h3>'
            f'<div class="controls"><button class="back" type="button" title="step back">&#9664; back</button>'
            f'<button class="play" type="button">Play</button>'
            f'<button class="forward" type="button" title="step forward">forward &#9654;</button>'
            f'<select class="speed" aria-label="speed of play">{speeds}</select>'
            f'<input class="slider" type="range" min="0" max="{len(replay["frames"]) - 1}" value="0" step="1" '
            f'aria-label="step of the game"><span class="clock"></span></div>'
            f'<div class="replay-body"><div class="map-box">{map_svg(terrain)}</div><ol class="narration"></ol></div>'
            f'{map_legend(terrain, sides, colours)}'
            f'<script type="application/json" class="replay-data">{payload}</script></section>')


def render(data: Mapping[str, Any], command: str) -> str:
    """The whole page."""
    with plt.rc_context(PLOT_STYLE):
        paired = plot_paired(data)
        plots: dict[str, Any] = {"wins": _svg(plot_wins(data)), "losses": _svg(plot_losses(data)), "time": _svg(plot_over_time(data)),
                                 "causes": _svg(plot_causes(data)), "mechanics": _svg(plot_mechanics(data)),
                                 "paired": None if paired is None else _svg(paired)}
    scenario = data["scenario"]
    explained = data["explain"]
    names = ", ".join(data["comparison"])
    history = data.get("history")
    page = files("referee.core.studies").joinpath("report_page.html").read_text(encoding="utf-8")
    fills: dict[str, str] = {
        "TITLE": html.escape(f"{scenario['title']} under {names}"),
        "SIDE_A": html.escape(scenario["sides"][0]), "SIDE_B": html.escape(scenario["sides"][1]),
        "SCENARIO": html.escape(scenario["title"]),
        "SUMMARY": html.escape(scenario["summary"]),
        "META": html.escape(f"{data['n']} games per ruleset, seed {data['seed']}"
                            + (f", options {', '.join(data['options'])}" if data["options"] else "")
                            + (f", house rules {', '.join(data['house_rules'])}" if data["house_rules"] else "")
                            + f"; referee {data['version']}"),
        "COMMAND": html.escape(command),
        "TABLE": _table(data),
        "HISTORY_NOTE": "" if not history else "The last column is what happened in history. " + html.escape(history.get("note") or ""),
        "LEAD": "".join(f"<li>{html.escape(s)}</li>" for s in explained["sentences"][:LEAD]),
        "MORE": "" if len(explained["sentences"]) <= LEAD else (
            f'<details><summary>{len(explained["sentences"]) - LEAD} more findings, largest first</summary><ul class="sentences">'
            + "".join(f"<li>{html.escape(s)}</li>" for s in explained["sentences"][LEAD:]) + "</ul></details>"),
        "BASELINE": html.escape(explained["paired"][0]["a"]) if explained["paired"] else "the first ruleset",
        "PLOT_WINS": plots["wins"], "PLOT_LOSSES": plots["losses"], "PLOT_TIME": plots["time"],
        "PLOT_MECHANICS": plots["mechanics"], "PLOT_CAUSES": plots["causes"],
        "PLOT_PAIRED": plots["paired"] or "<p>Only one ruleset: nothing to pair.</p>",
        "REPLAYS": "".join(_replay_section(name, r, data["terrain"], scenario["sides"], scenario["colours"])
                           for name, r in data["replays"].items()),
    }
    for key, value in fills.items():
        page = page.replace("{{" + key + "}}", value)
    return page
