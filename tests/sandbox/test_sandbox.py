"""The sandbox itself: who the child is, what it can reach, and what the grader believes of it."""
import json
import os
import resource
import shutil
import tempfile
import time

import numpy as np
import pytest

from autograder.core.child import codec
from autograder.sandbox import landlock, zygote as zygote_module
from autograder.sandbox.child_pipes import Child, ChildGone
from autograder.sandbox.processes import PF_EXITING, _finished, _pids_of, kill_processes_of
from autograder.core.child.protocol import plain_load_event, plain_names
from autograder.sandbox.runner import Call, Clock, Limits, Zygote, run
from conftest import ROOT

AS_ROOT = os.geteuid() == 0
HAS_LANDLOCK = landlock.abi_version() > 0
LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)


def ask(zygote, source, args=(), limits=LIMITS, function="scores"):
    """Run `source` and call its `function` once; returns (CallOutcome, RunOutcome)."""
    cells = [{"source": source, "filename": "probe.py"}]
    call = Call(0, function, function, tuple(codec.encode(a) for a in args))
    outcome = run(zygote, cells, [call], limits)
    return outcome.calls.get(0), outcome


def answer(zygote, source, **kwargs):
    result, outcome = ask(zygote, source, **kwargs)
    assert result.kind == "returned", (result, outcome.load_events)
    return result.value


IDENTITY = """
import ctypes, os, resource
def scores():
    death = ctypes.c_int(0)
    ctypes.CDLL(None).prctl(2, ctypes.byref(death), 0, 0, 0)  # PR_GET_PDEATHSIG
    return {"death_signal": death.value, "uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "groups": os.getgroups(),
            "nproc": resource.getrlimit(resource.RLIMIT_NPROC)[0],
            "cwd": os.getcwd(), "cwd_owner": os.stat(".").st_uid, "cwd_entries": os.listdir("."),
            "cwd_bytes": os.statvfs(".").f_blocks * os.statvfs(".").f_frsize,
            "env": sorted(os.environ)}
"""


@pytest.mark.skipif(not AS_ROOT, reason="privileges are dropped only when the grader is root")
def test_as_root_the_child_is_an_unprivileged_user_with_its_own_empty_folder(zygote):
    me = answer(zygote, IDENTITY)
    assert me["uid"] == me["euid"] == zygote.sandbox_user[0] != 0
    assert me["gid"] != 0 and me["groups"] == []
    # RLIMIT_NPROC binds only non-root users: it must be set after the drop, not skipped.
    assert me["nproc"] == LIMITS.processes
    assert me["cwd_owner"] == me["uid"] and me["cwd_entries"] == []
    assert me["cwd_bytes"] == LIMITS.disk_bytes  # its own tmpfs bounds all it can write
    # Changing credentials clears the parent-death signal: it must be armed after the drop.
    assert me["death_signal"] == 9


