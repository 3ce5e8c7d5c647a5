"""The package list, found rather than written out: every folder that ``package_dir`` maps into
``referee`` and every package under it. A new ruleset (``plugins/<name>/``) or a new part of the
core is packaged without an edit here or in pyproject.toml, whose entry point names a ruleset
once. Everything else about the package is in pyproject.toml."""

from setuptools import find_namespace_packages, find_packages, setup

ROOTS = {"referee": "launcher", "referee.core": "core", "referee.testing": "testing", "referee.plugins": "plugins",
         "referee.rulesets": "rulesets", "referee.scenarios": "scenarios"}

DATA = {"referee.rulesets", "referee.scenarios"}  # folders of tables and scenarios: their subfolders are packaged as data

setup(package_dir=ROOTS, packages=[*ROOTS, *(f"{root}.{sub}" for root, folder in ROOTS.items() if root != "referee"
                                              for sub in (find_namespace_packages if root in DATA else find_packages)(folder))])
