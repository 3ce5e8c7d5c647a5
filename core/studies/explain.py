"""Why rulesets differ on one battle: losses by cause and by time, the mechanics rolled, and
paired differences on common random numbers, ending in a few plain sentences.

Games are played with the log on (each reduced to a :class:`GameRecord` in the worker that
played it) so that what happened when, and which mechanics were rolled, can be read back from
the log's neutral events (:mod:`~referee.core.studies.timeline`): the ``lost`` events every ruleset
reports through ``Game.lose`` give the losses by cause, and by range where the ruleset knew it. Replication ``k`` draws from the same
seed under every ruleset, so the difference between two rulesets can be taken game by game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from ..engine.events import ARTILLERY, CAUSES, EventLog, clock
from ..engine.game import Game, Outcome, play, replication_seed
from ..engine.world import Scenario
from .compare import Stack, _scenario
from .stats import mean as _mean
from .stats import paired
from .timeline import BUCKET, losses_by_range, losses_by_time, mechanics_rolled

RANGE_BANDS = (200, 400, 800)
"""Yards: the range bands of losses to fire (up to 200, 200-400, 400-800, over 800)."""


def kind_of(cause: str) -> str:
    """A cause's kind for comparing rulesets that name ammunition differently: every artillery
    cause is ``artillery``."""
    return "artillery" if cause in ARTILLERY else cause


KINDS = tuple(dict.fromkeys(kind_of(c) for c in CAUSES))
"""The kinds of cause, in order: musketry, artillery, charge, rout, captured, other."""


def band_label(i: int) -> str:
    """The words for range band ``i`` of RANGE_BANDS."""
    if i == 0:
        return f"up to {RANGE_BANDS[0]} yards"
    if i == len(RANGE_BANDS):
        return f"over {RANGE_BANDS[-1]} yards"
    return f"{RANGE_BANDS[i - 1]}-{RANGE_BANDS[i]} yards"


@frozen
class GameRecord:
    """One logged game reduced to what an explanation needs."""

    outcome: Outcome
    losses: Mapping[str, Sequence[int]]  # side -> men lost in each BUCKET minutes from the start
    rolled: Mapping[str, Mapping[str, int]]  # mechanic -> result -> how often
    by_range: Mapping[str, Mapping[str, Sequence[int]]] = field(factory=dict)  # side -> cause -> men lost in each RANGE_BANDS band


def record(stack: Stack, scenario_path: str, seed: int) -> tuple[GameRecord, EventLog]:
    """Play one game with the log on; its record and its log."""
    scenario = _scenario(scenario_path)
    log = EventLog(enabled=True)
    outcome = play(Game.new(stack.build(), scenario, seed, log))
    rolled = {m: dict(sorted(c.items())) for m, c in sorted(mechanics_rolled(log.events).items())}
    return GameRecord(outcome, losses_by_time(log.events, scenario), rolled, losses_by_range(log.events, scenario, RANGE_BANDS)), log


def replicate_logged(stack: Stack, scenario_path: str, seed: int, ks: Sequence[int]) -> list[GameRecord]:
    """Replications ``ks`` played with the log on, as records (a job for ``run_replications``)."""
    return [record(stack, scenario_path, replication_seed(seed, k))[0] for k in ks]


def by_time(records: Sequence[GameRecord], scenario: Scenario) -> dict[str, Any]:
    """Mean men lost by each side in each half hour (or BUCKET minutes), with the clock time each
    bucket begins at."""
    count = len(next(iter(records[0].losses.values()))) if records else 0
    return {
        "bucket_minutes": BUCKET,
        "from": [clock(scenario.start + i * BUCKET) for i in range(count)],
        "men_lost": {side: [round(_mean([r.losses[side][i] for r in records]), 1) for i in range(count)]
                     for side in scenario.sides},
    }


def by_cause(records: Sequence[GameRecord], scenario: Scenario) -> dict[str, Any]:
    """Mean men lost by each side to each cause, with its share of the side's losses; and, for
    fire whose range the ruleset logs, the mean men lost in each range band."""
    n = len(records)
    out: dict[str, Any] = {}
    for side in scenario.sides:
        total = _mean([r.outcome.men_lost[side] for r in records])
        causes = {c: sum(r.outcome.lost_by_cause.get(side, {}).get(c, 0) for r in records) / n for c in CAUSES}
        ranges = {}
        for cause in CAUSES:
            rows = [r.by_range.get(side, {}).get(cause) for r in records]
            if any(rows):
                ranges[cause] = {band_label(i): round(sum(row[i] for row in rows if row) / n, 1) for i in range(len(RANGE_BANDS) + 1)}
        out[side] = {"men_lost": round(total, 1),
                     "causes": {c: {"men": round(m, 1), "share": round(m / total, 4) if total else 0.0} for c, m in causes.items() if m},
                     "by_range": ranges,
                     "unreported": round(total - sum(causes.values()), 1)}  # men lost that the ruleset gave no cause for (Game.lose)
    return out


def mechanics(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Each mechanic: how often it is rolled a game, and the share of each of its results."""
    names = sorted({m for r in records for m in r.rolled})
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        results: dict[str, int] = {}
        for r in records:
            for result, k in r.rolled.get(name, {}).items():
                results[result] = results.get(result, 0) + k
        total = sum(results.values())
        ordered = sorted(results.items(), key=lambda kv: (-kv[1], kv[0]))
        out[name] = {"per_game": round(total / len(records), 2),
                     "results": {res: round(k / total, 4) for res, k in ordered}}
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["per_game"]))


