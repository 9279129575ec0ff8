"""Regenerate docs/experiments/README.md from the study pages' summary lines.

    python scripts/experiments_index.py          # write it
    python scripts/experiments_index.py --check  # exit 1 if it is not current
"""

from __future__ import annotations

import sys
from pathlib import Path

from nsim.reproduction_report import index_markdown

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "experiments"

#: One line per study, in the order the index lists them.
ABOUT = {
    "holl2003": "Holl 2003, TCP variants and STP over a GEO satellite hop with CBR calls (chapters 4-7)",
    "goyal1997": "Goyal, Jain et al. 1997, SACK, Reno and Vanilla TCP over ATM UBR with EPD and Selective Drop",
    "noureddine2002": "Noureddine 2002, TCP timings, Ethernet PAUSE, the 800-host web mix with TCP-DS, TCP and video",
    "lab2003": "the McGill ECSE-489B lab 2003: Reno slow start, SACK vs Reno, HighSpeed TCP, PFTK",
    "bakthavachalu2004": "Bakthavachalu 2004, SF-SACK and TFRC on a RED dumbbell",
    "modern_cc": "Alizadeh 2010/2011 (DCTCP), Cardwell 2016 (BBR), Ha 2008 and RFC 9438 (CUBIC): today's congestion control",
    "red_two_source": "RED's two-source scenario against ns-2.35 (no paper)",
}


def render() -> str:
    return index_markdown({name: DOCS / f"{name}.md" for name in ABOUT}, ABOUT)


if __name__ == "__main__":
    text = render()
    target = DOCS / "README.md"
    if "--check" in sys.argv[1:]:
        if target.read_text(encoding="utf-8") != text:
            print(f"{target} is not current: run python scripts/experiments_index.py", file=sys.stderr)
            sys.exit(1)
    else:
        target.write_text(text, encoding="utf-8")
