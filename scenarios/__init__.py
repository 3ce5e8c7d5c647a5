"""Bundled scenarios (TOML), neutral of any ruleset."""
