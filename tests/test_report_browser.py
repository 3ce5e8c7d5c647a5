"""The report in a real browser: headless Chromium driven over the DevTools protocol.

The page must load with no console error and no request beyond the file itself, draw every plot
and each replay's map with every unit on the field, change the map when the slider moves, and
play. A screenshot of the whole page is saved in the test's temporary folder.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main
from referee.core.input.scenario import find_scenario, load_scenario

websocket = pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[test]')")

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine: install Debian's chromium package (.ci/run does it with apt-get)")


class Page:
    """One browser tab over the DevTools protocol: commands, and the events seen so far."""

    def __init__(self, url: str) -> None:
        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str, seconds: float = 30) -> dict[str, Any]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            seen = next((e for e in self.events if e.get("method") == method), None)
            if seen:
                return seen
            self.events.append(json.loads(self.socket.recv()))
        raise AssertionError(f"no {method} within {seconds} s")

    def js(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(main, ["report", "big-bethel", "--rules", "rff,hardtack", "-n", "6", "--workers", "1", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture()
def page(tmp_path: Path) -> Iterator[Page]:
    profile = tmp_path / "profile"
    process = subprocess.Popen(
        [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
         "--remote-allow-origins=*", f"--user-data-dir={profile}", "--window-size=1280,1800", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            assert process.poll() is None, "Chromium stopped before it opened its DevTools port"
            assert time.monotonic() < end, "Chromium opened no DevTools port within 30 s"
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            tabs = json.load(answer)
        tab = next(t for t in tabs if t["type"] == "page")
        page = Page(tab["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.send(f"{domain}.enable")
        yield page
        page.socket.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def errors(page: Page) -> list[str]:
    """Console errors, uncaught exceptions and browser log errors seen so far."""
    found = []
    for e in page.events:
        method, params = e.get("method"), e.get("params", {})
        if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            found.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            found.append(json.dumps(params["exceptionDetails"])[:500])
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            found.append(params["entry"]["text"])
    return found


UNITS_SHOWN = """[...document.querySelectorAll('section.replay[data-ruleset="%s"] g.unit')]
    .filter(g => g.style.display !== 'none').map(g => g.dataset.unit + ' ' + g.getAttribute('transform')
    + ' ' + g.querySelector('rect').getAttribute('width') + ' ' + g.getAttribute('class'))"""


def test_the_report_draws_and_replays_in_a_browser(report: Path, page: Page, tmp_path: Path) -> None:
    page.send("Page.navigate", url=report.as_uri())
    page.wait_for("Page.loadEventFired")
    assert errors(page) == []
    requests = [e["params"]["request"]["url"] for e in page.events if e.get("method") == "Network.requestWillBeSent"]
    assert requests and all(url.startswith(("file:", "data:")) for url in requests), requests  # nothing fetched

    plots = page.js("[...document.querySelectorAll('figure')].map(f => [f.id, f.querySelectorAll('svg.plot path, svg.plot use').length])")
    assert [p[0] for p in plots] == ["plot-wins", "plot-paired", "plot-losses", "plot-causes", "plot-time", "plot-mechanics"]
    assert all(count > 10 for _, count in plots), plots
    text_px = page.js("""[...document.querySelectorAll('svg.plot text')].map(t => { const m = t.getScreenCTM();
        return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); })""")
    assert text_px and min(text_px) >= 10, min(text_px)  # every text of every plot legible at 1280 pixels (was ~5 px)
    sizes = page.js("[...document.querySelectorAll('svg.plot, svg.map')].map(s => s.getBoundingClientRect().width * s.getBoundingClientRect().height)")
    assert len(sizes) == 8 and all(size > 10_000 for size in sizes), sizes  # six plots and two maps, each with room on the page

    scenario = load_scenario(find_scenario("big-bethel"))
    on_field = sum(1 for u in scenario.units if u.entry is None)
    for ruleset in ("rff", "hardtack"):
        section = f'section.replay[data-ruleset="{ruleset}"]'
        assert page.js(f"document.querySelectorAll('{section} svg.map polygon').length") == len(scenario.areas)
        assert page.js(f"document.querySelectorAll('{section} svg.map polyline').length") == len(scenario.features)
        before = page.js(UNITS_SHOWN % ruleset)
        assert len(before) == on_field
        assert page.js(f"document.querySelector('{section} .narration').children.length") > 0
        clock = page.js(f"document.querySelector('{section} .clock').textContent")
        last = page.js(f"""(() => {{ const s = document.querySelector('{section} .slider');
            s.value = s.max; s.dispatchEvent(new Event('input')); return +s.max; }})()""")
        assert last > 1
        after = page.js(UNITS_SHOWN % ruleset)
        assert after != before and after
        assert page.js(f"document.querySelector('{section} .clock').textContent") != clock

    section = 'section.replay[data-ruleset="rff"]'
    page.js(f"""(() => {{ const s = document.querySelector('{section} .slider'); s.value = 0; s.dispatchEvent(new Event('input'));
        document.querySelector('{section} .play').click(); }})()""")
    end = time.monotonic() + 10
    while page.js(f"+document.querySelector('{section} .slider').value") < 2:
        assert time.monotonic() < end, "the play button did not move the replay on"
        time.sleep(0.2)
    page.js(f"document.querySelector('{section} .play').click()")  # pause
    page.js(f"""(() => {{ const s = document.querySelector('{section} .slider'); s.value = 3; s.dispatchEvent(new Event('input')); }})()""")
    assert errors(page) == []

    width, height = page.js("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = page.send("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                     clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
    png = tmp_path / "report.png"
    png.write_bytes(base64.b64decode(shot["data"]))
    assert png.stat().st_size > 50_000


CHECK_STEP = """((section) => {
  // the labels, objective names and fixed marks of the map shown, as boxes on the screen; units on the field
  const root = document.querySelector(`section.replay[data-ruleset="${section}"]`);
  const map = root.querySelector('svg.map').getBoundingClientRect();
  const box = n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const visible = n => n.style.display !== 'none';
  const labels = [...root.querySelectorAll('g.labels text')].filter(visible).map(t => [t.textContent, ...box(t)]);
  const fixed = [...root.querySelectorAll('.objective-label, .scale-bar, .north-arrow, .status')].map(n => [n.getAttribute('class'), ...box(n)]);
  const units = [...root.querySelectorAll('g.unit')].filter(visible).map(g => [g.dataset.unit, ...box(g.querySelector('.body'))]);
  return {map: [map.left, map.top, map.right, map.bottom], labels, fixed, units,
          step: +root.querySelector('.slider').value, last: +root.querySelector('.slider').max,
          clock: root.querySelector('.clock').textContent,
          status: [...root.querySelectorAll('.status-line')].map(t => t.textContent),
          now: [...root.querySelectorAll('.narration li.now')].map(li => li.textContent)};
})('%s')"""


def _overlap(a: list[Any], b: list[Any]) -> float:
    """The area two screen boxes ([name, left, top, right, bottom]) share."""
    return max(0.0, min(a[3], b[3]) - max(a[1], b[1])) * max(0.0, min(a[4], b[4]) - max(a[2], b[2]))


def _on_field(payload: dict[str, Any], step: int) -> set[str]:
    state: dict[str, Any] = {}
    for frame in payload["frames"][:step + 1]:
        state.update(frame["units"])
    return {uid for uid, v in state.items() if v[8] not in ("off", "gone")}


BATTLES = ("big-bethel", "brawners-farm", "kernstown", "valverde")


@pytest.mark.parametrize("battle", BATTLES)
def test_each_battles_replay_steps_with_every_unit_on_the_map_and_no_label_over_another(
        battle: str, page: Page, tmp_path: Path) -> None:
    """Every step of each bundled battle's replay, reached with the forward button: each unit on
    the field drawn inside the map, no two labels (units', objectives') nor a label and the scale
    bar, north arrow or status box overlapping on the screen; the back button steps back."""
    path = tmp_path / f"{battle}.html"
    result = CliRunner().invoke(main, ["report", battle, "--rules", "rff,hardtack", "-n", "1", "--workers", "1", "-o", str(path)])
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    payloads = {p["ruleset"]: p for p in (json.loads(m.replace("<\\/", "</")) for m in
                re.findall(r'<script type="application/json" class="replay-data">(.*?)</script>', text, re.DOTALL))}
    page.send("Emulation.setDeviceMetricsOverride", width=1280, height=720, deviceScaleFactor=1, mobile=False)
    page.send("Page.navigate", url=path.as_uri())
    page.wait_for("Page.loadEventFired")
    for ruleset, payload in payloads.items():
        short = {uid: u["label"] for uid, u in payload["units"].items()}
        seen = page.js(CHECK_STEP % ruleset)
        assert seen["step"] == 0
        for step in range(seen["last"] + 1):
            if step:
                page.js(f"document.querySelector('section.replay[data-ruleset=\"{ruleset}\"] .forward').click()")
                seen = page.js(CHECK_STEP % ruleset)
            where = f"{battle} {ruleset} step {step}"
            assert seen["step"] == step, where
            assert {u[0] for u in seen["units"]} == _on_field(payload, step), where
            left, top, right, bottom = seen["map"]
            for uid, x0, y0, x1, y1 in seen["units"]:
                assert left - 1 <= (x0 + x1) / 2 <= right + 1 and top - 1 <= (y0 + y1) / 2 <= bottom + 1, f"{where}: {uid} off the map"
            assert sorted(label[0] for label in seen["labels"]) == sorted(short[u[0]] for u in seen["units"]), where
            for label in seen["labels"]:
                assert left - 1 <= label[1] and label[3] <= right + 1 and top - 1 <= label[2] and label[4] <= bottom + 1, \
                    f"{where}: label {label[0]} leaves the map"
            marks = seen["labels"] + seen["fixed"]
            for i, a in enumerate(marks):
                for b in marks[i + 1:]:
                    assert _overlap(a, b) <= 1.0, f"{where}: {a[0]!r} overlaps {b[0]!r}"
            frame = payload["frames"][step]
            assert seen["now"] == frame["narration"], where  # the step's narration is the one highlighted
            assert seen["status"][0].startswith(frame["clock"]), where
            assert all(f"{side}: {frame['lost'][side]:,} men lost so far" in seen["status"] for side in payload["sides"]), where
        page.js(f"document.querySelector('section.replay[data-ruleset=\"{ruleset}\"] .back').click()")
        page.js(f"document.querySelector('section.replay[data-ruleset=\"{ruleset}\"]').scrollIntoView()")
        assert page.js(CHECK_STEP % ruleset)["step"] == seen["last"] - 1
        shot = page.send("Page.captureScreenshot", format="png")
        (tmp_path / f"{battle}-{ruleset}.png").write_bytes(base64.b64decode(shot["data"]))
    assert errors(page) == []
