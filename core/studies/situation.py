"""One situation in the world's terms, answered by every ruleset side by side in men and yards.

A :class:`Situation` is two units (``a`` and ``b``: men, arm, weapon or guns, experience,
formation, facing, the ground each stands on and the cover in front of it), the range between
them in yards, the minutes they have, and whether ``a`` charges ``b``. The core sets it on a small
field of its own (a neutral scenario, :func:`scenario_text`) and each ruleset converts it through
its own scale, as it would any battle. Two answers are given for each ruleset:

- **one exchange** (``a``'s fire at ``b``, or its charge), if the ruleset offers it through the
  ``referee_situation`` hook: a mechanic of a roller giving a neutral :class:`Result`, computed
  exactly with :func:`~referee.core.engine.chance.exact` (a ruleset that does not implement the hook is
  reported as such);
- **the minutes played**: ``n`` small games on the field with the usual game loop and doctrine
  (replication ``k`` on the same seed under every ruleset), sampled, with 95 % intervals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from attrs import asdict, define, field, frozen

from ..engine import world
from ..engine.chance import Roller, exact
from ..engine.errors import InvalidInput, Problem
from ..engine.events import EventLog
from ..engine.game import Game, play, replication_seed
from ..engine.plugins import Rules, call
from ..engine.reading import (
    Bad,
    Reader,
    Table,
    choice,
    degrees,
    flag,
    key_lines,
    parse_toml,
    read_bounded,
    setting,
    show,
    whole,
)
from ..engine.world import Scenario
from ..input.scenario import GUN_FORMATIONS, TROOP_FORMATIONS, parse_scenario
from .stats import Z95, percentile, wilson

GROUND = ("open", *world.AREA_KINDS)
COVER = ("none", "fence", "wall", "works")
STATUSES = ("good", "disordered", "broken", "routed", "gone")
CHARGE = ("stopped", "repulsed", "carried")  # short of contact; met and thrown back; went home and carried the position
MAX_RANGE = 3000  # yards
MAX_MINUTES = 360
UNIT_KEYS = ("men", "arm", "weapon", "experience", "formation", "facing", "guns", "gun_type", "mounted", "ground", "cover")
TOP_KEYS = ("range", "minutes", "charge")


@frozen
class Party:
    """One of the two units, in the world's terms. ``facing`` is degrees clockwise from facing the
    other unit (90: the other unit is on its left flank); ``ground`` the area it stands in
    (``open``, or an area kind); ``cover`` a line just in front of it (``none``, fence, wall,
    works)."""

    men: int = 500
    arm: str = "infantry"
    weapon: str | None = "rifle-musket"
    experience: str = "trained"
    formation: str = "line"
    facing: float = 0.0
    guns: int = 0
    gun_type: str | None = None
    mounted: bool = False
    ground: str = "open"
    cover: str = "none"

    def describe(self) -> str:
        what = (f"{self.guns} {self.gun_type} guns ({self.men} men)" if self.arm == "artillery"
                else f"{self.men} {self.experience} {'mounted ' if self.mounted else ''}{self.arm} with {self.weapon}")
        where = ("" if self.ground == "open" else f" in {self.ground}") + ("" if self.cover == "none" else f" behind a {self.cover}")
        facing = "" if not self.facing else f", turned {self.facing:g} degrees"
        return f"{what}, {self.formation}{where}{facing}"


@frozen
class Situation:
    a: Party = Party()
    b: Party = Party()
    range: int = 200  # yards between the two units' centres
    minutes: int = 15
    charge: bool = False  # does a charge b?

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        verb = "charges" if self.charge else "faces"
        return (f"a ({self.a.describe()}) {verb} b ({self.b.describe()}) at {self.range} yards, "
                f"for {self.minutes} minutes")


@frozen
class Result:
    """The neutral result of one exchange: men lost by ``a`` and ``b``; each unit's neutral status
    after it (None where the mechanic does not decide it); the charge's end (None: no charge)."""

    lost: tuple[int, int]
    status: tuple[str | None, str | None] = (None, None)
    charge: str | None = None


@frozen
class Exchange:
    """What a ruleset resolves as one exchange of a situation: its words for it, and a mechanic
    (``mechanic(roller) -> Result``) that :func:`~referee.core.engine.chance.exact` can enumerate."""

    what: str
    mechanic: Callable[[Roller], Result]


# ----------------------------------------------------------------------------- reading

