"""The benchmarks' check of what they are asked to measure: every ruleset and scenario named is
known before any game is played, or the script ends with the project's one-line error and exit
code 2 (as the CLI does), not a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from referee.core.engine.errors import RefereeError
from referee.core.engine.plugins import build_rules
from referee.core.input.scenario import find_scenario


def check(rulesets: Iterable[str], scenarios: Iterable[str] = ()) -> None:
    """Build each ruleset's stack and find each scenario; on a name that is not known, print
    ``Error: ...`` and exit with code 2."""
    try:
        for name in rulesets:
            build_rules(name)
        for scenario in scenarios:
            find_scenario(scenario)
    except RefereeError as error:
        print(f"Error: {error}", file=sys.stderr)
        sys.exit(2)