def test_the_child_sees_a_scrubbed_environment(monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secret")
    with Zygote() as fresh:
        me = answer(fresh, IDENTITY)
    assert set(me["env"]) == set(zygote_module.CHILD_ENVIRONMENT) | {"HOME", "TMPDIR", "MPLCONFIGDIR"}


def test_two_zygotes_as_root_get_different_users():
    if not AS_ROOT:
        pytest.skip("users are handed out only to a root grader")
    with Zygote() as first, Zygote() as second:
        assert first.sandbox_user != second.sandbox_user


def test_switching_the_sandbox_off_keeps_the_graders_user(monkeypatch):
    monkeypatch.setenv("AUTOGRADER_SANDBOX", "off")
    with Zygote() as debugging:
        assert debugging.user_for(LIMITS) is None
        assert answer(debugging, IDENTITY)["uid"] == os.getuid()


def test_explicit_user_none_keeps_the_graders_user(zygote):
    assert answer(zygote, IDENTITY, limits=Limits(user=None, confine=False))["uid"] == os.getuid()


REACH = """
import os
def scores(paths, folder):
    seen = {}
    for path in paths:
        try:
            with open(path, "rb") as handle:
                handle.read(1)
            seen[path] = "read"
        except OSError as error:
            seen[path] = error.__class__.__name__
    try:
        with open(os.path.join(folder, "planted.txt"), "w") as handle:
            handle.write("x")
        seen["write"] = "written"
    except OSError as error:
        seen["write"] = error.__class__.__name__
    import csv, wave, statistics, encodings.euc_kr  # modules a child may still import
    return seen
"""


@pytest.mark.skipif(not (AS_ROOT or HAS_LANDLOCK), reason="needs a dropped user or Landlock")
def test_the_reference_and_hidden_cases_are_unreadable_and_nothing_outside_is_writable(zygote, tmp_path):
    os.chmod(tmp_path, 0o777)
    secret = [str(ROOT / "solutions" / "self_attention.py"), str(ROOT / "labs" / "self_attention" / "hidden.py"),
              str(ROOT / "labs" / "self_attention" / "reference.py")]
    seen = answer(zygote, REACH, args=(secret, str(tmp_path)))
    assert all(seen[path] == "PermissionError" for path in secret)
    assert seen["write"] == "PermissionError"
    assert not (tmp_path / "planted.txt").exists()


KILLER = """
import os, signal
def scores():
    results = []
    for pid in (os.getppid(), {grader}):
        try:
            os.kill(pid, 0)
            results.append("allowed")
        except OSError as error:
            results.append(error.__class__.__name__)
    return results
"""


@pytest.mark.skipif(not (AS_ROOT or landlock.abi_version() >= 6), reason="needs a dropped user or Landlock 6")
def test_the_child_cannot_signal_the_zygote_or_the_grader(zygote):
    assert answer(zygote, KILLER.format(grader=os.getpid())) == ["PermissionError", "PermissionError"]


def test_a_zygote_killed_between_runs_is_replaced(zygote):
    with Zygote() as fragile:
        fragile._process.kill()
        fragile._process.wait()
        assert answer(fragile, "def scores():\n    return 7\n") == 7


@pytest.mark.skipif(not AS_ROOT, reason="the sweep concerns the zygote's own user id")
def test_processes_left_behind_are_killed_after_the_run(zygote):
    source = ("import os, time\n"
              "def scores():\n"
              "    if os.fork() == 0:\n"
              "        os.setsid()\n"
              "        time.sleep(300)\n"
              "        os._exit(0)\n"
              "    return 1\n")
    assert answer(zygote, source) == 1
    # The orphan is killed before the next child of this zygote starts, never alongside it.
    real_spawn = zygote.spawn
    alive_at_spawn = []

    def watched_spawn(workdir, limits, *rest):
        alive_at_spawn.append(_pids_of(zygote.sandbox_user[0]))
        return real_spawn(workdir, limits, *rest)

    zygote.spawn = watched_spawn
    try:
        assert answer(zygote, "def scores():\n    return 2\n") == 2
    finally:
        del zygote.spawn
    assert alive_at_spawn == [[]]
    zygote.sweep()
    assert kill_processes_of(zygote.sandbox_user[0], rounds=1)  # nothing was left to kill


def _children_of(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        return [int(p) for p in handle.read().split()]


def _name_of(pid):
    """The process's name; None once it is gone (the last run's child may still be exiting)."""
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except (ProcessLookupError, FileNotFoundError):
        return None


def _spares_of(zygote_pid, seconds=5):
    """The zygote's children that are still zygotes (forked ahead, no run yet), once there are any."""
    deadline = time.monotonic() + seconds
    while True:
        spares = [p for p in _children_of(zygote_pid) if _name_of(p) == "grading-zygote"]
        if spares or time.monotonic() > deadline:
            return spares
        time.sleep(0.01)


def test_the_zygote_keeps_a_spare_child_ready_and_replaces_one_killed_from_outside():
    with Zygote() as fresh:
        assert answer(fresh, "def scores():\n    return 1\n") == 1
        zygote_pid = fresh._process.pid
        spares = _spares_of(zygote_pid)
        assert len(spares) == 1  # forked ahead of the next request, not yet anyone's sandbox
        os.kill(spares[0], 9)
        deadline = time.monotonic() + 5
        while spares[0] in _children_of(zygote_pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert answer(fresh, "def scores():\n    return 2\n") == 2
        assert fresh._process.pid == zygote_pid  # the same zygote forked a child on the spot


@pytest.mark.skipif(not AS_ROOT, reason="private disks are mounted only when the grader is root")
def test_runs_share_one_folder_but_never_see_each_others_files():
    writer = ("import os\n"
              "def scores():\n"
              "    open('secret.txt', 'w').write('answers')\n"
              "    return sorted(os.listdir('.'))\n")
    with Zygote() as fresh:
        assert answer(fresh, writer) == ["secret.txt"]
        assert answer(fresh, writer) == ["secret.txt"]  # not two: the first run's disk is gone
        [home] = fresh._homes.values()
        assert os.listdir(home) == []  # every child wrote on a disk of its own, mounted over it
        # A child told its folder is shared refuses to run when it cannot mount a disk of its own.
        child = fresh.spawn(home, Limits(disk_bytes=0))
        try:
            with pytest.raises(ChildGone):
                child.next_event(time.monotonic() + 5)
        finally:
            child.kill()


def test_a_zygote_started_by_one_process_serves_the_one_it_forks_and_is_reaped_by_the_first():
    import multiprocessing

    started = Zygote()
    started.start()
    pid = started._process.pid

    def adopter(report):
        started.adopt()
        report.send(answer(started, "def scores():\n    return 6\n"))
        started.stop()  # killed: other processes may hold its socket

    theirs, ours = multiprocessing.get_context("fork").Pipe()
    child = multiprocessing.get_context("fork").Process(target=adopter, args=(theirs,))
    child.start()
    assert ours.recv() == 6
    child.join(10)
    assert child.exitcode == 0
    started.reap()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, and reaped: not even a zombie is left


def test_used_working_folders_are_gone_once_the_zygote_stops(monkeypatch):
    # A folder of its own that the sandbox user may walk through, as the system's temp folder is.
    folder = tempfile.mkdtemp(prefix="autograder-test-")
    os.chmod(folder, 0o755)
    monkeypatch.setattr(tempfile, "tempdir", folder)
    writer = "def scores():\n    open('left.txt', 'w').write('x')\n    return 3\n"
    try:
        with Zygote() as fresh:
            for _ in range(3):
                assert answer(fresh, writer) == 3
        assert os.listdir(folder) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _status(state="S (sleeping)", pending="0000000000000000", threads="1"):
    return {"State": state, "SigPnd": pending, "ShdPnd": "0000000000000000", "Threads": threads}


@pytest.mark.parametrize("status, flags, finished", [
    (_status(), 0, False),
    (_status(state="T (stopped)"), 0, False),  # stopped, not dead: it is killed
    (_status(pending="0000000000000100"), 0, True),  # SIGKILL on its way: never runs again
    (_status(state="R (running)"), PF_EXITING, True),
    (_status(state="Z (zombie)"), 0, True),
    (_status(state="Z (zombie)", threads="3"), 0, False),  # its leader exited, two threads still run
    (_status(threads="2"), PF_EXITING, False),
])
def test_the_sweep_skips_only_processes_that_can_never_run_again(status, flags, finished):
    assert _finished(status, flags) is finished


# Forged events: at most what returning the same values would get ---------------------------------

FORGER = """
import json, os, stat
def scores(Q, K):
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                event = {{"ev": "returned", "id": 0, "value": {value}, "args_after": {args_after}}}
                os.write(fd, (json.dumps(event) + "\\n").encode())
        except OSError:
            pass
    {tail}
"""


def test_a_forged_answer_without_the_arguments_counts_as_a_crash(zygote):
    forged = json.dumps(codec.encode(np.eye(2)))
    result, _ = ask(zygote, FORGER.format(value=forged, args_after="None", tail="while True: pass"),
                    args=(np.eye(2), np.eye(2)))
    assert result.kind == "crashed"


def test_a_forged_answer_is_decoded_as_plain_data_like_a_returned_value(zygote):
    forged = '{"t": "series", "values": 5, "index": [[1]]}'
    result, outcome = ask(zygote, FORGER.format(value=forged, args_after="[None, None]",
                                                tail="return None"), args=(np.eye(2), np.eye(2)))
    assert result.kind == "returned" and isinstance(result.value, codec.Opaque)
    assert outcome.names["scores"] == "function"


def test_load_events_and_names_are_reduced_to_plain_fields():
    event = plain_load_event({"ev": "load_error", "cell": 10**40, "stmt": "x", "line": [1],
                               "type": {"a": 1}, "message": ["m"] * 3, "frames": [[1, 2, 3, 4]] * 50,
                               "extra": "dropped"})
    assert event == {"ev": "load_error", "cell": None, "stmt": None, "line": None, "message": "",
                     "type": "Exception", "frames": [["", 2, "", ""]] * 5}
    names = plain_names({"scores": ["function"], "softmax": "function", "evil": "function"}, ("scores", "softmax"))
    assert names["scores"] == "absent" and names["softmax"] == "function" and "evil" not in names


def test_a_garbled_event_line_is_skipped_not_fatal():
    read_end, write_end = os.pipe()
    os.write(write_end, b"[" * 30000 + b"\n" + b"\xff\xfe\n" + b'"text"\n' + b'{"ev": "stmt"}\n')
    child = Child(0, os.open(os.devnull, os.O_WRONLY), read_end)
    try:
        events = [child.next_event(time.monotonic() + 5) for _ in range(4)]
    finally:
        os.close(write_end)
        child.close()
    assert [e["ev"] for e in events] == ["garbled", "garbled", "garbled", "stmt"]


@pytest.mark.parametrize("data", [
    {"t": "array", "kind": "f", "shape": [2], "data": [1, 10**400]},
    {"t": "array", "kind": "f", "shape": [-1, -2], "data": [1.0, 2.0]},
    {"t": "array", "kind": "f", "shape": [2], "data": [{"x": 1}, 2]},
    {"t": "array", "kind": "U", "shape": [1], "data": [["nested"]]},
    {"t": "dict", "items": 7},
    {"t": "dict", "items": [[{"t": "list", "items": []}, {"t": "none"}], [1]]},
    {"t": "series", "values": {"t": "other"}, "index": [[1]]},
    {"t": "frame", "values": {"t": "array", "kind": "f", "shape": [1], "data": [1.0]}},
    {"t": "number", "v": 10**300},
    {"t": "array", "kind": "f", "shape": [2], "f8": "not base64!"},
    {"t": "array", "kind": "f", "shape": [3], "f8": "AAAAAAAA8D8AAAAAAAAAQA=="},  # 2 numbers, not 3
    {"t": "array", "kind": "f", "shape": [10**6, 10**6], "f8": ""},
    {"t": "array", "kind": "U", "shape": [1], "f8": "AAAAAAAA8D8="},
    {"t": "array", "kind": "f", "shape": [1], "f8": ["AAAAAAAA8D8="]},
    {"t": "str", "v": {"not": "text"}},
    {"t": "list", "items": [{"t": "list", "items": [{"t": "list", "items": []}]}] * 3},
    "not a dict", None, [1, 2],
])
def test_decoding_forged_data_never_raises(data):
    value = codec.decode(data)
    assert isinstance(value, (codec.Opaque, codec.Labelled, np.ndarray, list, tuple, dict, float, int))


@pytest.mark.parametrize("array", [
    np.array([[0.1, -2.5e-300], [np.inf, np.nan]]), np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
    np.array([3, -4], dtype=np.int64), np.array([True, False]), np.zeros((0, 4)),
    np.array([1.5, 2.5], dtype=">f8"), np.arange(12.0).reshape(3, 4).T,
])
def test_numeric_arrays_cross_exactly_as_bytes(array):
    encoded = json.loads(codec.dumps(codec.encode(array)))
    assert "f8" in encoded and "data" not in encoded
    back = codec.decode(encoded)
    assert back.shape == array.shape and back.flags.writeable
    # float32 stays float32, a boolean array (a mask) stays boolean and integers stay integers
    # (a test's integer scores or 0/1 mask); other numbers are float64.
    assert back.dtype == {np.dtype(np.float32): np.float32, np.dtype(bool): bool,
                          np.dtype(np.int64): np.int64}.get(array.dtype, np.float64)
    np.testing.assert_array_equal(back, array.astype(back.dtype))


def test_a_series_index_of_lists_becomes_hashable_labels():
    series = codec.decode({"t": "series", "index": [{"t": "list", "items": [{"t": "number", "v": 1}]}],
                           "values": {"t": "array", "kind": "f", "shape": [1], "data": [1.0]}})
    assert series.index == ["[1]"]


def test_limits_are_applied_in_the_child(zygote):
    limits = Limits(step_seconds=5.0, load_seconds=5.0, memory_bytes=512 * 1024 * 1024,
                    file_bytes=1024 * 1024)
    source = ("import resource\n"
              "def scores():\n"
              "    return [resource.getrlimit(r)[0] for r in (resource.RLIMIT_AS, resource.RLIMIT_FSIZE,\n"
              "            resource.RLIMIT_CORE)]\n")
    assert answer(zygote, source, limits=limits) == [512 * 1024 * 1024, 1024 * 1024, 0]


def test_each_step_has_its_own_time_limit_though_all_calls_are_sent_at_once(zygote):
    source = ("import time\n"
              "def scores():\n    time.sleep(0.6)\n    return 1\n"
              "def softmax():\n    time.sleep(0.6)\n    return 2\n"
              "def mix():\n    while True:\n        pass\n"
              "def most_attended():\n    return 4\n")
    calls = [Call(0, "scores", "scores", ()), Call(1, "softmax", "softmax", ()),
             Call(2, "mix", "mix", ()), Call(3, "mix", "mix", ()), Call(4, "most_attended", "most_attended", ())]
    limits = Limits(step_seconds=1.0, load_seconds=5.0)
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}], calls, limits)
    kinds = [outcome.calls[i].kind for i in range(5)]
    # Together the first two steps take longer than one step may: each is still within its own.
    assert kinds == ["returned", "returned", "timeout", "not_run", "returned"]
    assert outcome.calls[4].value == 4  # the step after the endless one runs in a fresh child


