#!/usr/bin/env bash
# Set up, then grade the bundled sample class as a TA would.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/autograder grade samples --out sample-run
echo "Report: $(pwd)/sample-run/report.html"
echo "Grades: $(pwd)/sample-run/grades.csv; student feedback in sample-run/feedback/"
echo "Your own class: source .venv/bin/activate, then: autograder grade SUBMISSIONS --out DIR"
