"""How `autograder check` starts: its zygote first, then its own modules; no teardown at the end."""
import json
import os
import subprocess
import sys

import installed
from conftest import ROOT

REFERENCE = ROOT / "solutions" / "self_attention.py"

SPY = """
import os, sys
import autograder.sandbox.launch as launch

real = launch.start_zygote


def spy(*args):
    loaded = sorted(name for name in ("numpy", "pandas", "solutions", "autograder.grading") if name in sys.modules)
    print("LOADED", loaded, "BLAS", os.environ.get("OPENBLAS_NUM_THREADS"), file=sys.stderr)
    return real(*args)


launch.start_zygote = spy
from autograder.cli import script

sys.argv = ["autograder", "check", sys.argv[1], "--json"]
script()
"""


def test_the_zygote_starts_before_the_check_loads_numpy_pandas_or_the_reference():
    environment = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", SPY, str(REFERENCE)], capture_output=True, text=True,
                          timeout=120, env=environment)
    assert "LOADED [] BLAS 1" in done.stderr, done.stderr
    assert done.returncode == 0 and json.loads(done.stdout)["score"] == 10


def test_main_called_in_a_program_returns_its_code_instead_of_ending_the_program(capsys):
    from autograder.cli import main

    assert main(["check", str(REFERENCE), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 10


def test_the_command_prints_everything_before_it_ends(tmp_path):
    """It ends without tearing down the interpreter: the verdict must be flushed first."""
    wrong = REFERENCE.read_text(encoding="utf-8").replace("return Q @ K.T", "return Q @ K")
    submission = tmp_path / "attention.py"
    submission.write_text(wrong, encoding="utf-8")
    done = subprocess.run([installed.script("autograder"), "check", str(submission), "--json", "--lang", "en"], capture_output=True,
                          text=True, timeout=120)
    result = json.loads(done.stdout)
    assert done.returncode == 1 and result["score"] < result["max_score"]
