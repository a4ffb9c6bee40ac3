"""Run every attack of this folder through the face it targets; print HELD or BROKE with evidence.

    .venv/bin/python tests/corpora/attacks3/run_all.py            # all
    .venv/bin/python tests/corpora/attacks3/run_all.py 01 15      # those whose file name starts so
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from attack_rounds import replay_by_hand  # noqa: E402  (tests/attack_rounds.py: one loader for every round)

if __name__ == "__main__":
    sys.exit(replay_by_hand(pathlib.Path(__file__).resolve().parent.name, sys.argv[1:]))
