"""How fast `autograder grade` grades a class, next to `otter run` on the same files.

Builds a synthetic class (correct, wrong and broken submissions, .py and .ipynb, LMS-style names),
grades it with `autograder grade`, then grades the first --otter-sample files of the same class
with `otter run` on the autograder zip that `autograder build` writes, and prints submissions per
second for both, their ratio and peak memory. Run by hand:

    .venv/bin/python benchmarks/grade_class.py            # 600 submissions, one job per core
    .venv/bin/python benchmarks/grade_class.py -n 1200 --otter-sample 0
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = pathlib.Path(sys.executable).parent
CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")

# (label, how to change the reference into it): each is a mistake students make.
MUTATIONS = [
    ("missing_scale", lambda s: s.replace("scores(Q, K) / np.sqrt(d_k)", "scores(Q, K)")),
    ("wrong_axis", lambda s: s.replace("x.max(axis=-1, keepdims=True)", "x.max(axis=0, keepdims=True)")
     .replace("shifted.sum(axis=-1, keepdims=True)", "shifted.sum(axis=0, keepdims=True)")),
    ("argmin", lambda s: s.replace("idxmax", "idxmin")),
    ("missing_transpose", lambda s: s.replace("return Q @ K.T", "return Q @ K")),
    ("unstable", lambda s: s.replace("np.exp(x - x.max(axis=-1, keepdims=True))", "np.exp(x)")),
    ("stub", lambda s: s.replace("    return weights @ V", "    raise NotImplementedError")),
]
BROKEN = [
    ("empty", ".py", b""),
    ("bad_json", ".ipynb", b'{"cells": [{"cell_type": "code", "source": '),
    ("syntax_error", ".py", CORRECT.replace("def mix(weights, V):", "def mix(weights, V)").encode()),
    ("not_utf8", ".py", b"# \xff\xfe\n" + CORRECT.encode()),
]


def as_notebook(source):
    """The source split into code cells at top-level definitions, as a student's notebook."""
    chunks = [c for c in re.split(r"\n(?=def |import )", source) if c.strip()]
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# 셀프 어텐션 실습"]}]
    cells += [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
               "source": chunk.splitlines(True)} for chunk in chunks]
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                   "language": "python"}},
                       "nbformat": 4, "nbformat_minor": 5}, ensure_ascii=False).encode()


