"""Runs every attack through the face it targets and prints, per attack, HELD or BROKE (with the
evidence). Run by hand with the project's venv: `.venv/bin/python tests/corpora/attacks/run_all.py [NUMBER ...]`.

The hidden cases are imported here only as the *tester's oracle*, to say whether values that came
out of a student-visible output really are hidden inputs; no attack reads them.
Outputs of each attack are kept under attacks/out/<attack>/ for the report.
"""
import base64
import csv
import html
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
OUT = os.environ.get("ATTACKS_OUT") or os.path.join(HERE, "out")
# The grader as installed beside the interpreter running this (the project's .venv, or CI's).
PY = sys.executable
AG = os.path.join(os.path.dirname(sys.executable), "autograder")
sys.path.insert(0, os.path.join(HERE, "lib"))

RESULTS = []


def run(cmd, cwd=None, env=None, timeout=900):
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def ipc_remove(keys):
    for key in keys:
        subprocess.run(["ipcrm", "-M", hex(key)], capture_output=True)


def ipc_segments(keys):
    """{key: bytes} of the System V segments with these keys that exist now."""
    listing = subprocess.run(["ipcs", "-m"], capture_output=True, text=True).stdout
    found = {}
    for line in listing.splitlines():
        parts = line.split()
        if parts and parts[0].startswith("0x") and int(parts[0], 16) in keys:
            found[int(parts[0], 16)] = int(parts[4])
    return found


def shmem_kb():
    with open("/proc/meminfo") as handle:
        for line in handle:
            if line.startswith("Shmem:"):
                return int(line.split()[1])
    return 0


def hidden_cases():
    from labs.self_attention import LAB
    return [case for case in LAB.hidden_cases()]


def public_cases():
    from labs.self_attention import LAB
    return list(LAB.public_cases())


def hidden_case_matching(arrays):
    """The hidden case whose X, W_Q, W_K, W_V equal `arrays` (within 1e-3), else None."""
    for case in hidden_cases():
        try:
            if all(np.shape(a) == np.shape(b) and np.allclose(a, b, atol=1e-3)
                   for a, b in zip(arrays, (case.X, case.W_Q, case.W_K, case.W_V))):
                return case
        except Exception:
            continue
    return None


def is_public_array(array):
    for case in public_cases():
        for b in (case.X, case.W_Q, case.W_K, case.W_V):
            if np.shape(array) == np.shape(b) and np.allclose(array, b, atol=1e-3):
                return True
    return False


def hidden_array_owner(array):
    for case in hidden_cases():
        for key in ("X", "W_Q", "W_K", "W_V"):
            b = getattr(case, key)
            if np.shape(array) == np.shape(b) and np.allclose(array, b, atol=1e-3):
                return f"{case.name}.{key}"
    return None


def record(number, name, face, verdict, evidence):
    RESULTS.append((number, name, face, verdict, evidence))
    print(f"[{number:02d}] {name} ({face}): {verdict}\n     {evidence}\n", flush=True)


