#!/usr/bin/env bash
# Set up, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# -m "": every test, the slow, install and browser ones too (a plain `pytest` leaves those out);
# in one process per core (pytest-xdist), each test file in one process, so its module fixtures are
# made once, taken in the order tests/conftest.py collects them (the longest first), not xdist's
# order by how many tests a file holds; the 60 slowest tests are listed at the end.
exec .venv/bin/python -m pytest -q -m "" -n auto --dist loadfile --no-loadscope-reorder --durations=60 "$@"
