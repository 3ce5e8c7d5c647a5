"""The suite runs in the strict build (core/records.py): records built frozen, so code that
changes a value that must not change fails here rather than passing unnoticed in a fast build,
and kept answers checked against fresh ones at each use."""

import os

os.environ["REFEREE_STRICT"] = "1"  # before any test module imports referee
