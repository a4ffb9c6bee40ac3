"""Hostile submissions (tests/corpora/hostile/) cost at most the steps they touch, and nobody else's grade.

Each file's expectations live in tests/corpora/hostile/EXPECTED.json, shared with the batch and Otter tests.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from autograder.grading import grade_bytes, grade_file
from autograder.core.render.feedback import as_dict
from autograder.sandbox import landlock
from autograder.sandbox.processes import _pids_of
from autograder.sandbox.runner import Limits, Zygote
from labs.self_attention.steps import STEPS
from conftest import CORPORA, ROOT
from test_saved_results import check_rewritten_equal_fresh
from labs.self_attention import LAB

HOSTILE = CORPORA / "hostile"
EXPECTED = json.loads((HOSTILE / "EXPECTED.json").read_text(encoding="utf-8"))["files"]
LIMITS = Limits(step_seconds=3.0, load_seconds=3.0)
ISOLATED = os.geteuid() == 0 or landlock.abi_version() > 0
HONEST = [ROOT / "solutions" / "self_attention.py", ROOT / "samples" / "kimminsu_10231_55001_attention.py",
          ROOT / "samples" / "leejiwon_10232_55002_attention.ipynb"]
FAKE_MARK = "autograder-hostile-fake"


def unavailable(name):
    """Why this grader cannot give the protection a file's expectations rely on (None: it can)."""
    needs = EXPECTED[name].get("needs", [])
    if "isolation" in needs and not ISOLATED:
        return "holds only with the sandbox's isolation (root or Landlock)"
    if "root" in needs and os.geteuid() != 0:
        return "holds only when the grader runs as root"
    return None


def needs_protection(name):
    return pytest.mark.skipif(unavailable(name) is not None, reason=str(unavailable(name)))


def test_every_hostile_file_has_expectations_and_every_expectation_a_file():
    files = {p.name for p in HOSTILE.iterdir() if p.suffix in (".py", ".ipynb")}
    assert files == set(EXPECTED)
    names = {step.name for step in STEPS}
    for entry in EXPECTED.values():
        assert set(entry["may_lose"]) <= names and set(entry["must_lose"]) <= set(entry["may_lose"])


@pytest.fixture(scope="module")
def baselines(plan):
    """Honest submissions' results from a zygote no hostile file has touched."""
    with Zygote() as clean:
        return {path.name: as_dict(grade_file(path, clean, plan, LIMITS), LAB, "en") for path in HONEST}


def assert_meets_expectations(name, result):
    expected = EXPECTED[name]
    assert [s.name for s in result.steps] == [s.name for s in STEPS]
    for step in result.steps:
        if step.name not in expected["may_lose"]:
            assert (step.status, step.score) == ("passed", step.max_score), (step.name, step.mistakes)
        if step.name in expected["must_lose"]:
            assert step.score == 0, step.name
        allowed = expected.get("statuses", {}).get(step.name)
        if allowed:
            assert step.status in allowed, (step.name, step.status)
    codes = [note.code for note in result.notes]
    for code in expected.get("notes", []):
        assert code in codes
    if "problem" in expected:
        assert result.notes[0].problem == expected["problem"]


@pytest.mark.parametrize("name", [pytest.param(n, marks=needs_protection(n)) for n in EXPECTED])
def test_hostile_file_costs_only_its_own_steps(name, zygote, plan, baselines, tmp_path):
    result = grade_file(HOSTILE / name, zygote, plan, LIMITS)
    assert_meets_expectations(name, result)
    # The outputs written from its saved result equal those of this grading (test_saved_results_corpora).
    check_rewritten_equal_fresh(HOSTILE / name, zygote, {LAB.name: plan}, tmp_path, result=result)
    # The next student, graded by the same warm sandbox, gets exactly the grade a clean one gives.
    honest = HONEST[sorted(EXPECTED).index(name) % len(HONEST)]
    assert as_dict(grade_file(honest, zygote, plan, LIMITS), LAB, "en") == baselines[honest.name]


def test_fake_results_reach_no_file_outside_the_sandbox(zygote, plan):
    name = "tamper__fake_results_everywhere.py"
    folders = [pathlib.Path("/tmp"), pathlib.Path.home(), pathlib.Path.cwd(), HOSTILE]
    targets = [folder / f"{FAKE_MARK}{suffix}" for folder in folders for suffix in (".json", ".csv")]
    for target in targets:
        target.unlink(missing_ok=True)
    assert_meets_expectations(name, grade_file(HOSTILE / name, zygote, plan, LIMITS))
    assert [t for t in targets if t.exists()] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox user exists only when the grader is root")