def test_the_default_limits_are_sane():
    limits = Limits()
    assert limits.step_seconds > 0 and limits.memory_bytes >= 256 * 1024 * 1024
    assert 0 < limits.processes <= 256 and limits.file_bytes > 0
    assert limits.user == "auto" and limits.confine
    assert resource.RLIM_INFINITY not in limits.for_child().values()


def test_an_error_in_one_statement_does_not_stop_the_ones_after_it(zygote):
    source = ("def boom():\n    raise KeyError('k')\n"
              "a = 1\n"
              "rows = [\n    boom(),\n]\n"
              "def scores():\n    return a\n")
    result, outcome = ask(zygote, source)
    assert result.kind == "returned" and result.value == 1
    [error] = outcome.load_events
    # Named by the statement's first line, like every load error; the frames say where inside.
    assert (error["ev"], error["stmt"], error["line"], error["type"]) == ("load_error", 2, 4, "KeyError")
    assert [frame[1] for frame in error["frames"]] == [5, 2]


# source -> (statement, line) the load note names: a statement is named by its first line (a
# decorated function by its `def`, as Python numbers it)
HANGS_AT_LOAD = {
    "a loop": ("x = 7\nwhile True:\n    pass\ndef scores():\n    return x\n", (1, 2)),
    "a sleep": ("import time\nx = 7\ntime.sleep(10 ** 6)\ndef scores():\n    return x\n", (2, 3)),
    "a decorator": ("x = 7\n@(lambda f: [0 for _ in iter(int, 1)])\ndef g():\n    pass\ndef scores():\n    return x\n",
                    (1, 3)),
}


