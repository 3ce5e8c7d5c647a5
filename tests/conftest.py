"""The suite runs with records built frozen (core/records.py), so code that changes a value
that must not change fails here rather than passing unnoticed in a fast build."""

import os

os.environ["REFEREE_FROZEN_RECORDS"] = "1"  # before any test module imports referee