def pair(a: str, b: str, ra: Sequence[GameRecord], rb: Sequence[GameRecord], scenario: Scenario) -> dict[str, Any]:
    """``b`` against ``a`` on the same seeds, game by game."""
    n = min(len(ra), len(rb))
    oa, ob = [r.outcome for r in ra[:n]], [r.outcome for r in rb[:n]]
    assert all(x.seed == y.seed for x, y in zip(oa, ob)), "records on different seeds cannot be paired"
    same = sum(1 for x, y in zip(oa, ob) if (x.winner, x.minutes, x.men_lost, x.guns_lost) == (y.winner, y.minutes, y.men_lost, y.guns_lost))
    return {
        "a": a, "b": b, "games": n, "identical_games": same,
        "men_lost": {s: paired([o.men_lost[s] for o in oa], [o.men_lost[s] for o in ob]) for s in scenario.sides},
        "minutes": paired([o.minutes for o in oa], [o.minutes for o in ob]),
        "win_share": {s: paired([float(o.winner == s) for o in oa], [float(o.winner == s) for o in ob]) for s in scenario.sides},
        "lost_by_cause": {s: {c: paired([o.lost_by_cause.get(s, {}).get(c, 0) for o in oa], [o.lost_by_cause.get(s, {}).get(c, 0) for o in ob])
                              for c in CAUSES if any(o.lost_by_cause.get(s, {}).get(c) for o in (*oa, *ob))}
                          for s in scenario.sides},
        "lost_by_kind": {s: {k: paired(_kind(oa, s, k), _kind(ob, s, k)) for k in KINDS if any(_kind(oa, s, k) + _kind(ob, s, k))}
                         for s in scenario.sides},
    }


def _kind(outcomes: Sequence[Outcome], side: str, kind: str) -> list[int]:
    """Men lost by ``side`` to causes of ``kind``, game by game."""
    return [sum(m for c, m in o.lost_by_cause.get(side, {}).items() if kind_of(c) == kind) for o in outcomes]


def explain(records: Mapping[str, Sequence[GameRecord]], scenario: Scenario, baseline: str | None = None) -> dict[str, Any]:
    """Per ruleset: losses by cause and by time and the mechanics rolled; every other ruleset
    paired with ``baseline`` (by default the first); and the sentences that say it, largest first."""
    names = list(records)
    base = names[0] if baseline is None else baseline
    if base not in records:
        raise ValueError(f"baseline {base!r} is not among the rulesets ({', '.join(names)})")
    result: dict[str, Any] = {
        "rulesets": {name: {"games": len(rs), "losses_by_cause": by_cause(rs, scenario), "losses_by_time": by_time(rs, scenario),
                            "mechanics": mechanics(rs)}
                     for name, rs in records.items()},
        "paired": [pair(base, b, records[base], records[b], scenario) for b in names if b != base],
    }
    result["sentences"] = sentences(result, scenario)
    return result


LEAD = 3
"""How many findings lead: the report shows them first and `explain` prints them under their own heading."""

SHARE_FLOOR = 10.0
"""Men a game: a side that loses fewer on average is given its men, never shares of them (a share
of a mean of 1 man, "100 %", says nothing)."""


def _men(x: float) -> str:
    return f"{abs(x):,.0f}"


def _when_half(series: Sequence[float], scenario: Scenario) -> str | None:
    """The clock time by which half of a side's losses have fallen (the end of that bucket)."""
    total = sum(series)
    if total <= 0:
        return None
    running = 0.0
    for i, x in enumerate(series):
        running += x
        if running >= total / 2:
            return clock(scenario.start + (i + 1) * BUCKET)
    return None


