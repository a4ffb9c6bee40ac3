"""Every reason a student reads is in the student's language.

Why a submission could not be graded ("two .ipynb or .py files in the zip", "not a readable zip",
"a symbolic link", ...) is data, a reading.problems.Detail: a code of the catalogs' [detail] section and
its parameters (numbers, file names, Python's names of errors). The catalogs render it; text is
refused where a reason enters a result (reading.problems.as_detail, called by file_facts.broken), so no
English clause can reach Korean feedback. Checked on the catalogs as a whole, on any detail with
any parameters, and through the faces a student meets (Gradescope's results.json, `autograder
check`'s feedback, the terminal check).
"""
import io
import re
import string
import zipfile

import pytest
from hypothesis import given, settings, strategies as st

from autograder.core.file_facts import broken
from autograder.otter.gradescope import pick
from autograder.otter.results import gradescope_results
from autograder.core.render.feedback import feedback, notes_text
from autograder.core.render.messages import LANGUAGES, Messages, detail_text
from autograder.core.reading.problems import DETAILS, Detail, as_detail, detail
from autograder.core.reading.submission import read_submission
from labs.self_attention import LAB

# Two Latin words in a row: an English clause. Korean text may hold single technical words
# (JSON, UTF-8, grader.export(), .ipynb) but never a phrase of English.
ENGLISH_PHRASE = re.compile(r"[A-Za-z]{2,} +(?:[a-z]{2,}|[A-Z][a-z]+)\b")
PLACEHOLDER = re.compile(r"\{(\w+)(?::[^}]*)?\}")
# What a Korean sentence may quote as it is: code in backticks, a name in double quotes (a column,
# an LMS's menu), and an English name glossed in parentheses right after its Korean one
# ("성적 센터(Grade Center)", "바꾸고(Edit Column Information → Points Possible)").
QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|(?<=[가-힣])\([A-Za-z][A-Za-z .→]*\)")
NUMBERS = {"size", "most", "count", "cell", "line", "column", "position", "seconds"}


def catalog(lang):
    return Messages(lang).table


def english_phrases(text):
    return ENGLISH_PHRASE.findall(text)


def test_the_detail_codes_are_the_catalogs_detail_sections():
    for lang in LANGUAGES:
        assert set(catalog(lang)["detail"]) == set(DETAILS), lang
        for code, parameters in DETAILS.items():
            assert sorted(set(PLACEHOLDER.findall(catalog(lang)["detail"][code]))) == sorted(parameters), (lang, code)


def test_no_korean_sentence_holds_an_english_phrase():
    """The Korean catalog as a whole: every sentence, placeholders left out."""
    def texts(value, where):
        if isinstance(value, dict):
            for key, inner in value.items():
                yield from texts(inner, f"{where}.{key}")
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                yield from texts(inner, f"{where}[{index}]")
        elif isinstance(value, str):
            yield where, value

    found = {where: english_phrases(QUOTED.sub("", PLACEHOLDER.sub("", text))) for where, text in texts(catalog("ko"), "ko")}
    assert {where: phrases for where, phrases in found.items() if phrases} == {}


def test_the_phrase_check_catches_what_the_field_saw():
    """The two reasons students read before reasons were data."""
    assert english_phrases("아닙니다(2 .ipynb or .py files in the zip: a.ipynb, a.py)")
    assert english_phrases("아닙니다(0 .ipynb or .py files in the zip)")
    assert not english_phrases("__zip_filename__이나 .OTTER_LOG가 없어 grader.export()가 만든 zip 파일이 아닙니다")


def test_quoted_names_are_not_phrases_but_a_clause_beside_them_is():
    def shown(text):
        return english_phrases(QUOTED.sub("", text))

    assert not shown('"Points Possible" 행이 없습니다. `autograder grade ... --out DIR`를 주십시오')
    assert not shown("성적 센터(Grade Center) 열의 기본 표시 방식(Primary Display)")
    assert shown("성적 센터(Grade Center) 열은 not graded in points입니다")
    assert shown("열이 없습니다(Total Pts: 0, upload made it)")


