"""Comparison: N replications per ruleset, in parallel, the same whatever the worker count.

Replication ``k`` of every ruleset draws from :func:`~referee.core.engine.game.replication_seed`
``(seed, k)``. Work is handed out in chunks of replications and every game is sent back as it
ends, then put in replication order, so the numbers do not depend on how many workers ran them.

Ctrl-C, SIGTERM and SIGHUP stop a run at once: the workers are ended, every game already
finished is kept and reported, and a second signal ends the process there and then. Workers
end with their parent, however it ends.
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import weakref
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, cast

from attrs import frozen

from ..engine.errors import RefereeError
from ..engine.events import Resolution
from ..engine.game import Game, Outcome, play, replication_seed
from ..engine.ground import ground_of
from ..engine.hookspecs import hookimpl
from ..engine.limits import WORKERS
from ..engine.plugins import Rules, blame, build_rules
from ..engine.world import Scenario
from ..input.scenario import find_scenario, load_scenario
from .interrupts import (
    SIGNALS,
    Interrupted,
    _deferred,
    _Signals,
    _signals_held,
    interruptible,
)
from .stats import mean, paired, percentile_rank, summary, wilson

if TYPE_CHECKING:
    from _hashlib import HASH

CHUNK = 25  # the most replications handed to a worker at once


@frozen
class Stack:
    """What is needed to rebuild a rule stack in a worker process."""

    ruleset: str
    options: tuple[str, ...] = ()
    house_rules: tuple[str, ...] = ()

    def build(self) -> Rules:
        return _built(self)


@cache
def _built(stack: Stack) -> Rules:
    """The stack, built once per process: ``stack`` is immutable, and a stack holds no game's state."""
    return build_rules(stack.ruleset, stack.options, stack.house_rules)


@cache
def _scenario(path: str) -> Scenario:
    """The scenario file, read once per process: a scenario is immutable and shared by its games."""
    return load_scenario(find_scenario(path))


def _prepare(stack: Stack, scenario_path: str) -> None:
    """Build the stack, read the scenario and prepare its ground in this process, once: workers
    forked from it (Linux) inherit them instead of each making its own."""
    stack.build()
    ground_of(_scenario(scenario_path))


Record = Callable[[int, Any], None]
Job = Callable[["Stack", str, int, Sequence[int]], list[Any]]  # like replicate: one result per replication


def replicate(stack: Stack, scenario_path: str, seed: int, ks: Sequence[int], record: Record | None = None) -> list[Outcome]:
    """Play replications ``ks`` with the log off, handing each outcome to ``record`` as its game
    ends. The cyclic garbage collector waits until they are done: a game leaves little cyclic
    garbage (its state), while the collector's passes over the long-lived memos cost several per
    cent of a game; what the games left is collected as usual once it is back on."""
    rules, scenario = stack.build(), _scenario(scenario_path)
    collecting = gc.isenabled()
    gc.disable()
    outcomes = []
    try:
        for k in ks:
            outcomes.append(play(Game.new(rules, scenario, replication_seed(seed, k))))
            if record is not None:
                record(k, outcomes[-1])
        return outcomes
    finally:
        if collecting:
            gc.enable()


# ----------------------------------------------------------------------------- running


