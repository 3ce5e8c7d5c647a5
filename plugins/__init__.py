"""Ruleset and house-rule plugins; each subpackage is one pluggy plugin."""
