"""The Bakthavachalu 2004 study (experiments/bakthavachalu2004, seed 004): rows well formed, and
its quick reproduction (two-flow 15 Mb/s Reno/Sack1/SF-SACK/TFRC rows of Table 6.2, n = 4 of
Tables 5.2/5.4) passes, SF-SACK's throughput CoV well below Sack1's."""

from __future__ import annotations

import tomllib
from pathlib import Path

from nsim import reproduce

STUDY = Path(__file__).resolve().parent.parent / "experiments" / "bakthavachalu2004"


def test_expected_rows_name_their_part_source_and_tolerance() -> None:
    parts = {p["name"] for p in tomllib.loads((STUDY / "study.toml").read_text())["part"]}
    rows = tomllib.loads((STUDY / "expected.toml").read_text())["row"]
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["id"].split(".")[0] in parts, r["id"]
        assert r["source"] and r["reason"], r["id"]
        assert ("tol_abs" in r) != ("tol_rel" in r), r["id"]
        assert r.get("status") != "known-fail" or r.get("why"), r["id"]


def test_quick_reproduction_passes(tmp_path: Path) -> None:
    res = reproduce(STUDY, quick=True, out=tmp_path, workers=2)
    assert res.passed, res.rows[res.rows["status"] == "FAIL"][["id", "paper", "nsim"]].to_string()
    nsim = res.rows.set_index("id")["nsim"]
    assert nsim["two15.sf_sack.cov_pct"] < 0.7 * nsim["two15.sack1.cov_pct"]
