"""How `autograder check` starts: its zygote first, then its own modules; no teardown at the end."""
import json
import os
import subprocess
import sys
import time

import installed
from conftest import ROOT

REFERENCE = ROOT / "solutions" / "self_attention.py"

SPY = """
import os, sys
import autograder.sandbox.launch as launch

real = launch.start_zygote


def spy(*args, **keywords):
    loaded = sorted(name for name in ("numpy", "pandas", "solutions", "autograder.grading") if name in sys.modules)
    print("LOADED", loaded, "BLAS", os.environ.get("OPENBLAS_NUM_THREADS"), file=sys.stderr)
    print("EXERCISED", keywords.get("exercised", True), file=sys.stderr)
    return real(*args, **keywords)


launch.start_zygote = spy
sys.argv = ["autograder", "check", sys.argv[1], "--json"]
from autograder.entry import script

script()
"""


def test_the_zygote_starts_before_the_check_loads_numpy_pandas_or_the_reference():
    environment = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", SPY, str(REFERENCE)], capture_output=True, text=True,
                          timeout=120, env=environment)
    assert "LOADED [] BLAS" in done.stderr, done.stderr
    assert done.stderr.count("LOADED") == 1, done.stderr  # the zygote started ahead is the one used
    assert "EXERCISED False" in done.stderr  # a check's few children would only wait for it
    assert done.returncode == 0 and json.loads(done.stdout)["score"] == 10


def test_a_zygote_started_ahead_for_a_check_that_is_refused_ends_with_the_command(tmp_path):
    """`check` of a file that is not there is refused after its zygote started: nothing of it stays."""
    process = subprocess.Popen([sys.executable, "-m", "autograder", "check", str(tmp_path / "absent.py")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    _, error = process.communicate(timeout=120)
    assert process.returncode != 0 and b"absent.py" in error
    deadline = time.monotonic() + 60
    while _in_session(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _in_session(process.pid)


def _in_session(session: int) -> list[str]:
    listed = subprocess.run(["ps", "-e", "-o", "sid=,pid=,args="], capture_output=True, text=True).stdout
    return [line for line in listed.splitlines() if line.split()[0] == str(session)]


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


def test_the_zygote_reads_the_word_its_launcher_writes_for_a_check():
    """launch.py writes the zygote's argument itself (it must not load the zygote's numpy)."""
    from autograder.sandbox import launch, zygote

    assert launch.UNEXERCISED == zygote.UNEXERCISED
