"""`python -m lab_check FILE` on a terminal that cannot show every character: Korean Windows
(cp949), output redirected with PYTHONIOENCODING=cp949, a Korean locale (ko_KR.CP949), plain ASCII.

The rule (autograder/kit/terminal.py, readable_output): a character the terminal's encoding lacks is
written as a look-alike it has ("—" as "―"), else as "?"; Hangul stays Hangul wherever the encoding
has it; the check never stops on a character. `--json` is then written with JSON's own \\u escapes,
so it loads back to exactly the same data. The kit applies the rule once, when its package is loaded
outside a kernel, so the `.py` twin run as its header says (`python self_attention_lab.py`, Otter's
summary around the kit's text, "❌" included) reaches a cp949 console too.
"""
import codecs
import io
import json
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from autograder.kit import cli, terminal
from conftest import ROOT
from labs.self_attention import LAB

STUBS = LAB.assignment_file(LAB.notebook)
WRONG_SOFTMAX = (ROOT / "solutions" / "self_attention.py").read_text("utf-8") + '''

def softmax(x):
    """단어 "사과를" — 열 방향으로 잘못 나눈 softmax 😀"""
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    from autograder.otter import build as otter_build

    return otter_build.build(tmp_path_factory.mktemp("dist"), LAB, self_check=False)["student"]


@pytest.fixture(scope="module")
def korean_locale(tmp_path_factory):
    """ko_KR.CP949 compiled into a folder of the test's own (LOCPATH): the machine needs no locale."""
    if shutil.which("localedef") is None:
        pytest.fail("localedef is missing (Debian: apt-get install locales)")
    folder = tmp_path_factory.mktemp("locales")
    done = subprocess.run(["localedef", "-i", "ko_KR", "-f", "CP949", str(folder / "ko_KR.CP949")],
                          capture_output=True, text=True)
    assert (folder / "ko_KR.CP949").is_dir(), done.stderr
    return folder


def check(student, path, *args, **environment):
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LC_ALL", "LC_CTYPE")}
    return subprocess.run([sys.executable, "-m", "lab_check", str(path), *args], cwd=student,
                          capture_output=True, timeout=300, env={**env, **environment})


@pytest.fixture(scope="module")
def wrong_softmax(tmp_path_factory):
    path = tmp_path_factory.mktemp("submission") / "내_과제.py"
    path.write_text(WRONG_SOFTMAX, "utf-8")
    return path


@pytest.fixture(scope="module")
def in_utf8(student, wrong_softmax):
    done = check(student, wrong_softmax, PYTHONIOENCODING="utf-8")
    assert done.returncode == 1, done.stderr.decode("utf-8", "replace")
    return done.stdout.decode("utf-8")


def cp949_settings(korean_locale):
    return {"PYTHONIOENCODING=cp949": {"PYTHONIOENCODING": "cp949"},
            "LANG=ko_KR.CP949": {"LANG": "ko_KR.CP949", "LC_ALL": "ko_KR.CP949", "LOCPATH": str(korean_locale)}}


@pytest.mark.parametrize("setting", ["PYTHONIOENCODING=cp949", "LANG=ko_KR.CP949"])
def test_korean_feedback_reads_on_a_cp949_terminal(student, wrong_softmax, in_utf8, korean_locale, setting):
    done = check(student, wrong_softmax, **cp949_settings(korean_locale)[setting])
    assert done.returncode == 1, done.stderr.decode("cp949", "replace")
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr
    shown = done.stdout.decode("cp949")  # the bytes are cp949 through and through
    assert "■ softmax ― 0.6/2점 · 틀림" in shown
    assert "행이 아니라 열 방향으로 계산했습니다" in shown and "공개 테스트 '페이지 예제'" in shown
    # Everything else is what a UTF-8 terminal shows, with the look-alike for the dash only.
    assert shown == in_utf8.replace("—", "―")


@pytest.mark.parametrize("setting", ["PYTHONIOENCODING=cp949", "LANG=ko_KR.CP949"])
def test_json_on_a_cp949_terminal_is_the_same_data(student, wrong_softmax, korean_locale, setting, tmp_path):
    # An ASCII file name: under a cp949 locale, file names are cp949 bytes too (not this test's point).
    path = tmp_path / "my_lab.py"
    path.write_bytes(wrong_softmax.read_bytes())
    utf8 = check(student, path, "--json", PYTHONIOENCODING="utf-8")
    done = check(student, path, "--json", **cp949_settings(korean_locale)[setting])
    assert done.returncode == utf8.returncode == 1
    assert json.loads(done.stdout.decode("cp949")) == json.loads(utf8.stdout.decode("utf-8"))


def test_the_stubs_and_the_usage_errors_on_cp949(student, tmp_path):
    stubs = check(student, STUBS, PYTHONIOENCODING="cp949")
    assert stubs.returncode == 1 and "합계 0 / 10점" in stubs.stdout.decode("cp949")
    missing = check(student, tmp_path / "없는_파일.py", PYTHONIOENCODING="cp949")
    assert missing.returncode == 2 and "파일이 없습니다" in missing.stderr.decode("cp949")
    usage = check(student, STUBS, "--step", "nope", PYTHONIOENCODING="cp949")
    assert usage.returncode == 2 and b"Traceback" not in usage.stderr
    helped = check(student, "--help", PYTHONIOENCODING="cp949")
    assert helped.returncode == 0 and "피드백 언어" in helped.stdout.decode("cp949")


def test_an_ascii_terminal_gets_question_marks_not_a_traceback(student, wrong_softmax):
    done = check(student, wrong_softmax, PYTHONIOENCODING="ascii")
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    shown = done.stdout.decode("ascii")
    assert "softmax - 0.6/2" in shown and "?" in shown


def test_english_on_a_cp949_terminal(student, wrong_softmax):
    done = check(student, wrong_softmax, "--lang", "en", PYTHONIOENCODING="cp949")
    shown = done.stdout.decode("cp949")
    assert done.returncode == 1 and "■ softmax ― 0.6/2 points · failed" in shown


@settings(max_examples=300, deadline=None)
@given(text=st.text(), encoding=st.sampled_from(["cp949", "euc-kr", "ascii", "latin-1", "cp1252", "utf-8"]))
def test_any_text_is_written_and_what_the_encoding_has_is_kept(text, encoding):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="strict", newline="\n")
    codecs.register_error(terminal.FALLBACK_ERRORS, terminal._look_alike)
    stream.reconfigure(errors=terminal.FALLBACK_ERRORS)
    stream.write(text)
    stream.flush()
    written = raw.getvalue().decode(encoding)
    for character in text:
        if _encodable(character, encoding):
            assert character in written  # Hangul, Latin: whatever the encoding has stays as it is


def _encodable(character, encoding):
    try:
        character.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


# The .py twin, run as its header says ("실행: python self_attention_lab.py"): each step's check prints
# the kit's text; the kit's package, loaded by the twin's first block, applied the rule to stdout, so
# every step is checked on any console.

WRONG_TWIN_SOFTMAX = ("    e = np.exp(x - np.max(x, axis=0, keepdims=True))\n"
                      "    return e / e.sum(axis=0, keepdims=True)\n")


def twin_with_wrong_softmax(student, folder):
    from autograder.authoring import fill
    text = fill.fill_script((student / LAB.script).read_text("utf-8"), lab=LAB)
    start = text.index("def softmax(")
    body = text.index('"""', text.index('"""', start) + 3) + 3
    end = text.index("\n# %%", body)
    text = text[:body] + "\n" + WRONG_TWIN_SOFTMAX + text[end:]
    (folder / LAB.script).write_text(text, "utf-8")
    return folder / LAB.script


@pytest.mark.parametrize("setting", ["PYTHONIOENCODING=cp949", "LANG=ko_KR.CP949"])
def test_the_twin_checks_every_step_on_a_console_that_lacks_otters_characters(student, korean_locale,
                                                                                 tmp_path, setting):
    folder = tmp_path / "twin"
    shutil.copytree(student, folder)
    twin = twin_with_wrong_softmax(student, folder)
    environment = cp949_settings(korean_locale)[setting]
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LC_ALL", "LC_CTYPE")}
    done = subprocess.run([sys.executable, twin.name], cwd=folder, capture_output=True, timeout=600,
                          env={**env, **environment})
    out = done.stdout.decode("cp949") + done.stderr.decode("cp949")
    assert done.returncode == 0 and "UnicodeEncodeError" not in out and "Traceback" not in out, out[-2000:]
    # Every step's check ran, in the lab's order; the wrong one says why, in Korean where the console can.
    assert [line.split()[1] for line in out.splitlines() if line.startswith("■ ")] == list(LAB.function_names)
    assert "Test case failed" not in out
    assert "■ softmax ― 0.6/2점 · 틀림" in out and "행이 아니라 열 방향으로 계산했습니다" in out


def test_loading_the_kit_outside_a_kernel_applies_the_rule_once(student):
    """Importing the check package reconfigures a cp949 stdout; printing Otter's marks then works."""
    code = ("import sys, lab_check.kit\n"
            "print('\\u274c \\u2705 \\u2014 사과를', sys.stdout.errors)\n")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONUTF8")}
    done = subprocess.run([sys.executable, "-c", code], cwd=student, capture_output=True, timeout=120,
                          env={**env, "PYTHONIOENCODING": "cp949"})
    assert done.returncode == 0, done.stderr.decode("cp949", "replace")
    assert done.stdout.decode("cp949").strip() == f"X O ― 사과를 {terminal.FALLBACK_ERRORS}"
