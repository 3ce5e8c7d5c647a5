"""What hardtack's companies do in a window of a game, and what their volleys cost, side by side.

    python tools/hardtack_actions.py [--scenario brawners-farm] [--seeds 1-3] [--window 18:30-19:36]
                                     [--watch Georgia] [--trial close-on-both]

Plays each seed under hardtack with the log on (present play, unless ``--trial``) and prints
two tables, for the minutes of ``--window`` (turns whose minute lies in it, both ends included):

* Actions, one line a seed and side: the infantry companies' actions and the shares that are
  Moves (a company's own Move, or its regimental formation's, counted once for each company in
  it), Fire, Reload, those of a broken or routed company, and other (reorganise, hold with nobody
  near, ...); then "stands", the share of actions made by a regiment whose formation, advancing,
  made no Move (it stands at its order's range or finds its way shut: activation.py ``stalled``;
  these are also counted as Fire, Reload or other), and the Fire actions a company a turn (over
  the turns in which the company acted).
* Volleys, one line a side over all the seeds: the fire resolutions of its companies a game
  (their Fire actions and the Fire actions their regimental commanders transfer to them, HT-T7),
  and by range band (0-100 yards, 100-200, ...) their share and the men they cost their target a
  volley (the ``lost`` events of cause musketry that follow each). Then the men each side lost
  to shot a game, and what the side's volleys would have cost at its 0-100 yard rate.

Then, one line a seed, the game's result (whole game: winner, reason, men lost a side) and the
first minute in the window at which a regiment whose name holds ``--watch`` stood within 100
yards, centre to centre, of an enemy regiment in good order (its status "good", HT-O4; checked
after each Move and each action counted); and the mean men lost a side and the games each side won.

``--trial close-on-both`` is a counterfactual, outside the rules' play: a regimental formation
advancing moves as one on its second action too, as on its first, instead of firing or
reloading once an enemy is within its reach and 6" (activation ``_formation_moves`` answers
for the second action as for the first). It still goes no nearer than its order's range, where
it stands and fires as in play. The script makes the change by wrapping ``_formation_moves``
while its games run and restores it afterwards.

The volleys are read from the event log alone. The log does not record which action a company
made, so for the action table the script wraps two functions of referee.plugins.hardtack.activation
(``action`` and ``_move_formation``) while its games run and restores them afterwards; the
wrappers only count, and call the originals with the same arguments.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from attrs import define, field
from referee.core.engine.errors import RefereeError
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, Outcome, play
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario, load_scenario
from referee.plugins.hardtack import activation
from referee.plugins.hardtack.state import BROKEN, Company, HardtackState, Regiment, state_of

KINDS = ("move", "fire", "reload", "broken", "other")
BAND_YARDS = 100
TRIALS = ("close-on-both",)


@define
class Tally:
    """One game's counts, side by side."""

    window: tuple[int, int]
    watch: str = "Georgia"
    game: Game | None = None
    outcome: Outcome | None = None
    actions: dict[str, Counter[str]] = field(factory=lambda: defaultdict(Counter))
    company_turns: dict[str, set[tuple[str, int]]] = field(factory=lambda: defaultdict(set))
    close: tuple[int, str, str] | None = None  # the first minute a watched regiment was within 100 yards, and of whom

    def counts(self, c: Company) -> bool:
        """Whether an action of ``c`` now is counted: an infantry company, in the window."""
        assert self.game is not None
        first, last = self.window
        return first <= self.game.world.minute <= last and c.arm == "infantry" and not c.artillery and c.alive

    def add(self, c: Company, kind: str, stalled: bool = False) -> None:
        assert self.game is not None
        self.actions[c.side][kind] += 1
        if stalled:
            self.actions[c.side]["stands"] += 1
        self.company_turns[c.side].add((c.id, self.game.world.minute))

    def near(self, state: HardtackState, reg: Regiment) -> None:
        """After ``reg`` moved or acted: whether a watched regiment, it or an enemy, now stands
        within 100 yards of an enemy regiment in good order (kept the first time only)."""
        assert self.game is not None
        if self.close is not None or not self.watch:
            return
        x, y = activation.centre(state, reg)
        for other in state.regiments.values():
            if other.side == reg.side or not other.companies or not any(c.alive for c in other.companies):
                continue
            watched, enemy = (reg, other) if self.watch in reg.unit.spec.name else (other, reg)
            if self.watch not in watched.unit.spec.name or enemy.unit.status != "good":
                continue
            ox, oy = activation.centre(state, other)
            if (ox - x) ** 2 + (oy - y) ** 2 <= BAND_YARDS ** 2:
                self.close = (self.game.world.minute, watched.unit.spec.name, enemy.unit.spec.name)
                return


