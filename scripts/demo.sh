#!/usr/bin/env bash
# Set up, then grade the bundled sample submissions as a TA would.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
for submission in samples/*; do
    .venv/bin/autograder check "$submission" || true
done
