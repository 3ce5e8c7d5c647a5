"""Interrupted comparisons (audit D1-D3, A13, and the house rule that loops forever).

Ctrl-C, SIGTERM and SIGHUP stop a comparison and report every replication finished, those
finished inside a chunk still being played included; a second Ctrl-C exits at once; workers
never outlive the parent. These run ``referee`` in its own process group and send it real
signals, as a shell would. No test waits a fixed time for the program to get going: each waits
for the launcher to say that a game has begun or ended (a line in a file named by
``REFEREE_TEST_MARKS``), so a loaded machine only makes them slower. How fast a stop is belongs
to benchmarks/, not here: :data:`HANG` only keeps a broken stop from hanging the suite.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import referee.core.studies.compare as compare_module
from referee.core.engine.game import replication_seed
from referee.core.input.scenario import find_scenario
from referee.core.studies.compare import Stack, run_replications

LOOPS_FOREVER = Path(__file__).parent / "fixtures" / "reliability" / "house_rules" / "loops_forever.py"
LONG_RUN = ("compare", "drill-musketry", "--rules", "rff", "-n", "1000000", "--json")  # hours of work

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or sys.platform != "linux",
                                reason="process groups are listed from /proc")


HANG = 120.0  # seconds after which a process that should have ended is taken to hang

LAUNCH = """\
import os, signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal: a background job or nohup ignores them
signal.signal(signal.SIGHUP, signal.SIG_DFL)
import referee.core.engine.game as game_module  # before anything imports its play
real = game_module.play
def play(game):  # says when each game begins and ends (workers are forked: they say it too)
    with open(os.environ["REFEREE_TEST_MARKS"], "a") as marks:
        marks.write("begun\\n")
    outcome = real(game)
    with open(os.environ["REFEREE_TEST_MARKS"], "a") as marks:
        marks.write("ended\\n")
    return outcome