@contextmanager
def counting(tally: Tally) -> Iterator[None]:
    """Count the actions of the game in ``tally`` while the block runs (activation's functions wrapped)."""
    action, move_formation = activation.action, activation._move_formation

    def counted_action(game: Game, state: HardtackState, c: Company, intent: Any, n: int, enemies: list[Company],
                       stalled: bool = False) -> bool:
        if not tally.counts(c):
            return action(game, state, c, intent, n, enemies, stalled)
        x, y, reload, level, seen = c.x, c.y, c.reload, c.level, len(game.log.events)
        done = action(game, state, c, intent, n, enemies, stalled)
        if level >= BROKEN:
            kind = "broken"
        elif any(e.get("mechanic") == "fire" and e.get("unit") == c.id for e in game.log.events[seen:]):
            kind = "fire"
        elif reload and not c.reload:
            kind = "reload"
        elif (c.x, c.y) != (x, y):
            kind = "move"
        else:
            kind = "other"
        tally.add(c, kind, stalled)
        tally.near(state, c.regiment)
        return done

    def counted_move(game: Game, state: HardtackState, reg: Regiment, group: list[Company], intent: Any,
                     enemies: list[Company]) -> float:
        moved = move_formation(game, state, reg, group, intent, enemies)
        if moved:
            for c in group:
                if tally.counts(c):
                    tally.add(c, "move")
            if any(tally.counts(c) for c in group):
                tally.near(state, reg)
        return moved

    activation.action, activation._move_formation = counted_action, counted_move
    try:
        yield
    finally:
        activation.action, activation._move_formation = action, move_formation


@contextmanager
def trial(name: str | None) -> Iterator[None]:
    """Play the block under ``name``'s counterfactual (outside the rules' play), or as it is (None).
    ``close-on-both``: activation ``_formation_moves`` answers for a formation's second action as
    for its first, so a regiment advancing in formation moves on both actions, up to its order's range."""
    if name is None:
        yield
        return
    if name not in TRIALS:
        raise ValueError(f"unknown trial {name!r}: expected one of {', '.join(TRIALS)}")
    formation_moves = activation._formation_moves

    def on_both(state: HardtackState, reg: Regiment, group: list[Company], intent: Any, n: int,
                enemies: list[Company]) -> bool:
        return formation_moves(state, reg, group, intent, 0, enemies)

    activation._formation_moves = on_both
    try:
        yield
    finally:
        activation._formation_moves = formation_moves


