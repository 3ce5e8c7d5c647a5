"""``referee sweep SPEC.toml``: a grid of points, every game a row, locally or on a Dask cluster."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..engine import limits
from ..engine.errors import InvalidInput, Problem
from ..engine.events import jsonable
from ..engine.limits import SWEEP_BATCH, SWEEP_GAMES
from ..engine.text import printable
from ..studies.tabular import FittingConsole
from .files import write_atomic
from .lazy import lazy

if TYPE_CHECKING:
    from ..studies import compare as comparing
    from ..studies import sweep as sweeping
    from ..studies import sweep_out, sweep_run
    from ..studies.interrupts import Interrupted
    from ..studies.sweep import Sweep
    from ..studies.sweep_run import Journal, Row
else:  # imported when the command runs, not when --help lists it
    comparing, sweeping, sweep_out, sweep_run = (lazy(f"referee.core.studies.{m}") for m in ("compare", "sweep", "sweep_out", "sweep_run"))


MANIFEST, SUMMARY, PAGE = "manifest.json", "summary.json", "sweep.html"
out = FittingConsole(highlight=False, soft_wrap=True)  # as the other commands print (core/cli/cli.py registers this one)
err = Console(stderr=True, highlight=False)


def shown(text: Any) -> str:
    return escape(printable(str(text)))


@click.command("sweep", epilog="\b\nExamples:\n  referee sweep examples/sweeps/kernstown-options.toml\n"
                                "  referee sweep examples/sweeps/big-bethel-works.toml --workers 2 --json\n"
                                "  referee sweep my-sweep.toml --resume --out my-sweep.sweep\n"
                                "  referee sweep my-sweep.toml --scheduler tcp://127.0.0.1:8786")
@click.argument("spec", metavar="SPEC.toml")
@click.option("--out", "out_dir", default=None, metavar="FOLDER",
              help="Where the results go (default: the sweep file's name with .sweep, beside it).")
@click.option("--workers", type=click.IntRange(1, limits.WORKERS), default=None,
              help=f"Worker processes (at most {limits.WORKERS}; default: the machine's CPUs, at most 8).")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Play on the Dask cluster at ADDRESS (tcp://host:8786).")
@click.option("--batch", type=click.IntRange(1, 10_000), default=SWEEP_BATCH, show_default=True, help="Games in one task of a cluster.")
@click.option("--resume", is_flag=True, help="Continue an interrupted sweep in FOLDER: play only the games it lacks.")
@click.option("--yes", is_flag=True, help=f"Play a sweep of more than {SWEEP_GAMES:,} games.")
@click.option("--no-html", "no_html", is_flag=True, help=f"Do not draw the HTML page ({PAGE}).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
@click.option("--width", type=click.IntRange(40, 1000), default=None, expose_value=False, metavar="N",
              callback=lambda ctx, param, value: out.fit_to(value),
              help="Fit tables to N columns (default: the terminal's; 80 in a file or pipe). No number is ever cut.")
def sweep_cmd(spec: str, out_dir: str | None, workers: int | None, scheduler: str | None, batch: int, resume: bool,
              yes: bool, no_html: bool, as_json: bool) -> None:
    """Play the points of SPEC.toml (scenarios x rulesets x what varies) with common random
    numbers; write every game to FOLDER/games.parquet, a summary per point, a manifest and a page."""
    sweep = sweeping.read_sweep(spec, games_allowed=sys.maxsize if yes else SWEEP_GAMES)
    sweep_out.pyarrow_module()  # before the games, not after them
    folder = Path(out_dir) if out_dir else Path(spec).with_suffix(".sweep")
    client = sweep_run.connect(scheduler) if scheduler else None  # before the folder is made
    try:
        journal = _open(folder, sweep, resume)
        interrupted, now = _play(sweep, journal, folder, client, workers, batch)
    finally:
        if client is not None:
            client.close()
    _report(spec, sweep, journal, folder, interrupted, now, no_html, as_json)


def _play(sweep: Sweep, journal: Journal, folder: Path, client: Any, workers: int | None,
          batch: int) -> tuple[Interrupted | None, int]:
    """The games the journal lacks, with a progress bar; the interrupt, if any, and how many were played."""
    pending = [i for i in range(sweep.games) if i not in journal.rows]
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("games", total=sweep.games, completed=sweep.games - len(pending))

        now = [0]

        def record(row: Row) -> None:
            journal.add(row)
            now[0] += 1
            bar.advance(task)

        try:
            if client is not None:
                interrupted = sweep_run.run_cluster(sweep, pending, record, client, batch)
            else:
                interrupted = sweep_run.run_local(sweep, pending, record, workers or comparing.default_workers(), folder / "files")
        finally:
            journal.close()
    return interrupted, now[0]


def _report(spec: str, sweep: Sweep, journal: Journal, folder: Path, interrupted: Interrupted | None, now: int,
            no_html: bool, as_json: bool) -> None:
    """The summary, the Parquet file (once every game is in) and the page written; the table or JSON printed."""
    data = sweep_out.summarise(sweep, journal.rows)
    if interrupted:
        data["interrupted"] = True
    data["folder"] = str(folder)
    data["played_now"] = now  # in this run (the rest by the runs it resumed)
    if data["complete"]:
        _write_bytes(folder / sweep_run.GAMES_FILE, sweep_out.parquet_bytes(sweep, journal.rows))
        data["parquet"] = str(folder / sweep_run.GAMES_FILE)
    write_atomic(folder / SUMMARY, json.dumps(jsonable(data), indent=2) + "\n")
    if not no_html and journal.rows:
        from ..studies.sweep_html import render
        write_atomic(folder / PAGE, render(data))
    if interrupted:
        err.print(f"[yellow]interrupted: {len(journal.rows):,} of {sweep.games:,} games played; "
                  f"referee sweep {shown(spec)} --out {shown(folder)} --resume plays the rest[/yellow]")
    if as_json:
        click.echo(json.dumps(jsonable(data), indent=2))
    else:
        _print(data)
    if interrupted:
        sys.exit(interrupted.exit_code)


def _open(folder: Path, sweep: Sweep, resume: bool) -> Journal:
    """The output folder's journal; a new folder gets the sweep's files and manifest first."""
    known = folder / MANIFEST
    if known.exists():
        try:
            digest = json.loads(known.read_text(encoding="utf-8")).get("digest")
        except (OSError, ValueError):
            digest = None
        if not resume:
            raise _refused(f"{folder} holds the results of an earlier sweep: --resume continues it, or give another --out")
        if digest != sweep.digest():
            raise _refused(f"{folder} holds a sweep of other games (the sweep file or the files it names have changed "
                           "since): give another --out")
    elif folder.exists() and not folder.is_dir():
        raise _refused(f"{folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    files = {key: sweeping.materialize(c, folder / "files") for key, c in sweep.cells.items()}
    write_atomic(known, json.dumps(jsonable(sweep_out.manifest(sweep, folder, files)), indent=2) + "\n")
    return sweep_run.Journal(folder)


def _refused(message: str) -> InvalidInput:
    return InvalidInput([Problem(message, path="--out")], "sweep")


def _write_bytes(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(data)
    os.replace(partial, path)


def _print(data: dict[str, Any]) -> None:
    """One table per scenario: each point and ruleset's win share, men lost, the change against
    the base point and where history falls."""
    for scenario, sides in data["sides"].items():
        rows = [p for p in data["points"] if p["scenario"] == scenario and p["games"]]
        table = RichTable(title=f"{shown(data['title'])}: {shown(scenario)}, {data['replications']} replications a point, "
                                f"seed {data['seed']}",
                          caption=f"men lost: p50, p10-p90, and history's percentile and verdict against p10-p90; "
                                  f"change: the mean difference in men lost from the base point ({shown(data['base'])}) "
                                  "on the same seeds, and its 95% interval")
        several = len({p["ruleset"] for p in rows}) > 1
        for header in ("point", *(["rules"] if several else []), f"{sides[0]}\nwins", *(f"{s}\nmen lost" for s in sides),
                       *(f"change\n{s}" for s in sides)):
            table.add_column(header, justify="left" if header in ("point", "rules") else "right", overflow="fold")
        for p in rows:
            hist = p.get("history") or {}
            lost = [_lost(p["men_lost"][s], hist.get("men_lost", {}).get(s)) for s in sides]
            table.add_row(shown(p["point"]), *([shown(p["ruleset"])] if several else []), f"{p['win'][sides[0]]['share']:.0%}",
                          *lost, *(_change(p.get("against_base"), f"{s} men lost") for s in sides))
        out.print(table)
    out.print(f"{data['played']:,} of {data['games']:,} games played; results in {shown(data['folder'])}", markup=False)


def _lost(m: dict[str, float], hist: dict[str, Any] | None) -> str:
    if math.isnan(m["p50"]):
        return ""
    text = f"{m['p50']:.0f}\n{m['p10']:.0f}-{m['p90']:.0f}"
    if hist and hist["percentile"] is not None:
        text += f"\n{hist['percentile']:.0f} {hist['verdict']}"
    return text


def _change(against: dict[str, Any] | None, key: str) -> str:
    if against is None:
        return "base"
    d = against.get(key)
    return "" if d is None else f"{d['mean']:+.0f}\n{d['ci95'][0]:+.0f}..{d['ci95'][1]:+.0f}"
