"""Property tests (hypothesis) for the unit parser and the scenario schema: whatever the
input, the answer is a value or a ScenarioError/ValueError naming the field, never another
exception."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nsim
from nsim import _core
from nsim.units import bits_per_second, seconds, size_bytes

TIME_UNITS = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0}
RATE_UNITS = {"bps": 1.0, "Kb": 1e3, "Mb": 1e6, "Gb": 1e9, "Mbps": 1e6, "B/s": 8.0, "KB/s": 8e3}
SIZE_UNITS = {"B": 1, "KB": 1000, "MB": 10**6, "KiB": 1024, "MiB": 1024**2}
# From 1 (time is whole picoseconds: "0.25ps" is 0, not a positive time) up to 1e5 (1e5 min
# is within nsim's time range of 2^63 ps).
values = st.floats(min_value=1.0, max_value=1e5, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(v=values, unit=st.sampled_from(sorted(TIME_UNITS)))
def test_times_read_with_their_unit(v: float, unit: str) -> None:
    assert seconds(f"{v!r}{unit}", "t") == pytest.approx(v * TIME_UNITS[unit], rel=1e-9, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(v=st.floats(min_value=1.0, max_value=1e4), unit=st.sampled_from(sorted(RATE_UNITS)))
def test_rates_read_with_their_unit(v: float, unit: str) -> None:
    assert bits_per_second(f"{v!r}{unit}", "r") == pytest.approx(round(v * RATE_UNITS[unit]), abs=1.0)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(min_value=0, max_value=10**9), unit=st.sampled_from(sorted(SIZE_UNITS)))
def test_sizes_read_with_their_unit(n: int, unit: str) -> None:
    assert size_bytes(f"{n}{unit}", "s") == n * SIZE_UNITS[unit]


@settings(max_examples=100, deadline=None)
@given(v=st.floats(min_value=0, max_value=1e9, allow_nan=False))
def test_strings_without_a_unit_are_refused_numbers_are_si(v: float) -> None:
    with pytest.raises(nsim.ScenarioError, match="has no unit"):
        seconds(repr(v), "until")
    if v > 0:
        assert seconds(v, "until") == v


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=20), kind=st.sampled_from(["time", "rate", "size", "limit"]))
def test_any_text_parses_or_raises_value_error(text: str, kind: str) -> None:
    try:
        v = _core.parse_quantity(kind, text)
    except ValueError:
        return
    n = v[0] if isinstance(v, tuple) else v
    assert n >= 0 and math.isfinite(n)
    assert not any(c.isspace() for c in text)


# Scenario dicts built from the schema's own keys with values of any JSON type.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["10Mb", "5ms", "25p", "a", "b", "1ns", "", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["kind", "rate", "delay", "limit", "between", "from", "to", "app", "size", "pairs"]),
        inner, max_size=4),
    max_leaves=12,
)
scenario_dicts = st.fixed_dictionaries({}, optional={
    "name": json_values, "duration": json_values, "seed": json_values, "hosts": json_values,
    "routers": json_values, "links": json_values, "flows": json_values, "dumbbell": json_values,
    "record": json_values, "limits": json_values,
})


@settings(max_examples=150, deadline=None)
@given(config=scenario_dicts)
def test_any_scenario_dict_validates_or_names_the_problem(config: dict) -> None:
    sc = nsim.Scenario.from_dict(config, source="<prop>")
    try:
        sc.validate()
    except nsim.ScenarioError as e:
        assert str(e).startswith("<prop>")
