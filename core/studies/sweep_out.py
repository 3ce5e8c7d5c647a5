"""A sweep's results: the rows as a Parquet table, a summary per point, and the manifest.

The summary of a point (under one scenario and ruleset) gives each side's win share with its
95 % interval, p10/p50/p90 and mean of men and guns lost and of the minutes, the paired
difference of each against the base point on the same replications, and, for a battle with a
record, where history falls (its percentile, inside or outside p10-p90).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from ..engine.errors import RefereeError
from ..engine.game import replication_seed
from ..engine.world import Scenario
from ..input.scenario import parse_scenario
from . import history
from .stats import paired, summary, wilson
from .sweep import Sweep, cell_path

Row = tuple[Any, ...]


def pyarrow_module() -> Any:
    """pyarrow, or a message saying how to install it."""
    try:
        import pyarrow  # type: ignore[import-untyped]  # pyarrow ships no annotations
        import pyarrow.parquet  # type: ignore[import-untyped]  # pyarrow ships no annotations
    except ImportError:
        raise RefereeError("a sweep writes its games with pyarrow: pip install 'referee[sweep]'") from None
    return pyarrow


def scenarios(sweep: Sweep) -> list[Scenario]:
    return [parse_scenario(text, name, default_id=sid) for name, sid, text in sweep.scenarios]


def parquet_bytes(sweep: Sweep, rows: Mapping[int, Row]) -> bytes:
    """Every game, in game order, one row each, as a Parquet file."""
    pa = pyarrow_module()
    worlds = scenarios(sweep)
    ordered = [rows[i] for i in sorted(rows)]
    where = [sweep.game(r[0]) for r in ordered]
    columns: dict[str, Any] = {"point": pa.array([sweep.points[p].name for p, _, _, _ in where]).dictionary_encode()}
    for parameter in sweep.parameters:
        kind = pa.float64() if parameter.kind == "cell" else pa.bool_()
        columns[parameter.name] = pa.array([sweep.points[p].values.get(parameter.name) for p, _, _, _ in where], kind)
    columns["scenario"] = pa.array([sweep.scenarios[s][1] for _, s, _, _ in where]).dictionary_encode()
    columns["ruleset"] = pa.array([sweep.rulesets[r] for _, _, r, _ in where]).dictionary_encode()
    columns["replication"] = pa.array([k for _, _, _, k in where], pa.int32())
    seeds = {k: replication_seed(sweep.seed, k) for k in range(sweep.replications)}
    columns["seed"] = pa.array([seeds[k] for _, _, _, k in where], pa.uint64())  # the game's own: `referee run --seed` replays it
    columns["side_1"] = pa.array([worlds[s].sides[0] for _, s, _, _ in where]).dictionary_encode()
    columns["side_2"] = pa.array([worlds[s].sides[1] for _, s, _, _ in where]).dictionary_encode()
    columns["winner"] = pa.array([r[1] for r in ordered], pa.string()).dictionary_encode()
    for i, name in enumerate(("men_lost_1", "men_lost_2", "guns_lost_1", "guns_lost_2", "minutes"), start=2):
        columns[name] = pa.array([r[i] for r in ordered], pa.int32())
    columns["ended_by"] = pa.array([r[7] for r in ordered]).dictionary_encode()
    table = pa.table(columns)
    buffer = io.BytesIO()
    pa.parquet.write_table(table, buffer, compression="zstd")
    return buffer.getvalue()


def read_games(path: str | Path) -> Any:
    """The games of a sweep's Parquet file as a pyarrow table."""
    return pyarrow_module().parquet.read_table(path)


# ----------------------------------------------------------------------------- summary


def summarise(sweep: Sweep, rows: Mapping[int, Row]) -> dict[str, Any]:
    """Every point under every scenario and ruleset, in order, from the rows played so far."""
    worlds = scenarios(sweep)
    by_cell: dict[tuple[int, int, int], dict[int, Row]] = {}
    for index, row in rows.items():
        p, s, r, k = sweep.game(index)
        by_cell.setdefault((p, s, r), {})[k] = row
    base = next(i for i, p in enumerate(sweep.points) if p.name == sweep.base)
    out = []
    for p, point in enumerate(sweep.points):
        for s, world in enumerate(worlds):
            for r, ruleset in enumerate(sweep.rulesets):
                games = by_cell.get((p, s, r), {})
                entry = {"point": point.name, "values": dict(point.values), "scenario": world.id, "ruleset": ruleset,
                         **_measures(games, world)}
                if p != base:
                    entry["against_base"] = _paired(by_cell.get((base, s, r), {}), games, world)
                out.append(entry)
    return {"title": sweep.title, "source": sweep.source, "version": version("referee"), "seed": sweep.seed,
            "replications": sweep.replications, "base": sweep.base, "parameters": parameters(sweep),
            "games": sweep.games, "played": len(rows), "complete": len(rows) == sweep.games,
            "sides": {w.id: list(w.sides) for w in worlds}, "points": out}


