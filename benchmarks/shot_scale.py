"""Round shot at a standing line: men lost per round fired, at 1:3 and 1:5 figures (ruling HT-S3).

    python benchmarks/shot_scale.py [--quality 6] [--reading support|damage-die] [--json]

A line in the open (two ranks, no cover, not In Position) is shot at by one gun at several
ranges. Every number is exact (the shot mechanic's full distribution), in men wounded or killed
in the company struck (the bounce, which needs a company behind, is left out). "as figures"
reads the damage die as figures of whatever the figure scale is (the ruling before audit M4);
"as 3-man figures" is ruling HT-S3 as it stands: the die counts figures of the
``damage_men_per_figure`` men the tables give (3, the scale p.14 writes its figure counts for).
Under the second reading a hit costs the same men at every scale, as a figure-scale choice should.
``--reading`` picks ruling HT-S1's reading of the shot itself: ``support`` (the default: the
crew's and the gun's dice against the range die) or ``damage-die`` (option shot-damage-die).
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from referee.core.engine.chance import exact
from referee.core.engine.tables import apply_overlay, load_ruleset
from referee.plugins.hardtack import mechanics
from referee.plugins.hardtack.tables import RULESET, SCHEMA, HardtackTables, load_tables

GUNS = ("12-pdr-napoleon", "12-pdr-howitzer", "6-pdr", "10-pdr-parrott")
YARDS = (200, 400, 600, 800, 1000, 1200, 1500)
SCALES = (3, 5)


def tables_reading_figures_at(men: int) -> HardtackTables:
    """The tables with the damage die read as figures of ``men`` (the reading before M4)."""
    text = f"[artillery]\ndamage_men_per_figure = {men}\n"
    return HardtackTables.build(apply_overlay(dict(load_ruleset(RULESET, SCHEMA)), "<as figures>", SCHEMA, text=text))


def men_lost(t: HardtackTables, quality: int, gun: str, yards: int, men: int, reading: str = "support") -> Fraction:
    """Expected men wounded or killed per round of shot at a line in the open."""
    out = exact(mechanics.shot, t, quality, Fraction(yards, 10), gun, "none", "line", False, False, men, False, (), reading)
    return sum((p * (r.values["wounded"] + r.values["killed"]) * men for r, p in out), Fraction(0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quality", type=int, default=6, help="the crew's quality die (6 green, 8 regular)")
    parser.add_argument("--reading", choices=mechanics.SHOT_READINGS, default="support", help="HT-S1's reading of round shot")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    now = load_tables()
    before = {m: tables_reading_figures_at(m) for m in SCALES}
    rows = []
    for gun in GUNS:
        for yards in YARDS:
            row = {"gun": gun, "yards": yards}
            for m in SCALES:
                row[f"as figures 1:{m}"] = float(men_lost(before[m], args.quality, gun, yards, m, args.reading))
                row[f"as 3-man figures 1:{m}"] = float(men_lost(now, args.quality, gun, yards, m, args.reading))
            rows.append(row)
    if args.json:
        print(json.dumps({"quality": f"d{args.quality}", "reading": args.reading, "target": "line in the open", "men_lost_per_round": rows}, indent=1))
        return
    keys = [k for k in rows[0] if k not in ("gun", "yards")]
    print(f"men lost per round of shot ({args.reading}), crew D{args.quality}, a line in the open")
    print(f"{'gun':<18}{'yards':>6}" + "".join(f"{k:>22}" for k in keys))
    for row in rows:
        print(f"{row['gun']:<18}{row['yards']:>6}" + "".join(f"{row[k]:>22.2f}" for k in keys))


if __name__ == "__main__":
    main()
