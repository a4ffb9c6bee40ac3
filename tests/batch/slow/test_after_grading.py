"""After automatic grading, through the CLI as a TA uses it: overrides, similarity signals,
feedback that remembers (--previous), and the course history (pages looked at in chromium)."""
import csv
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from autograder.cli import main as cli
from conftest import CORPORA, ROOT

SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_text("utf-8")
SOFTMAX = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    # 행마다 최댓값을 빼서 exp가 넘치지 않게
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
'''
assert SOFTMAX in CORRECT
# A rare wrong softmax nobody names, and the same code with other names, comments and a docstring.
RARE = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    total = e.sum(axis=-1, keepdims=True) + 0.37 * e.max(axis=-1, keepdims=True)
    return e / total
'''
RARE_COPY = '''def softmax(scores_in):
    """내 소프트맥스"""
    scores_in = np.asarray(scores_in, dtype=float)   # 배열로
    ex = np.exp(scores_in - scores_in.max(axis=-1, keepdims=True))

    denominator = ex.sum(axis=-1, keepdims=True) + 0.37 * ex.max(axis=-1, keepdims=True)
    return ex / denominator
'''
# A common, named mistake (the wrong axis), each written a little differently.
WRONG_AXIS = [
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=0, keepdims=True))
    return shifted / shifted.sum(axis=0, keepdims=True)
''',
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=0))
    return e / np.sum(e, axis=0)
''',
    '''def softmax(x):
    a = np.array(x, dtype=float)
    a = a - a.max(axis=0)
    return np.exp(a) / np.exp(a).sum(axis=0)
''',
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    m = x.max(axis=0, keepdims=True)
    top = np.exp(x - m)
    return top / top.sum(axis=0, keepdims=True)
