# Shared set-up for the replays of what users did on fresh machines. Source it; every ensure_* is
# idempotent (a stamp per step). Everything is made under $W (default /tmp/autograder-replays);
# nothing outside it is touched. REPO is the checkout whose last commit is cloned and replayed
# (default: the one holding these scripts).
set -u
REPLAYS=${REPLAYS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
REPO=${REPO:-$(cd "$REPLAYS/../../.." && pwd)}
W=${REPLAY_WORK:-/tmp/autograder-replays}
CLONE=$W/ta
AG=$CLONE/.venv/bin/autograder
APY=$CLONE/.venv/bin/python
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
            "$APY" "$REPLAYS/lib/subs.py" self_attention $k "$L1/self_attention_lab.py" "$SUBS/l1_$k.py"
            "$APY" "$REPLAYS/lib/subs.py" self_attention $k "$L1/self_attention_lab.ipynb" "$SUBS/l1_$k.ipynb"
        done
        for k in correct wrong_mask stub; do
            "$APY" "$REPLAYS/lib/subs.py" masked_attention $k "$L2/masked_attention_lab.py" "$SUBS/l2_$k.py"
        done
        touch "$SUBS/.done"
    fi
}

# autograder build for each lab (the instructor's step), as the README writes it.
ensure_build() {
    ensure_clone
    if [ ! -f "$W/dist1/autograder/self_attention_lab-autograder.zip" ]; then
        (cd "$CLONE" && "$AG" build --lab self_attention --out "$W/dist1") > "$W/build1.log" 2>&1 || { cat "$W/build1.log"; exit 2; }
    fi
    if [ ! -f "$W/dist2/autograder/masked_attention_lab-autograder.zip" ]; then
        (cd "$CLONE" && "$AG" build --lab masked_attention --out "$W/dist2") > "$W/build2.log" 2>&1 || { cat "$W/build2.log"; exit 2; }
    fi
}

# A student's fresh venv of Python VER with `pip install -r requirements.txt` from the student half only.
ensure_student_venv() {
    local ver=$1 v=$W/venv-$1
    ensure_build
    if [ ! -f "$v/.done" ]; then
        rm -rf "$v"
        /root/.pyenv/versions/$ver/bin/python -m venv "$v"
        (cd "$W/dist1/student" && "$v/bin/pip" install -r requirements.txt) > "$W/pip-$ver.log" 2>&1 && touch "$v/.done"
    fi
}

# Gradescope's image, emulated: a venv of Python 3.10 WITHOUT pip as the image's python3, the zip
# unpacked at $AUTOGRADER_ROOT/source, its setup.sh run there as root (README/docs/OTTER.md).
# gs_image NAME ZIP [PYVER]: prints the image folder.
gs_image() {
    local name=$1 zip=$2 ver=${3:-3.10.13} img=$W/gs-$1
    if [ ! -f "$img/.done" ]; then
        rm -rf "$img"; mkdir -p "$img/root/submission" "$img/root/results" "$img/root/source"
        /root/.pyenv/versions/$ver/bin/python -m venv --without-pip "$img/py"
        (cd "$img/root/source" && unzip -q "$zip")
        (export PATH=$img/py/bin:$PATH AUTOGRADER_ROOT=$img/root; cd "$img/root/source" && bash setup.sh) > "$img/setup.log" 2>&1 \
            && touch "$img/.done"
    fi
    echo "$img"
}

# gs_grade IMG FILE...: a submission as Gradescope lays it out, run_autograder as root in /autograder/submission.
gs_grade() {
    local img=$1 f; shift
    rm -rf "$img/root/submission" "$img/root/results"; mkdir -p "$img/root/submission" "$img/root/results"
    for f in "$@"; do cp "$f" "$img/root/submission/"; done
    (export PATH=$img/py/bin:$PATH AUTOGRADER_ROOT=$img/root; cd "$img/root/submission" && bash "$img/root/source/run_autograder")
}
