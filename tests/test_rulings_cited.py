"""Every ruling id the code cites is written down in the docs, and every ruling written down
names what it applies to: the code or scenario that cites it, or an "Applies to:" line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs" / "rulings").glob("*.md")) + [ROOT / "docs" / "scenarios.md"]
CODE = ("plugins", "rulesets", "core", "scenarios")
HEADING = re.compile(r"^(#{3,4}) ([A-Z]+-[A-Z]{1,2}\d+)\b", re.MULTILINE)


def _rulings() -> dict[str, tuple[Path, str]]:
    """Each ruling id headed in the docs -> (its file, its block up to the next heading)."""
    out: dict[str, tuple[Path, str]] = {}
    for path in DOCS:
        text = path.read_text()
        heads = list(re.finditer(r"^#{1,4} ", text, re.MULTILINE))
        for m in HEADING.finditer(text):
            end = next((h.start() for h in heads if h.start() > m.start()), len(text))
            out[m.group(2)] = (path, text[m.start():end])
    return out


RULINGS = _rulings()
PREFIXES = sorted({rid.split("-")[0] for rid in RULINGS})
CITED = re.compile(rf"\b(?:{'|'.join(PREFIXES)})-[A-Z]{{1,2}}\d+\b")


def _cited() -> dict[str, set[str]]:
    """Each ruling id cited in the code, tables or scenarios -> the files citing it."""
    out: dict[str, set[str]] = {}
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".toml") and path.is_file():
                for rid in set(CITED.findall(path.read_text())):
                    out.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    return out


CITES = _cited()


def test_the_docs_have_rulings_and_the_code_cites_them() -> None:
    assert len(RULINGS) > 100 and len(CITES) > 100  # the scan finds what it scans for


@pytest.mark.parametrize("rid", sorted(CITES))
def test_every_ruling_cited_in_code_is_written_down(rid: str) -> None:
    assert rid in RULINGS, f"{rid} is cited in {sorted(CITES[rid])} but headed in none of {[p.name for p in DOCS]}"


@pytest.mark.parametrize("rid", sorted(RULINGS))
def test_every_ruling_names_what_it_applies_to(rid: str) -> None:
    path, block = RULINGS[rid]
    assert rid in CITES or "Applies to:" in block, (
        f"{rid} ({path.name}) is cited nowhere in {', '.join(CODE)} and has no 'Applies to:' line")
