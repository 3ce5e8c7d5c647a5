"""`referee draw`: every bundled scenario drawn with no label over another and every label on
the map; the same bytes each time; bad output names refused."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner
from matplotlib.backends.backend_agg import FigureCanvasAgg
from referee.core.cli.cli import main
from referee.core.input.scenario import bundled, find_scenario, load_scenario
from referee.core.studies import draw


@pytest.mark.parametrize("scenario_id", [sid for sid, _, _ in bundled()])
def test_no_label_overlaps_another_and_every_label_is_on_the_map(scenario_id: str) -> None:
    scenario = load_scenario(find_scenario(scenario_id))
    fig = draw.figure(scenario)
    renderer = FigureCanvasAgg(fig).get_renderer()
    ax = fig.axes[0]
    frame = ax.get_window_extent(renderer)
    boxes = {t.get_text(): t.get_window_extent(renderer) for t in ax.texts}
    assert len(ax.texts) >= len(scenario.units) + len(scenario.objectives)  # and the scale bar, the north arrow
    for (a, box_a), (b, box_b) in combinations(boxes.items(), 2):
        assert not box_a.overlaps(box_b), (a, b)
    for text, box in boxes.items():
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, text


@pytest.mark.parametrize("scenario_id", [sid for sid, _, _ in bundled()])
def test_labels_are_short_and_tell_units_apart(scenario_id: str) -> None:
    names = draw.short_names(load_scenario(find_scenario(scenario_id)).units)
    assert len(set(names.values())) == len(names)
    assert not [n for n in names.values() if n.count("(") != n.count(")")]


def test_a_label_keeps_a_bracket_inside_the_name_and_drops_the_ones_that_close_it() -> None:
    names = draw.short_names(load_scenario(find_scenario("kernstown")).units)
    assert names["1st-wv"] == "1st (West) Virginia"
    assert names["rockbridge-parrotts"] == "Rockbridge Artillery, the two Parrotts"
    assert draw.short_names(load_scenario(find_scenario("big-bethel")).units)["1st-vt"] == "1st Vermont"


def test_a_drawing_is_the_same_every_time(tmp_path: Path) -> None:
    files = [tmp_path / "a.svg", tmp_path / "b.svg"]
    for path in files:
        result = CliRunner().invoke(main, ["draw", "drill-charge-battery", "-o", str(path)])
        assert result.exit_code == 0, result.output
    assert files[0].read_bytes() == files[1].read_bytes()
    assert b"<svg" in files[0].read_bytes()


def test_png_and_pdf(tmp_path: Path) -> None:
    for name, magic in (("map.png", b"\x89PNG"), ("map.pdf", b"%PDF")):
        result = CliRunner().invoke(main, ["draw", "drill-musketry", "-o", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        assert (tmp_path / name).read_bytes().startswith(magic)


@pytest.mark.parametrize(("out", "says"), [("map.gif", "unknown kind of drawing '.gif'"), ("map", "(no suffix)"),
                                           ("no-such-folder/map.svg", "does not exist")])
def test_bad_output_names_are_refused(tmp_path: Path, out: str, says: str) -> None:
    result = CliRunner().invoke(main, ["draw", "big-bethel", "-o", str(tmp_path / out)])
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output
