#!/usr/bin/env bash
# The whole test suite: Rust unit + integration tests, then the Python suite (which builds the
# extension through uv/maturin from the lock files). Long validation runs are marked `slow`
# and excluded here; run them with `uv run pytest -m slow`.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v uv >/dev/null 2>&1 || python3 -m pip install -q uv
cargo test --locked -p nsim-core
uv sync --locked
uv run --locked pytest -m "not slow" "$@"