# Parameters as submissions bring them: numbers, file names (any script), Python's error names.
file_names = st.text(alphabet=string.ascii_letters + string.digits + "_-. 가나다과제실습", min_size=1, max_size=30)
error_names = st.sampled_from(["KeyError", "zlib.error", "zipfile.BadZipFile", "EACCES", "ENOENT", "OSError"])


@st.composite
def details(draw):
    code = draw(st.sampled_from(sorted(DETAILS)))
    params = {}
    for name in DETAILS[code]:
        if name in NUMBERS:
            params[name] = draw(st.integers(min_value=0, max_value=10**9))
        elif name in ("type", "error"):
            params[name] = draw(error_names)
        else:
            params[name] = draw(file_names)
    return detail(code, **params)


def without_parameters(text, found):
    for value in found.parameters.values():  # as a whole word: a parameter "n" leaves "attention" whole
        text = re.sub(rf"(?<![A-Za-z]){re.escape(str(value))}(?![A-Za-z])", " ", text)
    return text


@settings(max_examples=300, deadline=None)
@given(found=details(), problem=st.sampled_from(sorted(catalog("ko")["problem"])))
def test_any_reason_in_any_problem_sentence_speaks_the_students_language(found, problem):
    result = broken(LAB, "submission", problem, found)
    for lang in LANGUAGES:
        text = notes_text(feedback(result, LAB, lang))
        assert text and "{" not in text
        if lang == "ko":
            assert english_phrases(without_parameters(text, found)) == [], text
    # The record itself speaks no language: its text is its data; English for a TA's files and
    # terminal is the catalog's (render.messages.detail_text), like every other language.
    assert str(found) == repr(found) and "{" not in detail_text(found, "en")


@given(text=st.text(min_size=1).filter(str.strip))
def test_a_reason_given_as_text_is_refused_where_it_enters_a_result(text):
    with pytest.raises(ValueError):
        as_detail(text)
    with pytest.raises(ValueError):
        broken(LAB, "submission", "unreadable", text)


def test_a_detail_takes_exactly_its_parameters():
    with pytest.raises(ValueError):
        detail("size")
    with pytest.raises(ValueError):
        detail("size", size=1, most=2)
    assert isinstance(detail("size", size=1), Detail)


# Through the faces: the field's hand-made zips -------------------------------------------------

def zipped(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


NOTEBOOK = (LAB.assignment_file(LAB.notebook)).read_bytes()
HAND_MADE = {
    "과제.zip": ({"self_attention_lab.ipynb": NOTEBOOK, "self_attention_lab.py": b"x = 1\n"},
               "안에 .ipynb와 .py 파일이 2개 있습니다: self_attention_lab.ipynb, self_attention_lab.py"),
    "메모.zip": ({"메모.txt": "제출합니다".encode()}, "안에 .ipynb나 .py 파일이 없습니다"),
}


@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_a_hand_made_zips_reason_is_korean_on_gradescope(name):
    members, reason = HAND_MADE[name]
    read = read_submission(name, zipped(members))
    assert read.problem == "not_otter_export" and isinstance(read.problem_detail, Detail)
    result = broken(LAB, name, read.problem, read.problem_detail)
    results = gradescope_results(result, LAB, "ko")
    assert reason in results["output"] and english_phrases(results["output"]) == []
    english = gradescope_results(result, LAB, "en")["output"]
    assert "files in the zip" in english or "no .ipynb or .py file in the zip" in english


def test_no_file_to_grade_on_gradescope_is_said_in_korean():
    name, problem = pick(["notes.txt"], ("self_attention_lab.ipynb", "self_attention_lab.py"))
    assert name is None and problem[0] == "no_submission"
    text = notes_text(feedback(broken(LAB, "submission", *problem), LAB, "ko"))
    assert "제출한 파일: notes.txt" in text and english_phrases(text.replace("notes.txt", "")) == []
    name, problem = pick([], ("self_attention_lab.ipynb",))
    text = notes_text(feedback(broken(LAB, "submission", *problem), LAB, "ko"))
    assert "제출한 파일이 없습니다" in text
