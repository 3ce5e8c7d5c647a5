"""Playing a sweep's games: locally on compare's process pool, or on a Dask cluster, the same rows.

Each game's result is a row (a tuple) appended to the output folder's journal as it comes back,
so an interrupted sweep resumes with exactly the games it lacks. When every game is in, the
rows are written, in game order, to one Parquet file: whoever played them, the file is the same.
"""

from __future__ import annotations

import gc
import hashlib
import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from attrs import frozen

from ..engine.errors import InvalidInput, Problem, RefereeError
from ..engine.game import Game, play, replication_seed
from ..engine.limits import SWEEP_BATCH
from ..engine.plugins import Rules, blame, build_rules
from ..engine.world import Scenario
from ..input.scenario import parse_scenario
from . import compare as comparing
from .interrupts import Interrupted, _deferred, interruptible
from .sweep import Cell, Sweep, materialize

Row = tuple[Any, ...]  # (game index, winner, men lost 1, men lost 2, guns lost 1, guns lost 2, minutes, ended by)
JOURNAL = "journal.jsonl"
GAMES_FILE = "games.parquet"
BATCH = SWEEP_BATCH  # the most games in one task of a cluster


@frozen
class Batch:
    """Games of one cell and scenario, as a task: everything a worker needs to play them."""

    cell: Cell
    scenario: str  # its TOML text
    seed: int
    games: tuple[tuple[int, int], ...]  # (game index, replication)
    folder: str = ""  # where the cell's files go ("": a temporary folder of the worker's)
    scenario_id: str = ""  # the id of a scenario whose file gives none (its file's name)


@lru_cache(maxsize=8)
def _rules(cell: Cell, folder: str) -> Rules:
    """A cell's stack, built once per worker for its batches (a cell is immutable; its house
    rules are written out from the cell's own text, so the same cell gives the same stack)."""
    where = Path(folder) if folder else Path(tempfile.gettempdir()) / "referee-sweep"
    return build_rules(cell.ruleset, cell.options, materialize(cell, where))


@lru_cache(maxsize=16)
def _scenario(text: str, sid: str) -> Scenario:
    """A scenario from its text, parsed once per worker: a pure function of immutable inputs."""
    return parse_scenario(text, f"scenario {sid}", default_id=sid)


def play_batch(batch: Batch) -> list[Row]:
    """Play a batch's games (the log off, the cyclic collector waiting as in compare); one row each."""
    rules, scenario = _rules(batch.cell, batch.folder), _scenario(batch.scenario, batch.scenario_id)
    sides = scenario.sides
    collecting = gc.isenabled()
    gc.disable()
    try:
        rows = []
        for index, k in batch.games:
            o = play(Game.new(rules, scenario, replication_seed(batch.seed, k)))
            rows.append((index, o.winner, o.men_lost[sides[0]], o.men_lost[sides[1]], o.guns_lost[sides[0]],
                         o.guns_lost[sides[1]], o.minutes, comparing.ended_by(o.reason)))
        return rows
    finally:
        if collecting:
            gc.enable()


def play_remote(batch: Batch) -> list[Row] | str:
    """:func:`play_batch` on a cluster's worker: an error (a house rule's that failed) comes back
    as its message, not as an exception that would carry the house rule's own (unpicklable) one."""
    try:
        return play_batch(batch)
    except RefereeError as error:
        return str(error)
    except (KeyboardInterrupt, SystemExit) as error:  # raised by a house rule's code
        return str(blame(error, _rules(batch.cell, batch.folder).pm))


def batches(sweep: Sweep, indices: Sequence[int], size: int, folder: str = "") -> list[Batch]:
    """The games ``indices`` (in order) cut into batches of at most ``size``, never across a cell and scenario."""
    out: list[Batch] = []
    current: list[tuple[int, int]] = []
    key: tuple[int, int, int] | None = None
    for index in indices:
        p, s, r, k = sweep.game(index)
        if (p, s, r) != key or len(current) >= size:
            if current and key is not None:
                out.append(_batch(sweep, key, current, folder))
            key, current = (p, s, r), []
        current.append((index, k))
    if current and key is not None:
        out.append(_batch(sweep, key, current, folder))
    return out


