"""A scenario drawn before it is played: the ground, the objectives, every unit where it deploys
(or where and when it enters), with names, a yard grid, a scale bar, a north arrow and a legend.

``referee draw SCENARIO -o map.svg`` (or ``.png``, ``.pdf``). Units are drawn as their footprint
in their formation (:mod:`~referee.core.engine.footprint`: a regiment in line a long thin block, a
column a short deep one, a battery its guns' front), coloured by side; labels are placed so that
none overlaps another (each tried in turn around its unit until it fits).
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from collections.abc import Sequence

import matplotlib
from matplotlib import patches
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, Bbox

from ..engine.events import clock
from ..engine.footprint import depth, frontage
from ..engine.world import Scenario, UnitSpec
from .report_html import AREA_FILL, LINE_STYLE

FORMATS = ("svg", "png", "pdf")
SIDE_COLOURS = {"union": "#2b4c8c", "confederate": "#8c2b2b"}
"""The customary colours; any other side takes one of :data:`OTHER_COLOURS` in the scenario's order."""
OTHER_COLOURS = ("#2b7a3d", "#7a5c2b", "#5c2b7a", "#2b7a7a")
FONT = 11  # points: readable when a 1,600-pixel image is projected


def short_names(units: Sequence[UnitSpec]) -> dict[str, str]:
    """Each unit's label: its name without its closing brackets, up to the first comma or colon
    ("1st Vermont, five companies (Washburn)" is "1st Vermont"); where that is shared, one more
    part of the name at a time ("Richmond Howitzers, the forward gun (Capt. Brown)" is "Richmond
    Howitzers, the forward gun"), until the labels differ or the names run out."""
    parts = {u.id: [p.strip() for p in re.split(r",|: ", _unbracketed(u.name)) if p.strip()] or [u.name] for u in units}
    taken = dict.fromkeys(parts, 1)
    while True:
        names = {uid: ", ".join(parts[uid][:taken[uid]]) for uid in parts}
        shared = Counter(names.values())
        longer = [uid for uid in parts if shared[names[uid]] > 1 and taken[uid] < len(parts[uid])]
        if not longer:
            return names
        for uid in longer:
            taken[uid] += 1


def _unbracketed(name: str) -> str:
    """The name without a bracket that ends it or a part of it ("Rockbridge Artillery (Capt.
    McLaughlin), the two Parrotts": "Rockbridge Artillery, the two Parrotts"); a bracket inside a
    part stays ("1st (West) Virginia")."""
    return re.sub(r"\s*\([^()]*\)(?=\s*(?:,|: |$))", "", name).strip() or name


def side_colours(scenario: Scenario) -> dict[str, str]:
    return {side: SIDE_COLOURS.get(side, OTHER_COLOURS[i % len(OTHER_COLOURS)]) for i, side in enumerate(scenario.sides)}


def _cut(name: str) -> str:
    return re.split(r",| \(|: ", name.strip(), maxsplit=1)[0].strip() or name


def render(scenario: Scenario, kind: str) -> bytes:
    """The drawing of ``scenario`` as a file of ``kind`` (one of :data:`FORMATS`), the same
    bytes every time for the same scenario (no date is written into it)."""
    buffer = io.BytesIO()
    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(kind, {})
    with matplotlib.rc_context({"svg.hashsalt": "referee", "svg.fonttype": "none"}):  # ids from a fixed salt; text as text
        figure(scenario).savefig(buffer, format=kind, dpi=120, metadata=metadata)
    return buffer.getvalue()


def figure(scenario: Scenario) -> Figure:
    """The drawing as a matplotlib figure (north up, one unit a yard)."""
    w, h = scenario.width, scenario.height
    inches = 13.0
    fig = Figure(figsize=(inches, max(4.0, inches * h / w) + 1.2), layout="constrained")
    ax = fig.add_subplot()
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.set_aspect("equal")
    ax.set_facecolor("#f4f1e1")
    ax.set_title(scenario.title, fontsize=FONT + 3, fontweight="bold", loc="left")
    ax.tick_params(labelsize=FONT - 1)
    ax.set_xlabel("yards east", fontsize=FONT)
    ax.set_ylabel("yards north", fontsize=FONT)
    ax.grid(True, color="#b8b39a", linewidth=0.5, alpha=0.7)
    ax.set_axisbelow(False)
    _ground(fig, ax, scenario)
    labels = _objectives(ax, scenario) + _units(ax, scenario)
    _scale_bar(ax, w, h)
    _north_arrow(ax, w, h)
    _legend(ax, scenario)
    _place_labels(fig, ax, labels)
    return fig


