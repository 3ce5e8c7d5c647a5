"""The suite runs in the strict build (core/engine/records.py): records built frozen, so code that
changes a value that must not change fails here rather than passing unnoticed in a fast build,
and kept answers checked against fresh ones at each use.

Hypothesis runs with no deadline: how long an example takes depends on the machine's load, and
speed is measured in benchmarks/, never by a test."""

import os

from hypothesis import settings

os.environ["REFEREE_STRICT"] = "1"  # before any test module imports referee

settings.register_profile("referee", deadline=None)
settings.load_profile("referee")
