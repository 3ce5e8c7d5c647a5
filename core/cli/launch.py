"""The ``referee`` program: the command line, loaded so that a Ctrl-C before the command takes
charge of its signals (the imports take a moment, then click reads the arguments) ends the
program quietly rather than with a traceback or click's "Aborted!"."""

from __future__ import annotations

import os
import signal
from types import FrameType


def main() -> None:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored (nohup, a background job)
        signal.signal(signal.SIGINT, _quit)
    from .cli import main as command_line

    command_line(prog_name="referee")  # (also under python -m referee)


def _quit(signum: int, frame: FrameType | None) -> None:
    """Nothing has begun yet that an interrupt could leave half done: say so and end. (A command
    that runs long installs its own handlers, which keep what it has finished.)"""
    os.write(2, b"\ninterrupted\n")
    os._exit(128 + signum)
