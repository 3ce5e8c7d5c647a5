"""The suite runs in the strict build (core/engine/records.py): records built frozen, so code that
changes a value that must not change fails here rather than passing unnoticed in a fast build,
and kept answers checked against fresh ones at each use.

Hypothesis runs with no deadline: how long an example takes depends on the machine's load, and
speed is measured in benchmarks/, never by a test.

Ctrl-C is Python's KeyboardInterrupt here whatever started the suite: a shell that runs a job in
the background without job control starts it with SIGINT ignored, which Python and the
processes it starts would inherit, and the interrupt tests would then wait for a Ctrl-C that
never comes."""

import os
import signal

from hypothesis import settings

os.environ["REFEREE_STRICT"] = "1"  # before any test module imports referee
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the suite was started with SIGINT ignored

settings.register_profile("referee", deadline=None)
settings.load_profile("referee")
