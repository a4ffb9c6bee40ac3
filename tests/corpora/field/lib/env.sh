# Shared set-up for the field replays. Source it; every ensure_* is idempotent (a stamp per step).
# Everything is made under $W (default /tmp/field-work); nothing outside it is touched.
#
#   FIELD       this folder (tests/corpora/field)                     default: found from this file
#   REPO        the checkout to test                          default: the repository holding it
#   FIELD_WORK  scratch folder                                default: /tmp/field-work
#   FIELD_CLONE the TA's checkout with its .venv              default: $FIELD_WORK/ta, a fresh clone of
#               $REPO set up by scripts/demo.sh; give $REPO itself to test the working tree as it is
#   FIELD_PYTHON, FIELD_AUTOGRADER  the python and autograder of that checkout (default: its .venv)
set -u
export FIELD REPO FIELD_WORK
FIELD=${FIELD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
REPO=${REPO:-$(cd "$FIELD/../../.." && pwd)}
W=${FIELD_WORK:-/tmp/field-work}
CLONE=${FIELD_CLONE:-$W/ta}
AG=${FIELD_AUTOGRADER:-$CLONE/.venv/bin/autograder}
APY=${FIELD_PYTHON:-$CLONE/.venv/bin/python}
SUBS=$W/subs
mkdir -p "$W"

say() { echo "  | $*"; }
verdict() {  # verdict HELD|BROKE "one line why"
    echo "RESULT: $1 — $2"
    [ "$1" = HELD ] && exit 0 || exit 1
}

# A TA's clone after the README's quick start (bash scripts/demo.sh).
ensure_clone() {
    if [ ! -x "$AG" ]; then
        rm -rf "$CLONE"
        git clone -q "$REPO" "$CLONE"
        (cd "$CLONE" && bash scripts/demo.sh) > "$W/demo.log" 2>&1 || { echo "demo.sh failed"; cat "$W/demo.log"; exit 2; }
    fi
}

# Submissions written as students write them (our own bodies, not the project's fill.py).
ensure_subs() {
    ensure_clone
    if [ ! -f "$SUBS/.done" ]; then
        mkdir -p "$SUBS"
        local L1=$CLONE/assignments/self_attention L2=$CLONE/assignments/masked_attention
        for k in correct wrong_softmax stub syntax; do
            "$APY" "$FIELD/lib/subs.py" self_attention $k "$L1/self_attention_lab.py" "$SUBS/l1_$k.py"
            "$APY" "$FIELD/lib/subs.py" self_attention $k "$L1/self_attention_lab.ipynb" "$SUBS/l1_$k.ipynb"
        done
        for k in correct wrong_mask stub; do
            "$APY" "$FIELD/lib/subs.py" masked_attention $k "$L2/masked_attention_lab.py" "$SUBS/l2_$k.py"
        done
        touch "$SUBS/.done"
    fi
}

# autograder build of lab 1 (the instructor's step), as the README writes it.
ensure_build() {
    ensure_clone
    if [ ! -f "$W/dist1/autograder/self_attention_lab-autograder.zip" ]; then
        (cd "$CLONE" && "$AG" build --lab self_attention --out "$W/dist1") > "$W/build1.log" 2>&1 || { cat "$W/build1.log"; exit 2; }
    fi
}

# readme_commands PATTERN: the command lines (continuations joined) of the README and the documentation
# pages (docs/**/*.md) that start with PATTERN.
readme_commands() {
    "$APY" - "$CLONE" "$1" <<'PY'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
text = "\n".join(page.read_text("utf-8") for page in pages)
for block in re.findall(r"```bash\n(.*?)```", text, re.S):
    for line in block.replace("\\\n", " ").splitlines():
        command = re.sub(r"\s+#.*$", "", line).strip()
        if command.startswith(sys.argv[2]):
            print(command)
PY
}