def _ground(fig: Figure, ax: Axes, scenario: Scenario) -> None:
    for area in sorted(scenario.areas, key=lambda a: (a.kind != "fields", a.height)):
        ax.add_patch(patches.Polygon(area.polygon, closed=True, facecolor=AREA_FILL.get(area.kind, "#dddddd"),
                                     edgecolor="#8a7a4a" if area.height else "none", linewidth=1.2, zorder=1))
    yard = _points_a_yard(fig, scenario)
    for line in scenario.features:
        colour, width, dash = LINE_STYLE.get(line.kind, ("#555555", 6, ""))
        xs, ys = zip(*line.points)
        style = (0, tuple(int(d) / 2 for d in dash.split())) if dash else "solid"
        ax.plot(xs, ys, color=colour, linewidth=max(1.0, width * yard * 0.6), linestyle=style,
                solid_capstyle="round", zorder=2)


def _points_a_yard(fig: Figure, scenario: Scenario) -> float:
    fig_width_points = float(fig.get_size_inches()[0]) * 72
    return fig_width_points / scenario.width * 3  # strokes a little wider than to scale, to be seen


def _objectives(ax: Axes, scenario: Scenario) -> list[tuple[Text, tuple[float, float]]]:
    labels = []
    for o in scenario.objectives:
        ax.add_patch(patches.Circle(o.position, o.radius, fill=False, edgecolor="#b8860b", linewidth=2,
                                    linestyle=(0, (6, 3)), zorder=3))
        text = ax.text(*o.position, _cut(o.name or o.id), fontsize=FONT, color="#7a5a00", fontstyle="italic",
                       ha="center", va="center", zorder=6)
        labels.append((text, o.position))
    return labels


def _units(ax: Axes, scenario: Scenario) -> list[tuple[Text, tuple[float, float]]]:
    least = max(scenario.width, scenario.height) / 250  # the least size drawn, so a small unit is seen
    colours = side_colours(scenario)
    labels = []
    names = short_names(scenario.units)
    for u in scenario.units:
        front = max(least, frontage(u.arm, u.men, u.guns, u.formation))
        deep = max(least / 2, depth(u.arm, u.men, u.guns, u.formation))
        x, y = u.position
        rect = patches.Rectangle((x - front / 2, y - deep / 2), front, deep, facecolor=colours[u.side],
                                 edgecolor="black", linewidth=0.6, alpha=0.45 if u.entry else 0.9,
                                 hatch="///" if u.entry else None, zorder=4)
        # the footprint turned to the unit's facing (0 = north, clockwise), about its centre
        rect.set_transform(Affine2D().rotate_deg_around(x, y, -u.facing) + ax.transData)
        ax.add_patch(rect)
        text = ax.text(x, y, _label(u, names[u.id]), fontsize=FONT, color=colours[u.side], fontweight="bold",
                       ha="center", va="center", zorder=7,
                       bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.75, "linewidth": 0})
        labels.append((text, (x, y)))
    return labels


def _label(u: UnitSpec, name: str) -> str:
    return f"{name} (enters {clock(u.entry)})" if u.entry is not None else name


