"""Every ruling id the code or the tables cite is written up in docs/rulings, once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULING = {"rff": re.compile(r"\b(RFF-[TP]\d+)\b"), "hardtack": re.compile(r"\b(HT-[A-Z]\d+)\b"),
          "hynds": re.compile(r"\b(HYNDS-[A-Z]\d+)\b"), "sumter": re.compile(r"\b(SU-[A-Z]\d+)\b")}


def documented(ruleset: str) -> list[str]:
    text = (ROOT / "docs" / "rulings" / f"{ruleset}.md").read_text(encoding="utf-8")
    return re.findall(r"^### ([A-Z]+-[A-Z]\d+) — ", text, flags=re.MULTILINE)


def cited(ruleset: str) -> set[str]:
    files = [*(ROOT / "plugins" / ruleset).glob("*.py"), *(ROOT / "rulesets" / ruleset).glob("*.toml")]
    return {m for f in files for m in RULING[ruleset].findall(f.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("ruleset", sorted(RULING))
def test_every_cited_ruling_is_documented(ruleset: str) -> None:
    missing = cited(ruleset) - set(documented(ruleset))
    assert not missing, f"cited but not in docs/rulings/{ruleset}.md: {sorted(missing)}"


@pytest.mark.parametrize("ruleset", sorted(RULING))
def test_ruling_ids_are_unique(ruleset: str) -> None:
    ids = documented(ruleset)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