def fresh(name):
    folder = os.path.join(OUT, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def save(folder, name, text):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
        handle.write(text)


# 01 -------------------------------------------------------------------------------------------

def leaked_arrays(text, packed_scale=None):
    """(arrays recovered from the LEAK chunks in `text`, chunks seen, chunks announced). The grader
    cuts load notes at 300 characters, so decoding goes as far as the chunks arrived whole."""
    from leakdecode import json_arrays, packed_arrays, visible_bytes
    data, seen, total = visible_bytes(text)
    arrays = packed_arrays(data, packed_scale) if packed_scale else json_arrays(data)
    return arrays, seen, total


def hidden_owners(arrays):
    """'case.input shape' for each array equal to a hidden input and to no public one."""
    owners = []
    for array in arrays:
        owner = hidden_array_owner(array)
        if owner and not is_public_array(array) and owner not in owners:
            owners.append(f"{owner} {tuple(array.shape)}")
    return owners


def attack_01():
    key = 0x7A7A0101
    folder = fresh("01")
    ipc_remove([key])
    path = os.path.join(HERE, "01_ipc_hidden_inputs_in_load_notes.py")
    rc, out, err, seconds = run([AG, "check", path, "--lab", "self_attention", "--lang", "en"])
    save(folder, "check.txt", out + "\n--- stderr ---\n" + err)
    ipc_remove([key])
    verdict_01(out, rc)


def verdict_01(out, rc):
    arrays, seen, total = leaked_arrays(out)
    owners = hidden_owners(arrays)
    if owners:
        record(1, "System V shm carries hidden inputs into the load notes", "autograder check", "BROKE",
               f"`autograder check` (exit {rc}) printed {seen} load notes (of {total}) made of hidden inputs; "
               f"decoded as far as the grader's 300-character cut of each note allows, they hold arrays equal to "
               f"hidden inputs: {', '.join(owners)}. Output: out/01/check.txt")
    else:
        record(1, "System V shm carries hidden inputs into the load notes", "autograder check", "HELD",
               f"no hidden input recovered from the output (exit {rc}, {seen} chunk(s) seen). Output: out/01/check.txt")


# 02 -------------------------------------------------------------------------------------------

def attack_02():
    key = 0x7A7A0102
    folder = fresh("02")
    ipc_remove([key])
    root = os.path.join(folder, "autograder")
    os.makedirs(os.path.join(root, "source"))
    os.makedirs(os.path.join(root, "submission"))
    os.makedirs(os.path.join(root, "results"))
    config = {"plugins": [{"autograder.otter.plugin.EngineGrading": {
        "lab": "self_attention", "lang": "en", "step_seconds": 10, "memory_mb": 1024,
        "visibility": "after_published"}}]}
    save(os.path.join(root, "source"), "otter_config.json", json.dumps(config))
    shutil.copy(os.path.join(HERE, "02_ipc_hidden_inputs_in_gradescope_public_tests", "self_attention_lab.py"),
                os.path.join(root, "submission", "self_attention_lab.py"))
    empty = os.path.join(folder, "cwd")
    os.makedirs(empty)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "AUTOGRADER_ROOT": root, "LANG": "C.UTF-8"}
    rc, out, err, seconds = run([PY, "-I", "-m", "autograder.otter.gradescope"], cwd=empty, env=env)
    ipc_remove([key])
    save(folder, "entry_point.txt", out + "\n--- stderr ---\n" + err)
    try:
        with open(os.path.join(root, "results", "results.json"), encoding="utf-8") as handle:
            results = json.load(handle)
    except (OSError, ValueError) as error:
        record(2, "System V shm carries hidden inputs into Gradescope's Public Tests", "Gradescope entry point",
               "HELD", f"no results.json ({error}); entry point exit {rc}")
        return
    shutil.copy(os.path.join(root, "results", "results.json"), os.path.join(folder, "results.json"))
    public = [t for t in results.get("tests", []) if t.get("name") == "Public Tests"]
    visible = "\n".join(t.get("output", "") for t in public if t.get("visibility") == "visible")
    visible += "\n" + results.get("output", "")
    verdict_02(visible, results, rc)


def verdict_02(visible, results, rc):
    arrays, seen, total = leaked_arrays(visible)
    owners = hidden_owners(arrays)
    if owners:
        record(2, "System V shm carries hidden inputs into Gradescope's Public Tests", "Gradescope entry point",
               "BROKE", f"results.json's 'Public Tests' (visibility 'visible', shown before grades are published; "
               f"build visibility after_published) and its top-level 'output' hold {seen} notes (of {total}) made of "
               f"hidden inputs; decoded as far as the 300-character cut allows: {', '.join(owners)}. "
               f"score {results.get('score')}. Output: out/02/results.json")
    else:
        record(2, "System V shm carries hidden inputs into Gradescope's Public Tests", "Gradescope entry point",
               "HELD", f"no hidden input in the visible parts of results.json ({seen} chunk(s)); exit {rc}")


# 03 -------------------------------------------------------------------------------------------