@pytest.mark.parametrize("how", sorted(HANGS_AT_LOAD))
def test_a_statement_that_hangs_at_load_is_named_once_and_skipped_after_one_wait(zygote, how):
    """A cell that never ends costs the load's time once: asked where it hung (worker._tell_where),
    the child names the statement, and the next child skips it without waiting again."""
    source, (statement, line) = HANGS_AT_LOAD[how]
    clock = Clock()
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}], [Call(0, "scores", "scores", ())],
                  Limits(step_seconds=5.0, load_seconds=1.0), clock=clock)
    assert outcome.calls[0].kind == "returned" and outcome.calls[0].value == 7
    assert [(e["ev"], e["stmt"], e["line"]) for e in outcome.load_events] == [("load_timeout", statement, line)]
    assert clock.expired == ["load"]


def test_a_cell_stuck_in_c_code_is_still_found_statement_by_statement(zygote):
    """Python cannot ask code stuck inside one C call where it is: the next child runs the cell
    statement by statement, and the one after that skips the statement (two waits)."""
    source = "x = 7\nsum(range(10 ** 15))\ndef scores():\n    return x\n"
    clock = Clock()
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}], [Call(0, "scores", "scores", ())],
                  Limits(step_seconds=5.0, load_seconds=1.0), clock=clock)
    assert outcome.calls[0].kind == "returned" and outcome.calls[0].value == 7
    assert [(e["ev"], e["stmt"], e["line"]) for e in outcome.load_events] == [("load_timeout", 1, 2)]
    assert clock.expired == ["load", "load"]


