"""A step's time is the time its child ran or chose to wait: what the machine kept it (or the
grader reading it) waiting for a CPU moves its deadline, up to MACHINE_WAIT_FACTOR times the
deadline's length, and is given back to the submission's clock (child_pipes.Child.next_line).
What the child sent before its deadline is read even when the grader wakes late.

The kernel's own figure (/proc/PID/schedstat) is replaced here by a scripted one; the real kernel
is used in tests/sandbox/slow/test_machine_load.py.
"""
import os
import threading
import time

import pytest

from autograder.sandbox import child_pipes
from autograder.sandbox.child_pipes import MACHINE_WAIT_FACTOR, Child, machine_wait
from autograder.sandbox.driver import Clock

LINE = b'{"ev": "returned", "id": 1}'


def pipe_child(write_after=None, data=LINE + b"\n"):
    """A Child whose event pipe receives `data` after `write_after` seconds (never: None)."""
    read_end, write_end = os.pipe()
    timer = None
    if write_after is not None:
        timer = threading.Timer(write_after, lambda: os.write(write_end, data))
        timer.start()
    child = Child(os.getpid(), os.open(os.devnull, os.O_WRONLY), read_end)
    return child, write_end, timer


def finish(child, write_end, timer):
    if timer is not None:
        timer.cancel()
        timer.join()
    child.close()
    os.close(write_end)


def scripted_wait(monkeypatch, seconds_per_second):
    """The machine kept the child waiting `seconds_per_second` of every second from now on."""
    start = time.monotonic()
    monkeypatch.setattr(child_pipes, "machine_wait", lambda pid: (time.monotonic() - start) * seconds_per_second)


def test_the_kernels_figure_is_read_for_a_live_process_and_is_zero_for_none():
    assert machine_wait(os.getpid()) >= 0.0
    assert machine_wait(2 ** 22 + 12345) >= 0.0  # no such process: the calling thread's own only


def test_what_the_child_sent_before_its_deadline_is_read_by_a_grader_that_woke_late():
    child, write_end, timer = pipe_child()
    os.write(write_end, LINE + b"\n")
    try:
        assert child.next_line(time.monotonic() - 5.0) == LINE
    finally:
        finish(child, write_end, timer)


def test_a_child_never_kept_waiting_gets_no_more_than_its_deadline(monkeypatch):
    scripted_wait(monkeypatch, 0.0)
    child, write_end, timer = pipe_child(write_after=None)
    try:
        deadline = time.monotonic() + 0.2
        assert child.next_line(deadline) is None
        assert child.credited(deadline) == 0.0 and child.take_credit() == 0.0
    finally:
        finish(child, write_end, timer)


def test_a_child_kept_waiting_for_a_cpu_is_given_that_time_and_the_clock_gives_it_back(monkeypatch):
    # The child answers 0.6 s after the call, 0.3 s past its deadline, having waited most of that time.
    scripted_wait(monkeypatch, 0.8)
    child, write_end, timer = pipe_child(write_after=0.6)
    clock = Clock(until=time.monotonic() + 100.0)
    until = clock.until
    try:
        started = time.monotonic()
        deadline = time.monotonic() + 0.3
        child.send_text("", deadline)  # the call's command opens the deadline's window
        assert child.next_line(deadline) == LINE
        moved = child.credited(deadline)
        assert moved > 0.0
        clock.give_back(child.take_credit())
        assert child.take_credit() == 0.0  # taken once
        assert clock.until == pytest.approx(until + moved)
        clock.charge("softmax", started, excused=moved)
        assert clock.used["softmax"] <= time.monotonic() - started - moved + 1e-6
    finally:
        finish(child, write_end, timer)


@pytest.mark.parametrize("floor", [0.0, 0.6])
def test_a_deadline_moves_at_most_its_factor_of_its_own_length_or_the_floor(monkeypatch, floor):
    # The floor is made small here so that the test takes little time; it is 5 s in the grader.
    monkeypatch.setattr(child_pipes, "MACHINE_WAIT_FLOOR", floor)
    monkeypatch.setattr(child_pipes, "machine_wait", lambda pid: 0.0)
    child, write_end, timer = pipe_child(write_after=None)
    try:
        deadline = time.monotonic() + 0.1
        child.send_text("", deadline)
        monkeypatch.setattr(child_pipes, "machine_wait", lambda pid: 1000.0)  # an absurd figure
        assert child.next_line(deadline) is None
        most = max(MACHINE_WAIT_FACTOR * 0.1, floor)
        assert most - 0.05 <= child.credited(deadline) <= most + 0.01
    finally:
        finish(child, write_end, timer)


@pytest.mark.parametrize("others", [False, True])
def test_a_child_whose_own_user_runs_other_processes_is_given_no_time_back(monkeypatch, others):
    """The submission's own spinning processes (forked, as the child's user) keep its child waiting:
    load it made itself, never given back; the same wait with no such process is."""
    scripted_wait(monkeypatch, 0.9)
    asked = []
    monkeypatch.setattr(child_pipes, "runs_others", lambda uid, pid: asked.append((uid, pid)) or others)
    read_end, write_end = os.pipe()
    child = Child(4242, os.open(os.devnull, os.O_WRONLY), read_end, own_user=620123)
    try:
        deadline = time.monotonic() + 0.1
        assert child.next_line(deadline) is None
        assert (child.credited(deadline) == 0.0) is others
        assert asked and set(asked) == {(620123, 4242)}
    finally:
        finish(child, write_end, None)


