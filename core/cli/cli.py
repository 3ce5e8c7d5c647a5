"""The ``referee`` command line: thin, every command takes ``--json``."""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..engine import limits
from ..engine.errors import InvalidInput, Problem, RefereeError, UnknownName
from ..engine.events import CAUSES, EventLog, jsonable, narrate
from ..engine.text import printable, shorten
from ..studies.interrupts import Interrupted, interruptible
from ..studies.tabular import WIDE, FittingConsole, comparison_rows, history_long
from .files import check_folder, write_atomic
from .lazy import lazy
from .sweep_cli import sweep_cmd

if TYPE_CHECKING:
    from importlib import metadata

    import pluggy
    from rich.progress import Progress

    from ..engine import game as playing
    from ..engine import plugins as stacking
    from ..engine.plugins import Rules
    from ..engine.tables import Table
    from ..engine.world import Scenario
    from ..input import scenario as finding
    from ..studies import compare as comparing
    from ..studies import explain as explaining
    from ..studies import history
    from ..studies import report as reporting
    from . import scaffold
else:
    metadata, pluggy = lazy("importlib.metadata"), lazy("pluggy")
    comparing, explaining, playing, history, scaffold, stacking, reporting, finding = (
        lazy(f"referee.core.{name}") for name in ("studies.compare", "studies.explain", "engine.game", "studies.history",
                                                  "cli.scaffold", "engine.plugins", "studies.report", "input.scenario"))