def test_a_step_that_never_returns_costs_its_limit_once_over_its_public_and_hidden_runs(zygote):
    """The public tests and the hidden ones run in different children; the step's time is one, and
    its hidden tests have a second look only."""
    source = "def mix(x):\n    while True:\n        pass\ndef scores(x):\n    return x\n"
    cells = [{"source": source, "filename": "probe.py"}]
    limits = Limits(step_seconds=1.0, load_seconds=5.0)
    clock = Clock()
    public = run(zygote, cells, [Call(0, "mix", "mix", (codec.encode(1),)), Call(1, "scores", "scores", (codec.encode(2),))],
                 limits, clock=clock)
    hidden = run(zygote, cells, [Call(2, "mix", "mix", (codec.encode(3),)), Call(3, "scores", "scores", (codec.encode(4),))],
                 limits, clock=clock)
    assert [public.calls[0].kind, public.calls[1].kind] == ["timeout", "returned"]
    # The hidden run gives mix a second look (a tenth of its limit, at least half a second) only.
    assert [hidden.calls[2].kind, hidden.calls[3].kind] == ["timeout", "returned"]
    assert clock.expired == ["mix"] and clock.looked_out == ["mix"]


# `autograder check` in a subprocess, with the grader's own clock observed: each Clock it makes
# notes every deadline it waited out (driver.Clock.expired), printed on stderr once it is done.
OBSERVED_CHECK = """
import json, sys
from autograder.grading import repairs, runs
made = []
class Observed(runs.Clock):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        made.append(self)
runs.Clock = repairs.Clock = Observed
from autograder.cli import main
code = main(sys.argv[1:])
print(json.dumps([clock.expired for clock in made]), file=sys.stderr)
sys.exit(code)
"""