game_module.play = play
from referee.core.cli.launch import main
main()
"""


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Starts ``referee ARGS`` in a process group of its own, with SIGINT and SIGHUP as in a
    terminal; whatever is left of every group started is killed when the test ends, pass or fail."""
    started: list[subprocess.Popen[bytes]] = []

    def launch(*args: str, launch: str = LAUNCH) -> subprocess.Popen[bytes]:
        env = {**os.environ, "REFEREE_TEST_MARKS": str(tmp_path / "marks")}
        process = subprocess.Popen([sys.executable, "-c", launch, *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True, env=env)
        started.append(process)
        return process

    launch.marks = tmp_path / "marks"  # type: ignore[attr-defined]
    try:
        yield launch
    finally:
        for process in started:
            for pid in group(process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def wait_for(done: Callable[[], bool], what: str) -> None:
    """Poll until ``done()`` (the program has got as far as the test needs), or fail at :data:`HANG`."""
    until = time.monotonic() + HANG
    while not done():
        if time.monotonic() > until:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


def marked(start: Any, mark: str) -> Callable[[], bool]:
    """Has a game been ``mark`` (begun, ended) in the program the fixture started?"""
    path: Path = start.marks
    return lambda: path.exists() and mark in path.read_text().split()


def group(pgid: int) -> list[int]:
    """The processes of a process group still alive (zombies aside)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                alive.append(int(entry.name))
    return alive


def ended(process: subprocess.Popen[bytes]) -> tuple[str, str]:
    """The stdout and stderr of a process that was told to stop (it must, before :data:`HANG`)."""
    try:
        out, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running {HANG} s after the signal") from None
    return out.decode(), err.decode()


def no_one_left(pgid: int) -> None:
    """Every process of the group ends of itself (the fixture kills any left, after the test)."""
    until = time.monotonic() + HANG
    while group(pgid) and time.monotonic() < until:
        time.sleep(0.05)
    assert not group(pgid), f"processes outlived the comparison: {group(pgid)}"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_reports_the_finished_replications(workers: str, start: Any) -> None:
    process = start(*LONG_RUN, "--workers", workers)
    wait_for(marked(start, "ended"), "a replication finished")
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
    out, err = ended(process)
    assert process.returncode == 130, err
    report = json.loads(out)
    assert report["interrupted"] is True and report["rulesets"]["rff"]["replications"] > 0
    assert "interrupted: reporting the replications finished so far" in err and "Traceback" not in err
    no_one_left(process.pid)


@pytest.mark.parametrize(("name", "to_group", "code"), [("SIGTERM", False, 143), ("SIGHUP", True, 129)])
def test_sigterm_and_sighup_behave_like_ctrl_c(name: str, to_group: bool, code: int, start: Any) -> None:
    process = start(*LONG_RUN, "--workers", "2")
    wait_for(marked(start, "ended"), "a replication finished")
    (os.killpg if to_group else os.kill)(process.pid, getattr(signal, name))  # `kill PID` signals the parent only
    out, err = ended(process)
    assert process.returncode == code, err
    assert json.loads(out)["interrupted"] is True
    no_one_left(process.pid)


def test_a_second_ctrl_c_exits_at_once(start: Any) -> None:
    process = start(*LONG_RUN, "--workers", "2")
    wait_for(marked(start, "begun"), "a replication begun")
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)
    _, err = ended(process)
    assert "Traceback" not in err
    no_one_left(process.pid)


def test_workers_never_outlive_their_parent(start: Any) -> None:
    process = start(*LONG_RUN, "--workers", "2")
    wait_for(lambda: len(group(process.pid)) == 3, "the parent and two workers running")
    os.kill(process.pid, signal.SIGKILL)  # nothing can be handled: the workers must notice
    ended(process)
    no_one_left(process.pid)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_house_rule_that_loops_forever_can_be_interrupted(workers: str, start: Any) -> None:
    process = start("compare", "drill-charge-battery", "--rules", "rff", "-n", "10", "--workers", workers, "--json",
                    "--house-rule", str(LOOPS_FOREVER))
    wait_for(marked(start, "begun"), "a game begun")
    os.killpg(process.pid, signal.SIGINT)
    out, _ = ended(process)
    assert process.returncode == 130
    assert json.loads(out)["rulesets"] == {}  # no game ever ended
    no_one_left(process.pid)


def test_a_game_whose_house_rule_loops_forever_can_be_interrupted(start: Any) -> None:
    process = start("run", "drill-charge-battery", "--rules", "rff", "--quiet", "--house-rule", str(LOOPS_FOREVER))
    wait_for(marked(start, "begun"), "the game begun")
    os.killpg(process.pid, signal.SIGINT)
    _, err = ended(process)
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err


# The same launch, saying (one byte on stdout) as soon as the launcher has taken charge of Ctrl-C:
# one before that (inside Python's own start-up, or while the launcher module itself is found and
# run up to its first line) is the interpreter's to report, and on a loaded machine a fixed delay
# can fall there.
LAUNCH_SAYING_WHEN = LAUNCH.replace("main()", """\
import sys
def saying(signum, handler, install=signal.signal):
    signal.signal = install  # once: the launcher's own call is the first
    before = install(signum, handler)
    sys.stdout.write('.')
    sys.stdout.flush()
    return before
signal.signal = saying
main()""", 1)


@pytest.mark.parametrize("after", [0.0, 0.05, 0.15, 0.3])
def test_a13_ctrl_c_while_the_program_loads_is_quiet(after: float, start: Any) -> None:
    process = start("scenarios", launch=LAUNCH_SAYING_WHEN)
    assert process.stdout is not None and process.stdout.read(1) == b"."
    time.sleep(after)
    os.killpg(process.pid, signal.SIGINT)
    _, err = ended(process)
    assert "Traceback" not in err
    assert process.returncode in (0, 130, -signal.SIGINT), err  # done already, interrupted, or before Python set up


# ----------------------------------------------------------------------------- in this process


@pytest.mark.parametrize("workers", [1, 2])
def test_games_finished_inside_a_running_chunk_are_kept(workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """D3: Ctrl-C during replication 6 keeps replications 0-5 of the chunk being played (with two
    workers, the chunk 0-12 of the first; the games the second had finished are kept too)."""
    if workers > 1 and compare_module.multiprocessing.get_start_method() != "fork":
        pytest.skip("the workers must inherit the patched play")
    real, parent = compare_module.play, os.getpid()
    sixth = replication_seed(1, 6)

    def play(game: Any) -> Any:
        if game.seed == sixth:
            os.kill(parent, signal.SIGINT)  # the user presses Ctrl-C while replication 6 is played
            time.sleep(30)
        return real(game)

    monkeypatch.setattr(compare_module, "play", play)
    outcomes, interrupted = run_replications(Stack("rff"), str(find_scenario("drill-musketry")), 100, 1, workers=workers)
    assert interrupted is not None and interrupted.exit_code == 130
    played = {replication_seed(1, k): k for k in range(100)}
    ks = [played[o.seed] for o in outcomes]
    assert ks == sorted(ks) and set(range(6)) <= set(ks) and 6 not in ks
    if workers == 1:
        assert ks == list(range(6))