def read(path: str | None, pairs: Sequence[str]) -> Situation:
    """The situation of a TOML file (optional) with ``KEY=VALUE`` settings over it; every problem
    reported at once, with the file, line and key path, and what would be valid."""
    raw: dict[str, Any] = {}
    lines: dict[str, int] = {}
    source = "--set"
    if path is not None:
        text = read_bounded(path, "situation")
        raw = parse_toml(text, str(path), "situation")
        lines, source = key_lines(text), str(path)
    problems: list[Problem] = []
    valid = [*TOP_KEYS, *(f"{u}.{k}" for u in "ab" for k in UNIT_KEYS)]
    given = set()
    for pair in pairs:
        read = setting(pair, valid, "unknown key {key}")
        if isinstance(read, Problem):
            problems.append(read)
        else:
            key, value = read
            unit, _, name = key.rpartition(".")
            target = raw.setdefault(unit, {}) if unit else raw
            if not isinstance(target, dict):
                problems.append(Problem(f"must be a table, not {show(target)}", path=unit, source=source))
                continue
            target[name] = _value(value)
            given.add(key)
    try:
        return _build(Reader(source, {k: v for k, v in lines.items() if k not in given}), raw, problems)
    except InvalidInput as error:  # a value set on the command line is the command line's problem, not the file's
        raise InvalidInput([Problem(p.message, path=f"--set {p.path}") if p.path in given else p for p in error.problems],
                           "situation") from None


def _value(text: str) -> Any:
    """A --set value as TOML reads it (a number, true or false, a quoted string), else the text."""
    try:
        return parse_toml(f"v = {text}", "--set", "situation")["v"]
    except InvalidInput:
        return text


def _build(reader: Reader, raw: dict[str, Any], problems: list[Problem]) -> Situation:
    reader.problems.extend(problems)
    root = reader.table(raw, "", (*TOP_KEYS, "a", "b"))
    assert root is not None
    parties = [_party(reader, root, key) for key in ("a", "b")]
    situation = Situation(
        parties[0] or Party(), parties[1] or Party(),
        root.get("range", whole(1, MAX_RANGE, " yards"), "yards between the units", 200),
        root.get("minutes", whole(1, MAX_MINUTES, " minutes"), "minutes", 15),
        root.get("charge", flag, "true or false", False),
    )
    if situation.charge and situation.a.arm == "artillery":
        reader.add("charge", "artillery does not charge: make a infantry or cavalry, or charge = false")
    if reader.problems:
        raise InvalidInput(reader.problems, "situation")
    return situation


def _party(reader: Reader, root: Table, key: str) -> Party | None:
    t = root.section(key, UNIT_KEYS, required=False)
    if t is None:
        return Party() if key not in root.raw else None
    arm = t.get("arm", choice(world.ARMS, "arm"), "an arm", "infantry")
    guns_arm = arm == "artillery"
    party = Party(
        men=t.get("men", whole(1, 100_000, " men"), "men", 100 if guns_arm else 500),
        arm=arm,
        weapon=None if guns_arm else t.get("weapon", choice(world.WEAPONS, "weapon"), "a weapon", "rifle-musket"),
        experience=t.get("experience", choice(world.EXPERIENCE, "experience"), "experience", "trained"),
        formation=t.get("formation", choice(GUN_FORMATIONS if guns_arm else TROOP_FORMATIONS, "formation"), "a formation",
                        "unlimbered" if guns_arm else "line"),
        facing=t.get("facing", degrees, "degrees from facing the other unit", 0.0),
        guns=t.get("guns", whole(1 if guns_arm else 0, 100, " guns"), "guns", 4 if guns_arm else 0),
        gun_type=t.get("gun_type", choice(world.GUN_TYPES, "gun type"), "a gun type", "12-pdr-napoleon") if guns_arm else None,
        mounted=t.get("mounted", flag, "true or false", arm == "cavalry"),
        ground=t.get("ground", choice(GROUND, "ground"), "the ground it stands on", "open"),
        cover=t.get("cover", choice(COVER, "cover"), "the cover in front of it", "none"),
    )
    if not guns_arm:
        for name in ("guns", "gun_type"):
            if name in t.raw:
                reader.add(t.at(name), f"{arm} has no guns; make {key}.arm = \"artillery\" for a battery")
    elif "weapon" in t.raw:
        reader.add(t.at("weapon"), "artillery fights with its guns; give gun_type, not weapon")
    return party


# ----------------------------------------------------------------------------- the field

START = 600  # 10:00
BEHIND = 400  # yards of field behind each unit
ACROSS = 1600