def sentences(result: Mapping[str, Any], scenario: Scenario) -> list[str]:
    """Plain sentences, largest finding first (see :func:`findings`)."""
    return [text for _, text in ranked(findings(result, scenario))]


def ranked(found: Sequence[tuple[float | None, str]]) -> list[tuple[float | None, str]]:
    """Findings with a size, largest first (ties in the order found), then those without one in
    the order found."""
    sized = sorted((f for f in found if f[0] is not None), key=lambda f: -(f[0] or 0.0))
    return sized + [f for f in found if f[0] is None]


def _minutes_in_men(result: Mapping[str, Any], name: str, scenario: Scenario) -> float:
    """Men both sides lose in a minute of the game under ``name`` (its mean losses over the
    minutes its losses are spread across): what a difference in minutes is worth when ranked."""
    series = result["rulesets"][name]["losses_by_time"]["men_lost"]
    total = sum(sum(series[side]) for side in scenario.sides)
    buckets = max(1, max(sum(1 for x in series[side] if x) for side in scenario.sides))
    return total / (buckets * BUCKET)


def findings(result: Mapping[str, Any], scenario: Scenario) -> list[tuple[float | None, str]]:
    """Each finding with its size in men a game: a paired difference its mean (0 when its 95 %
    interval holds 0), a difference in minutes the men lost in that many minutes under the
    baseline, a cause the men it costs; when the losses fall and what is rolled most have no size."""
    said: list[tuple[float | None, str]] = []
    for p in result["paired"]:
        a, b = p["a"], p["b"]
        parts = []
        size = 0.0
        for side in scenario.sides:
            d = p["men_lost"][side]
            lo, hi = d["ci95"]
            if lo <= 0 <= hi:
                parts.append(f"the {side} side loses about as many men under {b} as under {a} "
                             f"(difference {_signed(d['mean'])}, 95 % interval {_signed(lo)} to {_signed(hi)})")
            else:
                more = "more" if d["mean"] > 0 else "fewer"
                size = max(size, abs(d["mean"]))
                parts.append(f"the {side} side loses {_men(d['mean'])} {more} men under {b} than under {a} "
                             f"(95 % interval {_signed(lo)} to {_signed(hi)})")
        said.append((size, f"On the same {p['games']} seeds, " + "; ".join(parts) + "."))
        m = p["minutes"]
        lo, hi = m["ci95"]
        if not lo <= 0 <= hi:
            sooner = "later" if m["mean"] > 0 else "sooner"
            text = (f"{b} decides the battle {abs(m['mean']):.0f} minutes {sooner} than {a} "
                    f"(95 % interval {_signed(lo, '.0f')} to {_signed(hi, '.0f')}).")
            said.append((abs(m["mean"]) * _minutes_in_men(result, a, scenario), text))
        if p["identical_games"]:
            said.append((None, f"{p['identical_games']} of the {p['games']} games end exactly alike under both."))
    said += cause_sentences(result, scenario)
    for name, r in result["rulesets"].items():
        series = r["losses_by_time"]["men_lost"]
        halves = [f"the {side} side's by {when}" for side in scenario.sides
                  if r["losses_by_cause"][side]["men_lost"] >= SHARE_FLOOR
                  and (when := _when_half(series[side], scenario)) is not None]
        if halves:
            said.append((None, f"Under {name}, half of the losses have fallen: " + ", ".join(halves) + "."))
        top = list(r["mechanics"].items())[:3]
        if top:
            listed = ", ".join(f"{m} ({v['per_game']:.0f} a game)" for m, v in top)
            said.append((None, f"Under {name} the mechanics rolled most are {listed}."))
    return said


def _signed(x: float, spec: str = ",.0f") -> str:
    """``x`` with its sign, and no "-0" for a number that rounds to zero."""
    text = format(x, "+" + spec)
    return "0" if text.strip("+-0.,") == "" else text


def _pc(share: float) -> str:
    return f"{100 * share:.0f} %"


def _same(cause: str, ruleset: Mapping[str, Any], side: str) -> frozenset[str]:
    """The causes another ruleset's losses to ``cause`` are read from: every artillery cause where
    it names the ammunition differently."""
    lost = ruleset["losses_by_cause"][side]
    if cause in ARTILLERY and not lost["causes"].get(cause):
        return ARTILLERY
    return frozenset({cause})


def _part(lost: Mapping[str, Any], causes: frozenset[str], band: str | None) -> str:
    """A side's losses to ``causes`` as a share, or in men a game below :data:`SHARE_FLOOR`."""
    if lost["men_lost"] < SHARE_FLOOR:
        return f"too few losses for a share ({_count(lost['men_lost'])} a game)"
    return _pc(_share(lost, causes, band))