def build_class(folder, count, kinds=(".py", ".ipynb")):
    """`count` submissions: about 60% correct, 30% with one mistake, 10% broken; each file unique."""
    folder.mkdir(parents=True)
    made = []
    for number in range(count):
        name = f"student{number:05d}_{10000 + number}_{50000 + number}_attention"
        extension = kinds[number % len(kinds)]
        roll = number % 10
        if roll == 9:
            label, extension, data = BROKEN[(number // 10) % len(BROKEN)]
            if extension not in kinds:
                extension = kinds[0]
        else:
            label, source = "correct", CORRECT
            if roll >= 6:
                label, mutate = MUTATIONS[(number // 10 + roll) % len(MUTATIONS)]
                source = mutate(CORRECT)
            source += f"\n# submitted by student {number}\n"
            data = as_notebook(source) if extension == ".ipynb" else source.encode()
        path = folder / (name + extension)
        path.write_bytes(data)
        made.append((path, label))
    return made


class PeakMemory:
    """Samples the summed PSS of a process and all its descendants (shared pages counted once)."""

    def __init__(self, pid, interval=0.2):
        self.pid, self.interval, self.peak_kib, self.peak_processes = pid, interval, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(self.interval):
            tree = _descendants(self.pid)
            total = sum(_pss_kib(pid) for pid in tree)
            if total > self.peak_kib:
                self.peak_kib, self.peak_processes = total, len(tree)

    def stop(self):
        self._stop.set()
        self._thread.join()


def _descendants(root):
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(name))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def _pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def timed(command, sample_memory=True, **kwargs):
    """(seconds, peak PSS in MiB or None, completed process) for one command.

    Sampling memory reads every process's page tables a few times a second, which costs the
    measured run some CPU: runs that measure speed do without it.
    """
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    memory = PeakMemory(process.pid) if sample_memory else None
    stdout, stderr = process.communicate()
    seconds = time.perf_counter() - started
    peak = None
    if memory is not None:
        memory.stop()
        peak = memory.peak_kib / 1024
    return seconds, peak, subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def grade_ours(folder, out, jobs, sample_memory=False):
    seconds, peak, finished = timed([str(BIN / "autograder"), "grade", str(folder), "--lab", "self_attention", "--out", str(out),
                                     "--jobs", str(jobs)], sample_memory=sample_memory, cwd=ROOT)
    if finished.returncode != 0:
        raise SystemExit(f"autograder grade failed:\n{finished.stderr}")
    return seconds, peak, finished.stdout.strip()


def otter_zip(work, given):
    """The Otter autograder zip: given, or built now; None and a reason when there is none."""
    if given:
        return (pathlib.Path(given), None) if pathlib.Path(given).is_file() else (None, f"no such zip: {given}")
    if shutil.which("otter", path=str(BIN)) is None:
        return None, "otter is not installed in this environment"
    build = work / "build"
    finished = subprocess.run([str(BIN / "autograder"), "build", "--lab", "self_attention", "--out", str(build)], capture_output=True,
                              text=True, cwd=ROOT)
    zips = sorted((build / "autograder").glob("*.zip")) if (build / "autograder").is_dir() else []
    if finished.returncode != 0 or not zips:
        reason = (finished.stderr.strip().splitlines() or ["no zip written"])[-1]
        return None, f"`autograder build` gave no autograder zip ({reason})"
    return zips[0], None


def grade_otter(files, zip_path, work, jobs):
    """`otter run` once per file, `jobs` at a time; (seconds, peak MiB, graded count)."""
    def one(index_path):
        index, path = index_path
        out = work / f"otter-{index}"
        out.mkdir()
        started = time.perf_counter()
        process = subprocess.Popen([str(BIN / "otter"), "run", "-a", str(zip_path), "-o", str(out), str(path)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
        memory = PeakMemory(process.pid)
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        memory.stop()
        return (out / "results.json").is_file(), memory.peak_kib, time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        outcomes = list(pool.map(one, enumerate(files)))
    seconds = time.perf_counter() - started
    # Concurrent runs overlap, so the peak of the pool is at most jobs times the largest one.
    peak = max(o[1] for o in outcomes) * min(jobs, len(files)) / 1024
    return seconds, peak, sum(o[0] for o in outcomes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--count", type=int, default=600, help="submissions in the synthetic class")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--otter-sample", type=int, default=10,
                        help="how many of the same files `otter run` grades (each takes seconds); 0 skips")
    parser.add_argument("--otter-zip", help="an Otter autograder zip to use instead of building one")
    parser.add_argument("--keep", help="keep the classes and outputs in this folder")
    args = parser.parse_args()

    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="autograder-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores; jobs: {args.jobs}; class of {args.count}; work: {work}")
    try:
        mixed = build_class(work / "mixed", args.count)
        python_only = build_class(work / "py", args.count, kinds=(".py",))
        notebooks = build_class(work / "ipynb", args.count, kinds=(".ipynb",))
        double = build_class(work / "py-double", 2 * args.count, kinds=(".py",))
        labels = {}
        for _, label in mixed:
            labels[label] = labels.get(label, 0) + 1
        print("mixed class: " + ", ".join(f"{k} {v}" for k, v in sorted(labels.items())))

        rates = {}
        print("speed (start-up, grading, grades.csv, feedback files and report.html all included):")
        for name, folder, size in (("mixed", work / "mixed", len(mixed)), ("py only", work / "py", len(python_only)),
                                   ("ipynb only", work / "ipynb", len(notebooks))):
            seconds, _, summary = grade_ours(folder, work / f"out-{folder.name}", args.jobs)
            rates[name] = size / seconds
            print(f"autograder grade, {name:>16}: {size:5d} in {seconds:6.2f} s = {size / seconds:7.1f} /s")
        print("peak memory (PSS of the whole process tree, sampled 5 times a second, which slows these runs):")
        for name, folder, size in (("py, full size", work / "py", len(python_only)),
                                   ("py, double size", work / "py-double", len(double))):
            seconds, peak, _ = grade_ours(folder, work / f"out-memory-{folder.name}", args.jobs, sample_memory=True)
            print(f"autograder grade, {name:>16}: {size:5d} in {seconds:6.2f} s, peak memory {peak:6.0f} MiB")
        again, _, summary = grade_ours(work / "mixed", work / "out-mixed", args.jobs)
        unchanged = re.search(r"(\d+) unchanged", summary)
        print(f"autograder grade, mixed class again (resume, nothing changed): {again:.2f} s, "
              f"{unchanged.group(1) if unchanged else '?'} submissions skipped")

        if args.otter_sample <= 0:
            print("otter run: skipped (--otter-sample 0)")
            return
        zip_path, reason = otter_zip(work, args.otter_zip)
        if zip_path is None:
            print(f"otter run: not measured: {reason}")
            print(f"ours: {rates['mixed']:.1f} submissions/s (mixed class)")
            return
        sample = [path for path, _ in mixed[:args.otter_sample]]
        ours_seconds, _, _ = grade_ours(_copy_sample(sample, work / "sample"), work / "out-sample", args.jobs)
        otter_seconds, otter_peak, graded = grade_otter(sample, zip_path, work, args.jobs)
        otter_rate = len(sample) / otter_seconds
        print(f"otter run (zip {zip_path.name}), first {len(sample)} files of the mixed class, {args.jobs} at a time: "
              f"{otter_seconds:.2f} s = {otter_rate:.2f} /s ({graded}/{len(sample)} wrote results.json), "
              f"peak memory about {otter_peak:.0f} MiB")
        print(f"autograder grade on the same {len(sample)} files: {ours_seconds:.2f} s = "
              f"{len(sample) / ours_seconds:.2f} /s (start-up included)")
        print(f"ratio, whole mixed class vs otter: {rates['mixed'] / otter_rate:.0f}x; "
              f"same {len(sample)} files: {otter_seconds / ours_seconds:.0f}x")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _copy_sample(files, folder):
    folder.mkdir()
    for path in files:
        shutil.copy2(path, folder / path.name)
    return folder


if __name__ == "__main__":
    main()