def test_processes_stopped_before_each_deadline_are_seen_while_waiting(monkeypatch):
    """Spinning processes that run for a while and are gone by the deadline: the wait is looked at
    a few times a second, and a child once seen running others is given no time back again."""
    scripted_wait(monkeypatch, 0.9)
    started = time.monotonic()
    monkeypatch.setattr(child_pipes, "runs_others", lambda uid, pid: time.monotonic() < started + 0.4)
    read_end, write_end = os.pipe()
    child = Child(4242, os.open(os.devnull, os.O_WRONLY), read_end, own_user=620123)
    try:
        deadline = started + 0.7
        assert child.next_line(deadline) is None
        assert child.credited(deadline) == 0.0
        later = time.monotonic() + 0.1  # the next call: nothing runs now, but the child was seen
        assert child.next_line(later) is None
        assert child.credited(later) == 0.0
    finally:
        finish(child, write_end, None)


def test_a_child_of_the_graders_own_user_is_never_asked_about_other_processes(monkeypatch):
    """Without a sandbox user of its own (not root), every process of the grader's user would count:
    the rule is not applied and the wait is given back as before."""
    scripted_wait(monkeypatch, 0.9)
    monkeypatch.setattr(child_pipes, "runs_others", lambda uid, pid: pytest.fail("asked"))
    child, write_end, timer = pipe_child(write_after=None)
    try:
        deadline = time.monotonic() + 0.1
        assert child.next_line(deadline) is None
        assert child.credited(deadline) > 0.0
    finally:
        finish(child, write_end, timer)


def test_the_processes_a_child_started_are_found_by_the_kernels_list():
    from autograder.sandbox.processes import runs_others, start_time

    assert start_time(2 ** 22 + 12345) is None
    older = os.getppid()  # started before this process, and of the same user here
    assert start_time(older) <= start_time(os.getpid())
    forked = [os.fork()]
    if forked[0] == 0:
        time.sleep(5)
        os._exit(0)
    time.sleep(0.02)  # a tick of the kernel's clock at least
    forked.append(os.fork())
    if forked[1] == 0:
        time.sleep(5)
        os._exit(0)
    try:
        time.sleep(0.05)
        # the first (one thread, as a fork leaves it) is not alone: the second started after it
        assert runs_others(os.getuid(), forked[0])
    finally:
        for pid in forked:
            os.kill(pid, 9)
            os.waitpid(pid, 0)


def test_a_child_running_threads_of_its_own_counts_as_loading_itself():
    """Threads that release the interpreter's lock keep the child's main thread waiting as other
    processes do; a child's numerical libraries run on one thread, so any other is the submission's."""
    from autograder.sandbox.processes import runs_others

    go_on, told = os.pipe()
    ready, said = os.pipe()
    forked = os.fork()
    if forked == 0:  # one thread, as a fork leaves it
        os.write(said, b"1")
        os.read(go_on, 1)
        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
        os.write(said, b"2")
        time.sleep(5)
        os._exit(0)
    try:
        nobody = 2 ** 22 + 12345  # a user id nothing runs as: only the threads can count
        assert os.read(ready, 1) == b"1"
        assert not runs_others(nobody, forked)
        os.write(told, b"x")
        assert os.read(ready, 1) == b"2"
        assert runs_others(nobody, forked)
    finally:
        os.kill(forked, 9)
        os.waitpid(forked, 0)
        for end in (go_on, told, ready, said):
            os.close(end)


def test_a_process_left_from_before_the_child_started_never_counts(monkeypatch):
    """One left by a child before it (a sweep that failed) never takes time back from the next student."""
    from autograder.sandbox import processes

    started = {10: 500, 11: 400, 12: 500, 13: 650}  # 10 the child; 11 left before it; 12, 13 its own
    monkeypatch.setattr(processes, "start_time", started.get)
    monkeypatch.setattr(processes, "_process_state", lambda pid: None)  # no real process's threads
    monkeypatch.setattr(processes, "_pids_of", lambda uid: [10, 11])
    assert not processes.runs_others(620123, 10)
    for own in (12, 13):
        monkeypatch.setattr(processes, "_pids_of", lambda uid, own=own: [11, 10, own])
        assert processes.runs_others(620123, 10)
    monkeypatch.setattr(processes, "_pids_of", lambda uid: [11, 12])
    assert not processes.runs_others(620123, 99)  # the child itself gone: nothing to ask about


def test_a_new_deadline_starts_from_nothing(monkeypatch):
    scripted_wait(monkeypatch, 0.9)
    child, write_end, timer = pipe_child(write_after=None)
    try:
        first = time.monotonic() + 0.1
        assert child.next_line(first) is None
        assert child.credited(first) > 0.0
        second = time.monotonic() + 0.05
        child.send_text("", second)
        assert child.credited(second) == 0.0 and child.credited(first) == 0.0
    finally:
        finish(child, write_end, timer)


def test_a_child_that_floods_its_pipe_past_the_deadline_is_not_read_forever(monkeypatch):
    monkeypatch.setattr(child_pipes, "machine_wait", lambda pid: 0.0)
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    child = Child(os.getpid(), os.open(os.devnull, os.O_WRONLY), read_end)
    stop = threading.Event()

    def flood():
        while not stop.is_set():
            try:
                os.write(write_end, b"x" * 4096)  # never a newline
            except BlockingIOError:
                time.sleep(0.001)

    writer = threading.Thread(target=flood)
    writer.start()
    try:
        assert child.next_line(time.monotonic() - 1.0, limit=64) is None
    finally:
        stop.set()
        writer.join()
        child.close()
        os.close(write_end)
