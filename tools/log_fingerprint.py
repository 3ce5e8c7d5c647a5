"""A fingerprint of many full event logs: proof that a change meant only for speed left play alone.

    python tools/log_fingerprint.py [--rules rff,hynds] [--seeds 1,2,3,7,11] > before.txt
    ... change the code ...
    python tools/log_fingerprint.py [same options] | diff before.txt -

Plays every bundled scenario under each ruleset (every installed one by default, layers
included) and seed, with the log on, and prints one line a game: ruleset, scenario, seed and the
first 16 hex digits of the sha256 of its JSON Lines log. The same code gives the same lines.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from referee.core.errors import RefereeError
from referee.core.events import EventLog
from referee.core.game import Game, play
from referee.core.plugins import build_rules, installed
from referee.core.scenario import bundled, find_scenario, load_scenario


def fingerprint(rules_name: str, scenario: str, seed: int) -> str:
    log = EventLog(enabled=True, stream=None)
    play(Game.new(build_rules(rules_name, (), ()), load_scenario(find_scenario(scenario)), seed, log))
    return hashlib.sha256(log.jsonl().encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", help="comma-separated rulesets (default: every installed one)")
    parser.add_argument("--seeds", type=seeds, default="1,2,3,7,11", help="comma-separated whole numbers")
    args = parser.parse_args()
    rulesets = args.rules.split(",") if args.rules else sorted(installed())
    scenarios = [row[0] for row in bundled()]
    try:
        for name in rulesets:
            build_rules(name, (), ())  # every name checked before the first game
        for rules_name in rulesets:
            for scenario in scenarios:
                for seed in args.seeds:
                    print(rules_name, scenario, seed, fingerprint(rules_name, scenario, seed), flush=True)
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