''',
]


def with_softmax(body):
    return CORRECT.replace(SOFTMAX, body)


def grade(*argv):
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", *map(str, argv)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    return done


def grades(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle) if row["total"]}


def record(out, student):
    return json.loads((out / "results" / f"{student}.json").read_text("utf-8"))["extra_data"]["autograder"]


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """Ten students: two share a rare wrong softmax (one renamed it all), four make the common
    wrong-axis mistake, the rest are right or make other mistakes."""
    root = tmp_path_factory.mktemp("class")
    files = {"s01": with_softmax(RARE), "s02": with_softmax(RARE_COPY),
             **{f"s0{3 + i}": with_softmax(body) for i, body in enumerate(WRONG_AXIS)},
             "s07": CORRECT, "s08": CORRECT.replace("return weights @ V", "return weights.T @ V"),
             "s09": CORRECT.replace("weights = softmax(scores(Q, K) / np.sqrt(d_k))", "weights = softmax(scores(Q, K))"),
             "s10": (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_text("utf-8")}
    for student, text in files.items():
        (root / f"{student}.py").write_text(text, "utf-8")
    out = tmp_path_factory.mktemp("run") / "lab1"
    done = grade(root, "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    return {"root": root, "out": out, "stderr": done.stderr}


# Similarity ------------------------------------------------------------------------------------

def test_the_planted_pair_is_a_group_and_the_common_mistake_is_not(klass):
    out = klass["out"]
    with open(out / "similar.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows, "the planted pair is not listed"
    assert {r["ids"] for r in rows} == {"s01 s02"}
    steps = {r["step"] for r in rows}
    assert "softmax" in steps
    softmax = next(r for r in rows if r["step"] == "softmax")
    assert float(softmax["score"]) >= 0.5
    assert "숨은 테스트" in softmax["evidence"] and "이름·주석·공백" in softmax["evidence"]
    listed = " ".join(r["ids"] for r in rows).split()
    assert not set(listed) & {"s03", "s04", "s05", "s06"}
    assert "서로 닮은 제출물 묶음이 1개 있습니다" in klass["stderr"]  # in the TA's language (Korean by default)
    report = (out / "report.html").read_text("utf-8")
    assert "서로 닮은 제출물" in report and "부정행위" not in report and "부정행위" not in softmax["evidence"]


def test_similar_csv_and_the_report_hold_hashes_never_values(klass):
    """No number the grader computed on a hidden test (expected or returned) is in the signal."""
    out = klass["out"]
    text = (out / "similar.csv").read_text("utf-8-sig")
    for cell in re.findall(r"\d+\.\d{3,}", text):
        pytest.fail(f"a value with decimals in similar.csv: {cell}")
    section = (out / "report.html").read_text("utf-8").split('id="similar"', 1)[1].split("<h2", 1)[0]
    assert not re.findall(r"\d+\.\d{3,}", section)
    hidden_names = {case for student in ("s01", "s02") for case in record(out, student)["steps"]["softmax"]["answers"]}
    assert hidden_names and not any(name in text or name in section for name in hidden_names)


# Overrides -------------------------------------------------------------------------------------

@pytest.fixture
def run_copy(klass, tmp_path):
    out = tmp_path / "lab1"
    shutil.copytree(klass["out"], out)
    root = tmp_path / "class"
    shutil.copytree(klass["root"], root)
    return root, out


def write_overrides(out, text):
    (out / "overrides.csv").write_text(text, "utf-8-sig")


def test_an_override_reaches_every_face_and_survives_a_rerun(run_copy, capsys, tmp_path):
    root, out = run_copy
    before = grades(out)
    assert float(before["s09"]["self_attention"]) < 3
    write_overrides(out, "id,step,points,comment,by\n"
                         "s09,self_attention,2.5,\"재채점 요청 수용: 나누기는 scores 단계에서 했음\",김조교\n")
    done = grade(root, "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    after = grades(out)
    automatic_total = float(before["s09"]["total"])
    assert float(after["s09"]["self_attention"]) == 2.5
    assert float(after["s09"]["automatic_total"]) == automatic_total
    assert float(after["s09"]["total"]) == pytest.approx(automatic_total - float(before["s09"]["self_attention"]) + 2.5)
    assert "self_attention" in after["s09"]["overrides"] and "applied" in after["s09"]["overrides"]
    assert after["s07"]["overrides"] == "" and after["s07"]["total"] == before["s07"]["total"]
    feedback = (out / "feedback" / "s09.md").read_text("utf-8")
    assert "조교가 점수를 조정했습니다." in feedback and "김조교" in feedback and "재채점 요청 수용" in feedback
    assert "재채점 요청 수용" in (out / "feedback" / "s09.html").read_text("utf-8")
    results = json.loads((out / "results" / "s09.json").read_text("utf-8"))
    assert results["score"] == float(after["s09"]["total"])
    assert next(t for t in results["tests"] if t["name"] == "self_attention")["score"] == 2.5
    report = (out / "report.html").read_text("utf-8")
    assert "조교 점수 조정" in report and "재채점 요청 수용" in report
    assert json.loads((out / "overrides.state.json").read_text("utf-8"))["written_against"]
    # The override rewrote s09's outputs from its saved judged result: nobody's code ran again.
    assert "이번에 채점한 학생 0명" in done.stdout and "출력만 다시 쓴 학생 1명" in done.stdout, done.stdout
    # A rerun changes nothing and grades nobody again.
    again = grade(root, "--out", out, "--jobs", "2")
    assert again.returncode == 0 and "이번에 채점한 학생 0명" in again.stdout and "출력만 다시 쓴 학생 0명" in again.stdout
    assert grades(out) == after
    # export writes the final total.
    sheet = tmp_path / "sheet.csv"
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1 (5501)"]
    rows = [["    Points Possible", "", "", "", "", "10"]] + [[f"학생 {s}", str(90000 + n), "", s, "", ""] for n, s in enumerate(after)]
    buffer = io.StringIO()
    csv.writer(buffer).writerows([header, *rows])
    sheet.write_text(buffer.getvalue(), "utf-8")
    code = cli(["export", "canvas", str(out), "--lab", "self_attention", "--sheet", str(sheet),
                "--out", str(tmp_path / "upload.csv")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    with open(tmp_path / "upload.csv", encoding="utf-8-sig", newline="") as handle:
        written = {r["SIS Login ID"]: r["Lab 1 (5501)"] for r in csv.DictReader(handle)}
    assert float(written["s09"]) == pytest.approx(float(after["s09"]["total"]))


def test_an_override_whose_automatic_result_changed_is_flagged_not_applied(run_copy, capsys, tmp_path):
    root, out = run_copy
    write_overrides(out, "id,step,points,comment,by\ns01,softmax,1.5,부분 점수,박조교\n")
    assert grade(root, "--out", out, "--jobs", "2").returncode == 0
    assert float(grades(out)["s01"]["softmax"]) == 1.5
    # The student's fixed file is graded again: the automatic points of softmax change.
    (root / "s01.py").write_text(CORRECT, "utf-8")
    done = grade(root, "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "검토해야 합니다" in done.stderr and "2번째 줄" in done.stderr and "s01 softmax" in done.stderr
    row = grades(out)["s01"]
    assert float(row["softmax"]) == 2.0 and float(row["total"]) == 10.0  # the automatic points, while flagged
    assert "review" in row["overrides"]
    report = (out / "report.html").read_text("utf-8")
    assert "검토 필요" in report
    assert "부분 점수" not in (out / "feedback" / "s01.md").read_text("utf-8")
    # export withholds the grade until the TA settles it.
    sheet = tmp_path / "sheet.csv"
    buffer = io.StringIO()
    csv.writer(buffer).writerows([["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1 (5501)"],
                                  ["    Points Possible", "", "", "", "", "10"], ["학생", "90001", "", "s01", "", "7"]])
    sheet.write_text(buffer.getvalue(), "utf-8")
    code = cli(["export", "canvas", str(out), "--lab", "self_attention", "--sheet", str(sheet),
                "--out", str(tmp_path / "upload.csv"), "--allow-unmatched", "--lang", "en"])
    captured = capsys.readouterr()
    assert "awaits review" in captured.err
    with open(tmp_path / "upload.csv", encoding="utf-8-sig", newline="") as handle:
        assert list(csv.DictReader(handle))[1]["Lab 1 (5501)"] == "7"
    # The TA confirms it by writing the new automatic points: applied again.
    write_overrides(out, "id,step,points,comment,by,automatic\ns01,softmax,1.5,부분 점수,박조교,2\n")
    done = grade(root, "--out", out, "--jobs", "2")
    assert done.returncode == 0 and "검토해야 합니다" not in done.stderr
    assert float(grades(out)["s01"]["softmax"]) == 1.5


@pytest.mark.parametrize("text, said", [
    ("id,step,points,comment,by\nnobody,softmax,1,x,y\n", ["line 2: no student 'nobody'"]),
    ("id,step,points,comment,by\ns01,softmaxx,1,x,y\n", ["line 2: no step 'softmaxx'"]),
    ("id,step,points,comment,by\ns01,softmax,1,ok,y\ns02,softmax,2.5,x,y\n", ["line 3: points 2.5 is out of range"]),
    ("id,step,points,comment,by\ns01,softmax,-1,x,y\n\ns01,mix,abc,x,y\n",
     ["line 2: points -1 is out of range", "line 4: points 'abc' is not a number"]),
    ("id,step,points,comment,by\nS01,softmax,1,x,y\n", ["did you mean 's01'"]),
    ("id,step,points,comment,by\ns01,softmax,1,,y\n", ["line 2: the comment is empty"]),
    ("id,step,points,comment,by\ns01,softmax,1,x,y\ns01,softmax,2,x,y\n", ["line 3: a second override", "line 2"]),
    ("id,step,point,comment,by\ns01,softmax,1,x,y\n", ["line 1:", "no column points"]),
])
def test_bad_rows_are_refused_by_line_and_nothing_changes(run_copy, text, said):
    root, out = run_copy
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    write_overrides(out, text)
    done = grade(root, "--out", out, "--jobs", "2", "--lang", "en")  # the refusal's words in English
    assert done.returncode == 2
    for words in said:
        assert words in done.stderr
    assert "nothing was graded" in done.stderr
    now = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    now.pop(pathlib.Path("overrides.csv"))
    assert now == before


# Feedback that remembers --------------------------------------------------------------------------

def test_previous_run_says_what_changed_per_step(klass, tmp_path):
    root = tmp_path / "class"
    shutil.copytree(klass["root"], root)
    (root / "s01.py").write_text(CORRECT.replace("return weights @ V", "return weights.T @ V"), "utf-8")
    out = tmp_path / "second"
    done = grade(root, "--out", out, "--jobs", "2", "--previous", klass["out"])
    assert done.returncode == 0, done.stderr
    text = (out / "feedback" / "s01.md").read_text("utf-8")
    assert "지난 제출과 비교하면" in text
    assert "softmax 단계는 이제 통과합니다." in text
    assert "mix 단계는 지난번에 통과했지만 이번에는 틀립니다." in text
    same = (out / "feedback" / "s03.md").read_text("utf-8")
    assert "softmax 단계는 여전히 같은 이유로 틀립니다." in same
    english = grade(root, "--out", tmp_path / "en", "--jobs", "2", "--lang", "en", "--previous", klass["out"])
    assert english.returncode == 0
    assert "softmax now passes." in (tmp_path / "en" / "feedback" / "s01.md").read_text("utf-8")
    itself = grade(root, "--out", out, "--previous", out, "--lang", "en")
    assert itself.returncode == 2 and "is the --out folder" in itself.stderr
    nothing = grade(root, "--out", tmp_path / "third", "--previous", tmp_path / "nowhere")
    assert nothing.returncode == 2 and not (tmp_path / "third").exists()


# Course history ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def course(klass, tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    shutil.copytree(klass["out"], course / "lab1")
    lab2 = tmp_path_factory.mktemp("lab2")
    masked = sorted((CORPORA / "corpus_masked").glob("*.py"))[:3]
    for student, path in zip(("s01", "s02", "s11"), masked):
        (lab2 / f"{student}.py").write_bytes(path.read_bytes())
    done = grade(lab2, "--out", course / "lab2", "--lab", "masked_attention", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    return course


def test_history_writes_a_page_per_student_and_a_course_csv(course):
    done = subprocess.run([sys.executable, "-m", "autograder", "history", str(course)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    history = course / "history"
    with open(history / "course.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {r["id"]: r for r in csv.DictReader(handle)}
    assert set(rows) == {f"s{n:02d}" for n in range(1, 12)}
    lab1 = grades(course / "lab1")
    lab2 = grades(course / "lab2")
    assert float(rows["s01"]["self_attention_total"]) == float(lab1["s01"]["total"])
    assert float(rows["s01"]["course_total"]) == pytest.approx(float(lab1["s01"]["total"]) + float(lab2["s01"]["total"]))
    assert rows["s11"]["self_attention_total"] == "" and rows["s11"]["self_attention_status"] == "no submission"
    page = (history / "students" / "s01.html").read_text("utf-8")
    assert "self_attention" in page and "masked_attention" in page and "softmax" in page
    s03 = (history / "students" / "s03.html").read_text("utf-8")
    assert "행이 아니라 열 방향" in s03 or "축" in s03  # the mistake named, in words
    assert "제출 기록이 없습니다." in (history / "students" / "s11.html").read_text("utf-8")
    twice = course.parent / "twice"
    shutil.copytree(course, twice)
    shutil.copytree(course / "lab1", twice / "lab1-again")
    refused = subprocess.run([sys.executable, "-m", "autograder", "history", str(twice), "--lang", "en"],
                             capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert refused.returncode == 2 and "several runs of one lab" in refused.stderr


def test_history_pages_in_a_real_browser(course, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed")
    if not (course / "history").exists():
        assert cli(["history", str(course)]) == 0
    page = course / "history" / "students" / "s01.html"
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr
    assert dom.stdout.count("<table") == 2 and "과목 합계" in dom.stdout
    shot = tmp_path / "s01.png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                    f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 5000
    index = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                            (course / "history" / "index.html").as_uri()], capture_output=True, text=True, timeout=120)
    links = re.findall(r'href="([^"]+)"', index.stdout)
    assert links and all((course / "history" / link).exists() for link in links)


# Outputs rewritten from saved results, the student's code not run ---------------------------------------

LOOPING = '''def softmax(x):
    while True:  # runs until the step's time limit, on every test
        pass
