"""Regenerate the table in docs/history.md from `referee history --json -n 200 --workers 1`.

    python benchmarks/history_table.py [-n 200] [--workers 1] [--doc docs/history.md]

The numbers do not depend on --workers (common random numbers, replications in a fixed order);
more workers only finish sooner.

Only the part between the markers `<!-- history:begin -->` and `<!-- history:end -->` is
replaced; the prose around it is kept. The file is written atomically (a temporary file in the
same folder, then a rename), so an interrupted run leaves the old file whole.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from referee.core.cli.files import write_atomic
from referee.core.studies.history import BROKE_OFF_LEGEND, broke_off_text, spread_text, winner_text

BEGIN, END = "<!-- history:begin -->", "<!-- history:end -->"
DOC = Path(__file__).resolve().parent.parent / "docs" / "history.md"


def history_json(n: int, workers: int = 1) -> dict[str, Any]:
    """What `referee history --json -n N` prints, run as a user runs it."""
    command = [sys.executable, "-c", "from referee.core.cli.cli import main; main()",
               "history", "--json", "-n", str(n), "--workers", str(workers)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"referee history failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table with the command that made it and the summary line."""
    rows = report["rows"]
    sides = list(dict.fromkeys(side for r in rows for side in r["men_lost"]))
    header = ["battle", "rules (n)", "history's winner: share [95% CI]", *(f"men lost, {s}" for s in sides),
              *(f"guns lost, {s}" for s in sides), "minutes to decision"]

    def cell(c: dict[str, Any]) -> str:
        band, hist = spread_text(c)
        return f"{band}<br>{hist} **{c['verdict']}**" if hist else band

    lines = [
        (f"`referee history --json -n {report['n']}` (seed {report['seed']}), "
         "made by `python benchmarks/history_table.py`."),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for r in rows:
        winner, share, ci = winner_text(r["winner"])
        marked = broke_off_text(r.get("broke_off", {}))
        lines.append("| " + " | ".join([
            r["title"].replace("|", "\\|"), f"{r['ruleset']} ({r['replications']})",
            f"{winner} {share} {ci}" + (f"<br>{marked}" if marked else ""),
            *(cell(r["men_lost"][s]) for s in sides), *(cell(r["guns_lost"][s]) for s in sides), cell(r["minutes"]),
        ]) + " |")
    inside = report["men_lost_inside"]
    lines += ["", (f"History's men lost are inside p10-p90 in {inside['inside']} of {inside['cells']} cells "
                   "(battle, ruleset, side)."), "", BROKE_OFF_LEGEND]
    return "\n".join(lines)


def splice(text: str, section: str) -> str:
    """``text`` with what lies between the begin and end markers replaced by ``section``."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"the document needs one {BEGIN} and, after it, one {END}")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{section}\n{END}{tail}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--doc", type=Path, default=DOC)
    args = parser.parse_args()
    try:
        text = splice(args.doc.read_text(encoding="utf-8"), markdown(history_json(args.n, args.workers)))
    except (OSError, ValueError) as error:
        sys.exit(f"{args.doc}: {error}")
    write_atomic(args.doc, text)


if __name__ == "__main__":
    main()