def places(s: Situation) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a and b stand: a south of b, ``range`` yards apart, on a field ACROSS yards wide."""
    return (ACROSS / 2, BEHIND), (ACROSS / 2, BEHIND + s.range)


def scenario_text(s: Situation) -> str:
    """The situation as a neutral scenario (TOML): a is the union side, facing north; b the
    confederate side, facing south; each on its ground (from 40 yards in front of it to the
    field's edge behind), its cover 20 yards in front of it; a leader behind each; both hold
    their ground, or a attacks b's."""
    (ax, ay), (bx, by) = places(s)
    height = by + BEHIND
    front = min(40.0, s.range / 2)
    parts = [f'''[scenario]
id = "situation"
title = "A situation"
date = "1863-07-01"
summary = "{s.describe()}"
start = "10:00"
sunset = "19:30"
weather = "clear"
width = {ACROSS}
height = {height}
sides = ["union", "confederate"]

[home_edges]
union = 180
confederate = 0
''']
    for key, side, p, (x, y), toward in (("a", "union", s.a, (ax, ay), 1), ("b", "confederate", s.b, (bx, by), -1)):
        facing = ((0.0 if toward > 0 else 180.0) + p.facing) % 360
        guns = f'guns = {p.guns}\ngun_type = "{p.gun_type}"' if p.arm == "artillery" else f'weapon = "{p.weapon}"'
        parts.append(f'''
[[commands]]
id = "{key}-command"
name = "{key}'s command"
side = "{side}"
level = "brigade"

[[leaders]]
id = "{key}-leader"
name = "{key}'s colonel"
side = "{side}"
command = "{key}-command"
rating = "average"
position = [{x}, {y - 40 * toward}]

[[units]]
id = "{key}"
name = "{key}"
command = "{key}-command"
arm = "{p.arm}"
men = {p.men}
{guns}
mounted = {str(p.mounted).lower()}
position = [{x}, {y}]
facing = {facing:g}
formation = "{p.formation}"
experience = "{p.experience}"

[[objectives]]
id = "{key}-ground"
name = "{key}'s ground"
position = [{x}, {y}]
radius = 100
held_by = "{side}"
''')
        if p.ground != "open":
            near, far = y + front * toward, (0 if toward > 0 else height)
            parts.append(f'''
[[areas]]
kind = "{p.ground}"
name = "{key}'s ground"
polygon = [[0, {near}], [{ACROSS}, {near}], [{ACROSS}, {far}], [0, {far}]]
''')
        if p.cover != "none":
            line = y + 20 * toward
            parts.append(f'''
[[features]]
kind = "{p.cover}"
name = "{key}'s {p.cover}"
points = [[{x - 400}, {line}], [{x + 400}, {line}]]
front = {0 if toward > 0 else 180}
''')
    orders = [("a", "attack", "b-ground") if s.charge else ("a", "defend", "a-ground"), ("b", "defend", "b-ground")]
    for key, kind, objective in orders:
        parts.append(f'\n[[orders]]\ncommand = "{key}-command"\nkind = "{kind}"\nobjective = "{objective}"\n')
    end = START + s.minutes
    parts.append(f'\n[victory]\nend = "{end // 60:02d}:{end % 60:02d}"\nobjectives = ["a-ground", "b-ground"]\nbeaten_at = 0.5\n')
    return "".join(parts)


def field_of(s: Situation) -> Scenario:
    return parse_scenario(scenario_text(s), "<situation>", "situation")


# ----------------------------------------------------------------------------- answers

def exchange(rules: Rules, scenario: Scenario, s: Situation) -> Exchange | None:
    """The ruleset's one exchange of the situation, or None if it offers none."""
    if not rules.pm.hook.referee_situation.get_hookimpls():
        return None
    game = Game.new(rules, scenario, 0)
    game.state = rules.muster(game)
    offered: Exchange | None = call(rules.pm, "referee_situation", game=game, attacker="a", defender="b", charge=s.charge)  # the hookspec's return
    return offered


@define(eq=False)
class _Watched(Game):
    """A game that remembers each assault reported (for the charge's end)."""

    assaults: list[bool] = field(factory=list)

    def report_assault(self, attacker: str, defender: str, carried: bool) -> None:
        if attacker == "a" and defender == "b":
            self.assaults.append(carried)
        super().report_assault(attacker, defender, carried)


def play_once(rules: Rules, scenario: Scenario, s: Situation, seed: int) -> tuple[Result, tuple[int, int], int]:
    """One small game of the situation's minutes: its result, the yards each unit gave up, and
    the minutes it lasted (whole turns of the ruleset, or until a side was beaten)."""
    game = cast(_Watched, _Watched.new(rules, scenario, seed, EventLog(enabled=False)))
    outcome = play(game)
    a, b = game.world.units["a"], game.world.units["b"]
    (_, ay), (_, by) = places(s)
    charge = None
    if s.charge:
        charge = "carried" if any(game.assaults) else "repulsed" if game.assaults else "stopped"
    yards = (max(0, round(ay - a.y)), max(0, round(b.y - by)))
    return Result((outcome.men_lost["union"], outcome.men_lost["confederate"]), (a.status, b.status), charge), yards, outcome.minutes


def summary_exact(dist: Sequence[tuple[Result, Fraction]], s: Situation, at_least: tuple[int, int]) -> dict[str, Any]:
    """Each measure of an exchange from its exact distribution."""
    out: dict[str, Any] = {"men_lost": {}, "disordered": {}, "broken": {}}
    for i, key in enumerate("ab"):
        counts: dict[int, Fraction] = {}
        for r, p in dist:
            counts[r.lost[i]] = counts.get(r.lost[i], Fraction(0)) + p
        out["men_lost"][key] = _exact_men(counts, at_least[i])
        decided = all(r.status[i] is not None for r, _ in dist)
        out["disordered"][key] = _p(sum((p for r, p in dist if r.status[i] != "good"), Fraction(0))) if decided else None
        out["broken"][key] = _p(sum((p for r, p in dist if r.status[i] in ("broken", "routed", "gone")), Fraction(0))) if decided else None
    if s.charge and all(r.charge is not None for r, _ in dist):
        out["charge"] = {end: _p(sum((p for r, p in dist if r.charge == end), Fraction(0))) for end in CHARGE}
    return out


def _p(p: Fraction) -> dict[str, Any]:
    return {"p": round(float(p), 4), "exact": f"{p.numerator}/{p.denominator}"}


def _exact_men(counts: Mapping[int, Fraction], n: int) -> dict[str, Any]:
    values = sorted(counts)
    mean = sum(v * p for v, p in counts.items())

    def quantile(q: float) -> int:
        running = Fraction(0)
        for v in values:
            running += counts[v]
            if running >= Fraction(q).limit_denominator(100):
                return v
        return values[-1]

    return {"mean": round(float(mean), 2), "p10": quantile(0.1), "p50": quantile(0.5), "p90": quantile(0.9),
            "at_least": n, "p_at_least": _p(sum((p for v, p in counts.items() if v >= n), Fraction(0)))}


def summary_sampled(played: Sequence[tuple[Result, tuple[int, int], int]], s: Situation, at_least: tuple[int, int]) -> dict[str, Any]:
    """Each measure over the games played, with 95 % intervals."""
    n = len(played)
    out: dict[str, Any] = {"games": n, "minutes": round(sum(m for _, _, m in played) / n, 1),
                           "men_lost": {}, "disordered": {}, "broken": {}, "yards_given_up": {}}
    for i, key in enumerate("ab"):
        lost = sorted(r.lost[i] for r, _, _ in played)
        mean = sum(lost) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in lost) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        out["men_lost"][key] = {"mean": round(mean, 2), "ci95": [round(max(0.0, mean - half), 2), round(mean + half, 2)],  # none lose fewer than 0
                                "p10": percentile(lost, 10), "p50": percentile(lost, 50), "p90": percentile(lost, 90),
                                "at_least": at_least[i], "p_at_least": _share(sum(x >= at_least[i] for x in lost), n)}
        out["disordered"][key] = _share(sum(r.status[i] != "good" for r, _, _ in played), n)
        out["broken"][key] = _share(sum(r.status[i] in ("broken", "routed", "gone") for r, _, _ in played), n)
        yards = [y[i] for _, y, _ in played]
        out["yards_given_up"][key] = {"mean": round(sum(yards) / n, 1), "p90": percentile(sorted(yards), 90)}
    if s.charge:
        out["charge"] = {end: _share(sum(r.charge == end for r, _, _ in played), n) for end in CHARGE}
    return out


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"p": round(k / n, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def answer(rules: Rules, s: Situation, n: int, seed: int, at_least: tuple[int, int],
           progress: Callable[[], object] | None = None) -> dict[str, Any]:
    """One ruleset's answer: its exchange (exact) if it offers one, and ``n`` games played
    (``progress`` called after each)."""
    scenario = field_of(s)
    out: dict[str, Any] = {"scale": rules.info.scale.describe()}
    offered = exchange(rules, scenario, s)
    if offered is None:
        out["exchange"] = None
    else:
        out["exchange"] = {"what": offered.what, "method": "exact", **summary_exact(exact(offered.mechanic), s, at_least)}
    if n:
        played = []
        for k in range(n):
            played.append(play_once(rules, scenario, s, replication_seed(seed, k)))
            if progress is not None:
                progress()
        out["played"] = {"method": "sampled", **summary_sampled(played, s, at_least)}
    return out


def check_at_least(value: str | None, s: Situation) -> tuple[int, int]:
    """The men lost for ``P(at least N)``: given, or a tenth of each unit's men."""
    if value is None:
        return (max(1, s.a.men // 10), max(1, s.b.men // 10))
    try:
        n = whole(1, 100_000, " men")(int(value))
    except (ValueError, Bad):
        raise InvalidInput([Problem(f"expected a whole number of men >= 1, got {value!r}", path="--at-least")], "situation") from None
    return (n, n)
