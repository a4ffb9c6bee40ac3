#!/usr/bin/env bash
# Set up, then grade the bundled sample class as a TA would.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/autograder grade samples --out out/sample-run
echo "Report: $(pwd)/out/sample-run/report.html"
echo "Grades: $(pwd)/out/sample-run/grades.csv; student feedback in out/sample-run/feedback/"
echo "Your own class: source .venv/bin/activate, then: autograder grade SUBMISSIONS --out DIR"
