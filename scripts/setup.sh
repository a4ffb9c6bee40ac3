#!/usr/bin/env bash
# Create .venv and install the grader into it, editable, with what its tests, Otter and the docs site need.
#
# The Python: $PYTHON when set, else the first of python3, python3.13 ... python3.10 that is 3.10
# or newer. A .venv made by another Python (an older one, another install), or broken, is made
# again. Installs again only when pyproject.toml or the Python changes (the stamp records both).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "scripts/setup.sh: $*"; }

# "<version> <real path of the interpreter>" of a Python, or nothing when it does not run.
IDENTITY='import os, sys; print("%d.%d.%d" % sys.version_info[:3], os.path.realpath(getattr(sys, "_base_executable", sys.executable)))'
identity() { "$1" -c "$IDENTITY" 2>/dev/null || true; }

choose_python() {
    local candidate
    for candidate in ${PYTHON:-} python3 python3.13 python3.12 python3.11 python3.10; do
        if command -v "$candidate" >/dev/null 2>&1 \
                && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

if ! python=$(choose_python); then
    say "needs Python 3.10 or newer; found $(python3 --version 2>&1 || echo 'no python3')." >&2
    say "Install one (e.g. sudo apt-get install python3), or name it: PYTHON=/path/to/python3.12 bash $0" >&2
    exit 1
fi
wanted=$(identity "$python")

if [ -e .venv ]; then
    found=$(identity .venv/bin/python)
    if [ -z "$found" ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
        say ".venv is broken (its python or its pip does not run); making it again with Python ${wanted%% *}"
        rm -rf .venv
    elif [ "$found" != "$wanted" ]; then
        say ".venv was made by Python ${found%% *} (${found#* }); making it again with Python ${wanted%% *} (${wanted#* })"
        rm -rf .venv
    fi
fi
if [ ! -e .venv ]; then
    if ! "$python" -m venv .venv; then
        rm -rf .venv
        say "cannot make .venv with $python (on Debian and Ubuntu: sudo apt-get install python3-venv)" >&2
        exit 1
    fi
fi

stamp=".venv/.installed-$( (cat pyproject.toml; echo "$wanted") | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || ! .venv/bin/python -c "import autograder, numpy, pandas, otter, mkdocs, material, mkdocstrings" 2>/dev/null; then
    say "installing into .venv with Python ${wanted%% *} (first run: about a minute) ..."
    # Quiet: no pip notices, no setuptools banner about editable installs (its warnings).
    export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS=ignore
    .venv/bin/python -m pip install --quiet --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
    .venv/bin/python -m pip install --quiet -e ".[test,otter,docs]" 2>&1 | grep -v "^WARNING: Location" || true
    if ! .venv/bin/python -c "import autograder, numpy, pandas, otter, mkdocs, material, mkdocstrings"; then
        say "the install did not finish: run  .venv/bin/python -m pip install -e '.[test,otter,docs]'  to see why" >&2
        exit 1
    fi
    rm -f .venv/.installed-*
    touch "$stamp"
fi