@define
class Volleys:
    """Fire resolutions by the firing side, over several games."""

    games: int = 0
    volleys: Counter[tuple[str, int]] = field(factory=Counter)  # (side, band): volleys
    men: Counter[tuple[str, int]] = field(factory=Counter)  # (side, band): men they cost
    to_shot: Counter[str] = field(factory=Counter)  # side: its men lost to shot

    def read(self, game: Game, window: tuple[int, int]) -> None:
        """Add one game's log: each fire resolution in the window, and the musketry losses after it."""
        state = state_of(game)
        per_inch = float(state.tables.yards_per_inch)
        first, last = window
        self.games += 1
        volley: tuple[str, int] | None = None
        for e in game.log.events:
            if e.get("kind") == "resolution":
                volley = None
                if e.get("mechanic") != "fire" or not first <= int(e["minute"]) <= last:
                    continue
                yards = float(Fraction(str(e["inputs"]["range"]))) * per_inch
                volley = (state.companies[str(e["unit"])].side, int(yards // BAND_YARDS))
                self.volleys[volley] += 1
            elif e.get("kind") == "lost" and first <= int(e["minute"]) <= last:
                if e.get("cause") == "musketry" and volley is not None:
                    self.men[volley] += int(e["men"])
                elif e.get("cause") == "shot-or-shell":
                    self.to_shot[state.regiments[str(e["unit"])].side] += int(e["men"])


def play_one(scenario: str, seed: int, window: tuple[int, int], volleys: Volleys, trial_name: str | None = None,
             watch: str = "Georgia") -> Tally:
    """One game of ``scenario`` under hardtack (or ``trial_name``'s counterfactual): its actions
    tallied, its volleys added to ``volleys``."""
    tally = Tally(window, watch)
    game = Game.new(build_rules("hardtack", (), ()), load_scenario(find_scenario(scenario)), seed, EventLog(enabled=True))
    tally.game = game
    with trial(trial_name), counting(tally):
        tally.outcome = play(game)
    volleys.read(game, window)
    return tally


def action_lines(seed: int, tally: Tally) -> Iterator[str]:
    for side, counts in sorted(tally.actions.items()):
        total = sum(counts[k] for k in KINDS)
        shares = "  ".join(f"{k} {100 * counts[k] / total:3.0f} %" for k in (*KINDS, "stands"))
        per_turn = counts["fire"] / len(tally.company_turns[side])
        yield f"{seed:>4}  {side:<12} {total:>6}  {shares}  Fire actions a company-turn {per_turn:.2f}"


def volley_lines(v: Volleys) -> Iterator[str]:
    for side in sorted({s for s, _ in v.volleys}):
        bands = sorted(b for s, b in v.volleys if s == side)
        total = sum(v.volleys[side, b] for b in bands)
        yield f"{side}: {total / v.games:.0f} volleys a game"
        for b in bands:
            n = v.volleys[side, b]
            yield (f"  {b * BAND_YARDS:>4}-{(b + 1) * BAND_YARDS:<4} yards  {100 * n / total:3.0f} %  "
                   f"{n / v.games:6.1f} a game  {v.men[side, b] / n:.1f} men a volley")
        if v.volleys[side, 0]:
            rate = v.men[side, 0] / v.volleys[side, 0]
            yield f"  at the 0-100 yard rate its volleys would cost {total / v.games * rate:.0f} men a game"
    for side, men in sorted(v.to_shot.items()):
        yield f"{side} loses {men / v.games:.0f} men a game to shot"


def outcome_line(seed: int, tally: Tally) -> str:
    o = tally.outcome
    assert o is not None
    lost = ", ".join(f"{side} {men}" for side, men in sorted(o.men_lost.items()))
    close = f"{tally.close[0] // 60}:{tally.close[0] % 60:02d} {tally.close[1]} - {tally.close[2]}" if tally.close else "never"
    return f"{seed:>4}  {o.winner or 'draw'}: {o.reason}; men lost {lost}; {tally.watch or '-'} within 100 yards: {close}"


def outcome_summary(tallies: list[Tally]) -> Iterator[str]:
    outcomes = [t.outcome for t in tallies if t.outcome is not None]
    sides = sorted({side for o in outcomes for side in o.men_lost})
    lost = ", ".join(f"{side} {sum(o.men_lost.get(side, 0) for o in outcomes) / len(outcomes):.0f}" for side in sides)
    yield f"mean men lost a game: {lost}"
    won = Counter(o.winner or "draw" for o in outcomes)
    yield f"won: {', '.join(f'{w} {n}' for w, n in sorted(won.items()))} of {len(outcomes)} games"


def seed_list(text: str) -> list[int]:
    """``--seeds``: whole numbers and ranges, comma-separated (1-3,7)."""
    try:
        out: list[int] = []
        for part in text.split(","):
            low, _, high = part.partition("-")
            out += range(int(low), int(high or low) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers or ranges separated by commas, got {text!r}") from None
    return out


def window_minutes(text: str) -> tuple[int, int]:
    """``--window``: HH:MM-HH:MM, the minutes of the day, both ends included."""
    try:
        ends = [int(h) * 60 + int(m) for h, m in (end.split(":") for end in text.split("-"))]
    except ValueError:
        ends = []
    if len(ends) != 2 or ends[0] > ends[1]:
        raise argparse.ArgumentTypeError(f"expected HH:MM-HH:MM, the first no later than the second, got {text!r}")
    return ends[0], ends[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="brawners-farm", help="a bundled scenario (default brawners-farm)")
    parser.add_argument("--seeds", type=seed_list, default="1-3", help="seeds, e.g. 1-3 or 1,2,7 (default 1-3)")
    parser.add_argument("--window", type=window_minutes, default="18:30-19:36",
                        help="the minutes counted, HH:MM-HH:MM, both included (default 18:30-19:36)")
    parser.add_argument("--watch", default="Georgia",
                        help="report when a regiment whose name holds this first stands within 100 yards of an "
                             "enemy regiment in good order (default Georgia)")
    parser.add_argument("--trial", choices=TRIALS, default=None,
                        help="play a counterfactual, outside the rules' play: close-on-both, a regimental "
                             "formation advancing moves as one on its second action too (activation "
                             "_formation_moves answers as for the first), up to its order's range, where it "
                             "stands and fires as in play (default: none, present play)")
    args = parser.parse_args()
    volleys = Volleys()
    tallies: list[Tally] = []
    try:
        find_scenario(args.scenario)  # checked before the first game
        if args.trial:
            print(f"trial {args.trial}: outside the rules' play (see --help)")
        print("seed  side          actions  shares of them")
        for seed in args.seeds:
            tallies.append(play_one(args.scenario, seed, args.window, volleys, args.trial, args.watch))
            for line in action_lines(seed, tallies[-1]):
                print(line, flush=True)
    except RefereeError as error:
        print(f"Error: {error}", file=sys.stderr)
        sys.exit(2)
    print(f"\nvolleys, seeds {','.join(map(str, args.seeds))}")
    for line in volley_lines(volleys):
        print(line)
    print("\ngames")
    for seed, tally in zip(args.seeds, tallies):
        print(outcome_line(seed, tally))
    for line in outcome_summary(tallies):
        print(line)


if __name__ == "__main__":
    main()
