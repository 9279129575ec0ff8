"""Reducers of the scored study (tests/test_scoring.py): fixed numbers, and a noisy share."""


def reduce_formula(table):
    return {"formula.a": 0.90, "formula.b": 0.70, "formula.jain": 0.99, "formula.share": 1.40,
            "formula.recalc": 2.0, "formula.vs_ns2": 10.0}


def reduce_noisy(table):
    g = table.groupby("name")["goodput_bps"].mean()
    return {"noisy.first_share": float(g["cbr0"] / g.sum() * 2)}