def parameters(sweep: Sweep) -> list[dict[str, Any]]:
    out = []
    for p in sweep.parameters:
        entry: dict[str, Any] = {"name": p.name, "kind": p.kind, "values": list(p.values)}
        if p.kind == "cell":
            entry["cell"] = {r: cell_path(p, r) for r in sweep.rulesets}
            entry["shift"] = p.shift
            if p.shift:
                entry["printed"] = dict(p.bases)
        else:
            entry["target"] = p.target
        out.append(entry)
    return out


def _measures(games: Mapping[int, Row], world: Scenario) -> dict[str, Any]:
    rows = [games[k] for k in sorted(games)]
    n = len(rows)
    sides = world.sides
    result: dict[str, Any] = {"games": n, "win": {}}
    for key in (*sides, "draw"):
        wins = sum(1 for row in rows if (row[1] or "draw") == key)
        lo, hi = wilson(wins, n)
        result["win"][key] = {"share": round(wins / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}
    result["men_lost"] = {side: summary([row[2 + i] for row in rows]) for i, side in enumerate(sides)}
    result["guns_lost"] = {side: summary([row[4 + i] for row in rows]) for i, side in enumerate(sides)}
    result["minutes"] = summary([row[6] for row in rows])
    h = world.historical
    if h is not None and n:
        winner = h.winner or "draw"
        result["history"] = {
            "winner": winner, "winner_share": result["win"][winner]["share"],
            "men_lost": {side: history.spread([row[2 + i] for row in rows], h.men_lost.get(side)) for i, side in enumerate(sides)},
            "guns_lost": {side: history.spread([row[4 + i] for row in rows], h.guns_lost.get(side)) for i, side in enumerate(sides)},
            "minutes": history.spread([row[6] for row in rows], h.minutes),
        }
    return result


def _paired(base: Mapping[int, Row], other: Mapping[int, Row], world: Scenario) -> dict[str, Any]:
    """Each measure's difference (this point - the base) game by game on the replications both played."""
    ks = sorted(set(base) & set(other))
    if not ks:
        return {"games": 0}
    a, b = [base[k] for k in ks], [other[k] for k in ks]
    out: dict[str, Any] = {"games": len(ks), "games_changed": sum(1 for x, y in zip(a, b) if x[1:] != y[1:])}
    for i, side in enumerate(world.sides):
        out[f"{side} wins"] = paired([float(x[1] == side) for x in a], [float(y[1] == side) for y in b])
        out[f"{side} men lost"] = paired([x[2 + i] for x in a], [y[2 + i] for y in b])
        out[f"{side} guns lost"] = paired([x[4 + i] for x in a], [y[4 + i] for y in b])
    out["minutes"] = paired([x[6] for x in a], [y[6] for y in b])
    return out


# ----------------------------------------------------------------------------- manifest


def manifest(sweep: Sweep, folder: Path, files: Mapping[tuple[int, str], Sequence[str]]) -> dict[str, Any]:
    """What was played and how to play any point again: each point's stack under each ruleset,
    its files (kept in the output folder) and the `referee compare` command that replays its
    games on the same seeds, replication by replication."""
    points = []
    for p, point in enumerate(sweep.points):
        stacks = {}
        for ruleset in sweep.rulesets:
            c = sweep.cells[(p, ruleset)]
            paths = list(files[(p, ruleset)])
            flags = ["--rules", ruleset, "-n", str(sweep.replications), "--seed", str(sweep.seed),
                     *(f"--option {o}" for o in c.options), *(f"--house-rule {h}" for h in paths)]
            stacks[ruleset] = {"options": list(c.options), "files": [{"path": path, "sha256": hashlib.sha256(text.encode()).hexdigest()}
                                                                     for path, (_, text) in zip(paths, c.files)],
                               "compare": {name: " ".join(["referee compare", name, *flags]) for name, _, _ in sweep.scenarios}}
        points.append({"point": point.name, "values": dict(point.values), "rulesets": stacks})
    return {"sweep": sweep.source, "title": sweep.title, "digest": sweep.digest(), "version": version("referee"),
            "seed": sweep.seed, "replications": sweep.replications, "base": sweep.base,
            "scenarios": [{"name": name, "id": sid, "sha256": hashlib.sha256(text.encode()).hexdigest()}
                          for name, sid, text in sweep.scenarios],
            "rulesets": list(sweep.rulesets), "parameters": parameters(sweep),
            "game_order": "point, scenario, ruleset, replication (replication fastest); replication k plays on seed "
                          "replication_seed(seed, k) at every point", "points": points}