'''


def test_overrides_previous_lateness_and_language_rewrite_outputs_without_running_code(tmp_path):
    """The reported case: a student whose softmax loops until the time limit was run again (21 s)
    for an edit of overrides.csv or a --previous. Now only a change of what the judged result depends
    on (the file, the grader, the limits) runs a student's code; any other change rewrites the
    outputs from the judged result saved in results/<id>.json, byte for byte what a fresh grading
    writes. Each run of the student's code adds a line to a log (the sandbox is off so it can)."""
    log = tmp_path / "ran.log"
    root = tmp_path / "class"
    root.mkdir()
    looping = f"open({str(log)!r}, 'a').write('ran\\n')\n" + with_softmax(LOOPING)
    (root / "loops.py").write_text(looping, "utf-8")
    (root / "good.py").write_text(CORRECT, "utf-8")

    def run(out, *extra):
        done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "1",
                               "--timeout", "1", *map(str, extra)], capture_output=True, text=True, timeout=600,
                              cwd=ROOT, env={**os.environ, "AUTOGRADER_SANDBOX": "off"})
        assert done.returncode == 0, done.stderr
        return done.stdout

    def runs():
        return len(log.read_text().splitlines()) if log.exists() else 0

    out, first = tmp_path / "lab1", tmp_path / "first"
    run(out)
    assert runs() > 0 and float(grades(out)["loops"]["softmax"]) == 0
    assert all(s["status"] == "timeout" for s in [record(out, "loops")["steps"]["softmax"]])
    shutil.copytree(out, first)
    graded = runs()

    write_overrides(out, "id,step,points,comment,by\nloops,softmax,1,무한 반복이지만 식은 맞음,김조교\n")
    said = run(out)
    assert runs() == graded and "이번에 채점한 학생 0명" in said and "출력만 다시 쓴 학생 1명" in said, said
    assert float(grades(out)["loops"]["softmax"]) == 1.0
    assert "무한 반복이지만 식은 맞음" in (out / "feedback" / "loops.md").read_text("utf-8")

    said = run(out, "--previous", first)
    assert runs() == graded and "출력만 다시 쓴 학생 2명" in said, said
    assert "지난 제출과 비교하면" in (out / "feedback" / "loops.md").read_text("utf-8")

    said = run(out, "--previous", first, "--due", "2020-01-01T00:00+09:00", "--lms-timezone", "Asia/Seoul",
               "--allow-unknown-times")  # a plain folder states no submission time
    assert runs() == graded and "출력만 다시 쓴 학생 2명" in said, said

    said = run(out, "--previous", first, "--lang", "en")
    assert runs() == graded and "0 graded now" in said and "2 rewritten from saved results" in said, said
    assert "now passes" not in (out / "feedback" / "loops.md").read_text("utf-8")
    assert "softmax still fails" in (out / "feedback" / "loops.md").read_text("utf-8")

    # A new folder compared with the earlier run takes that run's judged results for unchanged files.
    elsewhere = tmp_path / "second"
    said = run(elsewhere, "--previous", first, "--lang", "en")
    assert runs() == graded and "0 graded now" in said, said

    # What was rewritten equals a fresh grading with the same settings, file for file (compared with
    # the same earlier run, whose judged results are taken away so that the fresh one grades).
    fresh, unsaved = tmp_path / "fresh", tmp_path / "unsaved"
    shutil.copytree(first, unsaved)
    for path in (unsaved / "results").glob("*.json"):
        data = json.loads(path.read_text("utf-8"))
        del data["extra_data"]["judged"]
        path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    fresh.mkdir()
    shutil.copy(out / "overrides.csv", fresh / "overrides.csv")
    shutil.copy(out / "overrides.state.json", fresh / "overrides.state.json")
    said = run(fresh, "--previous", unsaved, "--lang", "en")
    assert runs() > graded and "2 graded now" in said, said
    for name in ("feedback/loops.md", "feedback/loops.html", "results/loops.json", "feedback/good.html",
                 "results/good.json", "grades.csv"):
        assert (out / name).read_bytes() == (fresh / name).read_bytes(), name
    graded = runs()

    # What the judged result depends on runs the code again: the file, then a limit.
    (root / "loops.py").write_text(looping + "\n# a comment\n", "utf-8")
    said = run(out, "--previous", unsaved, "--lang", "en")
    assert runs() > graded and "1 graded now" in said, said
    graded = runs()
    said = run(out, "--previous", unsaved, "--lang", "en", "--memory-mb", "900")
    assert runs() > graded and "2 graded now" in said, said