def _place_labels(fig: Figure, ax: Axes, labels: Sequence[tuple[Text, tuple[float, float]]]) -> None:
    """Move each label, in turn, to the first place around its anchor where it overlaps no label
    placed before it (nor leaves the map); a leader line joins a moved label to its unit."""
    fig.draw_without_rendering()  # lay the figure out, then keep that layout while labels move
    fig.set_layout_engine("none")
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]  # (matplotlib's stubs)
    moving = {id(text) for text, _ in labels}
    placed = [t.get_window_extent(renderer) for t in ax.texts if id(t) not in moving]  # the scale bar, the arrow
    frame = ax.get_window_extent(renderer)
    for text, (x, y) in labels:
        box = text.get_window_extent(renderer)
        step = box.height * 1.1
        for dx, dy in _spiral(step):
            moved = Bbox.from_bounds(box.x0 + dx, box.y0 + dy, box.width, box.height)
            inside = frame.x0 <= moved.x0 and moved.x1 <= frame.x1 and frame.y0 <= moved.y0 and moved.y1 <= frame.y1
            if inside and not any(moved.overlaps(other) for other in placed):
                break
        else:
            moved, dx, dy = box, 0.0, 0.0
        placed.append(moved)
        if dx or dy:
            ax_x, ax_y = ax.transData.inverted().transform((ax.transData.transform((x, y))[0] + dx,
                                                             ax.transData.transform((x, y))[1] + dy))
            text.set_position((ax_x, ax_y))
            ax.plot([x, ax_x], [y, ax_y], color=text.get_color(), linewidth=0.7, alpha=0.7, zorder=5)


def _spiral(step: float) -> list[tuple[float, float]]:
    """Offsets (points) tried for a label: where it is, then ever farther above, below and beside."""
    tries = [(0.0, 0.0)]
    for ring in range(1, 13):
        r = ring * step
        tries += [(0.0, r), (0.0, -r), (r * 2.5, 0.0), (-r * 2.5, 0.0), (r * 2, r), (-r * 2, r), (r * 2, -r), (-r * 2, -r)]
    return tries


def _scale_bar(ax: Axes, w: float, h: float) -> None:
    """A bar of a round number of yards, about a fifth of the map's width, in the lower left."""
    length = _round_yards(w / 5)
    x0, y0 = w * 0.03, h * 0.04
    ax.add_patch(patches.Rectangle((x0, y0), length, h * 0.008, facecolor="black", zorder=8))
    ax.add_patch(patches.Rectangle((x0 + length / 2, y0), length / 2, h * 0.008, facecolor="white", edgecolor="black",
                                   linewidth=0.8, zorder=8))
    ax.text(x0 + length / 2, y0 + h * 0.015, f"{length:,.0f} yards", ha="center", va="bottom", fontsize=FONT, zorder=8)


def _round_yards(yards: float) -> float:
    magnitude = 10.0 ** math.floor(math.log10(yards))
    return max(float(m) * magnitude for m in (1, 2, 5) if m * magnitude <= yards)


def _north_arrow(ax: Axes, w: float, h: float) -> None:
    x, y = w * 0.96, h * 0.86
    ax.annotate("N", xy=(x, y + h * 0.09), xytext=(x, y), ha="center", va="top", fontsize=FONT + 2, fontweight="bold",
                arrowprops={"arrowstyle": "-|>", "color": "black", "linewidth": 1.5}, zorder=8)


def _legend(ax: Axes, scenario: Scenario) -> None:
    handles: list[Artist] = [patches.Patch(facecolor=colour, label=side) for side, colour in side_colours(scenario).items()]
    if any(u.entry is not None for u in scenario.units):
        handles.append(patches.Patch(facecolor="#999999", hatch="///", alpha=0.5, label="enters later"))
    for kind in sorted({a.kind for a in scenario.areas}):
        handles.append(patches.Patch(facecolor=AREA_FILL.get(kind, "#dddddd"), label=kind))
    if any(a.height for a in scenario.areas):
        handles.append(patches.Patch(facecolor="none", edgecolor="#8a7a4a", label="hill (edged)"))
    for kind in sorted({f.kind for f in scenario.features}):
        colour = LINE_STYLE.get(kind, ("#555555", 6, ""))[0]
        handles.append(Line2D([], [], color=colour, linewidth=3, label=kind))
    if scenario.objectives:
        handles.append(patches.Patch(facecolor="none", edgecolor="#b8860b", linestyle="--", label="objective"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=FONT, frameon=False)
