"""The commands the README, the TAs' pages and the instructors' build page show, typed as shown in a
fresh clone (with the files a TA brings: LMS downloads and grade sheets, made here from the bundled
samples): afterwards `git status --porcelain` is empty, every output being under out/, which the
clone ignores (tests/docs/test_readme_commands.py checks the same of every command's output options).
"""
import io
import os
import pathlib
import shlex
import subprocess
import sys
import zipfile

import pytest

from test_readme_commands import ROOT, SYNOPSIS, blocks, written_paths

SAMPLES = ROOT / "samples"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "ta").glob("*.md")),
         *sorted((ROOT / "docs" / "instructors").glob("*.md"))]
# Shown, but not typed here: each with the reason.
NOT_RUN = {
    "bash scripts/test.sh": "the test suite itself",
    "bash scripts/demo.sh": "sets up a second .venv (tests/install/test_setup_script.py); its grade command is "
                            "shown on the TAs' page and typed here",
    "source .venv/bin/activate": "the commands run with this .venv's bin first on PATH, as it makes them",
    'pip install -e ".[otter]"': "would point this .venv's grader at the clone",
    "pytest": "run in a folder of submissions: typed in the clone it also runs the project's own tests "
              "(its output option is checked in tests/docs/test_readme_commands.py)",
}

CANVAS = [p.name for p in sorted(SAMPLES.iterdir()) if p.name.count("_") >= 3]
# The class of the bundled samples (Canvas names them name_id_...): the same students in every sheet.
STUDENTS = {10231: "Kim Minsu", 10232: "Lee Jiwon", 10233: "Park Seoyeon", 10234: "Choi Junho", 10235: "Jung Harin"}
MOODLE_SHEET = ('Identifier,"Full name","Email address",Status,Grade,"Maximum grade","Grade can be changed",'
                '"Last modified (submission)","Last modified (grade)","Feedback comments"\n'
                + "".join(f'"Participant {number}","{name}",s{number}@example.ac.kr,"Submitted for grading",,10.00,Yes,-,-,\n'
                          for number, name in STUDENTS.items()))
MOODLE_SHEET_KO = ('식별자,성명,"이메일 주소",상태,성적,"최대 성적","성적 변경 가능","최종 수정 일시 (제출)",'
                   '"최종 수정 일시 (성적)","피드백 코멘트"\n'
                   + "".join(f'"참가자 {number}","{name}",s{number}@example.ac.kr,"채점을 위해 제출됨",,10.00,예,-,-,\n'
                             for number, name in STUDENTS.items()))
CANVAS_SHEET = ("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n"
                "    Points Possible,,,,,10.00\n"
                + "".join(f'"{name}",{number},,,TP101,\n' for number, name in STUDENTS.items()))
BLACKBOARD_SHEET = [["Last Name", "First Name", "Username", "Student ID", "Lab 1 [Total Pts: 10 Score] |1234567"],
                    *([name.split()[1], name.split()[0], str(number), str(number), ""] for number, name in STUDENTS.items())]


def ta_files():
    """{name: bytes} of every file the pages' commands read that a TA brings."""
    def zipped(members):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, data in members.items():
                archive.writestr(name, data)
        return buffer.getvalue()

    canvas = zipped({name: (SAMPLES / name).read_bytes() for name in CANVAS})
    notebook = (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes()
    script = (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes()
    xls = "".join("\t".join(f'"{cell}"' for cell in row) + "\r\n" for row in BLACKBOARD_SHEET)
    return {
        "gradebook.zip": canvas, "gradebook-v2.zip": canvas,
        "moodle-export.zip": zipped({f"{STUDENTS[int(name.split('_')[1])]}_{name.split('_')[1]}_assignsubmission_file_/"
                                     f"{name.split('_', 3)[3]}": (SAMPLES / name).read_bytes() for name in CANVAS}),
        "Grades-Lab 1.csv": MOODLE_SHEET.encode(), "성적.csv": MOODLE_SHEET_KO.encode(),
        "2026-12-01T0900_Grades-TP101.csv": b"\xef\xbb\xbf" + CANVAS_SHEET.encode(),
        "gc_TP101_fullgc.xls": b"\xff\xfe" + xls.encode("utf-16-le"),
        "my_attention.py": script, "my_attention.ipynb": notebook, "some_submission.ipynb": notebook,
        "my_heads.py": (ROOT / "solutions" / "masked_attention.py").read_bytes(),
    }


def typed(page):
    """The page's command lines, in order, but those NOT_RUN and synopses."""
    return [(line, words) for block in blocks(page.read_text("utf-8")) for line, words in block
            if not SYNOPSIS.search(line) and not any(shlex.split(skip) == words[:len(shlex.split(skip))]
                                                     for skip in NOT_RUN)]


def test_every_command_typed_in_a_fresh_clone_leaves_git_status_empty(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = dict(os.environ, PATH=os.pathsep.join([str(pathlib.Path(sys.executable).parent), os.environ["PATH"]]))
    env.pop("PYTHONPATH", None)
    brought = ta_files()
    ran, written = [], []
    for page in PAGES:
        commands = typed(page)
        if not commands:
            continue
        for name, data in brought.items():
            (clone / name).write_bytes(data)
        for line, words in commands:
            finished = subprocess.run(line, shell=True, cwd=clone, env=env, capture_output=True, text=True,
                                      timeout=900)
            ran.append((page.name, line, finished.returncode))
            assert finished.returncode not in (126, 127), f"{page.name}: {line}: {finished.stderr[-500:]}"
            if finished.returncode in (0, 1):
                written += [path for path in written_paths(words) if (clone / path).exists()]
        for name in brought:
            (clone / name).unlink()
        status = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True,
                                check=True).stdout
        assert status == "", f"after the commands of {page.relative_to(ROOT)}:\n{status}\n" + \
            "\n".join(f"  exit {code}: {line}" for _, line, code in ran)
    # The commands really ran and wrote: the grading runs, the pages, the zips, otter's results.
    assert {"out/sample-run", "out/lab1", "out/lab1-v2", "out/page.html", "out/canvas-import.csv",
            "out/moodle-upload.csv", "out/upload.csv", "out/bb-upload.xls", "out/dist", "out/dist-lab2",
            "out/dist-en", "out/results/"} <= set(written), ran
    assert (clone / "out" / "results" / "results.json").is_file()
