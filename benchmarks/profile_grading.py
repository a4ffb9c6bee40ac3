"""Where one process's grading time goes: cProfile of `grade_bytes` over a mixed class, with the
children counted.

Builds the mixed class of `grade_class.py` (correct, one-mistake and broken files, .py and
.ipynb), grades its first -n files in this process with one warm zygote (what a batch worker
does), and prints milliseconds per file, children started, call round trips and the profile's
top entries. `--child` profiles the child's side instead: the same submissions loaded and called
by the worker's own functions in this process (no sandbox), with the grader's stand-ins
answering helper requests, so the time the submission's code, the repeat call and the encoding
take shows by function. Run by hand:

    .venv/bin/python benchmarks/profile_grading.py -n 60
    .venv/bin/python benchmarks/profile_grading.py -n 60 --child
"""
import argparse
import cProfile
import io
import os
import pathlib
import pstats
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from grade_class import build_class  # noqa: E402
from throughput import build_floor  # noqa: E402

from autograder import grading  # noqa: E402
from autograder.grading.plan import Plan  # noqa: E402
from autograder.registry import load as load_lab  # noqa: E402
from autograder.sandbox import child_pipes, zygote_client
from autograder.core.child import codec, worker  # noqa: E402
from autograder.core.child.protocol import HelperRefused  # noqa: E402
from autograder.core.reading.submission import read_submission  # noqa: E402


class Counted:
    """Counts children spawned and lines read by wrapping the two methods every run goes through."""

    def __init__(self):
        self.children = self.lines = 0
        self.child_ticks = 0  # CPU clock ticks the children used up to their kill (exit not counted)
        spawn, next_line, kill = zygote_client.Zygote._spawn, child_pipes.Child.next_line, child_pipes.Child.kill

        def counted_spawn(zygote, *args, **kwargs):
            self.children += 1
            return spawn(zygote, *args, **kwargs)

        def counted_line(child, *args, **kwargs):
            self.lines += 1
            return next_line(child, *args, **kwargs)

        def counted_kill(child):
            self.child_ticks += _ticks(child.pid)
            return kill(child)

        zygote_client.Zygote._spawn = counted_spawn
        child_pipes.Child.next_line = counted_line
        child_pipes.Child.kill = counted_kill


def _ticks(pid):
    """utime + stime of a process, in clock ticks (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def parent(files, plan, top):
    counted = Counted()
    with zygote_client.Zygote() as zygote:
        grading.grade_bytes("warm-up", files[0].read_bytes(), zygote, plan)  # the plan's caches filled
        counted.children = counted.lines = counted.child_ticks = 0
        zygote_ticks = _ticks(zygote._process.pid)
        profile = cProfile.Profile()
        started, cpu = time.perf_counter(), time.process_time()
        profile.enable()
        for path in files:
            grading.grade_bytes(path.name, path.read_bytes(), zygote, plan)
        profile.disable()
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        zygote_ticks = _ticks(zygote._process.pid) - zygote_ticks
    tick = os.sysconf("SC_CLK_TCK")
    print(f"CPU per file: grader {1000 * cpu / len(files):.1f} ms (profiled), zygote (forks) "
          f"{1000 * zygote_ticks / tick / len(files):.1f} ms, children up to their kill "
          f"{1000 * counted.child_ticks / tick / len(files):.1f} ms")
    print(f"{len(files)} files in {seconds:.2f} s: {1000 * seconds / len(files):.1f} ms per file, "
          f"{counted.children} children ({counted.children / len(files):.2f} per file), "
          f"{counted.lines} event lines read ({counted.lines / len(files):.1f} per file)")
    report(profile, top)


class RecordingChannel:
    """The worker's Channel in this process: events kept, helper requests answered by the plan."""

    def __init__(self, stand_ins):
        self.events, self.stand_ins = [], stand_ins

    def send(self, **event):
        self.events.append(codec.dumps(event))

    def ask_helper(self, call_id, name, args):
        try:
            return {"value": self.stand_ins(call_id, name, [codec.decode(a) for a in args])}
        except HelperRefused as refusal:
            return {"error": {"type": "LookupError", "message": refusal.args[0]}}


def child(files, plan, top):
    """The worker's side of every run of each file, as grading makes them (stand-ins included)."""
    calls, _ = plan.calls
    profile = cProfile.Profile()
    started = time.perf_counter()
    for path in files:
        submission = read_submission(path.name, path.read_bytes())
        if submission.problem:
            continue
        module_name = "__main__" if any(c["filename"].startswith("<cell") for c in submission.cells) else "submission"
        load = {"cmd": "load", "cells": submission.cells, "skip": [], "module_name": module_name,
                "functions": list(plan.lab.function_names)}
        profile.enable()
        # One namespace per run, as one child per run: plain public, composed public, plain hidden,
        # composed hidden (the runs with the student's own helpers are left out).
        for hidden in (False, True):
            for composed in (False, True):
                channel, namespace, filenames = RecordingChannel(plan.stand_ins), {"__builtins__": __builtins__}, set()
                functions = worker.load(channel, namespace, filenames, codec.loads(codec.dumps(load)))
                for call in calls:
                    probe_hidden = plan.calls[1][call.id].case.hidden
                    if probe_hidden == hidden and bool(call.helpers) == composed \
                            and callable(namespace.get(call.function)):
                        worker.call(channel, namespace, filenames, codec.loads(call.command), functions)
        profile.disable()
    seconds = time.perf_counter() - started
    print(f"child's side of {len(files)} files: {seconds:.2f} s, {1000 * seconds / len(files):.1f} ms per file")
    report(profile, top)


def report(profile, top):
    for order in ("cumulative", "tottime"):
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats(order).print_stats(top)
        print(f"--- by {order} ---")
        print("\n".join(line for line in text.getvalue().splitlines() if line.strip())[:12000])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=60)
    parser.add_argument("--child", action="store_true", help="profile the child's side instead")
    parser.add_argument("--floor", action="store_true", help="the import floor's class (numpy and pandas imported, nothing more)")
    parser.add_argument("--top", type=int, default=35)
    args = parser.parse_args()
    lab = load_lab("self_attention")
    plan = Plan.build(lab)
    with tempfile.TemporaryDirectory() as work:
        if args.floor:
            build_floor(pathlib.Path(work) / "class", args.count)
            files = sorted((pathlib.Path(work) / "class").iterdir())
        else:
            files = [path for path, _ in build_class(pathlib.Path(work) / "class", args.count)]
        (child if args.child else parent)(files, plan, args.top)


if __name__ == "__main__":
    main()
