"""Run every attack of this folder (the tenth round: links into the grader's own files through
`check` and pytest, `check --html` over its input or a run's outputs through a link, runs ended by a
signal and what `export` reads after them) through the face it targets; print HELD or BROKE.

    .venv/bin/python tests/corpora/attacks10/run_all.py            # all
    .venv/bin/python tests/corpora/attacks10/run_all.py 01 08      # those whose file name starts so
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from attack_rounds import replay_by_hand  # noqa: E402  (tests/attack_rounds.py: one loader for every round)

if __name__ == "__main__":
    sys.exit(replay_by_hand(pathlib.Path(__file__).resolve().parent.name, sys.argv[1:]))
