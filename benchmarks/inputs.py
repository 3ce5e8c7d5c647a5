"""The benchmarks' check of what they are asked to measure: every ruleset and scenario named is
known, and every count is a whole number in range, before any game is played, or the script ends
with the project's one-line error and exit code 2 (as the CLI does), not a traceback."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable

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


def at_least(least: int) -> Callable[[str], int]:
    """An argparse ``type`` for a count: a whole number no less than ``least`` (argparse prints
    the message and exits with code 2)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1  # (refused below, with the text as given)
        if value < least:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {least}, got {text!r}")
        return value

    return parse
