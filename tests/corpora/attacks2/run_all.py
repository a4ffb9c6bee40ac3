"""Runs every attack of attacks2/ through the face it targets and prints, per attack, HELD (the
promise held) or BROKE (with the evidence).

    .venv/bin/python tests/corpora/attacks2/run_all.py [NUMBER ...]

The hidden cases are imported here only as the *tester's oracle* (to say whether values that came
out of a student-visible output really are hidden inputs); no attack reads them. Outputs of each
attack are kept under tests/corpora/attacks2/out/ (or $ATTACKS2_OUT)<NN>/ for the report; out/summary.json holds the verdicts.
"""
import csv
import html
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
OUT = os.environ.get("ATTACKS2_OUT") or os.path.join(HERE, "out")
PY = sys.executable
AG = os.path.join(os.path.dirname(sys.executable), "autograder")
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(HERE, "lib"))

RESULTS = []


# helpers -------------------------------------------------------------------------------------

def run(cmd, cwd=None, env=None, timeout=1800):
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          encoding="utf-8", errors="backslashreplace")
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def record(number, name, face, verdict, evidence):
    RESULTS.append((number, name, face, verdict, evidence))
    print(f"[{number:02d}] {name} ({face}): {verdict}\n     {evidence}\n", flush=True)


def fresh(name):
    folder = os.path.join(OUT, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def save(folder, name, text):
    with open(os.path.join(folder, name), "w", encoding="utf-8", errors="backslashreplace") as handle:
        handle.write(text)


def attack_file(name):
    return os.path.join(HERE, name)


def load_module(name):
    spec = importlib.util.spec_from_file_location(name.replace(".py", ""), attack_file(name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grades_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def check_json(path, lab="self_attention", extra=()):
    rc, out, err, seconds = run([AG, "check", path, "--lab", lab, "--lang", "en", "--json", *extra])
    try:
        return rc, json.loads(out), out, err
    except ValueError:
        return rc, None, out, err


def hidden_cases(lab="self_attention"):
    """The tester's oracle: never given to an attack."""
    module = importlib.import_module(f"labs.{lab}")
    return list(module.LAB.hidden_cases())


def public_cases(lab="self_attention"):
    module = importlib.import_module(f"labs.{lab}")
    return list(module.LAB.public_cases())


import importlib  # noqa: E402  (used by the two functions above)


def gradescope_run(folder, submission_name, data, lab="self_attention", visibility="after_published"):
    """The zip's entry point as `run_autograder` starts it: `python3 -I -m autograder.otter.gradescope`
    in an empty folder, the submission in <root>/submission (the emulated /autograder)."""
    root = os.path.join(folder, "autograder")
    for sub in ("source", "submission", "results"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    config = {"plugins": [{"autograder.otter.plugin.EngineGrading": {
        "lab": lab, "lang": "en", "step_seconds": 10, "memory_mb": 1024, "visibility": visibility}}]}
    save(os.path.join(root, "source"), "otter_config.json", json.dumps(config))
    with open(os.path.join(root, "submission", submission_name), "wb") as handle:
        handle.write(data)
    empty = os.path.join(folder, "cwd")
    os.makedirs(empty, exist_ok=True)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "AUTOGRADER_ROOT": root, "LANG": "C.UTF-8"}
    rc, out, err, seconds = run([PY, "-I", "-m", "autograder.otter.gradescope"], cwd=empty, env=env)
    results = None
    path = os.path.join(root, "results", "results.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            results = json.load(handle)
    return rc, out, err, results


# 01 ------------------------------------------------------------------------------------------

def attack_01():
    folder = fresh("01")
    rc, data, out, err = check_json(attack_file("01_forged_numpy_errors_for_credit.py"))
    rc0, control, out0, err0 = check_json(attack_file("01_control_stubs.py"))
    save(folder, "check_attack.json", out + "\n--- stderr ---\n" + err)
    save(folder, "check_control.json", out0 + "\n--- stderr ---\n" + err0)
    name = "forged numpy error messages earn a named mistake's share"
    if data is None or control is None:
        record(1, name, "autograder check", "HELD", f"no JSON (exit {rc}, {rc0})")
        return
    steps = {s["name"]: (s["score"], s["mistakes"]) for s in data["steps"]}
    if data["score"] > control["score"]:
        record(1, name, "autograder check", "BROKE",
               f"a file whose six functions only raise copies of numpy's error messages scores "
               f"{data['score']:g}/{data['max_score']:g} (exit {rc}); the same functions raising "
               f"NotImplementedError score {control['score']:g}. Per step (score, named mistake): {steps}. "
               "Output: out/01/")
    else:
        record(1, name, "autograder check", "HELD",
               f"forged errors {data['score']:g}, stubs {control['score']:g}; steps {steps}")


# 02 ------------------------------------------------------------------------------------------

def attack_02():
    folder = fresh("02")
    rc, data, out, err = check_json(attack_file("02_public_answer_lookup.py"))
    save(folder, "check.json", out + "\n--- stderr ---\n" + err)
    name = "a lookup table of the kit's public answers earns partial credit"
    if data is None:
        record(2, name, "autograder check", "HELD", f"no JSON (exit {rc})")
        return
    steps = {s["name"]: (s["score"], s["mistakes"]) for s in data["steps"]}
    share = data["score"] / data["max_score"]
    # Pre-registered: BROKE when a file that computes nothing keeps 30 % or more of the lab.
    if share >= 0.30:
        record(2, name, "autograder check", "BROKE",
               f"a file with no computation (a table of the public probes' answers from the kit's "
               f"public_data.json, shape-only fillers elsewhere) scores {data['score']:g}/{data['max_score']:g} "
               f"({100 * share:.0f} %); no step is named hardcoded/ignores_arguments. Per step: {steps}. "
               "Output: out/02/check.json")
    else:
        record(2, name, "autograder check", "HELD",
               f"{data['score']:g}/{data['max_score']:g} ({100 * share:.0f} %); steps {steps}")


# 03 ------------------------------------------------------------------------------------------

STEPS1 = ("make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended")


def decode_frames(text, region_first):
    """{step: (function number, line)} from the English feedback text of each step."""
    found = {}
    parts = re.split(r"^■ (\w+) — ", text, flags=re.M)
    for i in range(1, len(parts) - 1, 2):
        step, body = parts[i], parts[i + 1]
        match = re.search(r"On a hidden case your code raised \w+ at \S+ line (\d+) \(f(\d{4})\)", body)
        if match:
            found[step] = (int(match.group(2)), int(match.group(1)) - region_first)
    return found


def attack_03():
    folder = fresh("03")
    spy = attack_file("03_traceback_place_exfiltration.py")
    region_first = int(re.search(r"line = value >> 12, (\d+) \+", open(spy, encoding="utf-8").read()).group(1))
    klass = os.path.join(folder, "class")
    os.makedirs(klass)
    shutil.copy(spy, os.path.join(klass, "kim.py"))
    shutil.copy(os.path.join(HERE, "lib", "honest.py"), os.path.join(klass, "lee.py"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, seconds = run([AG, "grade", klass, "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                                 "--jobs", "1"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    name = "hidden inputs spelled by the place of a hidden error"
    try:
        with open(os.path.join(out_dir, "feedback", "kim.md"), encoding="utf-8") as handle:
            md = handle.read()
    except OSError as error:
        record(3, name, "autograder grade (feedback/<id>.md)", "HELD", f"no feedback ({error}); exit {rc}")
        return
    frames = decode_frames(md, region_first)
    data = bytearray()
    for step in STEPS1:
        if step not in frames:
            break
        function, offset = frames[step]
        data += ((function << 12) | offset).to_bytes(3, "big")
    values = np.frombuffer(bytes(data[:len(data) // 2 * 2]), dtype="<f2").astype(float)
    matches = []
    for case in hidden_cases():
        X = np.asarray(case.X, dtype=float).ravel()
        k = min(len(values), len(X))
        if k and np.allclose(values[:k], X[:k].astype(np.float16).astype(float), atol=1e-3) and not any(
                np.asarray(p.X).shape == np.asarray(case.X).shape and np.allclose(p.X, case.X) for p in public_cases()):
            matches.append(f"{case.name}: X[:{k}] = {np.round(X[:k], 4).tolist()}")
    bits = 24 * len(frames)
    if matches:
        record(3, name, "autograder grade (feedback/<id>.md)", "BROKE",
               f"the student's own feedback/kim.md shows one hidden error per step; its line numbers and "
               f"function names decode to {len(data)} bytes ({bits} bits from one submission, 24 per hidden "
               f"error): float16 values {np.round(values, 4).tolist()} equal the hidden case's inputs "
               f"({'; '.join(matches)}). Public tests all passed. Output: out/03/graded/feedback/kim.md")
    else:
        record(3, name, "autograder grade (feedback/<id>.md)", "HELD",
               f"frames decoded: {frames}; values {values.tolist()} match no hidden X; exit {rc}")


# 04 ------------------------------------------------------------------------------------------

def _number_runs(text):
    """Every numeric literal of a text file, in order (one run per file)."""
    return [float(m) for m in re.findall(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)]


def _blob_runs(text):
    """The float64 and float32 arrays that base64 strings of a JSON/notebook file decode to."""
    import base64
    runs = []
    for blob in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", text):
        try:
            raw = base64.b64decode(blob + "=" * (-len(blob) % 4))
        except Exception:
            continue
        for dtype in ("<f8", "<f4"):
            size = np.dtype(dtype).itemsize
            if raw and len(raw) % size == 0:
                runs.append(np.frombuffer(raw, dtype=dtype).astype(float))
    return runs


def _contains(run, values):
    """Whether `values` appear in `run` as a contiguous sequence (within 1e-4)."""
    run = np.asarray(run, dtype=float)
    k = len(values)
    if k == 0 or len(run) < k:
        return False
    with np.errstate(all="ignore"):
        starts = np.flatnonzero(np.abs(run[:len(run) - k + 1] - values[0]) <= 1e-4)
        return any(np.allclose(run[s:s + k], values, atol=1e-4, rtol=0) for s in starts)


def attack_04():
    """The oracle looks for each hidden input array whole, in order (as numbers in a text, or inside a
    base64 float blob): its first run counted loose values and was fooled by one-decimal numbers (see
    REPORT.md), so it was rerun with this one."""
    folder = fresh("04")
    from autograder.otter.build import build
    from labs.self_attention import LAB
    started = time.monotonic()
    result = build(os.path.join(folder, "dist"), LAB, lang="en", self_check=False)
    runs, files = [], 0
    for half in ("student", "classroom"):
        for top, _, names in os.walk(result[half]):
            for name in names:
                path = os.path.join(top, name)
                try:
                    text = open(path, encoding="utf-8").read()
                except (UnicodeDecodeError, OSError):
                    continue
                files += 1
                runs.append(_number_runs(text))
                runs.extend(_blob_runs(text))
    public = [np.asarray(getattr(c, k), dtype=float) for c in public_cases() for k in ("X", "W_Q", "W_K", "W_V")]
    leaks, looked = [], 0
    for case in hidden_cases():
        for key in ("X", "W_Q", "W_K", "W_V"):
            array = np.asarray(getattr(case, key), dtype=float)
            if any(p.shape == array.shape and np.allclose(p, array) for p in public):
                continue  # the same values as a public input: not a hidden value
            looked += 1
            if any(_contains(run, array.ravel()) for run in runs):
                leaks.append(f"{case.name}.{key} {array.shape}")
    save(folder, "scan.txt", f"{files} text files scanned in {time.monotonic() - started:.0f} s; "
                             f"{looked} hidden input arrays looked for whole; leaks: {leaks}\n")
    name = "hidden inputs in the student half (kit, notebook metadata, Classroom template)"
    if leaks:
        record(4, name, "autograder build (dist/student, dist/classroom)", "BROKE",
               f"the student half holds whole hidden input arrays: {leaks}. Output: out/04/")
    else:
        record(4, name, "autograder build (dist/student, dist/classroom)", "HELD",
               f"{files} text files of dist/student and dist/classroom (numbers in order, and base64 float64/float32 "
               f"blobs): none of the {looked} hidden input arrays that differ from public ones appears whole. "
               "Output: out/04/scan.txt")


# 05 ------------------------------------------------------------------------------------------

def screen_rows(text, width=80):
    """How a terminal `width` columns wide shows `text` (one column per character: the output is English)."""
    rows = []
    for line in text.split("\n"):
        if not line:
            rows.append("")
        while line:
            rows.append(line[:width])
            line = line[width:]
    return rows


def in_terminal(command, columns=80, rows=50, timeout=300):
    """(exit status, what `command` wrote) run in a pseudo-terminal `columns` wide, as in a TA's
    terminal window (a program sees a terminal, and its size, only there)."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    chunks, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def attack_05():
    folder = fresh("05")
    rc, out = in_terminal([AG, "check", attack_file("05_wrapped_line_spoof.py"), "--lab", "self_attention",
                           "--lang", "en"])
    err = ""
    save(folder, "check.txt", out + "\n--- stderr ---\n" + err)
    rows = screen_rows(out)
    save(folder, "screen_80_columns.txt", "\n".join(f"|{r}" for r in rows) + "\n")
    real_total = re.search(r"^Total ([\d.]+) / 10 points", out, re.M)
    fake_rows = [i for i, r in enumerate(rows) if r.startswith("Total 10 / 10 points  Every step passed")]
    fake_header = [i for i, r in enumerate(rows) if r.startswith("■ self_attention — 3")]
    name = "a fake verdict that starts a screen row, without a newline"
    if fake_rows and real_total and real_total.group(1) != "10":
        record(5, name, "autograder check (terminal, 80 columns)", "BROKE",
               f"the student's load-error message, padded with spaces to column 80, shows as screen rows "
               f"{[rows[i].rstrip() for i in fake_header + fake_rows]} (rows {fake_header + fake_rows} of the "
               f"80-column screen) although the real total is {real_total.group(1)}/10 and self_attention is "
               f"missing; no control character or newline was needed. Output: out/05/screen_80_columns.txt")
    else:
        record(5, name, "autograder check (terminal, 80 columns)", "HELD",
               f"no screen row starts with the fake total (real total {real_total.group(1) if real_total else '?'})")


# 06 ------------------------------------------------------------------------------------------

def attack_06():
    folder = fresh("06")
    paths = load_module("06_build_sheet_vanish.py").build(os.path.join(folder, "inputs"))
    seen = {}
    for kind in ("attack", "control"):
        out_dir = os.path.join(folder, f"graded_{kind}")
        rc, out, err, _ = run([AG, "grade", paths[kind], "--out", out_dir, "--lab", "self_attention",
                               "--lang", "en", "--jobs", "1"])
        save(folder, f"grade_{kind}.txt", out + "\n--- stderr ---\n" + err)
        rows = grades_rows(os.path.join(out_dir, "grades.csv"))
        upload = os.path.join(folder, f"moodle-upload-{kind}.csv")
        rc2, out2, err2, _ = run([AG, "export", "moodle", out_dir, "--sheet", paths["sheet"], "--out", upload,
                                  "--lab", "self_attention", "--lang", "en"])
        save(folder, f"export_{kind}.txt", out2 + "\n--- stderr ---\n" + err2)
        cell = None
        if os.path.exists(upload):
            with open(upload, encoding="utf-8-sig", newline="") as handle:
                cell = {r["Identifier"]: r["Grade"] for r in csv.DictReader(handle)}.get("Participant 10233")
        seen[kind] = {"rc": rc, "park_rows": [(r["file"], r["total"], r["status"]) for r in rows if r["id"] == "10233"],
                      "ids": sorted({r["id"] for r in rows}), "cell": cell, "export_rc": rc2}
    name = "a student vanishes from grades.csv by the first line of their own file"
    attack, control = seen["attack"], seen["control"]
    if not attack["park_rows"] and control["park_rows"]:
        record(6, name, "autograder grade + export moodle (Moodle zip)", "BROKE",
               f"Park (10233) sent one file, answers.txt. Without a first line 'Student, ID, SIS User ID, ...' it is "
               f"a row {control['park_rows']} and export writes Grade {control['cell']!r}; with it Park has no row at "
               f"all (ids in grades.csv: {attack['ids']}) and export leaves Park's cell as it was: {attack['cell']!r} "
               f"(the TA's provisional 8.00). Output: out/06/")
    else:
        record(6, name, "autograder grade + export moodle (Moodle zip)", "HELD",
               f"attack: {attack}; control: {control}")


# 07 ------------------------------------------------------------------------------------------

def attack_07():
    folder = fresh("07")
    paths = load_module("07_build_small_zip_amplification.py").build(os.path.join(folder, "inputs"), n=2000)
    with zipfile.ZipFile(paths["attack"]) as archive:
        junk = [i for i in archive.infolist() if i.filename.endswith(".zip")]
        stored, declared = sum(i.compress_size for i in junk), sum(i.file_size for i in junk)
    # What the grader's own reading decompresses, counted by its Source (the code `grade` runs).
    from autograder.batch.collect import group_students
    from autograder.batch.source import Source
    source = Source(paths["attack"])
    started = time.monotonic()
    group_students(source)
    listing_seconds = time.monotonic() - started
    inflated = source.inflated_bytes
    source.close()
    times = {}
    for kind in ("control", "attack"):
        out_dir = os.path.join(folder, f"graded_{kind}")
        rc, out, err, seconds = run([AG, "grade", paths[kind], "--out", out_dir, "--lab", "self_attention",
                                     "--lang", "en", "--jobs", "1"])
        save(folder, f"grade_{kind}.txt", out + "\n--- stderr ---\n" + err)
        times[kind] = (rc, seconds)
    size = os.path.getsize(paths["attack"])
    ratio = inflated / max(stored, 1)
    name = "one student's small .zip files are decompressed ~1000 times their size"
    evidence = (f"Lee's folder holds {len(junk)} .zip files taking {stored / 1e6:.2f} MB in the {size / 1e6:.2f} MB "
                f"class zip (declaring {declared / 1e9:.2f} GB); listing the class decompressed {inflated / 1e9:.2f} GB "
                f"({ratio:.0f} times the stored size; {listing_seconds:.1f} s in-process). `autograder grade` took "
                f"{times['attack'][1]:.1f} s (exit {times['attack'][0]}) against {times['control'][1]:.1f} s without "
                f"the files.")
    if ratio > 20:
        record(7, name, "autograder grade (Moodle zip)", "BROKE",
               evidence + " docs/SECURITY.md bounds it at 20 times the stored size. Output: out/07/")
    else:
        record(7, name, "autograder grade (Moodle zip)", "HELD", evidence)


# 08 ------------------------------------------------------------------------------------------

def attack_08():
    folder = fresh("08")
    rc, out, err, _ = run([AG, "check", attack_file("08_machine_folders_in_other_lookalikes.py"), "--lab",
                           "self_attention", "--lang", "en"])
    save(folder, "check.txt", out + "\n--- stderr ---\n" + err)
    line = next((l for l in out.splitlines() if "where:" in l), "")
    readable = line.replace("\u27cb", "/").replace("\u1735", "/")
    shown = {key: value for key, value in re.findall(r"(exe|numpy|cwd)=(\S+)", readable)}
    real = {key: value for key, value in shown.items() if value.count("/") >= 2 and os.path.exists(value)}
    name = "the machine's folders drawn with other look-alike slashes"
    if real:
        record(8, name, "autograder check", "BROKE",
               f"the student-visible load note reads {line.strip()[:260]!r}: with U+27CB and U+1735 read as '/', "
               f"it names existing folders of the grading machine: {real}. Output: out/08/check.txt")
    else:
        record(8, name, "autograder check", "HELD", f"no machine folder in the note: {line.strip()[:200]!r}")


# 09 ------------------------------------------------------------------------------------------

def attack_09():
    folder = fresh("09")
    paths = load_module("09_build_nested_zip_impersonation.py").build(os.path.join(folder, "inputs"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, _ = run([AG, "grade", paths["class"], "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                           "--jobs", "1"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    rows = grades_rows(os.path.join(out_dir, "grades.csv"))
    lee = [(r["file"], r["total"], r["status"]) for r in rows if r["id"] == "10232"]
    park = [(r["file"], r["total"], r["status"]) for r in rows if r["id"] == "10233"]
    name = "a hand-made zip whose inner file is named like a classmate's upload"
    expected = [("submissions/leejiwon_10232_55002_attention.py", "10.0", "graded")]
    if lee != expected:
        record(9, name, "autograder grade (Canvas zip)", "BROKE", f"Lee's rows {lee} (expected {expected}); "
               f"Park's {park}; exit {rc}. Output: out/09/")
    else:
        record(9, name, "autograder grade (Canvas zip)", "HELD", f"Lee's row unchanged {lee}; Park's {park}; exit {rc}")


# 10 ------------------------------------------------------------------------------------------

def attack_10():
    folder = fresh("10")
    path = attack_file("10_surrogate_in_a_forged_event.py")
    with open(path, "rb") as handle:
        data = handle.read()
    rc, out, err, results = gradescope_run(folder, "self_attention_lab.py", data)
    save(folder, "entry_point.txt", out + "\n--- stderr ---\n" + err)
    if results is not None:
        save(folder, "results.json", json.dumps(results, ensure_ascii=False, indent=2))
    rc2, out2, err2, _ = run([AG, "check", path, "--lab", "self_attention", "--lang", "en"])
    save(folder, "check.txt", out2 + "\n--- stderr ---\n" + err2)
    tests_dir = os.path.join(folder, "pytest")
    os.makedirs(tests_dir)
    rc3, out3, err3, _ = run([PY, "-m", "pytest", "-p", "no:cacheprovider", "--submission", path,
                              "--submission-lab", "self_attention", "--submission-lang", "en", "-q"], cwd=tests_dir)
    save(folder, "pytest.txt", out3 + "\n--- stderr ---\n" + err3)
    broken_gs = results is None or any(t.get("name") == "Autograder error" for t in results.get("tests", []))
    check_failed = rc2 == 2 and "internal error" in err2
    name = "a lone surrogate in a forged event makes the grader fail"
    faces = []
    if broken_gs:
        faces.append(f"Gradescope entry point exit {rc}: results.json is the grader-failure page "
                     f"(score {results.get('score') if results else None}, \"{(results or {}).get('output', '')[:80]}...\")")
    if check_failed:
        faces.append(f"`autograder check` exit 2: {err2.strip().splitlines()[-1]!r} after a UnicodeEncodeError")
    if "exited with 2" in out3:
        faces.append("`pytest --submission` fails every step with 'autograder check exited with 2'")
    if faces:
        record(10, name, "Gradescope entry point / check / pytest", "BROKE",
               "a correct solution that forges one load_error event whose message holds \\ud800: " + "; ".join(faces)
               + ". Output: out/10/")
    else:
        record(10, name, "Gradescope entry point / check / pytest", "HELD",
               f"entry point exit {rc}, score {results.get('score') if results else None}; check exit {rc2}")


# 11 ------------------------------------------------------------------------------------------

def attack_11():
    folder = fresh("11")
    klass = os.path.join(folder, "class")
    os.makedirs(klass)
    shutil.copy(attack_file("10_surrogate_in_a_forged_event.py"), os.path.join(klass, "kim.py"))
    shutil.copy(os.path.join(HERE, "lib", "honest.py"), os.path.join(klass, "lee.py"))
    out_dir = os.path.join(folder, "graded")
    runs = []
    for attempt in (1, 2):
        rc, out, err, _ = run([AG, "grade", klass, "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                               "--jobs", "1"])
        save(folder, f"grade_run{attempt}.txt", out + "\n--- stderr ---\n" + err)
        rows = {r["id"]: (r["total"], r["status"]) for r in grades_rows(os.path.join(out_dir, "grades.csv"))}
        feedback = sorted(os.listdir(os.path.join(out_dir, "feedback")))
        runs.append((rc, rows.get("kim"), rows.get("lee"), feedback))
    name = "feedback that no run can write (the next run does not write it either)"
    kim_status = runs[1][1][1] if runs[1][1] else ""
    if kim_status.startswith("error: outputs not written") and not any(n.startswith("kim.") for n in runs[1][3]):
        record(11, name, "autograder grade (run twice)", "BROKE",
               f"run 1: kim {runs[0][1]}, run 2: kim {runs[1][1]}; feedback/ after run 2 holds {runs[1][3]} "
               "(no kim.md or kim.html). README: 'error: outputs not written (<why>) keeps the grade, but its "
               "feedback could not be written: the next run writes it'; every run fails the same way, so the "
               "student never gets feedback (and `export moodle` zips none for them). Output: out/11/")
    else:
        record(11, name, "autograder grade (run twice)", "HELD", f"runs: {runs}")


# 12 ------------------------------------------------------------------------------------------

def attack_12():
    folder = fresh("12")
    rc, data, out, err = check_json(attack_file("12_stand_in_oracle_probe_lab2.py"), lab="masked_attention")
    save(folder, "check.json", out + "\n--- stderr ---\n" + err)
    name = "stand-ins as an oracle on made-up arguments (lab 2)"
    text = out if data is None else json.dumps(data, ensure_ascii=False)
    found = re.search(r"ORACLE: ([^\"]+)", text)
    step = next((s for s in (data or {}).get("steps", []) if s["name"] == "multi_head_attention"), {})
    if found:
        record(12, name, "autograder check --lab masked_attention", "BROKE",
               f"the stand-ins answered made-up requests: {found.group(1)[:300]}. Output: out/12/check.json")
    else:
        record(12, name, "autograder check --lab masked_attention", "HELD",
               f"every made-up request was refused; multi_head_attention {step.get('score')}/{step.get('max_score')} "
               f"({step.get('status')}) from the stand-ins' answers to the reference's own calls; exit {rc}")


ATTACKS = [attack_01, attack_02, attack_03, attack_04, attack_05, attack_06, attack_07, attack_08, attack_09,
           attack_10, attack_11, attack_12]


def main(argv):
    wanted = {int(a) for a in argv[1:]} if len(argv) > 1 else None
    os.makedirs(OUT, exist_ok=True)
    for number, attack in enumerate(ATTACKS, start=1):
        if wanted and number not in wanted:
            continue
        try:
            attack()
        except Exception as error:  # the harness's own failure is reported, never a verdict
            import traceback
            traceback.print_exc()
            record(number, attack.__name__, "-", "ERROR (harness)", f"{type(error).__name__}: {error}")
    print("=" * 100)
    for number, name, face, verdict, _ in RESULTS:
        print(f"{number:02d}  {verdict:<6}  {name}  [{face}]")
    broke = sum(1 for r in RESULTS if r[3] == "BROKE")
    print(f"{len(RESULTS)} attacks, {broke} broke a promise.")
    summary = os.path.join(OUT, "summary.json")
    previous = []
    if wanted and os.path.exists(summary):
        with open(summary, encoding="utf-8") as handle:
            previous = [r for r in json.load(handle) if r["number"] not in wanted]
    with open(summary, "w", encoding="utf-8") as handle:
        json.dump(sorted(previous + [dict(zip(("number", "name", "face", "verdict", "evidence"), r)) for r in RESULTS],
                         key=lambda r: r["number"]), handle, indent=2, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv)
