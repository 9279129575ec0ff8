"""Write expected.toml for Goyal, Jain et al. 1997 from the paper's Tables 1-4 (run once by hand:
`python experiments/goyal1997/make_expected.py`; the committed expected.toml is its output).

The rows are generated so that every one follows the same written rule (README.md, "Rows"):

* level rows: every printed efficiency (Tables 1 and 3) and every printed Jain index below 0.90
  (Tables 2 and 4); an index of 0.90 or more says "fair", which a perfectly-fair guess also says,
  so those cells enter only through the orderings;
* ordering rows: within each table block (one network, or the satellite at one buffer), every
  pair of cells that differ in one factor (TCP variant within a policy, drop policy within a
  variant, satellite buffer within variant and policy) and that the paper's numbers separate by
  at least 0.04, oriented as the table is laid out (the later row or column minus the earlier);
  the row passes when nsim shows the same sign with at least half the paper's difference;
* cross-network rows (`of`): WAN against LAN for the same variant and policy, and the paper's
  two LAN-versus-WAN claims (SACK's gain over Reno, the drop policies' effect);
* parity rows where the paper states that something does not matter (two-sided, ±0.05).

Known-fail rows and their measured reasons are listed in KNOWN below (from the last full run).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

POL = ["tail_drop", "epd", "selective_drop"]
COL = {"tail_drop": "UBR", "epd": "EPD", "selective_drop": "Selective Drop"}
VNAME = {"sack1": "SACK", "reno": "Reno", "vanilla": "Vanilla"}
NET = {"lan": "LAN", "wan": "WAN"}
T1 = {("lan", 5, 1000): [.76, .85, .94], ("lan", 5, 3000): [.98, .97, .98], ("lan", 15, 1000): [.57, .78, .91],
      ("lan", 15, 3000): [.86, .94, .97], ("wan", 5, 12000): [.90, .88, .95], ("wan", 5, 36000): [.97, .99, 1.00],
      ("wan", 15, 12000): [.93, .80, .88], ("wan", 15, 36000): [.95, .95, .98]}
T2 = {("lan", 5, 1000): [.22, .88, .98], ("lan", 5, 3000): [.92, .97, .96], ("lan", 15, 1000): [.29, .63, .95],
      ("lan", 15, 3000): [.74, .88, .98], ("wan", 5, 12000): [.96, .98, .95], ("wan", 5, 36000): [1.00, .94, .99],
      ("wan", 15, 12000): [.99, .99, .99], ("wan", 15, 36000): [.98, .98, .96]}
# Average rows, in the tables' order: SACK (column average), Vanilla, Reno.
AVG = {"efficiency": {("lan", "sack1"): [.79, .89, .95], ("lan", "vanilla"): [.34, .67, .84], ("lan", "reno"): [.69, .97, .97],
                      ("wan", "sack1"): [.94, .91, .95], ("wan", "vanilla"): [.91, .90, .91], ("wan", "reno"): [.78, .86, .81]},
       "fairness": {("lan", "sack1"): [.54, .84, .97], ("lan", "vanilla"): [.69, .69, .92], ("lan", "reno"): [.71, .98, .99],
                    ("wan", "sack1"): [.98, .97, .97], ("wan", "vanilla"): [.76, .95, .94], ("wan", "reno"): [.90, .97, .99]}}
# Tables 3 and 4, in their order: SACK, Reno, Vanilla.
SAT = {"efficiency": {("sack1", 200000): [.86, .6, .72], ("sack1", 600000): [.99, 1.0, 1.0], ("reno", 200000): [.84, .12, .12],
                      ("reno", 600000): [.30, .19, .22], ("vanilla", 200000): [.70, .73, .73], ("vanilla", 600000): [.88, .81, .82]},
       "fairness": {("sack1", 200000): [1.0, .83, .94], ("sack1", 600000): [1.0, 1.0, 1.0], ("reno", 200000): [.96, .97, .97],
                    ("reno", 600000): [1.0, 1.0, 1.0], ("vanilla", 200000): [1.0, .87, .89], ("vanilla", 600000): [1.0, 1.0, 1.0]}}
TABLE = {"efficiency": {"terr": "Table 1", "sat": "Table 3"}, "fairness": {"terr": "Table 2", "sat": "Table 4"}}
LEVEL_TOL = {"efficiency": 0.05, "fairness": 0.10}
FAIR_LEVEL_BELOW = 0.90
MIN_ORDER = 0.04
MIN_ORDER_FAIRNESS = 0.10  # a Jain index of one run swings more: only differences as large as its level band
MARGIN = 0.5
LEVEL_REASON = {
    "efficiency": "the paper ran each configuration once; with 5 seeds nsim's 95 % interval (added to the band) carries that luck, "
                  "so the band itself covers only the unstated EPD/SD thresholds and the two-decimal print",
    "fairness": "as for efficiency, but a Jain index of one run swings more (Table 2's LAN cells go from 0.22 to 0.92 between "
                "neighbouring configurations; §6.3 puts it down to which connections time out)",
}
ORDER_REASON = ("an ordering the paper's table shows: nsim must show the same sign with at least half the paper's "
                "difference (the band is half the difference; nsim's 95 % interval over seeds is added)")
PARITY_REASON = "the paper's claim is that this makes little difference: two-sided ±0.05 around the paper's difference"

# The rows that failed in the last full run (known.json, a list of ids) are known-fail; each
# gets the measured cause of the first family below whose pattern it matches ({nsim}, {paper},
# {row:<id>} are filled from the run). A failing row no family explains stops the generator.
FAMILIES: list[tuple[str, str]] = [
    (r"analysis_sack\.over_half\.timeouts",
     "nsim's SACK (ns-2 Sack1) times out {nsim} times over the 10 runs that lose 21 ... 30 of 40 segments: once in each "
     "from 22 on, none at 21 (the sack_rounds frame). §4.2's own rules give exactly that: PIPE = CWND - 3 at the third "
     "duplicate ACK, less one for each of the other W - k - 3 duplicate ACKs, leaves PIPE = k; the first partial ACK takes "
     "2 off, and with CWND = W/2 nothing may be sent while PIPE >= CWND, i.e. from k = W/2 + 2 = 22 no packet is left in "
     "flight to clock the sender and only the retransmission timer ends the stall. The paper's 'PIPE will double every "
     "RTT' holds up to k = W/2 + 1 under its own PIPE arithmetic; nsim follows the arithmetic"),
    (r"lan\.reno\.avg\.[a-z_-]+\.efficiency|lan\.variant_gap_sd_vs_ubr\.reno\..*",
     "nsim's Reno (4.3BSD-Reno, §2.3) reads {row:lan.reno.avg.tail_drop.efficiency} under UBR, "
     "{row:lan.reno.avg.epd.efficiency} under EPD and {row:lan.reno.avg.selective_drop.efficiency} under Selective Drop "
     "(paper 0.69, 0.97, 0.97), the same in every configuration, because all of its loss is the start: the sources "
     "slow-start together, overflow the buffer within milliseconds, each loses several frames of one window, "
     "fast-retransmits until too few duplicate ACKs are left and then waits one retransmission timeout (1.5 s: three "
     "500-ms ticks after the first RTT sample) with the link idle from about 0.25 s to 1.5 s; from then on the link "
     "stays full under every policy although each source still times out 3-6 times per run (README, 'Where nsim "
     "differs'). The paper's 0.97 under EPD and SD means its runs did not idle that long at the start, and its 0.69 "
     "under UBR that plain UBR kept costing its Reno afterwards"),
    (r"lan\.(sack1\.(avg|n[0-9n-]+)\.|reno-sack1\.avg\.|variant_gap).*efficiency|wan\.(sack_gain|policy_gain)_vs_lan\.sack1.*",
     "nsim's SACK keeps the LAN link busy in every configuration and policy (0.96-1.00 in all 12; UBR average "
     "{row:lan.sack1.avg.tail_drop.efficiency}, EPD {row:lan.sack1.avg.epd.efficiency}) although its sources time out "
     "(about 0.5-3.5 times each per 10-s run on average over the seeds, the `timeouts` column of the lan frames): with a 30-us round trip the other sources "
     "refill the link within microseconds, so no policy, buffer or source count has idle time to win back; the paper's "
     "values need the link idle, i.e. timeouts of all sources at once (README, 'SACK is insensitive to the drop policy')"),
    (r"lan\.vanilla\.avg\.[a-z_-]+\.efficiency|lan\.reno-vanilla\.avg.*efficiency|wan\.policy_gain_vs_lan\.vanilla.*",
     "every loss is a timeout for Vanilla: about 5 per source in each 10-s LAN run under every policy (the lan frames' "
     "`timeouts`), each about a second, so nsim's Vanilla reads {row:lan.vanilla.avg.tail_drop.efficiency} (UBR), "
     "{row:lan.vanilla.avg.epd.efficiency} (EPD), {row:lan.vanilla.avg.selective_drop.efficiency} (SD): the policies do "
     "not reduce its timeouts, where the paper's Vanilla gains 0.50 from UBR to Selective Drop"),
    (r"wan\.sack1\..*efficiency",
     "nsim's SACK loses little on the WAN: 0.97-0.99 in all 12 configurations (average EPD "
     "{row:wan.sack1.avg.epd.efficiency}) with 0-0.9 timeouts per source per 20-s run (the wan frames' `timeouts`), so "
     "buffer, policy and source count change almost nothing; the paper's lower cells (EPD 0.80 with 15 sources and 12000 "
     "cells, 0.88 with 5) need timeouts its runs had and nsim's do not"),
    (r"wan\.(reno|vanilla|reno-vanilla)\..*efficiency",
     "the WAN Reno (4.3BSD-Reno) is at the paper's level (UBR {row:wan.reno.avg.tail_drop.efficiency}, EPD "
     "{row:wan.reno.avg.epd.efficiency}, SD {row:wan.reno.avg.selective_drop.efficiency}; paper 0.78, 0.86, 0.81) and below "
     "Vanilla under UBR and Selective Drop as in the paper, but by less: nsim's Vanilla reads "
     "{row:wan.vanilla.avg.tail_drop.efficiency} / {row:wan.vanilla.avg.epd.efficiency} / "
     "{row:wan.vanilla.avg.selective_drop.efficiency} against the paper's 0.91 / 0.90 / 0.91. Its sources slow-start "
     "together with ssthresh at the 1171-segment window, overflow the buffer about 0.5 s in and all wait one timeout, "
     "then time out 1-5 times each per 20-s run (the wan frames' `timeouts`; README, 'Where nsim differs')"),
    (r"wan\.sack_gain_vs_lan\..*|wan\.vs_lan\.sack1\..*",
     "SACK's gain over Reno is larger on nsim's LAN ({row:lan.reno-sack1.avg.epd.efficiency} under EPD) than on its WAN "
     "({row:wan.reno-sack1.avg.epd.efficiency}), the reverse of §6.3: nsim's LAN SACK is at 0.96-1.00 in every "
     "configuration while its LAN Reno leaves the link idle for its first 1.5 s in every configuration"),
    (r"wan\.vs_lan\.reno\..*|wan\.policy_gain_vs_lan\.reno\..*",
     "nsim's LAN Reno reads {row:lan.reno.avg.tail_drop.efficiency} under UBR and {row:lan.reno.avg.selective_drop.efficiency} "
     "under Selective Drop, its WAN Reno {row:wan.reno.avg.tail_drop.efficiency} and "
     "{row:wan.reno.avg.selective_drop.efficiency}: on the LAN the policies change nothing for it (3-6 timeouts per source "
     "per 10-s run under each, but the link idles only in the first 1.5 s), where the paper's LAN Reno goes from 0.69 (UBR) to 0.97 "
     "(EPD, Selective Drop)"),
    (r"sat\.(reno\.k200000\.tail_drop|vanilla-reno\.k200000\.tail_drop|reno\.k200000\.[a-z_]+-tail_drop|reno\.k600000-k200000\.tail_drop)\.efficiency",
     "nsim's Reno collapses at 200000 cells under every policy: UBR {row:sat.reno.k200000.tail_drop.efficiency}, EPD "
     "{row:sat.reno.k200000.epd.efficiency}, SD {row:sat.reno.k200000.selective_drop.efficiency}; each source "
     "fast-retransmits about 8-12 times before its one timeout (the sat frames' `fast_retransmits`), each halving ssthresh "
     "(§2.3, Fig. 2), and then grows by one segment per 550-ms round trip. The paper's UBR 0.84 is the one cell where its "
     "Reno did not collapse (and the only Reno cell that is worse with the larger buffer, 0.30 at 600000); nothing in the "
     "paper says why plain UBR would spare it"),
    (r"sat\.(reno\.|reno-|vanilla-reno\.).*efficiency",
     "nsim's Reno (4.3BSD-Reno) collapses over the satellite as the paper's: {row:sat.reno.k200000.epd.efficiency} at "
     "200000 cells with EPD and {row:sat.reno.k600000.tail_drop.efficiency} at 600000 with UBR (paper 0.12 and 0.30), "
     "alike under every policy, so the paper's policy differences at 600000 cells (UBR 0.30, EPD 0.19, SD 0.22) are not "
     "reproduced: this row reads {nsim} against {paper}"),
    (r"sat\.(sack1\.|vanilla-sack1\.).*efficiency",
     "nsim's SACK over the satellite times out 0-4 times per 40-s run over 5 sources (the sat frames' `timeouts`) and reads "
     "{row:sat.sack1.k200000.tail_drop.efficiency} / {row:sat.sack1.k200000.epd.efficiency} / "
     "{row:sat.sack1.k200000.selective_drop.efficiency} at 200000 cells (UBR / EPD / SD), so EPD and Selective Drop cost "
     "it little; the paper's EPD 0.60 and SD 0.72 need the timeouts after lost retransmissions §6.3 describes"),
    (r"sat\.vanilla\..*efficiency",
     "nsim's Vanilla over the satellite reads {row:sat.vanilla.k600000.tail_drop.efficiency} / "
     "{row:sat.vanilla.k600000.epd.efficiency} / {row:sat.vanilla.k600000.selective_drop.efficiency} at 600000 cells "
     "(UBR / EPD / SD; paper 0.88 / 0.81 / 0.82): this row reads {nsim} against {paper}"),
    (r"sat\..*fairness",
     "at 200000 cells the sources of one run lose unevenly, and which ones lose is decided cell by cell: nsim's Jain index "
     "there is 0.84-0.99 for every TCP and policy (the sat frames' fairness column; paper 0.83-1.00), so the paper's "
     "orderings between cells of that table (differences of 0.10-0.17) are not reproduced: {nsim} against {paper}"),
    (r"wan\..*fairness",
     "nsim's WAN Vanilla is fairer under UBR than the paper's ({row:wan.vanilla.avg.tail_drop.fairness} against 0.76): its "
     "sources start within one segment time of each other and lose in the same overflow episodes, 1-5 timeouts each per "
     "20-s run (the wan frames' `timeouts`). With starts spread over one 30-ms round trip (the study before 30 November "
     "2026) these rows passed (README, 'Randomness')"),
    (r"lan\..*fairness",
     "the LAN's Reno and Vanilla sources time out 3-6 times each per run and unevenly (the lan frames' `timeouts`), so "
     "their Jain index is low (Vanilla UBR {row:lan.vanilla.avg.tail_drop.fairness}, Reno UBR "
     "{row:lan.reno.avg.tail_drop.fairness}) while nsim's SACK, with fewer timeouts per source, is the fairest (EPD "
     "{row:lan.sack1.avg.epd.fairness}): the reverse of §6.3's 'a little lower for SACK TCP'; SACK's own UBR cells swing "
     "with which source starts first (README, 'Randomness')"),
]
KNOWN: list[str] = json.loads(Path(__file__).with_name("known.json").read_text()) if Path(__file__).with_name("known.json").exists() else []


def known_why(rid: str) -> str:
    import re
    for pattern, why in FAMILIES:
        if re.fullmatch(pattern, rid):
            return why
    raise SystemExit(f"{rid} failed in the last full run and no FAMILIES entry explains it")


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def row(out: list[str], **kv) -> None:
    out.append("[[row]]")
    for k, v in kv.items():
        if v is None:
            continue
        if isinstance(v, bool):
            out.append(f"{k} = {'true' if v else 'false'}")
        elif isinstance(v, (int, float)):
            out.append(f"{k} = {round(v, 4)!r}")
        elif isinstance(v, list):
            out.append(f"{k} = [{', '.join(q(x) for x in v)}]")
        else:
            out.append(f"{k} = {q(v)}")
    rid = kv["id"]
    if rid in KNOWN:
        out.append('status = "known-fail"')
        out.append(f"why = {q(known_why(rid))}")
    out.append("")


QUICK = {  # what --quick (CI) checks: one published value or more per table
    "lan.sack1.avg.selective_drop.efficiency", "lan.sack1.avg.selective_drop-tail_drop.efficiency",  # Table 1
    "lan.sack1.avg.tail_drop.fairness", "lan.sack1.avg.selective_drop-tail_drop.fairness",  # Table 2
    "sat.sack1.k600000.selective_drop.efficiency", "sat.sack1.k600000-k200000.selective_drop.efficiency",  # Table 3
    "sat.reno.k200000.epd.efficiency", "sat.reno.k600000.epd.efficiency",  # Table 3: Reno's collapse
    "sat.reno-sack1.k200000.selective_drop.efficiency",
    "sat.sack1.k200000.epd.fairness",  # Table 4
}


def main() -> None:
    out: list[str] = [
        "# Goyal, Jain et al. 1997 (ATM Forum/97-0423): Tables 1-4 as rows. GENERATED by make_expected.py",
        "# (the rule for every row is in its docstring and in README.md); edit the generator, not this file.",
        "",
    ]
    cells: dict[str, float] = {}  # every paper cell, by the reducer's id
    for m, table in (("efficiency", T1), ("fairness", T2)):
        for (net, n, k), vals in table.items():
            for p, v in zip(POL, vals):
                cells[f"{net}.sack1.n{n}.k{k}.{p}.{m}"] = v
    for m in ("efficiency", "fairness"):
        for (net, var), vals in AVG[m].items():
            for p, v in zip(POL, vals):
                cells[f"{net}.{var}.avg.{p}.{m}"] = v
        for (var, k), vals in SAT[m].items():
            for p, v in zip(POL, vals):
                cells[f"sat.{var}.k{k}.{p}.{m}"] = v
    ids: set[str] = set()

    def src(cid: str) -> str:
        part, var, mid, *rest = cid.split(".")
        m = cid.rsplit(".", 1)[1]
        p = cid.split(".")[-2]
        if part == "sat":
            return f"{TABLE[m]['sat']}, {VNAME[var]}, 5 sources, {mid[1:]} cells, column {COL[p]}"
        if mid == "avg":
            label = "SACK Column Average" if var == "sack1" else f"{VNAME[var]} TCP Average"
            if var == "sack1" and part == "wan" and m == "fairness":
                label = "Column Average"
            return f"{TABLE[m]['terr']}, {NET[part]} row '{label}', column {COL[p]}"
        n, k = mid[1:], rest[0][1:]
        return f"{TABLE[m]['terr']}, {NET[part]} {n} sources {k} cells, column {COL[p]}"

    def level(cid: str, quick: bool = False) -> None:
        m = cid.rsplit(".", 1)[1]
        var = cid.split(".")[1]
        row(out, id=cid, evidence="published", source=src(cid),
            quantity=f"{m}, {VNAME[var]} TCP" + (": sum of goodputs / maximum TCP throughput" if m == "efficiency" else ": Jain's index over the sources' goodputs"),
            metric=m, measure="jain" if m == "fairness" else None, value=cells[cid], unit="", tol_abs=LEVEL_TOL[m],
            reason=LEVEL_REASON[m], quick=cid in QUICK)
        ids.add(cid)

    out.append("# ---- Levels: every printed efficiency, and every printed Jain index below 0.90 ----\n")
    for cid, v in cells.items():
        m = cid.rsplit(".", 1)[1]
        if ".n" in cid:
            continue  # Tables 1-2 per configuration: summarised by the average rows (README.md, "Rows")
        if m == "efficiency" or v < FAIR_LEVEL_BELOW:
            level(cid)

    def order(a: str, b: str, rid: str, what: str, force: bool = False, parity: bool = False, least: float = MIN_ORDER) -> bool:
        d = cells[a] - cells[b]
        m = a.rsplit(".", 1)[1]
        if rid in ids or (abs(d) < least - 1e-9 and not force):
            return False
        common = dict(id=rid, evidence="published", source=f"{src(a)} against {src(b)}",
                      quantity=f"{m} difference, {what}", metric=f"{m} difference", measure="difference",
                      value=round(d, 4), unit="")
        if parity or abs(d) < least - 1e-9:
            row(out, **common, tol_abs=0.05, reason=PARITY_REASON, quick=rid in QUICK)
        else:
            row(out, **common, kind="min" if d > 0 else "max", tol_abs=round(abs(d) * (1 - MARGIN), 4),
                reason=ORDER_REASON, quick=rid in QUICK)
        ids.add(rid)
        return True

    out.append("# ---- Orderings within a table block (reducer rows: nsim's a - b per seed) ----\n")
    for m in ("efficiency", "fairness"):
        least = MIN_ORDER if m == "efficiency" else MIN_ORDER_FAIRNESS
        for net in ("lan", "wan"):
            for p in POL:
                for va, vb in (("vanilla", "sack1"), ("reno", "sack1"), ("reno", "vanilla")):
                    force = (va, vb) == ("reno", "sack1") and m == "efficiency"  # inputs of the LAN-vs-WAN gain rows
                    order(f"{net}.{va}.avg.{p}.{m}", f"{net}.{vb}.avg.{p}.{m}", f"{net}.{va}-{vb}.avg.{p}.{m}",
                          f"{NET[net]} average, {COL[p]}: {VNAME[va]} minus {VNAME[vb]}", force, least=least)
            for var in ("sack1", "vanilla", "reno"):
                for pa, pb in (("epd", "tail_drop"), ("selective_drop", "tail_drop"), ("selective_drop", "epd")):
                    force = (pa, pb) == ("selective_drop", "tail_drop") and m == "efficiency"
                    order(f"{net}.{var}.avg.{pa}.{m}", f"{net}.{var}.avg.{pb}.{m}", f"{net}.{var}.avg.{pa}-{pb}.{m}",
                          f"{NET[net]} average, {VNAME[var]}: {COL[pa]} minus {COL[pb]}", force, least=least)
        for k in (200000, 600000):
            for p in POL:
                for va, vb in (("reno", "sack1"), ("vanilla", "sack1"), ("vanilla", "reno")):
                    order(f"sat.{va}.k{k}.{p}.{m}", f"sat.{vb}.k{k}.{p}.{m}", f"sat.{va}-{vb}.k{k}.{p}.{m}",
                          f"satellite {k} cells, {COL[p]}: {VNAME[va]} minus {VNAME[vb]}", least=least)
            for var in ("sack1", "reno", "vanilla"):
                for pa, pb in (("epd", "tail_drop"), ("selective_drop", "tail_drop"), ("selective_drop", "epd")):
                    order(f"sat.{var}.k{k}.{pa}.{m}", f"sat.{var}.k{k}.{pb}.{m}", f"sat.{var}.k{k}.{pa}-{pb}.{m}",
                          f"satellite {k} cells, {VNAME[var]}: {COL[pa]} minus {COL[pb]}", least=least)
        for var in ("sack1", "reno", "vanilla"):
            for p in POL:
                order(f"sat.{var}.k600000.{p}.{m}", f"sat.{var}.k200000.{p}.{m}", f"sat.{var}.k600000-k200000.{p}.{m}",
                      f"satellite, {VNAME[var]}, {COL[p]}: 600000 minus 200000 cells", least=least)
    out.append("# ---- Orderings between Table 1-2's SACK configurations (policy, buffer, sources) ----\n")
    for m in ("efficiency", "fairness"):
        least = MIN_ORDER if m == "efficiency" else MIN_ORDER_FAIRNESS
        for net, ks in (("lan", (1000, 3000)), ("wan", (12000, 36000))):
            for n in (5, 15):
                for k in ks:
                    for pa, pb in (("epd", "tail_drop"), ("selective_drop", "tail_drop"), ("selective_drop", "epd")):
                        order(f"{net}.sack1.n{n}.k{k}.{pa}.{m}", f"{net}.sack1.n{n}.k{k}.{pb}.{m}", f"{net}.sack1.n{n}.k{k}.{pa}-{pb}.{m}",
                              f"{NET[net]} SACK, {n} sources, {k} cells: {COL[pa]} minus {COL[pb]}", least=least)
                for p in POL:
                    order(f"{net}.sack1.n{n}.k{ks[1]}.{p}.{m}", f"{net}.sack1.n{n}.k{ks[0]}.{p}.{m}", f"{net}.sack1.n{n}.k{ks[1]}-k{ks[0]}.{p}.{m}",
                          f"{NET[net]} SACK, {n} sources, {COL[p]}: {ks[1]} minus {ks[0]} cells", least=least)
            for k in ks:
                for p in POL:
                    order(f"{net}.sack1.n15.k{k}.{p}.{m}", f"{net}.sack1.n5.k{k}.{p}.{m}", f"{net}.sack1.n15-n5.k{k}.{p}.{m}",
                          f"{NET[net]} SACK, {k} cells, {COL[p]}: 15 minus 5 sources", least=least)
    out.append("# ---- Fairness orderings §6.3 states, whatever their size, and its parity claim ----\n")
    m = "fairness"
    for p in ("tail_drop", "epd"):  # "The fairness of tail drop and EPD are sometimes a little lower for SACK TCP"
        for va in ("vanilla", "reno"):
            order(f"lan.{va}.avg.{p}.{m}", f"lan.sack1.avg.{p}.{m}", f"lan.{va}-sack1.avg.{p}.{m}",
                  f"LAN average, {COL[p]}: {VNAME[va]} minus SACK")
    for net in ("lan", "wan"):  # "The fairness values for selective drop are comparable to the values with the other TCP versions"
        for va, vb in (("vanilla", "sack1"), ("reno", "sack1")):
            order(f"{net}.{va}.avg.selective_drop.{m}", f"{net}.{vb}.avg.selective_drop.{m}", f"{net}.{va}-{vb}.avg.selective_drop.{m}",
                  f"{NET[net]} average, Selective Drop: {VNAME[va]} minus {VNAME[vb]} (parity)", force=True, parity=True)
    for var in ("sack1", "vanilla", "reno"):  # [9] restated in §2: per-VC Selective Drop improves fairness (LAN)
        order(f"lan.{var}.avg.selective_drop.{m}", f"lan.{var}.avg.tail_drop.{m}", f"lan.{var}.avg.selective_drop-tail_drop.{m}",
              f"LAN average, {VNAME[var]}: Selective Drop minus UBR")

    out.append("# ---- Across networks (derived rows: nsim(a) - nsim(b)) ----\n")
    for var in ("sack1", "vanilla", "reno"):
        for p in POL:
            a, b = f"wan.{var}.avg.{p}.efficiency", f"lan.{var}.avg.{p}.efficiency"
            d = cells[a] - cells[b]
            if abs(d) < MIN_ORDER:
                continue
            row(out, id=f"wan.vs_lan.{var}.{p}.efficiency", evidence="published", source=f"{src(a)} against {src(b)}",
                quantity=f"efficiency difference, {VNAME[var]} {COL[p]}: WAN average minus LAN average",
                metric="efficiency difference", value=round(d, 4), unit="", kind="min" if d > 0 else "max",
                tol_abs=round(abs(d) * (1 - MARGIN), 4), of=[a, b], reason=ORDER_REASON, quick=False)
    for p in POL:  # §6.3 "The throughput improvement provided by SACK is more significant for wide area networks"
        a, b = f"wan.reno-sack1.avg.{p}.efficiency", f"lan.reno-sack1.avg.{p}.efficiency"
        d = (cells[f"wan.reno.avg.{p}.efficiency"] - cells[f"wan.sack1.avg.{p}.efficiency"]) - \
            (cells[f"lan.reno.avg.{p}.efficiency"] - cells[f"lan.sack1.avg.{p}.efficiency"])
        row(out, id=f"wan.sack_gain_vs_lan.{p}.efficiency", evidence="published",
            source=f"§6.3 'The throughput improvement provided by SACK is more significant for wide area networks'; Table 1 averages, column {COL[p]}",
            quantity=f"efficiency difference, {COL[p]}: (Reno minus SACK) on the WAN minus (Reno minus SACK) on the LAN",
            metric="efficiency difference", value=round(d, 4), unit="", kind="min" if d > 0 else "max",
            tol_abs=round(abs(d) * (1 - MARGIN), 4), of=[a, b], reason=ORDER_REASON, quick=False)
    for var in ("sack1", "vanilla", "reno"):  # §8/§9: drop policies matter most on LANs
        a, b = f"wan.{var}.avg.selective_drop-tail_drop.efficiency", f"lan.{var}.avg.selective_drop-tail_drop.efficiency"
        d = (cells[f"wan.{var}.avg.selective_drop.efficiency"] - cells[f"wan.{var}.avg.tail_drop.efficiency"]) - \
            (cells[f"lan.{var}.avg.selective_drop.efficiency"] - cells[f"lan.{var}.avg.tail_drop.efficiency"])
        row(out, id=f"wan.policy_gain_vs_lan.{var}.efficiency", evidence="published",
            source="§8 'The effect of intelligent drop policies is most significant in LANs, and the effect decreases in WANs'; §9; Table 1 averages",
            quantity=f"efficiency difference, {VNAME[var]}: (Selective Drop minus UBR) on the WAN minus the same on the LAN",
            metric="efficiency difference", value=round(d, 4), unit="", kind="min" if d > 0 else "max",
            tol_abs=round(abs(d) * (1 - MARGIN), 4), of=[a, b], reason=ORDER_REASON, quick=False)
    for va in ("vanilla", "reno"):  # §6.3: "as the drop policies get more sophisticated, the effect of TCP congestion mechanism is less pronounced"
        a, b = f"lan.{va}-sack1.avg.selective_drop.efficiency", f"lan.{va}-sack1.avg.tail_drop.efficiency"
        d = (cells[f"lan.{va}.avg.selective_drop.efficiency"] - cells["lan.sack1.avg.selective_drop.efficiency"]) - \
            (cells[f"lan.{va}.avg.tail_drop.efficiency"] - cells["lan.sack1.avg.tail_drop.efficiency"])
        row(out, id=f"lan.variant_gap_sd_vs_ubr.{va}.efficiency", evidence="published",
            source="§6.3 'as the drop policies get more sophisticated, the effect of TCP congestion mechanism is less pronounced'; Table 1 LAN averages",
            quantity=f"efficiency difference, LAN: ({VNAME[va]} minus SACK) under Selective Drop minus the same under UBR",
            metric="efficiency difference", value=round(d, 4), unit="", kind="min" if d > 0 else "max",
            tol_abs=round(abs(d) * (1 - MARGIN), 4), of=[a, b], reason=ORDER_REASON, quick=False)
    _analysis(out)
    all_ids = [line.split('"')[1] for line in out if line.startswith("id = ")]
    Path(__file__).with_name("expected.toml").write_text("\n".join(out) + _keys(all_ids))


SACK_W = 40  # scenarios/sack_drops.toml: the window when the losses start (segments)
SACK_SOURCE = ("§4.2: 'for SACK TCP to be able to retransmit all lost segments in one RTT, the network can drop at most "
               "CWND/4'; 'at most 3 x CWND/8 bytes can be dropped ... to recover in 2 RTTs'")
SACK_REASON = ("the analysis counts bytes; a sender of whole segments with a 40-segment window may move the boundary by one "
               "segment (the three duplicate ACKs, the halving of an even window): the band is one segment. One flow and a "
               "drop list: every seed gives the same run, so one seed")
COUNT_REASON = ("a count of events in one drop-list run, which Fig. 2 states exactly; every window (16, 32 and 64 packets at "
                "the first loss) must give it, and the row reads the one farthest from the paper. One seed (no randomness)")


def _analysis(out: list[str]) -> None:
    """Rows for the paper's analysis of the senders (§4.2, §2.3 and Fig. 2, §7.2), measured on
    drop-list runs. Counts that are alone in their unit have no null prediction; rows that share
    a metric (SACK's and Reno's timeouts, the two SACK loss bounds, the two §7.2 growth rates)
    have values that differ, so the constant predictor (the other rows' median) fails them."""
    out.append("# ---- The paper's analysis of the senders: drop-list runs (parts analysis_*) ----\n")
    for rid, rounds, value in (("analysis_sack.one_round.max_loss", 1, SACK_W // 4),
                               ("analysis_sack.two_rounds.max_loss", 2, 3 * SACK_W // 8)):
        row(out, id=rid, evidence="published", source=SACK_SOURCE,
            quantity=f"largest contiguous loss from a {SACK_W}-segment window that SACK retransmits within {rounds} round trip{'s' if rounds > 1 else ''}",
            metric="largest loss SACK retransmits within m round trips", value=value, unit="segments", tol_abs=1,
            reason=SACK_REASON, quick=True)
    row(out, id="analysis_sack.up_to_half.timeouts", evidence="published",
        source="§4.2: recovery in log2(n/(n-2)) RTTs for a loss of CWND/n, n > 2, without a timeout (the analysis has none)",
        quantity=f"timeouts, SACK, over the runs losing 1 ... {SACK_W // 2} of {SACK_W} segments", metric="timeouts",
        value=0, unit="timeouts", kind="max", reason="SACK's analysis has no timeout in this range; any timeout contradicts it. One seed (no randomness)",
        quick=True)
    row(out, id="analysis_sack.over_half.timeouts", evidence="published",
        source="§4.2: 'If more than half the CWND is dropped ... SACK would still be advantageous because timeout would be still avoided unless a retransmitted packet were dropped'",
        quantity=f"timeouts, SACK, over the runs losing {SACK_W // 2 + 1} ... {3 * SACK_W // 4} of {SACK_W} segments", metric="timeouts",
        value=0, unit="timeouts", kind="max", reason="the paper states no timeout for any loss without a lost retransmission; the drop list drops none. One seed (no randomness)",
        quick=True)
    row(out, id="analysis_newreno.rounds_minus_losses.max_abs", evidence="published",
        source=("§2.3: New Reno's fast-retransmit phase 'ensures that the sender will recover from N segment losses in N round "
                "trips. As a result, the sender can recover from multiple packet losses without having to time out'"),
        quantity=("largest |round trips to retransmit - segments lost| over k = 1 ... 10 contiguous losses from a 40-segment window, "
                  "ns-2 NewReno; a run with a timeout counts as infinite"),
        metric="round trips beyond the paper's count", value=0, unit="round trips", kind="max",
        reason=("the paper's count is exact, one retransmission per partial ACK and no timeout; any other count contradicts it. k "
                "stops at a quarter of the window, where k round trips stay below the retransmission timeout (README: New Reno). "
                "One seed (no randomness)"),
        quick=True)
    row(out, id="analysis_reno.fast_retransmits", evidence="published",
        source="§2.3, Fig. 2: 'three consecutive packets are lost from a window, the sender TCP incurs fast retransmit twice and then times out'",
        quantity="fast retransmits, BSD Reno (bugfix = false), three consecutive losses", metric="fast retransmits",
        value=2, unit="fast retransmits", tol_abs=0,
        reason=COUNT_REASON + ("; alone in its unit, so no null predictor guesses it, but it tells the paper's Reno from "
                               "ns-2's: with ns-2's guard (bugfix = true, nsim's default) the same runs give 1"), quick=True)
    row(out, id="analysis_reno.timeouts", evidence="published",
        source="§2.3, Fig. 2: '... incurs fast retransmit twice and then times out'",
        quantity="timeouts, BSD Reno (bugfix = false), three consecutive losses", metric="timeouts",
        value=1, unit="timeouts", tol_abs=0, reason=COUNT_REASON, quick=True)
    row(out, id="analysis_reno.ssthresh_over_window", evidence="published",
        source="§2.3, Fig. 2: 'At that time, Ssthresh is set to one-eighth of the original congestion window value'",
        quantity="ssthresh at the timeout / window at the first loss, BSD Reno, three consecutive losses", metric="ssthresh at the timeout over the window",
        measure="ratio", value=0.125, unit="", tol_abs=0.01,
        reason=("three halvings in whole packets (ns-2's floor of 2 packets binds below a window of 16: scenarios/reno_bsd_three_losses.toml, "
                "window 15, reads 2/15 = 0.133); at 16, 32 and 64 packets they are exact, so the band covers only the print. One seed (no randomness)"),
        quick=True)
    row(out, id="analysis_ca.integer.growth_per_rtt", evidence="published",
        source="§7.2: 'when CWND is larger than this value [MSS x MSS = 262144], the expression MSS x MSS / CWND yields zero. As a result, CWND is never increases during the congestion avoidance phase'",
        quantity="congestion-avoidance growth above MSS^2 bytes, integer increase MSS*MSS/CWND", metric="congestion-avoidance growth",
        value=0, unit="packets per RTT", kind="max", reason="the paper's 'never increases': any growth contradicts it. One seed (no randomness)",
        quick=True)
    row(out, id="analysis_ca.ack_counting.growth_per_rtt", evidence="published",
        source="§7.2: 'wait for N ACKs such that N x MSS x MSS > CWND and then increment CWND by N x MSS x MSS / CWND. We call this the ACK counting option'",
        quantity="congestion-avoidance growth above MSS^2 bytes, ACK counting", metric="congestion-avoidance growth",
        value=0.5, unit="packets per RTT", kind="min",
        reason=("the rule's bound: with the smallest such N, N x MSS^2 / CWND lies in (1, 2), so on integers each N ACKs add one byte "
                "and a round trip of CWND/MSS ACKs adds x/(floor(x)+1) of a segment, x = CWND/MSS^2: between one half and one "
                "(one without the truncation). One seed (no randomness)"),
        quick=True)


def _keys(ids: list[str]) -> str:
    """The key results; each key's rows are the row ids its regular expressions match (\\w has no dots or dashes)."""
    K = [
        ("sack_most_efficient", "For a given drop policy SACK TCP gives higher efficiency than Vanilla or Reno TCP in most cases",
         "§6.3 first observation; §8 first observation", [r"\w+\.(vanilla|reno)-sack1\.\w+\.\w+\.efficiency"], ""),
        ("lan_policy_dominates", "On LANs the drop policy matters a lot and can dominate the effect of SACK (EPD and Selective Drop above plain UBR for every TCP)",
         "§6.3 second observation; §9", [r"lan\.\w+\.avg\.\w+-\w+\.efficiency"], ""),
        ("lan_ubr_sack_gain", "On LANs with plain UBR, SACK improves clearly on Vanilla and Reno (0.79 against 0.34 and 0.69)",
         "§6.3 second observation; Table 1", [r"lan\.(vanilla|reno)-sack1\.avg\.tail_drop\.efficiency"], ""),
        ("lan_variant_matters_less", "As the drop policy gets more sophisticated, the TCP variant matters less on LANs",
         "§6.3 second observation; Table 1 LAN averages", [r"lan\.variant_gap_sd_vs_ubr\..*"], ""),
        ("lan_sack_lost_retransmissions", "SACK is below Reno in a few LAN cases (EPD) because lost retransmissions cost it a timeout",
         "§6.3 second observation; Table 1 LAN averages", [r"lan\.reno-sack1\.avg\.epd\.efficiency", r"lan\.sack1\.avg\.epd\.efficiency"], ""),
        ("wan_sack_gain_larger", "SACK's throughput improvement is more significant on WANs than on LANs",
         "§6.3 third observation", [r"wan\.sack_gain_vs_lan\..*", r"wan\.reno-sack1\.avg\.\w+\.efficiency"], ""),
        ("wan_reno_below_vanilla", "On WANs Reno is below Vanilla: with multiple losses it times out at a much lower window",
         "§6.3 third observation; §8 second observation; Table 1 WAN averages", [r"wan\.reno-vanilla\.avg\.\w+\.efficiency"], ""),
        ("sack_policies_help", "The performance of SACK TCP is improved by EPD and Selective Drop (LAN)",
         "§6.3 fourth observation", [r"lan\.sack1\.avg\.(epd|selective_drop)-tail_drop\.efficiency"], ""),
        ("sd_fairness_parity", "Under Selective Drop, SACK's fairness is comparable to the other TCPs'",
         "§6.3 fifth observation; Table 2", [r"\w+\.\w+-\w+\.avg\.selective_drop\.fairness"], ""),
        ("sack_fairness_lower", "Under tail drop and EPD SACK's fairness is sometimes a little lower (connections that lose retransmissions time out)",
         "§6.3 fifth observation; Table 2 LAN averages", [r"lan\.\w+-sack1\.avg\.(tail_drop|epd)\.fairness"], ""),
        ("sd_improves_fairness", "Per-VC Selective Drop improves fairness over plain UBR on LANs",
         "§2 (Selective Drop, results of [9] restated); Table 2 LAN averages", [r"lan\.\w+\.avg\.selective_drop-tail_drop\.fairness"], ""),
        ("sat_sack_improves", "SACK significantly improves TCP over satellite UBR+",
         "§8 first observation; Table 3", [r"sat\.(reno|vanilla)-sack1\.\w+\.\w+\.efficiency"], ""),
        ("sat_reno_detrimental", "Fast retransmit and recovery is detrimental over large delay-bandwidth links: Reno far below SACK and Vanilla on the satellite",
         "§8 second observation; Table 3", [r"sat\.vanilla-reno\.\w+\.\w+\.efficiency", r"sat\.reno\.k\d+\.\w+\.efficiency"], ""),
        ("sat_policies_little", "Intelligent drop policies have little effect over satellite networks (the table's own policy differences)",
         "§8 third observation; Table 3", [r"sat\.\w+\.k\d+\.\w+-\w+\.efficiency"], ""),
        ("policy_effect_lan_most", "The effect of the drop policies is largest on LANs and decreases on WANs (buffers small against the 64 KB window)",
         "§8 last paragraph; §9", [r"wan\.policy_gain_vs_lan\..*", r"wan\.vs_lan\..*"], ""),
        ("sat_buffer", "With 600000-cell buffers SACK and Vanilla are more efficient than with 200000, while Reno drops (0.84 to 0.30 under UBR)",
         "Table 3", [r"sat\.\w+\.k600000-k200000\.\w+\.efficiency"], ""),
        ("table12_configs", "Tables 1-2 per configuration: how SACK's efficiency and fairness order across drop policy, buffer size and number of sources",
         "Tables 1-2 (SACK rows)", [r"(lan|wan)\.sack1\.n[0-9n-]+\.k[0-9k-]+\.[a-z_-]+\.(efficiency|fairness)"], ""),
        ("table1_lan", "Table 1 LAN efficiency averages (SACK, Vanilla, Reno)", "Table 1", [r"lan\.\w+\.avg\.\w+\.efficiency"], ""),
        ("table1_wan", "Table 1 WAN efficiency averages (SACK, Vanilla, Reno)", "Table 1", [r"wan\.\w+\.avg\.\w+\.efficiency"], ""),
        ("table2_unfair", "Table 2's unfair cells (Jain below 0.90): LAN UBR and EPD, Vanilla WAN UBR", "Table 2", [r"lan\.\w+\.avg\.\w+\.fairness", r"wan\.vanilla\.avg\.tail_drop\.fairness"], ""),
        ("table3", "Table 3 satellite efficiencies (SACK, Reno, Vanilla x buffer x policy)", "Table 3", [r"sat\.\w+\.k\d+\.\w+\.efficiency"], ""),
        ("table4_unfair", "Table 4's unfair cells (Jain below 0.90): SACK and Vanilla with EPD and Selective Drop at 200000 cells", "Table 4", [r"sat\.\w+\.k200000\.\w+\.fairness"], ""),
        ("sack_recovery_analysis", "SACK recovers a loss of CWND/n in at most log2(n/(n-2)) round trips, never slower than slow start",
         "§4.2 (analysis)", [r"analysis_sack\.[a-z_]+\.[a-z_]+"], ""),
        ("newreno_n_losses", "New Reno recovers N losses from one window in N round trips, without a timeout",
         "§2.3 (New Reno, analysis)", [r"analysis_newreno\.[a-z_.]+"], ""),
        ("reno_three_losses", "Reno with three losses in one window does two fast retransmits and then times out, with ssthresh at one eighth of the window",
         "§2.3, Fig. 2 (analysis)", [r"analysis_reno\.[a-z_]+"], ""),
        ("integer_ca_stall", "With integer arithmetic, congestion avoidance stops growing once CWND > MSS^2 (262144 bytes for MSS 512); ACK counting fixes it",
         "§7.2", [r"analysis_ca\.[a-z_]+\.growth_per_rtt"], ""),
    ]
    out = ["", "# ---- Key results (the paper's conclusions, §6.3, §8 and §9) ----", ""]
    import re
    for kid, claim, source, patterns, why in K:
        rows = [i for i in ids if any(re.fullmatch(p.replace(r"\w", "[A-Za-z0-9_]"), i) for p in patterns)]
        assert rows or not patterns, (kid, patterns)
        out += ["[[key]]", f"id = {q(kid)}", f"claim = {q(claim)}", f"source = {q(source)}",
                f"rows = [{', '.join(q(r) for r in rows)}]"]
        if why:
            out.append(f"why = {q(why)}")
        out.append("")
    return "\n".join(out)


KEYS = ""

if __name__ == "__main__":
    main()
