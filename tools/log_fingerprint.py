"""A fingerprint of many full event logs: proof that a change meant only for speed left play alone.

    python tools/log_fingerprint.py [--rules rff,hynds] [--seeds 1,2,3,7,11] [--log-off 20] > before.txt
    ... change the code ...
    python tools/log_fingerprint.py [same options] | diff before.txt -

Plays every bundled scenario under each ruleset (every installed one by default, layers
included) and seed, with the log on, and prints one line a game: ruleset, scenario, seed and the
first 16 hex digits of the sha256 of its JSON Lines log. A battle large enough for the indexes
that bundled battles never use (the musketry drill with :data:`LARGE` extra regiments a side,
benchmarks/bench_scale.py: each side more than the world index's ``SMALL`` units and rff's
``SCANNED`` pieces) is played with them; ``--no-large`` leaves it out. Then, for each ruleset and scenario, one
line for ``--log-off`` replications played as ``referee compare`` plays them, with no log and no
observer: procedures take shortcuts there that a logged game does not (no resolution is built
that nobody sees), so a speed change must leave those outcomes alone too. The same code gives the
same lines.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

from referee.core.engine.errors import RefereeError
from referee.core.engine.events import EventLog
from referee.core.engine.game import Game, play
from referee.core.engine.plugins import build_rules, installed
from referee.core.input.scenario import bundled, find_scenario, load_scenario
from referee.core.studies.compare import Stack, replicate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_scale import scaled, to_toml

LARGE = 40  # extra regiments a side of the large battle


def fingerprint(rules_name: str, scenario: str, seed: int) -> str:
    log = EventLog(enabled=True, stream=None)
    play(Game.new(build_rules(rules_name, (), ()), load_scenario(find_scenario(scenario)), seed, log))
    return hashlib.sha256(log.jsonl().encode()).hexdigest()[:16]


def outcomes_fingerprint(rules_name: str, scenario: str, n: int, seed: int = 1) -> str:
    """The sha256 of the outcomes of replications 0 to n - 1 of ``seed``, played log off."""
    digest = hashlib.sha256()
    for outcome in replicate(Stack(rules_name), scenario, seed, range(n)):
        digest.update(json.dumps(outcome.as_json(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", help="comma-separated rulesets (default: every installed one)")
    parser.add_argument("--seeds", type=seeds, default="1,2,3,7,11", help="comma-separated whole numbers")
    parser.add_argument("--log-off", type=int, default=20, metavar="N",
                        help="replications a scenario played log off (default 20; 0: none)")
    parser.add_argument("--no-large", action="store_true", help=f"leave out the drill with {LARGE} extra regiments a side")
    args = parser.parse_args()
    rulesets = args.rules.split(",") if args.rules else sorted(installed())
    with tempfile.TemporaryDirectory() as folder:
        scenarios = {row[0]: row[0] for row in bundled()}  # name -> what find_scenario is given
        if not args.no_large:
            large = Path(folder, f"drill-musketry-{LARGE}.toml")
            large.write_text(to_toml(scaled(LARGE)), encoding="utf-8")
            scenarios[large.stem] = str(large)
        try:
            for name in rulesets:
                build_rules(name, (), ())  # every name checked before the first game
            for rules_name in rulesets:
                for scenario, where in scenarios.items():
                    for seed in args.seeds:
                        print(rules_name, scenario, seed, fingerprint(rules_name, where, seed), flush=True)
                    if args.log_off > 0:
                        print(rules_name, scenario, f"log-off:{args.log_off}",
                              outcomes_fingerprint(rules_name, where, args.log_off), flush=True)
        except RefereeError as error:
            print(f"Error: {error}", file=sys.stderr)
            sys.exit(2)


def seeds(text: str) -> list[int]:
    """``--seeds``: whole numbers, comma-separated."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas, got {text!r}") from None


if __name__ == "__main__":
    main()
