#!/usr/bin/env bash
# Build the documentation site (mkdocs.yml, docs/) and serve it at http://127.0.0.1:8000/,
# rebuilding on every save. --build-only: build into site/ with --strict (every warning is an
# error, as in the tests) and stop. The pictures are made from the bundled samples with headless
# chromium (apt-get install chromium fonts-noto-cjk); other arguments go to mkdocs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NO_MKDOCS_2_WARNING=1
if [ "${1:-}" = --build-only ]; then
    shift
    exec .venv/bin/python -m mkdocs build --strict --site-dir site "$@"
fi
exec .venv/bin/python -m mkdocs serve "$@"
