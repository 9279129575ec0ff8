"""Notices: valid scenarios that probably do not say what their author meant (issue 30's
"silent ns-2 traps", issue 29 item 11). Not errors: ns-2 reads them the same way, so nsim
runs them as written, and ``nsim run`` and ``nsim validate`` say what they mean:

- RED measuring its queue in bytes (``queue_in_bytes``, ns-2.35's default) with a limit in
  packets: ns-2's ``qlim`` makes it limit × ``mean_pktsize`` bytes (500 B by default), so
  ``limit = "100p"`` holds about 48 packets of 1040 B;
- a queue limit in bytes below one data packet of the scenario's flows (``"100B"``): the
  queue can never hold such a packet;
- a bare number where a time is expected (``delay = 10``): read in seconds (SI), 10 s.

The places are found by walking the scenario document along the JSON Schema the core exports
(the one definition of a scenario), so every table that takes a time, a queue or a limit is
covered, nested ones included. The notice that needs routes, a TCP flow held by its `window`,
comes from the core (``_core.notices``, ``crates/nsim-core/src/config/window_notice.rs``).
"""

from __future__ import annotations

# `nsim run` imports this after a run: neither `typing` nor `json` (docs/performance.md).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

# Data packet size of each transport: payload key, its default, header key, its default (the
# defaults of docs/scenario-reference.md; `udp` packets are the application's `size`).
_PACKET = {
    "tcp": ("packet_size", 1000, "header_size", 40),
    "tcp_full": ("mss", 536, "header_size", 40),
    "tfrc": ("packet_size", 1000, "header_size", 32),
    "stp": ("packet_size", 1000, "header_size", 40),
}
_UDP_APP_SIZE = {"cbr": 210, "poisson": 210, "onoff": 210, "video": 1000}


def _schema() -> dict[str, Any]:
    from . import _core

    return _core.json_schema_object()


def _walk(value: Any, schema: dict[str, Any], defs: dict[str, Any], path: str) -> Iterator[tuple[str, str, Any]]:
    """(path, definition name, value) for every value of `value` that the schema gives a named
    definition (`$ref`), following objects, arrays and the branch of a union that fits."""
    ref = schema.get("$ref")
    if ref:
        name = ref.rsplit("/", 1)[-1]
        yield path, name, value
        yield from _walk(value, defs[name], defs, path)
        return
    for key in ("anyOf", "oneOf"):
        if key in schema:
            for branch in schema[key]:
                if _fits(value, branch, defs):
                    yield from _walk(value, branch, defs, path)
                    return
            return
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from _walk(v, sub, defs, f"{path}.{k}" if path else k)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(value):
            yield from _walk(v, schema["items"], defs, f"{path}[{i}]")


def _fits(value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> bool:
    """Whether `value` can be of this union branch: its type, and for tagged tables the tag."""
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema or "oneOf" in schema:
        return any(_fits(value, b, defs) for b in schema.get("anyOf", schema.get("oneOf", [])))
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else types
    kinds = {"null": value is None, "object": isinstance(value, dict), "array": isinstance(value, list),
             "string": isinstance(value, str), "boolean": isinstance(value, bool),
             "number": isinstance(value, (int, float)) and not isinstance(value, bool),
             "integer": isinstance(value, int) and not isinstance(value, bool)}
    if types and not any(kinds.get(t, False) for t in types):
        return False
    if "const" in schema:
        return value == schema["const"]
    if "enum" in schema:
        return value in schema["enum"]
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for tag, sub in props.items():
            if ("const" in sub or "enum" in sub) and tag in value and not _fits(value[tag], sub, defs):
                return False
        if schema.get("additionalProperties") is False and not set(value) <= set(props):
            return False
    return True


def _bytes(text: Any, kind: str) -> Any:
    """`_core.parse_quantity(kind, text)`, or None where the core rejects it."""
    from . import _core

    try:
        return _core.parse_quantity(kind, str(text))
    except ValueError:  # a value the core rejects is an error, reported by validation
        return None


def _limit(value: Any) -> tuple[float, str] | None:
    """A queue limit as (amount, "packets" or "bytes"); a bare number counts packets."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value), "packets"
    return _bytes(value, "limit")


def _size(value: Any, default: int) -> int:
    """A size in bytes: a number (SI: bytes) or a string with its unit; `default` if unset."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    parsed = None if value is None else _bytes(value, "size")
    return int(parsed if isinstance(parsed, (int, float)) else default)


def _largest_packet(doc: dict[str, Any]) -> int | None:
    """The largest data packet (bytes on the wire) the scenario's flows send, if known."""
    sizes = []
    for f in doc.get("flows", []) or []:
        if not isinstance(f, dict):
            continue
        transport = f.get("transport") or {"kind": "udp"}
        app = f.get("app") or {}
        kind = transport.get("kind", "udp") if isinstance(transport, dict) else "udp"
        if kind in _PACKET:
            pay, pay_default, hdr, hdr_default = _PACKET[kind]
            sizes.append(_size(transport.get(pay), pay_default) + _size(transport.get(hdr), hdr_default))
        elif isinstance(app, dict) and app.get("kind") in _UDP_APP_SIZE:
            key = "packet_size" if app["kind"] == "video" else "size"
            sizes.append(_size(app.get(key), _UDP_APP_SIZE[app["kind"]]))
    return max(sizes) if sizes else None


def _red(path: str, q: dict[str, Any], packet: int | None) -> str | None:
    if q.get("queue_in_bytes", True) is not True:
        return None
    parsed = _limit(q.get("limit", "50p"))
    if parsed is None or parsed[1] != "packets":
        return None
    n, mean = int(parsed[0]), _size(q.get("mean_pktsize"), 500)
    limit = n * mean
    held = f": about {limit // packet} packets of {packet} B" if packet else ""
    return (f"field `{path}`: RED measures its queue in bytes (`queue_in_bytes`, ns-2.35's default), so "
            f"limit = {n} packets means {n} × mean_pktsize {mean} B = {limit:,} B{held}. "
            f"Set `queue_in_bytes = false` to count packets, or give the limit in bytes")


def notices(doc: dict[str, Any]) -> list[str]:
    """The notices for a scenario document (the parsed TOML or builder dict), in the order of
    its keys. Each names the field, says how nsim reads it and how to say otherwise."""
    schema = _schema()
    defs = schema["$defs"]
    packet = _largest_packet(doc)
    out = []
    for path, name, value in _walk(doc, schema, defs, ""):
        if name == "TimeSpec" and isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0:
            out.append(f"field `{path}`: the bare number {value} is read as {value} s (SI units); "
                       f'write "{value}s" to say so, or give the unit you meant ("{value}ms")')
        elif name == "LimitSpec" and packet is not None:
            parsed = _limit(value)
            if parsed is not None and parsed[1] == "bytes" and parsed[0] < packet:
                out.append(f"field `{path}`: a limit of {int(parsed[0])} B cannot hold one {packet}-byte data "
                           f"packet of this scenario's flows: every such packet is dropped")
        elif name == "QueueSpec" and isinstance(value, dict) and value.get("kind") == "red":
            note = _red(path, value, packet)
            if note:
                out.append(note)
    return out