def run_replications(
    stack: Stack, scenario_path: str, n: int, seed: int, workers: int = 1, progress: Callable[[int], None] | None = None,
    job: Job | None = None,
) -> tuple[list[Any], Interrupted | None]:
    """Play ``n`` replications with ``job`` (default :func:`replicate`: their outcomes) on up to
    ``workers`` processes (never more than there are chunks of work, nor than
    :data:`~referee.core.engine.limits.WORKERS`). Returns the results in replication order (every one
    finished, if interrupted) and the interrupt that stopped the run, if any."""
    # with several workers, about four chunks each keep them all busy to the end
    size = CHUNK if workers <= 1 else max(1, min(CHUNK, -(-n // (4 * workers))))
    chunks = (range(i, min(i + size, n)) for i in range(0, n, size))
    workers = max(1, min(workers, WORKERS, -(-n // size)))
    done: dict[int, Any] = {}

    def record(k: int, result: Any) -> None:
        done[k] = result
        if progress:
            progress(1)

    interrupted = None
    with interruptible():
        try:
            if workers == 1:
                for ks in chunks:
                    _play(job, stack, scenario_path, seed, ks, record)
            else:
                _prepare(stack, scenario_path)
                _in_parallel(job, stack, scenario_path, seed, chunks, workers, record)
        except Interrupted as interrupt:
            interrupted = interrupt
        except KeyboardInterrupt as error:  # raised by code, not by the user (see Interrupted)
            raise blame(error, stack.build().pm) from error
    return [done[k] for k in sorted(done)], interrupted


def _play(job: Job | None, stack: Stack, scenario_path: str, seed: int, ks: Sequence[int], record: Record) -> None:
    """Replications ``ks``, each result recorded as it is made."""
    if job is None:
        replicate(stack, scenario_path, seed, ks, record)
    else:
        for k in ks:
            record(k, job(stack, scenario_path, seed, [k])[0])


def _in_parallel(job: Job | None, stack: Stack, scenario_path: str, seed: int, chunks: Iterator[range], workers: int,
                 record: Record) -> None:
    """Hand the chunks to ``workers`` processes, one at a time each, recording every game sent
    back. On an interrupt the workers are ended first, then what they had sent is read."""
    context = multiprocessing.get_context()
    pool: dict[Connection, BaseProcess] = {}
    try:
        for _ in range(workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_work, args=(theirs, job, stack, scenario_path, seed, os.getpid()), daemon=True)
            with _signals_held():
                process.start()
                _Signals.workers.add(process)
                pool[mine] = process
            theirs.close()
        busy = {conn for conn in pool if _hand_out(conn, chunks)}
        while busy:
            for conn in cast("list[Connection]", wait(list(busy))):  # a signal is taken here, between messages, never inside one
                with _deferred():
                    message = _receive(conn, pool[conn])
                    if message[0] == "game":
                        record(message[1], message[2])
                    elif message[0] == "error":
                        raise message[1]
                    elif not _hand_out(conn, chunks):  # "done": the next chunk, or none left
                        busy.discard(conn)
    except Interrupted:
        _end(pool)
        for conn in pool:  # the games that ended before the signal are in the pipes
            for message in _drain(conn):
                if message[0] == "game":
                    record(message[1], message[2])
        raise
    finally:
        _end(pool)


def _hand_out(conn: Connection, chunks: Iterator[range]) -> bool:
    ks = next(chunks, None)
    conn.send(ks)  # None: no more work, the worker leaves
    return ks is not None


def _receive(conn: Connection, process: BaseProcess) -> Any:
    try:
        return conn.recv()
    except (EOFError, OSError):  # its end of the pipe closed: it is gone
        process.join(1)
        raise RefereeError(f"a worker process ended unexpectedly (exit code {process.exitcode}) while playing "
                           "replications; run with --workers 1 to see what happened") from None


def _drain(conn: Connection) -> Iterator[Any]:
    """What is left in a pipe whose writer has ended (a message cut short by its end aside)."""
    while True:
        try:
            if not conn.poll():
                return
            yield conn.recv()
        except (EOFError, OSError):
            return


def _end(pool: dict[Connection, BaseProcess]) -> None:
    """End the workers now (a game in play is lost, nothing else) and wait for them to go."""
    for process in pool.values():
        if process.is_alive():
            process.kill()
    for process in pool.values():
        process.join()
        _Signals.workers.discard(process)


def _work(conn: Connection, job: Job | None, stack: Stack, scenario_path: str, seed: int, parent: int) -> None:
    """A worker of the process ``parent``: play each chunk handed over, sending every game back
    as it ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group; the parent decides
    for s in SIGNALS[1:]:
        signal.signal(s, signal.SIG_DFL)  # the parent's handlers are not for us
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # held while we were forked
    _end_with_parent(parent)
    try:
        while (ks := conn.recv()) is not None:
            _play(job, stack, scenario_path, seed, ks, lambda k, result: conn.send(("game", k, result)))
            conn.send(("done",))
    except (EOFError, BrokenPipeError):  # the parent has gone
        return
    except RefereeError as error:
        conn.send(("error", error))
    except (KeyboardInterrupt, SystemExit) as error:  # SIGINT is ignored here: raised by code
        conn.send(("error", blame(error, stack.build().pm)))
    except Exception:  # noqa: BLE001  (a bug: its traceback, as text; the exception itself may not pickle)
        conn.send(("error", RuntimeError(f"a replication failed in a worker process:\n{traceback.format_exc()}")))


def _end_with_parent(parent: int) -> None:
    """Never outlive ``parent`` (its pid, as the parent read it before it started us): the kernel
    ends us when it dies (Linux), and a watch sees its death within half a second everywhere. A
    parent already gone before we got here (killed while we were starting) is seen at once."""
    if sys.platform == "linux":
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # it died before the kernel was asked to tell us
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def default_workers() -> int:
    """The machine's CPUs available to us, at most 8."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cpus, 8))


def ended_by(reason: str) -> str:
    """What ended a game, without its numbers: "union beaten", "union broke off", "time"."""
    return reason.split(" (", 1)[0].split(";", 1)[0]


def broke_off_shares(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """The share of games whose verdict a plan's break-off decided, by the side that broke off
    ("both" when both did); sides that never did are left out."""
    n = len(outcomes)
    counts = Counter(o.broke_off for o in outcomes if o.broke_off)
    return {k: round(counts[k] / n, 4) for k in sorted(counts)}


def summarise(outcomes: Sequence[Outcome], scenario: Scenario) -> dict[str, Any]:
    """Per side: win share with its 95% interval, men and guns lost, minutes to decision, and
    where the historical result falls; and each game's seed, winner, losses and minutes."""
    n = len(outcomes)
    sides = scenario.sides
    result: dict[str, Any] = {"replications": n, "win": {}, "men_lost": {}, "guns_lost": {}, "men_left": {},
                              "yards_gained": {}}
    for key in (*sides, "draw"):
        wins = sum(1 for o in outcomes if (o.winner or "draw") == key)
        lo, hi = wilson(wins, n)
        result["win"][key] = {"share": round(wins / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}
    for side in sides:
        result["men_lost"][side] = summary([o.men_lost[side] for o in outcomes])
        result["guns_lost"][side] = summary([o.guns_lost[side] for o in outcomes])
        result["men_left"][side] = summary([o.men_left.get(side, 0) for o in outcomes])
        result["yards_gained"][side] = summary([o.yards_gained[side] for o in outcomes])
    result["minutes"] = summary([o.minutes for o in outcomes])
    ends = Counter(ended_by(o.reason) for o in outcomes)
    result["ended_by"] = {k: round(ends[k] / n, 4) for k in sorted(ends)}
    result["broke_off"] = broke_off_shares(outcomes)
    history = scenario.historical
    if history is not None:
        result["historical"] = {
            "winner": history.winner or "draw",
            "winner_share": result["win"][history.winner or "draw"]["share"],
            "men_lost_percentile": {
                s: round(percentile_rank([o.men_lost[s] for o in outcomes], history.men_lost.get(s, 0)), 1) for s in sides
            },
            "guns_lost_percentile": {
                s: round(percentile_rank([o.guns_lost[s] for o in outcomes], history.guns_lost.get(s, 0)), 1) for s in sides
            },
        }
        if history.minutes is not None:
            result["historical"]["minutes_percentile"] = round(percentile_rank([o.minutes for o in outcomes], history.minutes), 1)
    result["games"] = [{"seed": o.seed, "winner": o.winner, "broke_off": o.broke_off, "men_lost": o.men_lost, "guns_lost": o.guns_lost,
                        "lost_by_cause": o.lost_by_cause, "minutes": o.minutes} for o in outcomes]
    return result


# ----------------------------------------------------------------------------- against a baseline


class _Trace:
    """Keeps a digest of every final resolution of each game, in order, so that two games on the
    same seed can be told apart without their logs."""

    def __init__(self) -> None:
        self.digests: weakref.WeakKeyDictionary[Game, HASH] = weakref.WeakKeyDictionary()
        """Each game's digest so far (:meth:`of`), dropped with the game."""

    @hookimpl
    def referee_observed(self, game: Game, resolution: Resolution) -> None:
        digest = self.digests.get(game)
        if digest is None:
            digest = self.digests[game] = hashlib.sha256()
        digest.update(json.dumps(resolution.as_json(), sort_keys=True).encode())

    def of(self, game: Game) -> str:
        """The game's digest ("" for a game that resolved nothing)."""
        digest = self.digests.get(game)
        return digest.hexdigest() if digest is not None else ""


@cache
def _traced(stack: Stack) -> tuple[Rules, _Trace]:
    """The stack with a tracer, built once per worker process (``stack`` is immutable)."""
    rules = build_rules(stack.ruleset, stack.options, stack.house_rules)
    trace = _Trace()
    rules.register(trace, name="trace")
    return rules, trace


def replicate_traced(stack: Stack, scenario_path: str, seed: int, ks: Sequence[int]) -> list[tuple[Outcome, str]]:
    """Replications ``ks``, each as its outcome and a digest of its resolutions (a job for
    :func:`run_replications`)."""
    (rules, trace), scenario = _traced(stack), _scenario(scenario_path)
    out = []
    for k in ks:
        game = Game.new(rules, scenario, replication_seed(seed, k))
        out.append((play(game), trace.of(game)))
    return out


def _statistics(o: Outcome, sides: Sequence[str]) -> dict[str, float]:
    """One game's numbers, by the name a baseline comparison reports them under."""
    stats = {f"{key} wins": float(o.winner == key) for key in sides}
    stats["draws"] = float(o.winner is None)
    for side in sides:
        stats[f"{side} men lost"] = o.men_lost[side]
        stats[f"{side} guns lost"] = o.guns_lost[side]
        stats[f"{side} men who left the field"] = o.men_left.get(side, 0)
        stats[f"{side} yards gained"] = o.yards_gained[side]
    stats["minutes to decision"] = o.minutes
    return stats


def against_baseline(base: Sequence[tuple[Outcome, str]], other: Sequence[tuple[Outcome, str]],
                     sides: Sequence[str]) -> dict[str, Any]:
    """Game by game on the same seeds: each statistic's mean under both stacks and the paired
    difference (other - base) with its 95% interval, and how many games differ at all (in any
    resolution, or in the outcome)."""
    n = min(len(base), len(other))
    a = [_statistics(o, sides) for o, _ in base[:n]]
    b = [_statistics(o, sides) for o, _ in other[:n]]
    rows = {}
    for key in (a[0] if a else {}):
        xs, ys = [s[key] for s in a], [s[key] for s in b]
        rows[key] = {"base": round(mean(xs), 4), "other": round(mean(ys), 4), "difference": paired(xs, ys)}
    changed = sum(1 for (oa, ta), (ob, tb) in zip(base, other)
                  if ta != tb or {**oa.as_json(), "ruleset": ""} != {**ob.as_json(), "ruleset": ""})
    return {"replications": n, "games_changed": changed, "statistics": rows}
