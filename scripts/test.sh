#!/usr/bin/env bash
# The whole test suite: Rust unit + integration tests, then the Python suite (which builds the
# extension through uv/maturin from the lock files). Extra pytest arguments pass through.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v uv >/dev/null 2>&1; then UV=uv; else python3 -m pip install -q uv && UV="python3 -m uv"; fi
bash scripts/test-tools.sh
# The Rust code is kept as `cargo fmt` writes it (rustfmt.toml); rustfmt ships with rustup's
# default profile, and a toolchain without it skips the check with a notice.
if cargo fmt --version >/dev/null 2>&1; then cargo fmt --check; else echo "test.sh: rustfmt not installed, format check skipped" >&2; fi
cargo test --locked -p nsim-core
# uv shows the extension's build (cargo's "Compiling ..." lines: minutes on a fresh clone) only
# as debug output of its build front end; without this the whole build reads "Building nsim".
RUST_LOG="${RUST_LOG:-uv_build_frontend=debug}" $UV sync --locked
# pytest-xdist spreads the tests over the cores (-n auto: one worker per core; about 5 minutes
# instead of 9 on 2 cores); a later -n among the arguments overrides it, -n 0 runs them in one process.
$UV run --locked pytest -n auto "$@"
