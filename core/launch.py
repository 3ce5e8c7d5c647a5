"""The ``referee`` program: the command line, loaded so that a Ctrl-C while it loads (its imports
take a moment) ends the program quietly rather than with a traceback."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from .cli import main as command_line
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        sys.exit(130)
    command_line()
