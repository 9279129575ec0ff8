"""The layers of docs/architecture.md hold: no module imports one above it (issue 31).

The Rust core (crates/nsim-core/src) and the Python package (python/nsim) are each a stack in
which a module may import only modules below it. This test reads every ``crate::...`` and
``super::...`` path of the core and every import of the package (those inside functions and
under ``TYPE_CHECKING`` included) and fails on any that points up, naming the file, the line
and the name. There is no exceptions list: a new module gets a place in the stack below, and
the picture in docs/architecture.md is redrawn with it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterator, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "crates" / "nsim-core" / "src"
PACKAGE = ROOT / "python" / "nsim"

#: The core's top-level modules, lowest first. Within a module its files may import each
#: other; across modules an import must point down this list.
RUST_LAYERS: list[tuple[str, list[str]]] = [
    ("foundation", ["time", "ids", "units", "rng", "error", "packet", "pattern", "probe"]),
    ("engine", ["sched"]),
    ("instrumentation", ["record"]),
    ("models", ["queue", "middlebox", "net", "agent", "app", "tcp", "transport"]),
    ("run", ["results", "sim"]),
    ("assembly", ["config", "steer", "whole_run_tests"]),
]

#: The package's modules, lowest first (dotted, relative to ``nsim``; a subpackage's
#: ``__init__`` is the subpackage's own name).
PYTHON_LAYERS: list[tuple[str, list[str]]] = [
    ("foundation", ["_core", "errors", "units", "textfile", "outdir", "progress", "flow_columns", "notices",
                    "metrics", "analytic"]),
    ("pictures", ["accessor", "topology", "plots", "topology_plot", "sweep_plots"]),
    ("run", ["results", "scenario", "simulation"]),
    ("ns-2 scripts", ["ns2.interp", "ns2.units", "ns2.defaults", "ns2.bound", "ns2.errors", "ns2.agents",
                      "ns2.queues", "ns2.monitors", "ns2.routing", "ns2.model", "ns2.outputs", "ns2.runner", "ns2.simulator", "ns2", "launch"]),
    ("studies", ["sweeps", "report", "scoring", "study", "reproduction_report", "reproduction"]),
    ("command line", ["cli.common", "cli.summary", "cli.run_tcl", "cli.fast_run", "cli.run", "cli.bench",
                      "cli.plot", "cli.report", "cli.reproduce", "cli.schema", "cli.sweep", "cli.validate",
                      "cli.app", "cli", "__main__", ""]),
]


def _ranks(layers: list[tuple[str, list[str]]]) -> dict[str, int]:
    order = [m for _, mods in layers for m in mods]
    assert len(order) == len(set(order)), "a module is in two places of the stack"
    return {m: i for i, m in enumerate(order)}


class Import(NamedTuple):
    file: str
    line: int
    source: str  # the importing module
    target: str  # the imported module
    text: str


# --- Rust -----------------------------------------------------------------------------------

_INLINE_MOD = re.compile(r"\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{")
_PATH = re.compile(r"(?<![\w:])(\$?crate|(?:super::)+)(?:::)?\{?([A-Za-z_][A-Za-z0-9_]*)")


def _root_reexports(lib: str) -> dict[str, str]:
    """Names lib.rs re-exports at the crate root (``crate::build``) -> the module they live in."""
    out = {}
    for m in re.finditer(r"pub use (\w+)::([^;]+);", lib):
        for name in re.findall(r"\w+", m.group(2).split("::")[-1]):
            out[name] = m.group(1)
    return out


def rust_imports(src: Path) -> Iterator[Import]:
    """Every path from one top-level module of the crate at ``src`` into another, outside
    comments: ``crate::m::...``, ``$crate::m::...`` in macros, and ``super::`` chains that
    climb to the crate root."""
    lib = (src / "lib.rs").read_text()
    reexports = _root_reexports(lib)
    for file in sorted(src.rglob("*.rs")):
        rel = file.relative_to(src)
        parts = list(rel.with_suffix("").parts)
        if parts == ["lib"]:
            continue
        module = parts[:-1] if parts[-1] == "mod" else parts
        depth, inline = 0, []  # brace depth; depths at which inline `mod x {` blocks opened
        for no, line in enumerate(file.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            for m in _PATH.finditer(code):
                head, name = m.group(1), m.group(2)
                if "super" in head and head.count("super") < len(module) + len(inline):
                    continue  # stays inside the module
                target = reexports.get(name, name)
                if target != module[0]:
                    yield Import(str(rel), no, module[0], target, code.strip())
            if _INLINE_MOD.match(code):
                inline.append(depth)
            depth += code.count("{") - code.count("}")
            while inline and depth <= inline[-1]:
                inline.pop()


# --- Python ---------------------------------------------------------------------------------

def _module_name(file: Path, package: Path) -> str:
    parts = list(file.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _known(name: str, ranks: dict[str, int]) -> str:
    """The longest prefix of a dotted module path that the stack places (``ns2.interp.X`` ->
    ``ns2.interp``; ``nsim`` itself is ``""``)."""
    while name and name not in ranks:
        name = name.rpartition(".")[0]
    return name


def python_imports(package: Path, ranks: dict[str, int]) -> Iterator[Import]:
    """Every import of a module of ``package`` by another one of its modules."""
    for file in sorted(package.rglob("*.py")):
        source = _module_name(file, package)
        is_package = file.name == "__init__.py"
        here = source.split(".") if source else []
        text = file.read_text()
        tree = ast.parse(text, str(file))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = here if is_package else here[:-1]
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                if node.module:
                    targets.append(".".join(base + node.module.split(".")))
                else:  # from . import x: x may be a module or a name of the package
                    for alias in node.names:
                        sub = ".".join(base + [alias.name])
                        targets.append(sub if _known(sub, ranks) == sub else ".".join(base))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "nsim":
                targets.append(node.module.partition(".")[2])
            elif isinstance(node, ast.Import):
                targets += [a.name.partition(".")[2] for a in node.names if a.name.split(".")[0] == "nsim"]
            for target in targets:
                target = _known(target, ranks)
                if target != source:
                    yield Import(str(file.relative_to(package)), node.lineno, source, target,
                                 ast.get_source_segment(text, node) or "")


# --- the checks -----------------------------------------------------------------------------

def upward(imports: Iterator[Import], ranks: dict[str, int]) -> list[str]:
    """The imports that point up the stack (or name a module the stack does not place)."""
    bad = []
    for imp in imports:
        if imp.source not in ranks:
            bad.append(f"{imp.file}: module `{imp.source}` has no place in the stack")
        elif imp.target not in ranks:
            bad.append(f"{imp.file}:{imp.line}: `{imp.target}` has no place in the stack: {imp.text}")
        elif ranks[imp.target] > ranks[imp.source]:
            bad.append(f"{imp.file}:{imp.line}: {imp.source} imports {imp.target}, which is above it: {imp.text}")
    return bad


def test_core_imports_point_down() -> None:
    bad = upward(rust_imports(CORE), _ranks(RUST_LAYERS))
    assert not bad, "imports up the core's stack (docs/architecture.md):\n" + "\n".join(bad)


def test_package_imports_point_down() -> None:
    ranks = _ranks(PYTHON_LAYERS)
    bad = upward(python_imports(PACKAGE, ranks), ranks)
    assert not bad, "imports up the package's stack (docs/architecture.md):\n" + "\n".join(bad)


def test_every_module_has_a_place() -> None:
    rust = _ranks(RUST_LAYERS)
    declared = re.findall(r"^(?:pub )?mod (\w+);", (CORE / "lib.rs").read_text(), re.M)
    assert sorted(declared) == sorted(rust), "lib.rs's modules and the stack differ"
    python = _ranks(PYTHON_LAYERS)
    modules = {_module_name(f, PACKAGE) for f in PACKAGE.rglob("*.py")} | {"_core"}  # _core: the extension
    assert modules == set(python), f"not placed: {sorted(modules - set(python))}; gone: {sorted(set(python) - modules)}"


def test_the_stack_is_drawn_as_checked() -> None:
    """docs/architecture.md names every layer and module of both stacks, in this order."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    for layers in (RUST_LAYERS, PYTHON_LAYERS):
        at = 0
        for _, modules in layers:
            for m in modules:
                name = f"`{m or 'nsim'}`"
                found = doc.find(name, at)
                assert found >= 0, f"docs/architecture.md does not list {name} after the modules below it"
                at = found


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    """The checks see a planted upward path, in code, in a ``super::`` chain and in Python."""
    src = tmp_path / "src"
    (src / "queue").mkdir(parents=True)
    (src / "lib.rs").write_text("pub mod queue;\npub mod config;\npub use config::build::{build, RunOptions};\n")
    (src / "queue" / "mod.rs").write_text("// crate::config in a comment is fine\nuse crate::time::SimTime;\n")
    (src / "queue" / "red.rs").write_text("use super::super::config::X;\nfn f() { crate::build(); }\n")
    ranks = {"time": 0, "queue": 1, "config": 2}
    bad = upward(rust_imports(src), ranks)
    assert [b.split(":")[:2] for b in bad] == [["queue/red.rs", "1"], ["queue/red.rs", "2"]], bad
    pkg = tmp_path / "nsim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from .high import g\n")
    (pkg / "high.py").write_text("from . import low\n")
    ranks = {"": 2, "low": 0, "high": 1}
    assert [b.split(":")[:2] for b in upward(python_imports(pkg, ranks), ranks)] == [["low.py", "2"]]