def test_a_fork_bomb_leaves_no_process_behind(zygote, plan):
    name = "resource__fork_bomb.py"
    assert_meets_expectations(name, grade_file(HOSTILE / name, zygote, plan, LIMITS))
    uid = zygote.user_for(LIMITS)[0]
    assert uid != 0
    # Leftovers are swept before the zygote's next child starts (and when it stops).
    honest = grade_file(ROOT / "solutions" / "self_attention.py", zygote, plan, LIMITS)
    assert honest.score == honest.max_score
    zygote.sweep()
    assert _pids_of(uid) == []


def test_a_notebook_beyond_the_size_limit_is_refused_unread(zygote, plan):
    huge = b'{"cells": [], "padding": "' + b"x" * (21 * 1024 * 1024) + b'"}'
    result = grade_bytes("huge.ipynb", huge, zygote, plan, LIMITS)
    assert {s.status for s in result.steps} == {"error"}
    assert result.notes[0].problem == "too_large"


# Through the real command line --------------------------------------------------------------------

def check_json(name, *extra, env=None):
    process = subprocess.run([sys.executable, "-m", "autograder", "check", str(HOSTILE / name), "--json", "--lab", "self_attention",
                              "--lang", "en", *extra], capture_output=True, text=True, timeout=300,
                             env=env)
    return process.returncode, json.loads(process.stdout)


@pytest.mark.parametrize("name", ["tamper__fake_results_everywhere.py", "attack__kill_parents.py",
                                  "hang__sleep_at_import.py", "attack__notebook_nested_json.ipynb",
                                  "exit__os_exit_in_softmax.py"])
def test_cli_prints_only_the_genuine_verdict(name):
    if unavailable(name):
        pytest.skip(unavailable(name))
    code, report = check_json(name, "--timeout", "3")
    lossy = set(EXPECTED[name]["may_lose"])
    for step in report["steps"]:
        if step["name"] not in lossy:
            assert step["status"] == "passed" and step["score"] == step["max_score"]
        if step["name"] in EXPECTED[name]["must_lose"]:
            assert step["score"] == 0
    assert code == (0 if not lossy else 1)
    assert report["score"] == sum(s["score"] for s in report["steps"])


@pytest.mark.skipif(not ISOLATED, reason="needs the sandbox's isolation")
def test_cli_keeps_the_graders_secrets_from_the_submission():
    env = dict(os.environ, GITHUB_TOKEN="ghp_not_a_real_token", AUTOGRADER_SECRET="s3cret",
               GRADESCOPE_API_KEY="key")
    code, report = check_json("snoop__environment_variables.py", env=env)
    assert code == 0 and report["score"] == report["max_score"]


def test_a_million_statements_are_never_parsed_in_the_graders_process(monkeypatch):
    import ast

    from autograder.core.reading import budget, submission

    real_parse = ast.parse

    def small_only(source, *args, **kwargs):
        assert len(source) <= budget.MAX_PARSED_CHARS, "the grader parsed a huge cell"
        return real_parse(source, *args, **kwargs)

    monkeypatch.setattr(budget.ast, "parse", small_only)
    source = (ROOT / "solutions" / "self_attention.py").read_text(encoding="utf-8") + "x = 1\n" * 1_000_000
    read = submission.read_submission("big.py", source.encode())
    assert read.problem is None and read.stubs(LAB.function_names) == set()
    stub = "def softmax(x):\n    raise NotImplementedError\n"
    assert submission.read_submission("small.py", stub.encode()).stubs(LAB.function_names) == {"softmax"}


def test_a_million_statements_cost_only_their_own_grade(zygote, plan):
    source = (ROOT / "solutions" / "self_attention.py").read_text(encoding="utf-8") + "x = 1\n" * 1_000_000
    result = grade_bytes("big.py", source.encode(), zygote, plan, LIMITS)
    assert [s.name for s in result.steps] == [s.name for s in STEPS]
    assert result.notes and {n.code for n in result.notes} <= {"syntax_error", "load_timeout"}
