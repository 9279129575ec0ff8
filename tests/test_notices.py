"""Notices for valid scenarios that probably do not mean what they say (issue 30's silent ns-2
traps, issue 29 item 11): shown by `nsim validate` and in `nsim run`'s summary, never errors,
and each one true of what the core then does."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pandas as pd

from conftest import SCENARIOS, run_cli
from nsim.notices import notices

# a -> r -> b, one Reno flow (1000 B + 40 B segments) pushing into r's 1 Mb/s port; {queue}
# is that port's queue, {delay} the a-r delay.
TRAP = """
name = "trap"
duration = {duration}
hosts = ["a", "b"]
routers = ["r"]
[[links]]
between = ["a", "r"]
rate = "100Mb"
delay = {delay}
[[links]]
between = ["r", "b"]
rate = "1Mb"
delay = "10ms"
queue = {queue}
[[flows]]
name = "f"
from = "a"
to = "b"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "reno", window = 1000 }}
"""


def _trap(queue: str = '{ kind = "droptail", limit = "100p" }', delay: str = '"1ms"', duration: str = '"5s"') -> str:
    return TRAP.format(queue=queue, delay=delay, duration=duration)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "trap.toml"
    path.write_text(text)
    return path


def test_a_scenario_that_says_what_it_means_has_no_notice(tmp_path: Path) -> None:
    assert notices(tomllib.loads(_trap())) == []
    p = run_cli("validate", str(SCENARIOS / "cbr_dumbbell.toml"), str(_write(tmp_path, _trap())))
    assert p.returncode == 0 and "notice" not in p.stdout + p.stderr, p.stdout


def test_red_in_byte_mode_turns_a_packet_limit_into_bytes(tmp_path: Path) -> None:
    # ns-2.35: queue_in_bytes_ true and mean_pktsize_ 500, so qlim = 100 x 500 B = 50,000 B.
    text = _trap('{ kind = "red", limit = "100p" }')
    (note,) = notices(tomllib.loads(text))
    assert note.startswith("field `links[1].queue`: RED measures its queue in bytes")
    assert "50,000 B: about 48 packets of 1040 B" in note
    # What the core does agrees: the queue never holds more than 50,000 B (48 full segments
    # and the arrival that finds it below the limit: ns-2 drops only when it already holds it).
    out = tmp_path / "out"
    assert run_cli("run", str(_write(tmp_path, text)), "-o", str(out), "-q").returncode == 0
    q = pd.read_csv(out / "queues.csv").set_index(["from", "to"]).loc[("r", "b")]
    assert q["drops_red_forced"] + q["drops_red_early"] + q["drops_overflow"] > 0
    assert 45 <= q["max_len_pkts"] <= 49 and q["max_len_bytes"] <= 50_000 + 1040, q[["max_len_pkts", "max_len_bytes"]]
    assert notices(tomllib.loads(_trap('{ kind = "red", limit = "100p", queue_in_bytes = false }'))) == []
    assert notices(tomllib.loads(_trap('{ kind = "red", limit = "64KB" }'))) == []


def test_a_limit_below_one_packet_is_noticed_and_holds_no_data_packet(tmp_path: Path) -> None:
    text = _trap('{ kind = "droptail", limit = "100B" }')
    (note,) = notices(tomllib.loads(text))
    assert note == ("field `links[1].queue.limit`: a limit of 100 B cannot hold one 1040-byte data packet "
                    "of this scenario's flows: every such packet is dropped")
    out = tmp_path / "out"
    assert run_cli("run", str(_write(tmp_path, text)), "-o", str(out), "-q").returncode == 0
    flows = pd.read_csv(out / "flows.csv")
    assert flows.loc[0, "goodput_bps"] == 0 and flows.loc[0, "dropped_pkts"] > 0, "only the 40-byte SYN fits"
    assert notices(tomllib.loads(_trap('{ kind = "droptail", limit = "1040B" }'))) == []
    # Sizes written as bare numbers are bytes: 2000 + 40 B segments overflow a 2000 B queue.
    big = _trap('{ kind = "droptail", limit = "2000B" }').replace('window = 1000', 'window = 1000, packet_size = 2000')
    assert [n.split(": ", 1)[1] for n in notices(tomllib.loads(big))] == [
        "a limit of 2000 B cannot hold one 2040-byte data packet of this scenario's flows: every such packet is dropped"]


def test_a_bare_number_where_a_time_is_expected_is_read_in_seconds(tmp_path: Path) -> None:
    text = _trap(delay="10")
    (note,) = notices(tomllib.loads(text))
    assert note == ('field `links[0].delay`: the bare number 10 is read as 10 s (SI units); write "10s" '
                    'to say so, or give the unit you meant ("10ms")')
    # The core reads it so: nothing crosses a 10 s link within 5 s.
    out = tmp_path / "out"
    p = run_cli("run", str(_write(tmp_path, text)), "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert f"notice: {note}" in p.stdout
    assert pd.read_csv(out / "flows.csv").loc[0, "delivered_pkts"] == 0
    assert "notice" not in run_cli("run", str(tmp_path / "trap.toml"), "-o", str(out), "-q", "--force").stdout
    assert notices(tomllib.loads(_trap(delay="0"))) == [], "zero is zero in any unit"


def test_validate_prints_every_notice_and_still_exits_0(tmp_path: Path) -> None:
    text = _trap('{ kind = "red", limit = "100p" }', delay="0.01", duration="5")
    path = _write(tmp_path, text)
    p = run_cli("validate", str(path))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == f"{path}: ok"
    assert [line.split("`")[1] for line in lines[1:]] == ["duration", "links[0].delay", "links[1].queue"]
    assert all(line.startswith(f"notice: {path}: field `") for line in lines[1:])


# One Reno flow with ns-2's default window (20 packets) on a 10 Mb/s path, 40 ms each way
# (issue 30: "1.9 of 10 Mb/s").
WINDOW = """
name = "window"
duration = "20s"
hosts = ["a", "b"]
routers = ["r"]
[[links]]
between = ["a", "r"]
rate = "100Mb"
delay = "1ms"
[[links]]
between = ["r", "b"]
rate = "10Mb"
delay = "40ms"
queue = { kind = "droptail", limit = "100p" }
[[flows]]
name = "reno"
from = "a"
to = "b"
app = { kind = "bulk" }
transport = { kind = "tcp", variant = "reno"WINDOW }
"""


def test_a_flow_held_by_its_window_is_noticed_and_gets_the_window_law(tmp_path: Path) -> None:
    path = _write(tmp_path, WINDOW.replace("WINDOW", ""))
    p = run_cli("run", str(path), "-o", str(tmp_path / "out"))
    assert p.returncode == 0, p.stderr
    (note,) = [line for line in p.stdout.splitlines() if line.startswith("notice:")]
    # Base RTT: 2 x 41 ms of propagation, a 1040 B segment and a 40 B ACK serialized on each
    # link (0.832 + 0.083 + 0.032 + 0.003 ms): 82.95 ms; 20 x 1000 B per RTT = 1.93 Mb/s against
    # 10 Mb/s x 1000/1040 = 9.62 Mb/s of goodput; filling it takes 9.62 Mb/s x 82.95 ms = 100
    # segments.
    assert note == ("notice: flow `reno`: its window of 20 packets of 1000 B per 83.0 ms round trip allows at most "
                    "1.93 Mb/s of goodput, under half the 9.62 Mb/s its slowest link carries: the window, not the "
                    "network, holds it (ns-2's one-way TCP `window_` is 20 packets unless set); `window = 100` or "
                    "more lets it fill the path"), note
    # The run agrees with the window law: the flow gets the bound (less its slow start), far
    # from the link's rate.
    goodput = pd.read_csv(tmp_path / "out" / "flows.csv").loc[0, "goodput_bps"]
    assert 0.9 * 1.93e6 <= goodput <= 1.93e6, goodput
    assert run_cli("validate", str(path)).stdout.splitlines()[1:] == [f"notice: {path}: {note[len('notice: '):]}"]
    wide = _write(tmp_path, WINDOW.replace("WINDOW", ", window = 100"))
    assert run_cli("validate", str(wide)).stdout.splitlines() == [f"{wide}: ok"]
    # Five such flows fill the link between them (5 x 1.93 Mb/s > half of 10 Mb/s): no notice.
    shared = WINDOW.replace("WINDOW", "").replace('name = "reno"', 'name = "reno{i}"\nrepeat = 5')
    assert run_cli("validate", str(_write(tmp_path, shared))).stdout.splitlines() == [f"{tmp_path / 'trap.toml'}: ok"]