out = FittingConsole(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


class UserError(click.ClickException):
    exit_code = 2


class Referee(click.Group):
    """Turns domain errors into one clear message and exit code 2, never a traceback; Ctrl-C,
    SIGTERM and SIGHUP into "interrupted" and exit code 128 + the signal's number."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with interruptible():
                return super().invoke(ctx)
        except RefereeError as error:
            raise UserError(printable(str(error), newlines=True)) from None
        except pluggy.PluginValidationError as error:  # a house rule naming no hook, or a wrong argument
            plugin = getattr(error.plugin, "__file__", None)
            message = str(error).replace(repr(error.plugin), repr(plugin)) if plugin else str(error)
            where = f"house rule {plugin}" if plugin and plugin not in message else "house rule"
            raise UserError(printable(f"{where}: {shorten(message, 4 * limits.SHOWN)}", newlines=True)) from None
        except Interrupted as interrupt:
            err.print("interrupted", markup=False)
            sys.exit(interrupt.exit_code)
        except BrokenPipeError:  # the reader went away (referee run ... | head): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)


def shown(text: Any) -> str:
    """Text from an input (a title, a name) as Rich prints it: no markup, no control characters."""
    return escape(printable(str(text)))


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")(f)


def stack_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--house-rule", "house_rules", multiple=True, metavar="FILE", help="Layer a house rule from a local file: a .py plugin or a .toml table overlay (repeatable).")(f)
    return click.option("--option", "options", multiple=True, metavar="NAME", help="Switch on an optional rule by name (repeatable).")(f)


def width_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--width N``: the columns tables are fitted to, for a file or a pipe as for a terminal."""
    return click.option("--width", type=click.IntRange(40, 1000), default=None, expose_value=False, metavar="N",
                        callback=lambda ctx, param, value: _fit(value),
                        help="Fit tables to N columns (default: the terminal's; 80 in a file or pipe). No number is "
                             "ever cut: labels wrap, and a table too wide is split into several.")(f)


def _fit(width: int | None) -> None:
    if isinstance(out, FittingConsole):
        out.fit_to(width)
    elif width is not None:  # (a console a test put in its place)
        out.width = width


def examples(*lines: str) -> str:
    """A command's ``--help`` epilog: its examples, one a line, as written."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def complete_scenario(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a SCENARIO: the bundled ones by name, and files (a .toml path)."""
    from click.shell_completion import CompletionItem
    names = [CompletionItem(sid, help=title) for sid, title, _ in finding.bundled() if sid.startswith(incomplete)]
    return names + [CompletionItem(incomplete, type="file")]


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a ruleset name, or of the last of a comma-separated list of them."""
    done, _, last = incomplete.rpartition(",")
    given = set(done.split(","))
    return [f"{done},{name}" if done else name for name in sorted(stacking.installed()) if name.startswith(last) and name not in given]


def _completed_rules(ctx: click.Context) -> Rules | None:
    try:
        return stacking.build_rules(ctx.params.get("ruleset") or "")
    except Exception:  # completion never fails aloud  # noqa: BLE001
        return None


def complete_mechanic(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    rules = _completed_rules(ctx)
    return [m for m in rules.mechanics if m.startswith(incomplete)] if rules else []


def complete_table(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    rules = _completed_rules(ctx)
    return [t for t in rules.tables if t.startswith(incomplete)] if rules else []


def emit_json(data: Any) -> None:
    click.echo(json.dumps(jsonable(data), indent=2, sort_keys=False))


@click.group(cls=Referee)
@click.version_option(package_name="referee")
def main() -> None:
    """Run American Civil War scenarios under several rulesets and compare them in men, guns,
    yards and minutes; roll or compute exactly any mechanic with every modifier cited."""


@main.command("rulesets", epilog=examples("referee rulesets", "referee rulesets --json"))
@json_option
def rulesets_cmd(as_json: bool) -> None:
    """List the installed rulesets and house rules."""
    rows: list[dict[str, Any]] = []
    for name in every_ruleset():
        rules = stacking.build_rules(name)
        layer = next((lay for lay in rules.layers if lay.name == name), None)
        info = layer or rules.info
        rows.append({
            "name": name, "title": info.title, "kind": info.kind, "base": info.base, "source": info.source,
            "scale": rules.info.scale.describe(), "options": sorted(rules.option_specs), "options_on": sorted(rules.options),
            "hooks": rules.hooks_by_plugin(),
        })
    if as_json:
        return emit_json(rows)
    for r in rows:
        on = set(r["options_on"])
        out.print(f"[bold]{shown(r['name'])}[/bold]  {shown(r['title'])}" + (f" (house rules on {shown(r['base'])})" if r["base"] else ""), markup=True)
        out.print(f"    source:  {r['source']}", markup=False)
        out.print(f"    scale:   {r['scale']}", markup=False)
        out.print("    options: " + ", ".join(f"{o} (on)" if o in on else o for o in r["options"]), markup=False)
        for plugin, hooks in r["hooks"].items():
            out.print(f"    hooks of {plugin}: {', '.join(hooks)}", markup=False)


@main.command("scenarios", epilog=examples("referee scenarios", "referee scenarios --path", "cp $(referee scenarios --path | grep drill-musketry | cut -f2) my-drill.toml"))
@click.option("--path", "paths", is_flag=True, help="Show where each bundled file is (to copy one as a start), tab-separated.")
@json_option
def scenarios_cmd(paths: bool, as_json: bool) -> None:
    """List the bundled scenarios."""
    rows = [{"id": i, "title": t, "summary": s, "path": str(finding.find_scenario(i))} for i, t, s in finding.bundled()]
    if as_json:
        return emit_json(rows)
    for r in rows:
        if paths:
            click.echo(f"{r['id']}\t{r['path']}")
        else:
            out.print(f"[bold]{r['id']:<22}[/bold] {shown(r['title'])}: {shown(r['summary'])}")


@main.command("new-scenario", epilog=examples("referee new-scenario my-battle", "referee new-scenario my-bethel --from big-bethel",
                                              "referee new-scenario my-battle -o battles/my-battle.toml"))
@click.argument("name")
@click.option("-o", "--out", "out_path", default=None, metavar="FILE.toml", help="Where to write it (default: NAME.toml here).")
@click.option("--from", "start_from", default=None, metavar="SCENARIO", shell_complete=complete_scenario,
              help="Start from a copy of a bundled scenario (its id changed to NAME) instead of the commented template.")
@click.option("--title", default=None, help="The scenario's title (default: from NAME).")
def new_scenario_cmd(name: str, out_path: str | None, start_from: str | None, title: str | None) -> None:
    """Write a scenario file NAME.toml to start from: a small battle, every section commented,
    that plays as it stands under every ruleset (or a copy of a bundled one)."""
    from ..input import starting
    path = Path(out_path if out_path is not None else f"{name}.toml")
    source = finding.find_scenario(start_from) if start_from is not None else None
    text = starting.new_scenario(name, path, title, source)
    if path.exists() or path.is_symlink():
        raise InvalidInput([Problem("already exists: choose another name, or -o FILE", source=str(path))], "new scenario")
    check_folder(path)
    write_atomic(path, text)
    out.print(f"wrote {path}. Next: referee draw {path} -o {path.stem}.svg; referee check {path}; "
              f"referee run {path} --rules rff", markup=False)


@main.command("check", epilog=examples("referee check my-battle.toml", "referee check big-bethel --rules rff,sumter --json"))
@width_option
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--rules", "rulesets", default=None, shell_complete=complete_rules, help="Comma-separated rulesets (default: every installed one).")
@stack_options
@json_option
def check_cmd(scenario: str, rulesets: str | None, options: tuple[str, ...], house_rules: tuple[str, ...], as_json: bool) -> None:
    """Check SCENARIO without playing it: every problem in the file at once, then what each
    ruleset makes of each unit (its stands, figures or companies, grade and weapon)."""
    from ..input import starting
    world = finding.load_scenario(finding.find_scenario(scenario))
    described = {}
    for name in _ruleset_names(rulesets):
        rules = stacking.build_rules(name, options, house_rules)
        described[rules.name] = starting.describe_units(rules, world)
    data = {**starting.summary(world), "version": metadata.version("referee"), "options": list(options), "house_rules": list(house_rules),
            "rulesets": described}
    if as_json:
        return emit_json(data)
    def count(k: int, what: str) -> str:
        return f"{k:,} {what}{'' if k == 1 else 's'}"

    sides = "; ".join(f"{shown(side)} {count(data['units'][side], 'unit')}, {count(data['men'][side], 'man').replace('mans', 'men')}, "
                      f"{count(data['guns'][side], 'gun')}" for side in world.sides)
    out.print(f"[bold]{shown(world.title)}[/bold]: valid. {sides}; {count(data['objectives'], 'objective')}; "
              f"{data['start']} to {data['end']}.", soft_wrap=False)
    table = RichTable(title="What each ruleset makes of each unit")
    table.add_column("unit")
    for name in described:
        table.add_column(escape(name))
    for unit in world.units:
        what = f"{unit.arm}, {unit.men:,} men" + (f", {unit.guns} guns" if unit.guns else "") + f", {unit.experience}"
        table.add_row(f"{shown(unit.name)}\n({what})", *(escape(d[unit.id] or "not on the table") for d in described.values()))
    out.print(table)
    return None


@main.command("draw", epilog=examples("referee draw big-bethel -o big-bethel.svg", "referee draw my-battle.toml -o my-battle.png"))
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("-o", "--out", "out_path", required=True, metavar="FILE.svg",
              help="Where to write the drawing; .svg, .png or .pdf (the suffix says which).")
@json_option
def draw_cmd(scenario: str, out_path: str, as_json: bool) -> None:
    """Draw SCENARIO before it is played: the ground, the objectives and every unit where it
    deploys (or where and when it enters), named, on a yard grid with a scale bar and north arrow."""
    from ..studies import draw  # matplotlib: imported only by the commands that draw
    kind = Path(out_path).suffix.lstrip(".").lower()
    if kind not in draw.FORMATS:
        raise InvalidInput([Problem(f"unknown kind of drawing {Path(out_path).suffix or '(no suffix)'!r}; "
                                    f"valid: {', '.join('.' + f for f in draw.FORMATS)}", path="--out", source=out_path)],
                           "output file")
    world = finding.load_scenario(finding.find_scenario(scenario))
    check_folder(out_path)
    picture = draw.render(world, kind)
    write_atomic(out_path, picture)
    if as_json:
        return emit_json({"out": out_path, "bytes": len(picture), "scenario": world.id, "units": len(world.units)})
    out.print(f"wrote {out_path}: {world.title}, {len(world.units)} units", markup=False)
    return None


@main.command("run", epilog=examples("referee run big-bethel --rules rff --seed 7", "referee run big-bethel --rules hardtack --quiet --log game.jsonl", "referee run my-battle.toml --rules sumter --json"))
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--rules", "ruleset", required=True, shell_complete=complete_rules, help="The ruleset (or house rule) to play under.")
@stack_options
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the game's random stream.")
@click.option("--log", "log_path", metavar="FILE.jsonl", help="Write the event log as JSON Lines.")
@click.option("--quiet", is_flag=True, help="Do not narrate; print only the outcome.")
@json_option
def run_cmd(scenario: str, ruleset: str, options: tuple[str, ...], house_rules: tuple[str, ...], seed: int,
            log_path: str | None, quiet: bool, as_json: bool) -> None:
    """Play one refereed game of SCENARIO (a bundled name or a .toml path), narrating every roll."""
    world = finding.load_scenario(finding.find_scenario(scenario))
    rules = stacking.build_rules(ruleset, options, house_rules)
    if log_path is not None:
        check_folder(log_path)  # before the game, not after it
    narrating = not (quiet or as_json)
    log = EventLog(enabled=True, stream=sys.stdout if narrating else None)
    quietly = err.status(f"playing {shown(world.id)} under {shown(rules.name)}") if not narrating and err.is_terminal else nullcontext()
    with quietly:  # a quiet game shows it is being played (the narration does otherwise)
        outcome = playing.play(playing.Game.new(rules, world, seed, log))
    if log_path is not None:
        write_atomic(log_path, log.jsonl())
    if as_json:
        return emit_json(outcome.as_json())
    out.print(f"\n[bold]{outcome.winner or 'draw'}[/bold] after {outcome.minutes} minutes ({outcome.turns} turns): {shown(outcome.reason)}")
    for side in world.sides:
        guns = outcome.guns_lost[side]
        out.print(f"  {side}: {outcome.men_lost[side]} men and {guns} gun{'' if guns == 1 else 's'} lost, "
                  f"{outcome.yards_gained[side]} yards gained")


WORKERS_HELP = (f"Worker processes: at most {limits.WORKERS}, and never more than there are chunks of work "
                "(default: the machine's CPUs, at most 8).")


@main.command("compare", epilog=examples("referee compare big-bethel --rules rff,hardtack -n 200", "referee compare big-bethel -n 200 --width 120 > big-bethel.txt", "referee compare drill-musketry --rules rff --house-rule my_rule.py --baseline", "referee compare my-battle.toml --json --out result.json"))
@width_option
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--rules", "rulesets", default=None, shell_complete=complete_rules, help="Comma-separated rulesets (default: every installed one).")
@stack_options
@click.option("-n", "n", type=click.IntRange(1, limits.REPLICATIONS), default=1000, show_default=True,
              help=f"Replications per ruleset (at most {limits.REPLICATIONS:,}).")
@click.option("--seed", type=int, default=1, show_default=True, help="Base seed; replication k uses the same seed under every ruleset.")
@click.option("--workers", type=click.IntRange(1, limits.WORKERS), default=None, help=WORKERS_HELP)
@click.option("--out", "out_path", metavar="FILE.json", help="Also write the JSON result to a file (atomically).")
@click.option("--baseline", is_flag=False, flag_value="", default=None, metavar="[RULESET]", shell_complete=complete_rules,
              help="Measure against a baseline on the same seeds: alone, the ruleset without the house rules; "
                   "with a name, that ruleset (without house rules) against each other one in --rules.")
@json_option
def compare_cmd(scenario: str, rulesets: str | None, options: tuple[str, ...], house_rules: tuple[str, ...], n: int,
                seed: int, workers: int | None, out_path: str | None, baseline: str | None, as_json: bool) -> None:
    """Play SCENARIO N times under each ruleset and compare the outcomes with history."""
    if baseline is not None:
        return _compare_baseline(scenario, rulesets, baseline, options, house_rules, n, seed, workers, out_path, as_json)
    path = str(finding.find_scenario(scenario))
    world = finding.load_scenario(finding.find_scenario(scenario))
    stacks = []
    for name in _ruleset_names(rulesets):
        stack = comparing.Stack(name, tuple(options), tuple(house_rules))
        stacks.append((stack.build(), stack))  # fail fast on a bad name or option; built once, for the workers too
    if out_path is not None:
        check_folder(out_path)  # before the replications, not after them
    workers = workers or comparing.default_workers()
    report: dict[str, Any] = {"scenario": world.id, "title": world.title, "seed": seed, "n": n, "options": list(options),
                              "house_rules": list(house_rules), "version": metadata.version("referee"), "rulesets": {}}
    played, interrupted = _replicate_each([(rules.name, stack, path) for rules, stack in stacks], n, seed, workers)
    for (rules, _), outcomes in zip(stacks, played):
        report["rulesets"][rules.name] = comparing.summarise(outcomes, world)
    if world.historical:
        h = world.historical
        report["history"] = {"winner": h.winner or "draw", "men_lost": dict(h.men_lost), "guns_lost": dict(h.guns_lost),
                             "minutes": h.minutes, "note": h.note}
    _deliver(report, interrupted, out_path, as_json, lambda: _print_comparison(report, world.sides))


def _deliver(report: dict[str, Any], interrupted: Any, out_path: str | None, as_json: bool, show: Callable[[], None]) -> None:
    """A comparison's report: written to ``out_path`` (atomically), printed as JSON or by ``show``;
    marked, and the program's exit code set, when the run was interrupted."""
    if interrupted:
        report["interrupted"] = True
        err.print("[yellow]interrupted: reporting the replications finished so far[/yellow]")
    if out_path is not None:
        write_atomic(out_path, json.dumps(jsonable(report), indent=2) + "\n")
    if as_json:
        emit_json(report)
    else:
        show()
    if interrupted:
        sys.exit(interrupted.exit_code)


def _compare_baseline(scenario: str, rulesets: str | None, baseline: str, options: tuple[str, ...], house_rules: tuple[str, ...],
                      n: int, seed: int, workers: int | None, out_path: str | None, as_json: bool) -> None:
    """``compare --baseline``: each stack against the baseline, game by game on the same seeds."""
    names = _ruleset_names(rulesets)
    if not baseline:
        if len(names) != 1 or not house_rules:
            raise UserError("--baseline alone measures house rules: name one ruleset (--rules NAME) and give --house-rule FILE; "
                            "or name the baseline ruleset: --baseline NAME")
        baseline = names[0]
    elif baseline not in names:
        raise UserError(f"--baseline {baseline}: not among --rules ({', '.join(names)})")
    others = [name for name in names if name != baseline] or [baseline]
    if others == [baseline] and not house_rules:
        raise UserError(f"nothing to measure against {baseline}: add a ruleset to --rules or a --house-rule")
    path = str(finding.find_scenario(scenario))
    world = finding.load_scenario(finding.find_scenario(scenario))
    base = comparing.Stack(baseline, tuple(options))
    base_rules = base.build()  # built once, for the workers too
    jobs = [(base_rules.name, base, path)]
    for name in others:
        stack = comparing.Stack(name, tuple(options), tuple(house_rules))
        jobs.append((stack.build().name, stack, path))
    if out_path is not None:
        check_folder(out_path)
    played, interrupted = _replicate_each(jobs, n, seed, workers or comparing.default_workers(), job=comparing.replicate_traced)
    report: dict[str, Any] = {"scenario": world.id, "title": world.title, "seed": seed, "n": n, "options": list(options),
                              "house_rules": list(house_rules), "version": metadata.version("referee"), "baseline": base_rules.name,
                              "against": {}}
    for (label, _, _), results in zip(jobs[1:], played[1:]):
        report["against"][label] = comparing.against_baseline(played[0], results, world.sides)
    _deliver(report, interrupted, out_path, as_json, lambda: _print_baseline(report))


def _print_baseline(report: dict[str, Any]) -> None:
    for label, r in report["against"].items():
        table = RichTable(title=f"{shown(report['title'])}: {shown(label)} against {shown(report['baseline'])} "
                                f"on the same {r['replications']} seeds (seed {report['seed']})")
        for col in ("", shown(report["baseline"]), shown(label), "difference [95% interval]"):
            table.add_column(col, justify="left" if not col else "right")
        for key, row in r["statistics"].items():
            d = row["difference"]
            share = key.endswith(" wins") or key == "draws"
            cell = _percent if share else _one_place
            table.add_row(key, cell(row["base"]), cell(row["other"]),
                          f"{'+' if d['mean'] >= 0 else ''}{cell(d['mean'])} [{cell(d['ci95'][0])}, {cell(d['ci95'][1])}]")
        out.print(table)
        k, m = r["games_changed"], r["replications"]
        if k == 0:
            out.print(f"this rule never applied: all {m} games were the same, resolution by resolution, under both")
        else:
            out.print(f"games changed: {k} of {m} ({k / m:.0%})" + ("; the rest were the same, resolution by resolution" if k < m else ""))


def _ruleset_names(rulesets: str | None) -> list[str]:
    """The rulesets a comma-separated ``--rules`` names, each once, in order; without it every
    installed ruleset and packaged layer (a variant such as a layer on a base is a ruleset to compare)."""
    if rulesets is None:
        return every_ruleset()
    given = [r.strip() for r in rulesets.split(",") if r.strip()]
    if not given:
        raise UserError(f"--rules {rulesets!r} names no ruleset: give comma-separated names "
                        f"(installed: {', '.join(sorted(stacking.installed()))}), or leave --rules out for every one")
    return list(dict.fromkeys(given))


def every_ruleset() -> list[str]:
    """Every installed ruleset and house rule that loads; one that does not is named on stderr
    (with its package and how to remove it) and skipped."""
    names, broken = stacking.loadable()
    for message in broken:
        err.print(f"warning: skipped: {printable(message)}", markup=False, soft_wrap=True)
    return names


def _percent(v: float) -> str:
    return f"{v:.1%}"


def _one_place(v: float) -> str:
    return f"{v:.1f}"


def _replicate_each(jobs: Sequence[tuple[str, comparing.Stack, str]], n: int, seed: int,
                    workers: int, job: comparing.Job | None = None) -> tuple[list[list[Any]], Interrupted | None]:
    """Play N replications of each (label, stack, scenario path) job, in order, with a progress
    bar on stderr (``job`` as for ``run_replications``). Returns the outcomes (or the job's
    results) of the leading jobs that finished any, in job order, and the interrupt (Ctrl-C,
    SIGTERM, SIGHUP) that stopped the run, if one did (the jobs after it are not played)."""
    played: list[list[Any]] = []
    interrupted = None
    with _bar() as bar:
        for label, stack, path in jobs:
            task = bar.add_task(shown(label), total=n)
            outcomes, interrupted = comparing.run_replications(
                stack, path, n, seed, workers, progress=partial(bar.advance, task), job=job)
            if outcomes:
                played.append(outcomes)
            if interrupted:
                break
    return played, interrupted


def _bar() -> Progress:
    """A progress bar of games played on stderr, when stderr is a terminal; cleared when done."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=err, transient=True, disable=not err.is_terminal)


def _print_comparison(report: dict[str, Any], sides: tuple[str, str]) -> None:
    table = RichTable(title=f"{shown(report['title'])}: {report['n']} replications per ruleset, seed {report['seed']}")
    table.add_column("")
    for name, r in report["rulesets"].items():
        table.add_column(f"{shown(name)} (n={r['replications']})", justify="right")
    hist = report.get("history")
    if hist:
        table.add_column("history", justify="right")
    for label, cells, in_history in comparison_rows(report["rulesets"], sides, hist):
        table.add_row(label, *cells, *([in_history] if hist else []))
    out.print(table)
    out.print(history.BROKE_OFF_LEGEND)


@main.command("history", epilog=examples("referee history -n 100", "referee history big-bethel kernstown --rules rff,sumter --json"))
@width_option
@click.argument("scenarios", nargs=-1, metavar="[SCENARIO]...", shell_complete=complete_scenario)
@click.option("--rules", "rulesets", default=None, shell_complete=complete_rules, help="Comma-separated rulesets (default: every installed one).")
@click.option("-n", "n", type=click.IntRange(1, limits.REPLICATIONS), default=200, show_default=True,
              help=f"Replications per battle and ruleset (at most {limits.REPLICATIONS:,}).")
@click.option("--seed", type=int, default=1, show_default=True, help="Base seed; replication k uses the same seed under every ruleset.")
@click.option("--workers", type=click.IntRange(1, limits.WORKERS), default=None, help=WORKERS_HELP)
@json_option
def history_cmd(scenarios: tuple[str, ...], rulesets: str | None, n: int, seed: int, workers: int | None, as_json: bool) -> None:
    """Play every bundled battle with a historical record (or each SCENARIO named) N times under
    each ruleset, and show where the real winner, losses and duration fall among the outcomes."""
    battles = _historical_battles(scenarios)
    names = _ruleset_names(rulesets)
    for name in names:
        comparing.Stack(name).build()  # fail fast on a bad name; built once, for the workers too
    pairs = [(path, world, name) for path, world in battles for name in names]
    jobs = [(f"{world.id} {name}", comparing.Stack(name), path) for path, world, name in pairs]
    played, interrupted = _replicate_each(jobs, n, seed, workers or comparing.default_workers())
    rows = [history.row(world, name, outcomes) for (_, world, name), outcomes in zip(pairs, played)]
    report: dict[str, Any] = {"seed": seed, "n": n, "rulesets": names, "scenarios": [world.id for _, world in battles],
                              "rows": rows, "men_lost_inside": history.men_lost_inside(rows)}
    if interrupted:
        report["interrupted"] = True
        err.print("[yellow]interrupted: reporting the replications finished so far[/yellow]")
    if as_json:
        emit_json(report)
    else:
        _print_history(report)
    if interrupted:
        sys.exit(interrupted.exit_code)


def _historical_battles(names: tuple[str, ...]) -> list[tuple[str, Scenario]]:
    """(path, scenario) of each scenario named, or of every bundled one with a historical record."""
    if not names:
        found = [(str(finding.find_scenario(sid)), finding.load_scenario(finding.find_scenario(sid))) for sid, _, _ in finding.bundled()]
        return [(path, world) for path, world in found if world.historical]
    battles = []
    for name in dict.fromkeys(names):
        path = finding.find_scenario(name)
        world = finding.load_scenario(path)
        if world.historical is None:
            with_history = ", ".join(world.id for _, world in _historical_battles(())) or "none"
            raise InvalidInput([Problem(f"scenario {name!r} has no [historical] record to compare with "
                                        f"(bundled scenarios with one: {with_history})", source=str(path))], "history")
        battles.append((str(path), world))
    return battles


VERDICT_STYLE = {"inside": "green", "below": "yellow", "above": "yellow"}


def _print_history(report: dict[str, Any]) -> None:
    if out.width < WIDE:
        return _print_history_long(report)
    rows = report["rows"]
    sides = list(dict.fromkeys(side for r in rows for side in r["men_lost"]))
    table = RichTable(title=f"History among the outcomes: {report['n']} replications per battle and ruleset, seed {report['seed']}",
                      caption="each cell: p10 / p50 / p90 of the replications, then history (its percentile) and its verdict "
                              f"against p10-p90\n{history.BROKE_OFF_LEGEND}")
    for header in ("battle", "rules\n(n)", "history's\nwinner:\nshare\n[95% CI]", *(f"men lost\n{s}" for s in sides),
                   *(f"guns lost\n{s}" for s in sides), "minutes to\ndecision"):
        table.add_column(header, justify="left" if header == "battle" else "right", overflow="fold")

    def cell(c: dict[str, Any]) -> str:
        band, hist = history.spread_text(c)
        if not hist:
            return band
        return f"{band}\n{escape(hist)}\n[{VERDICT_STYLE[c['verdict']]}]{c['verdict']}[/]"

    for r in rows:
        marked = [*history.winner_text(r["winner"]), *filter(None, [history.broke_off_text(r.get("broke_off", {}))])]
        table.add_row(shown(r["title"]), f"{shown(r['ruleset'])}\n({r['replications']})", escape("\n".join(marked)),
                      *(cell(r["men_lost"][s]) for s in sides), *(cell(r["guns_lost"][s]) for s in sides), cell(r["minutes"]))
    out.print(table)
    _print_inside(report)
    return None


def _print_history_long(report: dict[str, Any]) -> None:
    out.print(history_long(report))
    _print_inside(report)


def _print_inside(report: dict[str, Any]) -> None:
    inside = report["men_lost_inside"]
    out.print(f"history's men lost inside p10-p90 in {inside['inside']} of {inside['cells']} cells (battle, ruleset, side)")


@main.command("resolve", epilog=examples("referee resolve rff --list", "referee resolve rff musketry --set fire_points=9 --exact", "referee resolve hardtack fire --seed 3"))
@width_option
@click.argument("ruleset", shell_complete=complete_rules)
@click.argument("mechanic", required=False, shell_complete=complete_mechanic)
@click.option("--set", "pairs", multiple=True, metavar="KEY=VALUE",
              help=f"An input of the mechanic (repeatable; at most {limits.SET_TEXT} characters, a number at most "
                   f"{limits.SET_VALUE:,} in size).")
@click.option("--seed", type=int, default=None, help="Roll once with this seed, every modifier cited.")
@click.option("--exact", is_flag=True, help="Compute the exact distribution of outcomes.")
@click.option("--list", "listing", is_flag=True, help="List the ruleset's mechanics and their inputs.")
@stack_options
@json_option
def resolve_cmd(ruleset: str, mechanic: str | None, pairs: tuple[str, ...], seed: int | None, exact: bool, listing: bool,
                options: tuple[str, ...], house_rules: tuple[str, ...], as_json: bool) -> None:
    """Resolve one MECHANIC of RULESET at the table: a cited roll (--seed) or exact odds (--exact)."""
    rules = stacking.build_rules(ruleset, options, house_rules)
    if listing or mechanic is None:
        return _list_mechanics(rules, as_json)
    if mechanic not in rules.mechanics:
        raise UnknownName("mechanic", mechanic, rules.mechanics)
    spec = rules.mechanics[mechanic]
    if exact == (seed is not None):
        raise InvalidInput([Problem("give exactly one of --seed N (a cited roll) or --exact (the distribution)")], "resolve")
    inputs = spec.parse_inputs(pairs)
    if seed is not None:
        res = spec.sample(seed, inputs)
        if as_json:
            return emit_json(res.as_json())
        out.print(narrate({"kind": "resolution", **res.as_json()}).strip(), markup=False)  # a "[ruleset ref]" citation, not markup
        return None
    outcomes = spec.exact(inputs)
    data = {
        "ruleset": rules.info.name, "mechanic": mechanic, "inputs": jsonable(inputs),
        "outcomes": [{"result": r.result, "probability": f"{p.numerator}/{p.denominator}", "p": float(p), "values": jsonable(r.values)} for r, p in outcomes],
    }
    if as_json:
        return emit_json(data)
    table = RichTable(title=shown(f"{rules.info.name} {mechanic}: {', '.join(f'{k}={v}' for k, v in data['inputs'].items())}"))
    for col in ("result", "probability", "p", "values"):
        table.add_column(col)
    for o in data["outcomes"]:
        values = ", ".join(f"{k}={v}" if v is not True else k for k, v in o["values"].items() if k != "effect" and v not in (False, 0, None, [], "none", "no"))
        table.add_row(shown(o["result"]), o["probability"], f"{o['p']:.4f}", shown(values))
    out.print(table)
    return None


def _list_mechanics(rules: Rules, as_json: bool) -> None:
    rows: list[dict[str, Any]] = [{"mechanic": m.name, "summary": m.summary, "ref": m.ref,
             "inputs": {i.name: {"kind": i.describe(), "help": i.help} for i in m.inputs}, "values": dict(m.values)}
            for m in rules.mechanics.values()]
    if as_json:
        return emit_json(rows)
    for r in rows:
        out.print(f"[bold]{shown(r['mechanic'])}[/bold]: {shown(r['summary'])} [dim]({shown(r['ref'])})[/dim]")
        for name, i in r["inputs"].items():
            out.print(f"    --set {name}=<{i['kind']}>  {i['help']}", markup=False)
    return None


@main.command("tables", epilog=examples("referee tables rff", "referee tables rff fire-effects", "referee tables rff --house-rule strong_works.toml --diff"))
@width_option
@click.argument("ruleset", shell_complete=complete_rules)
@click.argument("table", required=False, shell_complete=complete_table)
@stack_options
@click.option("--diff", "against", is_flag=False, flag_value="", default=None, metavar="[OTHER]",
              help="Show only what differs from OTHER's tables, table by table (alone: from RULESET without the house rules).")
@json_option
def tables_cmd(ruleset: str, table: str | None, options: tuple[str, ...], house_rules: tuple[str, ...], against: str | None,
               as_json: bool) -> None:
    """Print RULESET's tables (or one TABLE) as the ruleset reads them."""
    if against is not None:
        return _tables_diff(ruleset, against or ruleset, table, options, house_rules, as_json)
    rules = stacking.build_rules(ruleset, options, house_rules)
    if table is not None and table not in rules.tables:
        raise UnknownName("table", table, rules.tables)
    chosen = {table: rules.tables[table]} if table else rules.tables
    if as_json:
        return emit_json({name: {"title": t.title, "ref": t.ref, "columns": list(t.columns), "rows": [list(r) for r in t.rows], "notes": list(t.notes)}
                          for name, t in chosen.items()})
    for name, t in chosen.items():
        grid = RichTable(*map(escape, t.columns), title=escape(f"{t.title} [{name}]"), caption=escape(t.ref))
        for r in t.rows:
            grid.add_row(*map(escape, r))
        out.print(grid)
        for note in t.notes:
            out.print(f"  [dim]{escape(note)}[/dim]")
    return None


def _tables_diff(ruleset: str, other: str, table: str | None, options: tuple[str, ...], house_rules: tuple[str, ...],
                 as_json: bool) -> None:
    """``tables --diff``: table by table, what the stack changes against OTHER's tables."""
    before, after = stacking.build_rules(other, options), stacking.build_rules(ruleset, options, house_rules)
    if before.name == after.name:
        raise UserError(f"--diff: {after.name} against {before.name} is the same stack; name another ruleset or add a --house-rule")
    names = list(dict.fromkeys([*before.tables, *after.tables]))
    if table is not None and table not in names:
        raise UnknownName("table", table, names)
    report = tables_diff(before.tables, after.tables, [table] if table else names)
    if as_json:
        return emit_json({"from": before.name, "to": after.name, **report})
    out.print(f"[bold]{shown(after.name)}[/bold] against [bold]{shown(before.name)}[/bold]: "
              f"{len(report['changed'])} table(s) changed, {len(report['unchanged'])} unchanged")
    for name, change in report["changed"].items():
        out.print(f"\n[bold]{shown(name)}[/bold] ({shown(change['status'])})")
        for field, (old, new) in change.get("fields", {}).items():
            out.print(f"  {field}: [red]- {shown(old)}[/red]  [green]+ {shown(new)}[/green]")
        for row in change.get("rows", []):
            if row["before"] is not None:
                out.print(f"  [red]- {shown(' | '.join(row['before']))}[/red]")
            if row["after"] is not None:
                out.print(f"  [green]+ {shown(' | '.join(row['after']))}[/green]")
    return None


def tables_diff(before: dict[str, Table], after: dict[str, Table], names: Sequence[str]) -> dict[str, Any]:
    """Each named table as changed (its differing title, citation, columns and notes, and its
    rows removed and added, in order), added, removed, or unchanged."""
    changed: dict[str, Any] = {}
    unchanged = []
    for name in names:
        old, new = before.get(name), after.get(name)
        if old == new:
            unchanged.append(name)
            continue
        change: dict[str, Any] = {"status": "added" if old is None else "removed" if new is None else "changed"}
        if old is not None and new is not None:
            change["fields"] = {f: [_cell(getattr(old, f)), _cell(getattr(new, f))]
                                for f in ("title", "ref", "columns", "notes") if getattr(old, f) != getattr(new, f)}
        change["rows"] = _row_changes(old.rows if old else (), new.rows if new else ())
        changed[name] = change
    return {"changed": changed, "unchanged": unchanged}


def _cell(value: str | tuple[str, ...]) -> str:
    return value if isinstance(value, str) else " | ".join(value)


def _row_changes(old: Sequence[tuple[str, ...]], new: Sequence[tuple[str, ...]]) -> list[dict[str, list[str] | None]]:
    """The rows that differ, in order: each a row before (None if added) and after (None if removed)."""
    rows: list[dict[str, list[str] | None]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op != "equal":
            olds, news = old[i1:i2], new[j1:j2]
            rows += [{"before": list(olds[k]) if k < len(olds) else None, "after": list(news[k]) if k < len(news) else None}
                     for k in range(max(len(olds), len(news)))]
    return rows


@main.command("new-house-rule", epilog=examples('referee new-house-rule veteran-melee --base rff --title "Veterans in melee"'))
@click.argument("name")
@click.option("--base", required=True, metavar="RULESET", shell_complete=complete_rules, help="The ruleset the house rule goes on (`referee rulesets` lists them).")
@click.option("--dir", "folder", default=".", show_default=True, type=click.Path(file_okay=False), help="Where to make the project folder.")
@click.option("--title", default=None, help="The house rule's title (default: from NAME).")
def new_house_rule_cmd(name: str, base: str, folder: str, title: str | None) -> None:
    """Make a house rule package NAME: entry point, TOML overlay, one hook and its tests."""
    project = scaffold.new_house_rule(name, base, Path(folder), title)
    out.print(f"made {shown(project)}: a house rule on {shown(base)}. Next:", markup=False)
    out.print(f"  cd {shown(project)} && pip install -e '.[test]' && pytest", markup=False)


def _stacks(rulesets: str | None, options: tuple[str, ...], house_rules: tuple[str, ...]) -> dict[str, comparing.Stack]:
    """The stacks to compare, by name, each built once here to fail fast on a bad name or option
    (and kept: the workers use it)."""
    stacks = [comparing.Stack(name, tuple(options), tuple(house_rules)) for name in _ruleset_names(rulesets)]
    return {stack.build().name: stack for stack in stacks}


def _logged(stacks: dict[str, comparing.Stack], path: str, n: int, seed: int, workers: int | None) -> dict[str, list[Any]]:
    """N replications of each stack with the log on, as records; Ctrl-C stops without a result."""
    jobs = [(name, stack, path) for name, stack in stacks.items()]
    played, interrupted = _replicate_each(jobs, n, seed, workers or comparing.default_workers(), job=explaining.replicate_logged)
    if interrupted:
        err.print("[yellow]interrupted: nothing written[/yellow]")
        sys.exit(interrupted.exit_code)
    return dict(zip(stacks, played))


def _replay_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options explain and report share with compare."""
    f = click.option("--workers", type=click.IntRange(1, limits.WORKERS), default=None, help=WORKERS_HELP)(f)
    f = click.option("--seed", type=int, default=1, show_default=True, help="Base seed; replication k uses the same seed under every ruleset.")(f)
    f = click.option("-n", "n", type=click.IntRange(1, limits.REPLICATIONS), default=200, show_default=True,
                     help=f"Replications per ruleset (at most {limits.REPLICATIONS:,}).")(f)
    f = stack_options(f)
    f = click.option("--baseline", default=None, metavar="RULESET",
                     help="The ruleset the others are paired with (default: the first in --rules).")(f)
    return click.option("--rules", "rulesets", default=None, shell_complete=complete_rules, help="Comma-separated rulesets (default: every installed one).")(f)


def _baseline(baseline: str | None, stacks: dict[str, comparing.Stack]) -> str | None:
    """The baseline named, checked against the stacks to compare."""
    if baseline is not None and baseline not in stacks:
        raise UserError(f"--baseline {baseline}: not among the rulesets compared ({', '.join(stacks)}); "
                        f"name one of them, or add it to --rules")
    return baseline


@main.command("explain", epilog=examples("referee explain big-bethel --rules rff,hardtack -n 200",
                                         "referee explain big-bethel --rules rff,hardtack,sumter --baseline sumter"))
@width_option
@click.argument("scenario", shell_complete=complete_scenario)
@_replay_options
@json_option
def explain_cmd(scenario: str, rulesets: str | None, baseline: str | None, options: tuple[str, ...], house_rules: tuple[str, ...],
                n: int, seed: int, workers: int | None, as_json: bool) -> None:
    """Why the rulesets differ on SCENARIO: when the losses fall, which mechanics are rolled, and
    the paired differences between the rulesets on the same seeds, in a few plain sentences."""
    path = str(finding.find_scenario(scenario))
    world = finding.load_scenario(finding.find_scenario(scenario))
    stacks = _stacks(rulesets, options, house_rules)
    base = _baseline(baseline, stacks)
    records = _logged(stacks, path, n, seed, workers)
    data = {"scenario": world.id, "title": world.title, "seed": seed, "n": n, "options": list(options),
            "house_rules": list(house_rules), "version": metadata.version("referee"), **explaining.explain(records, world, base)}
    if as_json:
        return emit_json(data)
    _print_explanation(data, world.sides)
    return None


def _print_explanation(data: dict[str, Any], sides: tuple[str, str]) -> None:
    out.print(f"[bold]{shown(data['title'])}[/bold]: {data['n']} replications per ruleset, seed {data['seed']}\n")
    said = data["sentences"]
    if len(said) > explaining.LEAD:
        out.print(f"[bold]The {explaining.LEAD} largest findings[/bold]")
    for i, sentence in enumerate(said):
        if i == explaining.LEAD:
            out.print("\n[bold]More findings[/bold] (largest first; those with no size last)")
        out.print(f"- {shown(sentence)}", soft_wrap=False)
    names = list(data["rulesets"])
    timeline = _by_ruleset_and_side("Men lost per half hour (mean)", "from", names, sides)
    first = data["rulesets"][names[0]]["losses_by_time"]
    for i, start in enumerate(first["from"]):
        cells = [data["rulesets"][name]["losses_by_time"]["men_lost"][side][i] for name in names for side in sides]
        if any(cells):
            timeline.add_row(start, *(f"{c:.0f}" for c in cells))
    out.print(timeline)
    out.print(_cause_table(data, sides))
    for name in names:
        table = RichTable(title=f"{name}: mechanics rolled")
        for header, justify in (("mechanic", "left"), ("a game", "right"), ("commonest results", "left")):
            table.add_column(header, justify=justify)  # type: ignore[arg-type]  # rich types justify as a Literal; these are its values
        for mechanic, m in data["rulesets"][name]["mechanics"].items():
            common = ", ".join(f"{r} {share:.0%}" for r, share in list(m["results"].items())[:3])
            table.add_row(escape(mechanic), f"{m['per_game']:.1f}", escape(common))
        out.print(table)
    for p in data["paired"]:
        table = RichTable(title=f"{p['b']} - {p['a']}, game by game ({p['games']} seeds, {p['identical_games']} games alike)")
        for header in ("", "mean", "95% interval", "SE paired", "SE unpaired"):
            table.add_column(header, justify="left" if not header else "right")
        measures = [(f"{s} men lost", p["men_lost"][s]) for s in sides] + [("minutes", p["minutes"])]
        measures += [(f"{s} win share", p["win_share"][s]) for s in sides]
        measures += [(f"{s} men lost to {k}", d) for s in sides for k, d in p["lost_by_kind"][s].items()]
        for label, d in measures:
            table.add_row(label, f"{d['mean']:+.2f}", f"{d['ci95'][0]:+.2f} to {d['ci95'][1]:+.2f}", f"{d['se']:.2f}", f"{d['se_unpaired']:.2f}")
        out.print(table)


def _by_ruleset_and_side(title: str, first: str, names: list[str], sides: tuple[str, str]) -> RichTable:
    """An empty table with a column ``first`` and one column per ruleset and side."""
    table = RichTable(title=title)
    table.add_column(first)
    for name in names:
        for side in sides:
            table.add_column(f"{name}\n{side}", justify="right")
    return table


def _cause_table(data: dict[str, Any], sides: tuple[str, str]) -> RichTable:
    """Mean men lost a game by cause (and share of the side's losses), per ruleset and side; fire
    whose range the ruleset logs split into range bands below its cause."""
    names = list(data["rulesets"])
    table = _by_ruleset_and_side("Men lost by cause (mean a game, share of the side's losses)", "cause", names, sides)
    lost = {(name, side): data["rulesets"][name]["losses_by_cause"][side] for name in names for side in sides}
    for cause, words in CAUSES.items():
        cells = [lost[key]["causes"].get(cause) for key in lost]
        if not any(cells):
            continue
        table.add_row(escape(words), *(f"{c['men']:,.0f} ({100 * c['share']:.0f}%)" if c else "" for c in cells))
        bands = [lost[key]["by_range"].get(cause, {}) for key in lost]
        for band in next(b for b in bands if b) if any(bands) else ():
            if any(b.get(band) for b in bands):
                table.add_row(f"  {band}", *(f"{b[band]:,.0f}" if b.get(band) else "" for b in bands))
    if any(lost[key]["unreported"] >= 0.5 for key in lost):
        table.add_row("cause not reported", *(f"{lost[key]['unreported']:,.0f}" if lost[key]["unreported"] >= 0.5 else "" for key in lost))
    table.add_row("all causes", *(f"{lost[key]['men_lost']:,.0f}" for key in lost))
    return table


@main.command("situation", epilog=examples("referee situation --rules rff,hardtack", "referee situation --set range=100 --set b.cover=fence --set charge=true -n 500"))
@width_option
@click.argument("file", required=False, metavar="[FILE.toml]")
@click.option("--set", "pairs", multiple=True, metavar="KEY=VALUE",
              help="A field of the situation (repeatable): range, minutes, charge, or a./b. with men, arm, weapon, "
                   "experience, formation, facing, guns, gun_type, mounted, ground, cover.")
@click.option("--rules", "rulesets", default=None, shell_complete=complete_rules, help="Comma-separated rulesets and layers (default: every installed one).")
@click.option("-n", "n", type=click.IntRange(0, limits.REPLICATIONS), default=200, show_default=True,
              help="Games played for the minutes (0: only the exact exchange).")
@click.option("--seed", type=int, default=1, show_default=True, help="Base seed; game k uses the same seed under every ruleset.")
@click.option("--at-least", "at_least", default=None, metavar="MEN", help="Men lost for P(at least N) (default: a tenth of each unit).")
@stack_options
@json_option
def situation_cmd(file: str | None, pairs: tuple[str, ...], rulesets: str | None, n: int, seed: int, at_least: str | None,
                  options: tuple[str, ...], house_rules: tuple[str, ...], as_json: bool) -> None:
    """One situation in the world's terms (two units, the range, the ground, the minutes, a
    charge), answered side by side by every ruleset in men and yards: one exchange computed
    exactly where the ruleset offers it, and the minutes played out, sampled."""
    from ..studies import situation as situating
    s = situating.read(file, pairs)
    stacks = {stacking.build_rules(name, options, house_rules).name: name for name in _ruleset_names(rulesets)}
    threshold = situating.check_at_least(at_least, s)
    answers = {}
    with _bar() as bar:
        for name, base in stacks.items():
            task = bar.add_task(shown(name), total=n)
            answers[name] = situating.answer(stacking.build_rules(base, options, house_rules), s, n, seed, threshold, partial(bar.advance, task))
    data = {"situation": s.as_json(), "described": s.describe(), "n": n, "seed": seed, "options": list(options),
            "house_rules": list(house_rules), "version": metadata.version("referee"), "rulesets": answers}
    if as_json:
        return emit_json(data)
    _print_situation(data, s)
    return None


def _pc(p: dict[str, Any] | None, places: int = 1) -> str:
    return "not decided" if p is None else f"{100 * p['p']:.{places}f}%"


def _interval(ci: Sequence[float], percent: bool = False) -> str:
    lo, hi = ci
    return f"{100 * lo:.0f}-{100 * hi:.0f}%" if percent else f"{lo:,.0f}-{hi:,.0f}"


def _print_situation(data: dict[str, Any], s: Any) -> None:
    """Two tables with a column per ruleset: the exact exchange, and the minutes played (each
    sampled measure followed by its 95 % interval on a row of its own, to fit 80 columns)."""
    names = list(data["rulesets"])
    out.print(f"[bold]Situation[/bold]: {shown(data['described'])}.", soft_wrap=False)
    for name, r in data["rulesets"].items():
        out.print(f"  {shown(name)}: {shown(r['scale'])}", markup=False, soft_wrap=False)

    def grid(title: str, rows: list[tuple[str, list[str]]]) -> RichTable:
        table = RichTable(title=title)
        table.add_column("")
        for name in names:
            table.add_column(escape(name), justify="right")
        for label, cells in rows:
            table.add_row(escape(label), *map(escape, cells))
        return table

    exchanges = list(data["rulesets"].values())
    if any(r["exchange"] for r in exchanges):
        rows: list[tuple[str, list[str]]] = []
        for key in "ab":
            if key == "a" and not any(r["exchange"] and r["exchange"]["men_lost"][key]["mean"] for r in exchanges):
                continue  # (a fires: it loses nothing in the exchange)
            men = [r["exchange"]["men_lost"][key] if r["exchange"] else None for r in exchanges]
            n_ = next(m["at_least"] for m in men if m)
            none = "not offered"
            rows += [(f"{key} lost, mean", [f"{m['mean']:,.1f}" if m else none for m in men]),
                     (f"{key} lost p10/50/90", [f"{m['p10']}/{m['p50']}/{m['p90']}" if m else none for m in men]),
                     (f"P({key} lost {n_}+)", [_pc(m["p_at_least"]) if m else none for m in men]),
                     (f"P({key} disordered+)", [_pc(r["exchange"]["disordered"][key]) if r["exchange"] else none for r in exchanges]),
                     (f"P({key} broken/gone)", [_pc(r["exchange"]["broken"][key]) if r["exchange"] else none for r in exchanges])]
        out.print(grid("One exchange, exact", rows))
    else:
        out.print("One exchange: none offered", markup=False)
    for name, r in data["rulesets"].items():
        what = r["exchange"]["what"] if r["exchange"] else "offers no exchange for this situation (answered by play below)"
        out.print(f"  {shown(name)}: {shown(what)}", markup=False, soft_wrap=False)
    played = [r["played"] for r in data["rulesets"].values() if r.get("played")]
    if not played:
        return
    rows = []

    def measure(label: str, cells: list[str], intervals: list[str]) -> None:
        rows.extend([(label, cells), ("  95% interval", intervals)])

    for key in "ab":
        lost = [p["men_lost"][key] for p in played]
        measure(f"{key} lost, mean", [f"{m['mean']:,.1f}" for m in lost], [_interval(m["ci95"]) for m in lost])
        rows.append((f"{key} lost p10/50/90", [f"{m['p10']:.0f}/{m['p50']:.0f}/{m['p90']:.0f}" for m in lost]))
        measure(f"P({key} lost {lost[0]['at_least']}+)", [_pc(m["p_at_least"], 0) for m in lost],
                [_interval(m["p_at_least"]["ci95"], percent=True) for m in lost])
        for what, label in (("disordered", "disordered+"), ("broken", "broken/gone")):
            measure(f"P({key} {label})", [_pc(p[what][key], 0) for p in played], [_interval(p[what][key]["ci95"], percent=True) for p in played])
        rows.append((f"{key} yards given up", [f"{p['yards_given_up'][key]['mean']:,.0f}" for p in played]))
    rows.append(("minutes, mean", [f"{p['minutes']:g}" for p in played]))
    if s.charge:
        for end in ("stopped", "repulsed", "carried"):
            measure(f"P(charge {end})", [_pc(p["charge"][end], 0) for p in played], [_interval(p["charge"][end]["ci95"], percent=True) for p in played])
    out.print(grid(f"{s.minutes} minutes played, sampled ({played[0]['games']} games)", rows))
    out.print("  disordered+: disordered or worse; broken/gone: broken, routed or gone; at the end of the minutes "
              "(whole turns of each ruleset) or when a side was beaten; the charge: stopped short of contact, "
              "repulsed, or carried the position", markup=False, soft_wrap=False)


@main.command("report", epilog=examples("referee report big-bethel --rules rff,hardtack -o big-bethel.html", "referee report my-battle.toml -n 100 -o report.html"))
@click.argument("scenario", shell_complete=complete_scenario)
@_replay_options
@click.option("-o", "--out", "out_path", required=True, metavar="FILE.html", help="Where to write the report.")
@json_option
def report_cmd(scenario: str, rulesets: str | None, baseline: str | None, options: tuple[str, ...], house_rules: tuple[str, ...],
               n: int, seed: int, workers: int | None, out_path: str, as_json: bool) -> None:
    """Write one self-contained HTML page on SCENARIO: the comparison with history, plots, what
    drives the differences, and one game per ruleset replayed on the map."""
    from ..studies import report_html  # matplotlib: imported only by the command that draws
    path = str(finding.find_scenario(scenario))
    world = finding.load_scenario(finding.find_scenario(scenario))
    stacks = _stacks(rulesets, options, house_rules)
    base = _baseline(baseline, stacks)
    check_folder(out_path)  # before the replications, not after them
    records = _logged(stacks, path, n, seed, workers)
    data = reporting.build(world, path, stacks, records, seed, options, house_rules, base)
    command = " ".join(["referee report", scenario, "--rules", ",".join(stacks), *(["--baseline", base] if base else []),
                        "-n", str(n), "--seed", str(seed),
                        *(f"--option {o}" for o in options), *(f"--house-rule {h}" for h in house_rules), "-o", out_path])
    page = report_html.render(data, command)
    write_atomic(out_path, page)
    if as_json:
        return emit_json({"out": out_path, "bytes": len(page.encode()), **{k: data[k] for k in ("scenario", "seed", "n", "version")},
                          "rulesets": list(stacks)})
    out.print(f"wrote {out_path} ({len(page.encode()) / 1e6:.1f} MB): {', '.join(stacks)}, {n} games each", markup=False)
    return None


main.add_command(sweep_cmd)
