#!/usr/bin/env bash
# Create .venv (once) and install the grader, editable, with what its tests and Otter need.
# Installs again only when pyproject.toml changes (the stamp file records which one was installed).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ] || ! .venv/bin/python -c "import autograder, numpy, pandas, otter" 2>/dev/null; then
    echo "Installing into .venv (first run: about a minute) ..."
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip 2>&1 \
        | grep -v "^WARNING: Location" || true
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test,otter]" 2>&1 \
        | grep -v "^WARNING: Location" || true
    .venv/bin/python -c "import autograder, numpy, pandas, otter"
    rm -f .venv/.installed-*
    touch "$stamp"
fi
