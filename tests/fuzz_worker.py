"""Runs fuzz cases in one child process and prints one JSON outcome per case (test_fuzz.py).

Each case is either a scenario file for the CLI (``nsim validate`` then, if valid, a short
``nsim run``) or a scenario dict for the Python builder (``validate()`` then a short
``run()``). The process limits its address space (RLIMIT_AS) so a runaway allocation shows
up as a crash, not a swapping machine, and each case has an alarm-based timeout.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import tempfile

#: Address-space limit of this process. Python + the extension + pandas use ~1 GB of
#: address space before a case runs; a case may take 2 GB more.
AS_LIMIT = 3 << 30
#: Seconds one case may take (generous: the machine may be loaded; a hang never ends).
CASE_TIMEOUT_S = 60
#: Simulated time of the short runs of valid cases.
RUN_UNTIL = "0.2s"


class CaseTimeout(Exception):
    """Raised by the alarm when a case takes longer than CASE_TIMEOUT_S."""


def _alarm(signum: int, frame: object) -> None:
    raise CaseTimeout()


def cli_case(path: str, out: str) -> dict[str, object]:
    """``nsim validate PATH`` and, if valid, ``nsim run PATH --until 0.2s``."""
    from click.testing import CliRunner

    from nsim.cli import main

    runner = CliRunner()
    outcome: dict[str, object] = {}
    for step, args in (("validate", ["validate", path]), ("run", ["run", path, "-q", "--until", RUN_UNTIL, "-o", out])):
        r = runner.invoke(main, args)
        err = r.stderr
        if isinstance(r.exception, CaseTimeout):
            raise r.exception
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            return {"kind": "traceback", "step": step, "error": f"{type(r.exception).__name__}: {r.exception}"}
        if r.exit_code == 2:
            lines = [l for l in err.splitlines() if l.strip()]
            one_line = len(lines) == 1 and lines[0].startswith("error: ") and path in lines[0]
            return {"kind": "rejected", "step": step, "clear": one_line, "error": err.strip()[:300]}
        if r.exit_code != 0:
            return {"kind": "failed", "step": step, "error": f"exit {r.exit_code}: {err.strip()[:300]}"}
        outcome = {"kind": "ok"}
    return outcome


def _decoded(node: object) -> object:
    """Undoes test_fuzz._encodable: tagged strings back to NaN, infinity and a bare object."""
    if isinstance(node, dict):
        return {k: _decoded(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_decoded(v) for v in node]
    return {"__nan__": float("nan"), "__inf__": float("inf"), "__object__": object()}.get(node, node) \
        if isinstance(node, str) else node


def builder_case(config: dict[str, object]) -> dict[str, object]:
    """``Scenario.from_dict(config).validate()`` and, if valid, ``run(until=0.2s)``."""
    import nsim

    sc = nsim.Scenario.from_dict(_decoded(config), source="<fuzz>")  # type: ignore[arg-type]
    try:
        sc.validate()
        sc.run(until=RUN_UNTIL)
    except nsim.ScenarioError as e:
        return {"kind": "rejected", "step": "builder", "clear": str(e).startswith("<fuzz>"), "error": str(e)[:300]}
    except CaseTimeout:
        raise
    except Exception as e:  # anything else is a bug
        return {"kind": "traceback", "step": "builder", "error": f"{type(e).__name__}: {e}"}
    return {"kind": "ok"}


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
    signal.signal(signal.SIGALRM, _alarm)
    cases = json.load(open(sys.argv[1], encoding="utf-8"))
    out = tempfile.mkdtemp(prefix="nsim-fuzz-")
    import matplotlib  # noqa: F401  (imports outside the per-case timeout)
    import pandas  # noqa: F401

    import nsim.cli  # noqa: F401
    for case in cases:
        signal.alarm(CASE_TIMEOUT_S)
        try:
            if case["kind"] == "cli":
                res = cli_case(case["path"], os.path.join(out, str(case["id"])))
            else:
                res = builder_case(case["config"])
        except CaseTimeout:
            res = {"kind": "hang", "step": case["kind"]}
        except MemoryError:
            res = {"kind": "memory", "step": case["kind"]}
        except BaseException as e:  # pyo3's PanicException is a BaseException
            res = {"kind": "panic" if "Panic" in type(e).__name__ else "traceback", "step": case["kind"],
                   "error": f"{type(e).__name__}: {e}"[:300]}
        finally:
            signal.alarm(0)
        print(json.dumps({"id": case["id"], "op": case["op"], "source": case["source"], **res}), flush=True)


if __name__ == "__main__":
    main()
