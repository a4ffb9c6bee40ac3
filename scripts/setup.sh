#!/usr/bin/env bash
# Create .venv (once) and install the grader with everything its tests and Otter need.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test,otter]" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import autograder, numpy, pandas, otter" 