def unpack_arrays(blob):
    raw = zlib.decompress(base64.urlsafe_b64decode(blob))
    arrays, at = [], 0
    while at + 2 <= len(raw):
        rows, cols = struct.unpack_from("<BB", raw, at)
        at += 2
        size = rows * cols * 4
        values = np.frombuffer(raw[at:at + size], dtype="<i4").astype(float) / 100
        at += size
        arrays.append(values.reshape(rows, cols))
    return arrays


def attack_03():
    key = 0x7A7A0103
    folder = fresh("03")
    ipc_remove([key])
    klass = os.path.join(folder, "class")
    os.makedirs(klass)
    shutil.copy(os.path.join(HERE, "03_ipc_hidden_inputs_in_public_self_attention_message.py"),
                os.path.join(klass, "kim.py"))
    shutil.copy(os.path.join(HERE, "lib", "honest_solution.py"), os.path.join(klass, "lee.py"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, seconds = run([AG, "grade", klass, "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                                 "--jobs", "1"])
    ipc_remove([key])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    try:
        with open(os.path.join(out_dir, "feedback", "kim.md"), encoding="utf-8") as handle:
            md = handle.read()
    except OSError as error:
        record(3, "System V shm carries hidden inputs into a public failure of self_attention", "autograder grade",
               "HELD", f"no feedback/kim.md ({error}); exit {rc}")
        return
    found = re.search(r"HID:([A-Za-z0-9_=\-]+)", md)
    owners = []
    if found:
        try:
            for array in unpack_arrays(found.group(1)):
                owner = hidden_array_owner(array)
                if owner and not is_public_array(array):
                    owners.append(f"{owner} {array.shape}")
        except Exception as error:  # a truncated message
            owners = []
            print("     (03: could not decode:", error, ")")
    if owners:
        record(3, "System V shm carries hidden inputs into a public failure of self_attention", "autograder grade",
               "BROKE", f"feedback/kim.md (the student's own page) shows, as the public page case's error message "
               f"of self_attention, arrays equal to hidden inputs: {', '.join(owners)}. Output: out/03/graded/")
    else:
        record(3, "System V shm carries hidden inputs into a public failure of self_attention", "autograder grade",
               "HELD", f"no hidden input in feedback/kim.md (marker found: {bool(found)}); exit {rc}")


# 04 -------------------------------------------------------------------------------------------

def grades_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def attack_04():
    key = 0x7A7A0104
    folder = fresh("04")
    ipc_remove([key])
    source = os.path.join(HERE, "04_ipc_cross_student_oracle")
    # B alone first: its own grade, on a machine where no harvest happened.
    rc_alone, alone_out, alone_err, _ = run([AG, "check", os.path.join(source, "beneficiary_B.py"), "--lab",
                                             "self_attention", "--lang", "en", "--json"])
    save(folder, "B_alone.json", alone_out + "\n--- stderr ---\n" + alone_err)
    try:
        alone = json.loads(alone_out)["score"]
    except (ValueError, KeyError):
        alone = None
    ipc_remove([key])
    klass = os.path.join(folder, "canvas_class")
    os.makedirs(klass)
    shutil.copy(os.path.join(source, "harvester_A.py"), os.path.join(klass, "ahn_10001_55001_attention.py"))
    for k in range(2, 8):
        shutil.copy(os.path.join(HERE, "lib", "honest_solution.py"),
                    os.path.join(klass, f"filler{k}_1000{k}_5500{k}_attention.py"))
    shutil.copy(os.path.join(source, "beneficiary_B.py"), os.path.join(klass, "yoon_10009_55009_attention.py"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, seconds = run([AG, "grade", klass, "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                                 "--jobs", "2"])
    ipc_remove([key])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    rows = {row["id"]: row for row in grades_rows(os.path.join(out_dir, "grades.csv")) if row.get("total")}
    b = rows.get("10009", {})
    steps = {name: b.get(name) for name in ("make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended")}
    in_class = float(b["total"]) if b.get("total") else None
    if alone is not None and in_class is not None and in_class > alone:
        record(4, "one student's stand-in answers become another student's points", "autograder grade (Canvas folder)",
               "BROKE", f"student B (10009), whose functions only look answers up, gets {alone:g}/10 alone "
               f"(`autograder check`) and {in_class:g}/10 graded after student A (10001) in the same class "
               f"(steps {steps}). A's self_attention stored the grader's stand-in answers in System V shared "
               f"memory (mode 0666), which B's sandbox read. Output: out/04/")
    else:
        record(4, "one student's stand-in answers become another student's points", "autograder grade (Canvas folder)",
               "HELD", f"B alone {alone}, B in the class {in_class} (steps {steps}); exit {rc}")


# 05 -------------------------------------------------------------------------------------------

def attack_05():
    keys = list(range(0x7A7A0501, 0x7A7A0507))
    folder = fresh("05")
    ipc_remove(keys)
    before = shmem_kb()
    rc, out, err, seconds = run([AG, "check", os.path.join(HERE, "05_ipc_memory_outlives_the_limits.py"),
                                 "--lab", "self_attention", "--lang", "en", "--memory-mb", "1024"])
    save(folder, "check.txt", out + "\n--- stderr ---\n" + err)
    time.sleep(1)
    left = ipc_segments(keys)
    after = shmem_kb()
    listing = subprocess.run(["ipcs", "-m"], capture_output=True, text=True).stdout
    save(folder, "ipcs_after.txt", listing)
    ipc_remove(keys)
    total_mb = sum(left.values()) / 2 ** 20
    score = re.search(r"Total ([\d.]+) / 10", out)
    if total_mb > 1024:
        record(5, "memory that outlives the sandbox and its limits", "autograder check", "BROKE",
               f"after `autograder check --memory-mb 1024` exited ({rc}; score {score.group(1) if score else '?'}), "
               f"{len(left)} System V segments owned by the sandbox user ({total_mb:.0f} MB) were still there; "
               f"the kernel's Shmem went from {before / 1024:.0f} MB to {after / 1024:.0f} MB. Nothing of the grader "
               f"removes them (removed here with ipcrm). Output: out/05/")
    else:
        record(5, "memory that outlives the sandbox and its limits", "autograder check", "HELD",
               f"{total_mb:.0f} MB left after the run (exit {rc})")


# 06 -------------------------------------------------------------------------------------------

def attack_06():
    folder = fresh("06")
    klass = os.path.join(folder, "class")
    os.makedirs(klass)
    shutil.copy(os.path.join(HERE, "06_keyring_hidden_inputs_in_class_feedback.py"), os.path.join(klass, "kim.py"))
    shutil.copy(os.path.join(HERE, "lib", "honest_solution.py"), os.path.join(klass, "lee.py"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, seconds = run([AG, "grade", klass, "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                                 "--jobs", "1"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    try:
        with open(os.path.join(out_dir, "feedback", "kim.html"), encoding="utf-8") as handle:
            page = html.unescape(handle.read())
    except OSError as error:
        record(6, "the kernel keyring carries hidden inputs into the class feedback", "autograder grade", "HELD",
               f"no feedback/kim.html ({error}); exit {rc}")
        return
    verdict_06(page, rc)


def verdict_06(page, rc):
    arrays, seen, total = leaked_arrays(page, packed_scale=1000)
    owners = hidden_owners(arrays)
    if owners:
        record(6, "the kernel keyring carries hidden inputs into the class feedback", "autograder grade", "BROKE",
               f"feedback/kim.html (and .md) hold {seen} load notes (of {total}) made of hidden inputs; decoded as far "
               f"as the 300-character cut allows: {', '.join(owners)}. Output: out/06/graded/feedback/")
    else:
        record(6, "the kernel keyring carries hidden inputs into the class feedback", "autograder grade", "HELD",
               f"no hidden input recovered from feedback/kim.html ({seen} chunk(s)); exit {rc}")


# 07 -------------------------------------------------------------------------------------------

def attack_07():
    folder = fresh("07")
    timeout = 2.0
    # docs/SECURITY.md: at most (4 + 2 × steps) × --timeout of the submission's code (Limits.submission_seconds)
    bound = (4 + 2 * 6) * timeout
    rc, out, err, seconds = run([AG, "check", os.path.join(HERE, "07_wallclock_beyond_the_documented_bound.py"),
                                 "--lab", "self_attention", "--lang", "en", "--timeout", str(timeout)])
    save(folder, "check.txt", out + f"\n--- stderr ---\n{err}\n--- {seconds:.1f} s ---\n")
    score = re.search(r"Total ([\d.]+) / 10", out)
    score = score.group(1) if score else "?"
    if seconds > 1.5 * bound:
        record(7, "grading time far beyond the documented (4 + 2 x steps) x timeout", "autograder check --timeout 2", "BROKE",
               f"one `autograder check` took {seconds:.1f} s = {seconds / bound:.1f} x the documented bound "
               f"(4 + 2 x 6) x {timeout:g} s = {bound:g} s, and the file kept {score}/10 (exit {rc}). Output: out/07/")
    else:
        record(7, "grading time far beyond the documented (4 + 2 x steps) x timeout", "autograder check --timeout 2", "HELD",
               f"{seconds:.1f} s against a bound of {bound:g} s (score {score}, exit {rc})")


# 08 -------------------------------------------------------------------------------------------

def attack_08():
    folder = fresh("08")
    path = os.path.join(HERE, "08_refused_helper_names_carry_hidden_inputs.py")
    texts = {}
    for lang in ("en", "ko"):
        rc, out, err, _ = run([AG, "check", path, "--lab", "self_attention", "--lang", lang,
                               "--html", os.path.join(folder, f"page_{lang}.html")])
        texts[f"check_{lang}.txt"] = out + err
        rc, out, err, _ = run([AG, "check", path, "--lab", "self_attention", "--lang", lang, "--json"])
        texts[f"check_{lang}.json"] = out + err
        with open(os.path.join(folder, f"page_{lang}.html"), encoding="utf-8") as handle:
            texts[f"page_{lang}.html"] = handle.read()
    klass = os.path.join(folder, "class")
    os.makedirs(klass)
    shutil.copy(path, os.path.join(klass, "kim.py"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, _ = run([AG, "grade", klass, "--out", out_dir, "--lab", "self_attention", "--lang", "en", "--jobs", "1"])
    for sub in ("feedback", "results"):
        for name in os.listdir(os.path.join(out_dir, sub)):
            with open(os.path.join(out_dir, sub, name), encoding="utf-8") as handle:
                texts[f"{sub}/{name}"] = handle.read()
    for name, text in texts.items():
        save(folder, name.replace("/", "_"), text)
    hits = sorted({name for name, text in texts.items() if re.search(r"HX\d\d[-\d.]", text)})
    lost = re.search(r"self_attention — ([\d.]+)/3", texts["check_en.txt"])
    if hits:
        record(8, "hidden inputs in the names of refused stand-in requests", "check / grade", "BROKE",
               f"forged helper names found in {', '.join(hits)}")
    else:
        record(8, "hidden inputs in the names of refused stand-in requests", "check (text, json, html) / grade",
               "HELD", f"the forged names (HX..) appear in none of {len(texts)} student-visible outputs "
               f"(self_attention {lost.group(1) if lost else '?'}/3: the hidden calls that raised were lost). "
               "Output: out/08/")


# 09 -------------------------------------------------------------------------------------------

def build(attack, name):
    sys.path.insert(0, os.path.join(HERE, attack))
    try:
        import importlib.util
        spec = importlib.util.spec_from_file_location(f"build_{attack[:2]}", os.path.join(HERE, attack, "build.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.pop(0)


def attack_09():
    folder = fresh("09")
    module = build("09_canvas_backslash_files_under_a_classmates_id", "build")
    zipped = module.build(os.path.join(folder, "canvas_export.zip"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, _ = run([AG, "grade", zipped, "--out", out_dir, "--lab", "self_attention", "--lang", "en"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    rows = grades_rows(os.path.join(out_dir, "grades.csv"))
    lee = [row for row in rows if row["id"] == "10232"]
    graded = next((row for row in lee if row.get("total")), {})
    lines = "; ".join(f"file={row['file']!r} total={row['total'] or '-'} status={row['status']!r}" for row in lee)
    if graded.get("file") != "leejiwon_10232_55001_attention.py" or graded.get("total") != "10.0" or len(lee) > 1:
        record(9, "a backslash in one student's file name files it under a classmate's id",
               "autograder grade (Canvas zip)", "BROKE",
               f"Lee (10232) handed in one correct file (10/10 alone). Rows under 10232: {lines}. Exit {rc}. "
               f"Output: out/09/graded/grades.csv")
    else:
        record(9, "a backslash in one student's file name files it under a classmate's id",
               "autograder grade (Canvas zip)", "HELD", f"Lee's rows: {lines}; exit {rc}")


# 10 -------------------------------------------------------------------------------------------

def attack_10():
    folder = fresh("10")
    module = build("10_moodle_backslash_sections_give_a_friend_a_grade", "build")
    zipped = module.build(os.path.join(folder, "moodle_export.zip"))
    sheet = module.sheet(os.path.join(folder, "Grades-Lab 1.csv"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, _ = run([AG, "grade", zipped, "--out", out_dir, "--lab", "self_attention", "--lang", "en"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    rows = grades_rows(os.path.join(out_dir, "grades.csv"))
    friends = [row for row in rows if row["id"] in ("10298", "10299") and row.get("total")]
    upload = os.path.join(folder, "moodle-upload.csv")
    rc2, out2, err2, _ = run([AG, "export", "moodle", out_dir, "--sheet", sheet, "--out", upload, "--lab",
                              "self_attention"])
    save(folder, "export.txt", out2 + "\n--- stderr ---\n" + err2)
    filled = {}
    if os.path.exists(upload):
        with open(upload, encoding="utf-8-sig", newline="") as handle:
            for row in csv.DictReader(handle):
                filled[row["Identifier"]] = row["Grade"]
    shown = "; ".join(f"{row['id']} {row['name']!r} total={row['total']} file={row['file']!r}" for row in friends)
    friend_cells = {k: v for k, v in filled.items() if k in ("Participant 10298", "Participant 10299")}
    if friends or any(friend_cells.values()):
        record(10, "one student makes graded rows (and LMS grades) for friends who handed in nothing",
               "autograder grade + export moodle (Moodle zip)", "BROKE",
               f"grade exit {rc}: rows {shown}; export exit {rc2} wrote the friends' Grade cells "
               f"{friend_cells} into the worksheet to upload (sheet said 'No submission'). Output: out/10/")
    else:
        record(10, "one student makes graded rows (and LMS grades) for friends who handed in nothing",
               "autograder grade + export moodle (Moodle zip)", "HELD",
               f"no row for 10298/10299; friends' cells {friend_cells}; exits {rc}, {rc2}")


# 11 -------------------------------------------------------------------------------------------

def attack_11():
    folder = fresh("11")
    module = build("11_moodle_backslash_fake_students_stop_the_class", "build")
    zipped = module.build(os.path.join(folder, "moodle_export.zip"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, _ = run([AG, "grade", zipped, "--out", out_dir, "--lab", "self_attention", "--lang", "en"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    wrote = os.path.exists(os.path.join(out_dir, "grades.csv"))
    message = " ".join((err.strip().splitlines() or [""])[-1:])[:400]
    if rc == 2 and not wrote:
        record(11, "one student's fake students out-vote the class: nothing is graded",
               "autograder grade --lab self_attention (Moodle zip)", "BROKE",
               f"exit 2, no grades.csv for a class whose 3 real students all wrote lab 1: {message!r}. Output: out/11/")
    else:
        record(11, "one student's fake students out-vote the class: nothing is graded",
               "autograder grade --lab self_attention (Moodle zip)", "HELD",
               f"exit {rc}, grades.csv written: {wrote}")


# 12 -------------------------------------------------------------------------------------------

def attack_12():
    folder = fresh("12")
    path = os.path.join(HERE, "12_machine_folders_in_lookalike_slashes.py")
    rc, out, err, _ = run([AG, "check", path, "--lab", "self_attention", "--lang", "en"])
    save(folder, "check.txt", out + "\n--- stderr ---\n" + err)
    line = next((l for l in out.splitlines() if "where:" in l), "")
    readable = line.replace("\u2215", "/")
    exe = re.search(r"exe=(\S+)", readable)
    shown = exe.group(1) if exe else ""
    if shown and "/" in shown.strip("/") and os.path.isfile(shown):
        record(12, "the machine's folders in look-alike slashes", "autograder check", "BROKE",
               f"the student-visible load note shows {line.strip()[:300]!r}: the interpreter's full path "
               f"({shown}), numpy's folder and the sandbox's working folder, drawn with U+2215. Output: out/12/")
    else:
        record(12, "the machine's folders in look-alike slashes", "autograder check", "HELD",
               f"no machine folder in the note: {line.strip()[:200]!r}")


# 13 -------------------------------------------------------------------------------------------

def attack_13():
    folder = fresh("13")
    module = build("13_blackboard_backslash_changes_a_classmates_time_and_late", "build")
    zipped = module.build(os.path.join(folder, "blackboard_export.zip"))
    out_dir = os.path.join(folder, "graded")
    rc, out, err, _ = run([AG, "grade", zipped, "--out", out_dir, "--lab", "self_attention", "--lang", "en",
                           "--due", "2024-03-02T23:59+09:00", "--late-penalty", "10%/day,max=50%"])
    save(folder, "grade.txt", out + "\n--- stderr ---\n" + err)
    rows = grades_rows(os.path.join(out_dir, "grades.csv"))
    lee = next((row for row in rows if row["id"] == "lee_jw" and row.get("total")), {})
    honest = {"file": "Lab 1_lee_jw_attempt_2024-03-01-09-00-00_attention.py", "submitted_at": "2024-03-01T09:00:00+09:00",  # read in the zone of --due
              "late": "no", "total": "10.0"}
    changed = {k: (honest[k], lee.get(k)) for k in honest if lee.get(k) != honest[k]}
    if changed:
        record(13, "one student replaces a classmate's graded file, time and late flag",
               "autograder grade --due --late-penalty (Blackboard zip)", "BROKE",
               f"Lee (lee_jw), one on-time correct attempt (alone: 10/10, on time). Lee's graded row now: "
               f"{ {k: v[1] for k, v in changed.items()} } (was {dict((k, v[0]) for k, v in changed.items())}); "
               f"exit {rc}. Output: out/13/graded/grades.csv")
    else:
        record(13, "one student replaces a classmate's graded file, time and late flag",
               "autograder grade --due --late-penalty (Blackboard zip)", "HELD", f"Lee's row unchanged; exit {rc}")


ATTACKS = [attack_01, attack_02, attack_03, attack_04, attack_05, attack_06, attack_07, attack_08, attack_09,
           attack_10, attack_11, attack_12, attack_13]


def main(argv):
    wanted = {int(a) for a in argv[1:]} if len(argv) > 1 else None
    os.makedirs(OUT, exist_ok=True)
    for number, attack in enumerate(ATTACKS, start=1):
        if wanted and number not in wanted:
            continue
        try:
            attack()
        except Exception as error:  # the harness's own failure is reported, never a verdict
            record(number, attack.__name__, "-", "ERROR (harness)", f"{type(error).__name__}: {error}")
    print("=" * 100)
    for number, name, face, verdict, _ in RESULTS:
        print(f"{number:02d}  {verdict:<6}  {name}  [{face}]")
    broke = sum(1 for r in RESULTS if r[3] == "BROKE")
    print(f"{len(RESULTS)} attacks, {broke} broke a promise.")
    with open(os.path.join(OUT, "summary.json"), "w", encoding="utf-8") as handle:
        json.dump([dict(zip(("number", "name", "face", "verdict", "evidence"), r)) for r in RESULTS], handle,
                  indent=2, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv)