SOLUTION = (ROOT / "solutions" / "self_attention.py").read_text("utf-8")
ENDLESS = {  # a submission that never ends somewhere -> the deadlines `check` waits out
    "in a step": (SOLUTION.replace("    return Q @ K.T\n", "    while True:\n        pass\n"), ["scores"]),
    "in the composed step": (SOLUTION.replace("    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n",
                                              "    while True:\n        pass\n"), ["self_attention"]),
    "at import": (SOLUTION + "\nwhile True:\n    pass\n", ["load"]),
}


@pytest.mark.parametrize("where", sorted(ENDLESS))
def test_check_waits_out_an_endless_loop_once(tmp_path, where):
    """`autograder check` of a file that never ends in one place waits one --timeout, not one for the
    public tests and one more for the hidden ones (or for the child that finds the statement)."""
    import subprocess
    import sys

    source, waited = ENDLESS[where]
    path = tmp_path / "endless.py"
    path.write_text(source, "utf-8")
    finished = subprocess.run([sys.executable, "-c", OBSERVED_CHECK, "check", "--json", "--timeout", "2", str(path)],
                              capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert json.loads(finished.stderr.strip().splitlines()[-1]) == [waited], finished.stderr
    statuses = {step["name"]: step["status"] for step in json.loads(finished.stdout)["steps"]}
    looping = {"in a step": "scores", "in the composed step": "self_attention"}.get(where)
    assert {step: status for step, status in statuses.items() if status != "passed"} == \
        ({looping: "timeout"} if looping else {})


def test_a_run_survives_its_zygote_being_killed_midway():
    # Unconfined on purpose (user=None, confine=False), so the submission can kill the zygote.
    source = ("import os, signal, time\n"
              "if True:  # one statement: the parent-death signal ends it during the sleep\n"
              "    os.kill(os.getppid(), signal.SIGKILL)\n"
              "    time.sleep(30)\n"
              "def scores():\n"
              "    return 5\n")
    with Zygote() as fragile:
        result, outcome = ask(fragile, source, limits=Limits(user=None, confine=False))
    assert result.kind == "returned" and result.value == 5
    assert [e["ev"] for e in outcome.load_events] == ["load_crash"]