def _count(men: float) -> str:
    return f"{men:,.0f} {'man' if round(men) == 1 else 'men'}"


def _share(lost: Mapping[str, Any], causes: frozenset[str], band: str | None) -> float:
    """The share of a side's losses (``by_cause`` of one side) due to ``causes``, within ``band``."""
    men_lost: float = lost["men_lost"]
    if not men_lost:
        return 0.0
    men: float = (sum(lost["causes"].get(c, {}).get("men", 0.0) for c in causes) if band is None
                  else sum(lost["by_range"].get(c, {}).get(band, 0.0) for c in causes))
    return men / men_lost


def cause_sentences(result: Mapping[str, Any], scenario: Scenario) -> list[tuple[float | None, str]]:
    """The main cause of each side's losses under each ruleset (in the range band that holds
    most of it, where the ruleset logs ranges) with its share under every ruleset (its men a game
    where the side loses fewer than SHARE_FLOOR), and the largest paired gap by cause; each with
    its size in men a game."""
    said: list[tuple[float | None, str]] = []
    rulesets = result["rulesets"]
    silent = {(name, side) for name, r in rulesets.items() for side in scenario.sides if r["losses_by_cause"][side]["unreported"] >= 0.5}
    for name, side in sorted(silent):
        text = (f"Under {name}, the cause of {rulesets[name]['losses_by_cause'][side]['unreported']:,.0f} of the {side} side's "
                f"men lost a game is not reported (the ruleset does not report its losses to the core): its losses by cause "
                f"are left out of the comparison.")
        said.append((None, text))
    rulesets = {name: r for name, r in rulesets.items() if not any((name, side) in silent for side in scenario.sides)}
    for side in scenario.sides:
        told = set()
        for name, r in rulesets.items():
            lost = r["losses_by_cause"][side]
            if not lost["causes"]:
                continue
            cause = max(lost["causes"], key=lambda c: lost["causes"][c]["men"])
            bands = lost["by_range"].get(cause, {})
            band = max(bands, key=bands.__getitem__) if bands else None
            if band is not None and bands[band] < lost["causes"][cause]["men"] / 2:
                band = None  # no band holds most of it
            if (cause, band) in told:
                continue
            told.add((cause, band))
            what = CAUSES[cause] + (f" at {band}" if band else "")
            size = men = lost["men_lost"] * _share(lost, frozenset({cause}), band)
            if lost["men_lost"] < SHARE_FLOOR:
                parts = [(f"under {name}, the {side} side loses only {_count(lost['men_lost'])} a game ({_count(size)} of them "
                          f"to {what}: too few for a share)")]
            else:
                parts = [f"under {name}, {what} causes {_part(lost, frozenset({cause}), band)} of the {side} side's losses"]
            for other, o in rulesets.items():
                if other == name:
                    continue
                theirs = o["losses_by_cause"][side]
                share = _share(theirs, frozenset({cause}), band)
                if cause in ARTILLERY and not share:
                    parts.append(f"under {other}, artillery of every kind{f' at {band}' if band else ''} causes "
                                 f"{_part(theirs, ARTILLERY, band)}")
                else:
                    parts.append(f"under {other}, {_part(theirs, frozenset({cause}), band)}")
            gaps = [abs(men - o["losses_by_cause"][side]["men_lost"] * _share(o["losses_by_cause"][side], _same(cause, o, side), band))
                    for other, o in rulesets.items() if other != name]
            sentence = "; ".join(parts) + "."
            said.append((max(gaps, default=men), sentence[0].upper() + sentence[1:]))
    for p in result["paired"]:
        if p["a"] not in rulesets or p["b"] not in rulesets:
            continue
        for side in scenario.sides:
            gaps = p["lost_by_kind"][side]
            if not gaps:
                continue
            kind = max(gaps, key=lambda k: abs(gaps[k]["mean"]))
            d = gaps[kind]
            lo, hi = d["ci95"]
            what = "artillery fire of every kind" if kind == "artillery" else CAUSES[kind]
            if lo <= 0 <= hi:
                text = (f"No cause of the {side} side's losses differs clearly between {p['b']} and {p['a']}: the largest gap, "
                        f"{what}, is {_signed(d['mean'])} men (95 % interval {_signed(lo)} to {_signed(hi)}).")
                said.append((0.0, text))
                continue
            more = "more" if d["mean"] > 0 else "fewer"
            text = (f"The largest gap by cause: the {side} side loses {_men(d['mean'])} {more} men to {what} "
                    f"under {p['b']} than under {p['a']} (95 % interval {_signed(lo)} to {_signed(hi)}).")
            said.append((abs(d["mean"]), text))
    return said
