"""Reducers of the toy study (tests/test_reproduce.py)."""

import pandas as pd


def link_arrivals(res):
    q = res.queues[(res.queues["from"] == "a") & (res.queues["to"] == "b")].iloc[0]
    return {"arrivals_ab": int(q["arrivals"])}


def reduce_cbr(table):
    rate = table["flows[0].app.rate"].map({"500kb": 5e5, "1Mb": 1e6})
    t = table.assign(rate_bps=rate).groupby("rate_bps", as_index=False)[["goodput_bps", "arrivals_ab"]].mean()
    at_1mb = t[t["rate_bps"] == 1e6].iloc[0]
    return {"cbr.goodput_1mb": at_1mb["goodput_bps"], "cbr.goodput_wrong": at_1mb["goodput_bps"],
            "cbr.arrivals_ab": at_1mb["arrivals_ab"], "__frames__": {"goodput": t}}


def reduce_formula(table):
    return {"formula.two": 1 + 1, "formula.known": 1 + 1}