def _batch(sweep: Sweep, key: tuple[int, int, int], games: list[tuple[int, int]], folder: str) -> Batch:
    p, s, r = key
    return Batch(sweep.cells[(p, sweep.rulesets[r])], sweep.scenarios[s][2], sweep.seed, tuple(games), folder, sweep.scenarios[s][1])


# ----------------------------------------------------------------------------- journal


class Journal:
    """The rows played so far, one JSON array a line, appended as they come back."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / JOURNAL
        self.rows: dict[int, Row] = {}
        if self.path.exists():
            with self.path.open(encoding="utf-8") as handle:
                for line in handle:
                    try:
                        row = tuple(json.loads(line))
                    except json.JSONDecodeError:  # a line cut short by the interrupt
                        continue
                    self.rows.setdefault(row[0], row)
        self._handle = self.path.open("a", encoding="utf-8")
        self._clean_end()

    def _clean_end(self) -> None:
        """A line cut short ends the file: start the next on a line of its own."""
        if self.path.stat().st_size and not self.path.read_bytes().endswith(b"\n"):
            self._handle.write("\n")

    def add(self, row: Row) -> None:
        if row[0] in self.rows:
            return
        self.rows[row[0]] = row
        self._handle.write(json.dumps(row) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


# ----------------------------------------------------------------------------- running


def run_local(sweep: Sweep, pending: Sequence[int], record: Callable[[Row], None], workers: int,
              folder: Path) -> Interrupted | None:
    """Play ``pending`` games on compare's process pool (its chunks, interrupts and worker
    handling); each row handed to ``record`` as its game ends."""
    if not pending:
        return None
    refs = batches(sweep, pending, 1, str(folder))  # a game each: the pool hands them out in chunks
    n = len(refs)
    size = comparing.CHUNK if workers <= 1 else max(1, min(comparing.CHUNK, -(-n // (4 * workers))))
    chunks = (range(i, min(i + size, n)) for i in range(0, n, size))
    workers = max(1, min(workers, -(-n // size)))
    first = refs[0].cell
    stack = comparing.Stack(first.ruleset, first.options, tuple(materialize(first, folder)))
    job = partial(_job, refs)

    def rows_back(k: int, rows: list[Row]) -> None:
        for row in rows:
            record(row)

    with interruptible():
        try:
            if workers == 1:
                for ks in chunks:
                    comparing._play(job, stack, "", sweep.seed, ks, rows_back)
            else:
                comparing._in_parallel(job, stack, "", sweep.seed, chunks, workers, rows_back)
        except Interrupted as interrupt:
            return interrupt
    return None


def _job(refs: Sequence[Batch], stack: Any, path: str, seed: int, ks: Sequence[int]) -> list[list[Row]]:
    return [play_batch(refs[k]) for k in ks]


def run_cluster(sweep: Sweep, pending: Sequence[int], record: Callable[[Row], None], address: str | Any,
                size: int = BATCH) -> Interrupted | None:
    """Play ``pending`` games on the Dask cluster at ``address`` (or a ``Client``) in tasks of at
    most ``size`` games; a task lost with its worker is played again elsewhere."""
    from distributed import as_completed

    own = isinstance(address, str)
    client: Any = connect(address) if own else address
    digest = sweep.digest()[:12]
    futures = []
    try:
        for batch in batches(sweep, pending, size):  # a worker's death is the scheduler's to mend: no retries for errors
            futures.append(client.submit(play_remote, batch, key=f"referee-sweep-{digest}-{batch.games[0][0]}"))
        with interruptible():
            try:
                for future in as_completed(futures):  # a signal is taken here, between tasks' rows, never inside them
                    rows = future.result()
                    if isinstance(rows, str):  # the message of an error in the worker
                        raise RefereeError(rows)
                    with _deferred():
                        for row in rows:
                            record(row)
            except Interrupted as interrupt:
                return interrupt
        return None
    finally:
        for future in futures:
            future.cancel()
        if own:
            client.close()


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; a message if Dask is missing or the scheduler out of reach."""
    try:
        from distributed import Client
    except ImportError:
        raise RefereeError("--scheduler needs Dask: pip install 'referee[cluster]'") from None
    try:
        return Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as error:
        raise InvalidInput([Problem(f"cannot reach the Dask scheduler: {error}", path="--scheduler")], "sweep") from None


def pending_games(sweep: Sweep, done: Iterator[int] | set[int] | dict[int, Row]) -> list[int]:
    return [i for i in range(sweep.games) if i not in done]


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
