"""Honest students keep every point on a machine kept busy: the grader and its children share one
CPU with processes that spin, each in a session of its own (so the scheduler gives each as much of
the CPU as the grader's whole session), under a short time limit. Without moving each deadline by
the time the kernel kept the child waiting for the CPU (child_pipes.machine_wait), two honest
files of three lost points here; the time a step is charged is what its child ran or chose to
wait, never what the machine made it wait.
"""
import csv
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

SPINNERS = 12
SECONDS = "0.5"
SPIN = "import os\nos.setsid()\nwhile True:\n    pass\n"


def one_cpu():
    cpu = min(os.sched_getaffinity(0))
    return lambda: os.sched_setaffinity(0, {cpu})


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CPU affinity and schedstat are Linux's")
def test_honest_students_keep_every_point_on_a_cpu_shared_with_spinning_processes(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for number in range(3):
        shutil.copy(ROOT / "solutions" / "self_attention.py", folder / f"s{number}.py")
    pinned = one_cpu()
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN], preexec_fn=pinned) for _ in range(SPINNERS)]
    try:
        done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(folder), "--out", str(tmp_path / "out"),
                               "--lab", "self_attention", "--jobs", "1", "--timeout", SECONDS],
                              capture_output=True, text=True, timeout=600, cwd=ROOT, preexec_fn=pinned)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert done.returncode == 0, done.stderr[-3000:]
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert {sid: (row["total"], row["status"]) for sid, row in rows.items()} == \
        {f"s{number}": ("10.0", "graded") for number in range(3)}
