"""The Korean and English catalogs say the same things: same keys, same placeholders, every code."""
import re
import string

import pytest

from autograder.core.rubric import parts

from autograder.core.render.messages import LANGUAGES, catalog as merged_catalog
from labs.self_attention import LAB
from labs.self_attention.steps import STEPS, STEPS_BY_NAME

def catalog(lang):
    """What a student of the self-attention lab reads: the engine's messages with the lab's."""
    return merged_catalog(lang, LAB)


def page_facts():
    return LAB.hint_facts()


STATUSES = ("passed", "failed", "error", "timeout", "missing", "not_implemented")
# Codes the judge and the grading core report besides the steps' named mistakes.
GENERAL_CODES = ("missing", "syntax_error", "not_implemented", "exception", "crashed", "timeout",
                 "wrong_type", "wrong_shape", "transposed", "not_finite", "wrong_values",
                 "mutates_input", "hardcoded", "missing_transpose", "return_order")
LOAD_PROBLEMS = ("too_large", "empty", "not_utf8", "notebook_not_json", "notebook_malformed", "unreadable")


def placeholders(text):
    """(field, format spec) pairs of a message, in order; literal text ignored."""
    return [(field, spec) for _, field, spec, _ in string.Formatter().parse(text) if field is not None]


def entries(table):
    return {(section, key): value for section, keys in table.items() for key, value in keys.items()}


def test_same_sections_and_keys():
    ko, en = entries(catalog("ko")), entries(catalog("en"))
    assert set(ko) == set(en), set(ko) ^ set(en)


@pytest.mark.parametrize("entry", sorted(entries(catalog("en"))), ids=lambda e: ".".join(e))
def test_same_placeholders(entry):
    ko_text, en_text = (entries(catalog(lang))[entry] for lang in ("ko", "en"))
    assert sorted(placeholders(ko_text)) == sorted(placeholders(en_text))


def test_placeholder_counts_differ_when_they_differ():
    """The comparison itself notices a dropped or renamed placeholder."""
    assert sorted(placeholders("{a} and {b:g}")) != sorted(placeholders("{a} and {b}"))
    assert sorted(placeholders("{a}")) != sorted(placeholders("{c}"))


def has_code(table, section, step, code):
    return f"{step}.{code}" in table[section] or code in table[section]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_has_a_title_and_a_cause(lang):
    table = catalog(lang)
    for step in STEPS:
        for code in GENERAL_CODES + tuple(part for m in step.mistakes for part in parts(m.code)):
            for section in ("title", "cause"):
                assert has_code(table, section, step.name, code), (section, step.name, code)
    for problem in LOAD_PROBLEMS:
        assert problem in table["problem"] and problem in table["title"] and problem in table["cause"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_statuses_and_step_hints_exist(lang):
    table = catalog(lang)
    assert set(STATUSES) <= set(table["status"])
    for step in STEPS:
        assert step.hint in table["hint"], step.name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_step_specific_keys_name_real_steps_and_codes(lang):
    table = catalog(lang)
    for section in ("title", "cause", "hint"):
        for key in table[section]:
            if "." in key:
                step, code = key.split(".", 1)
                assert step in STEPS_BY_NAME, key
                known = {part for m in STEPS_BY_NAME[step].mistakes + STEPS_BY_NAME[step].error_mistakes
                         for part in parts(m.code)} | set(GENERAL_CODES)
                assert code in known, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hints_only_use_page_facts(lang):
    facts = set(page_facts())
    for key, text in catalog(lang)["hint"].items():
        assert {field for field, _ in placeholders(text)} <= facts, key
        text.format(**page_facts())


def test_page_facts_are_the_page_numbers():
    facts = page_facts()
    assert facts["hand"].endswith("= 0.34")
    assert facts["first_row"] == "0.340 + 0.138 + 0.522"
    assert facts["apple_row"] == "[-0.80, -1.53, -1.18, 1.02]"
    assert (facts["first_row_best"], facts["first_row_best_weight"]) == ("먹었다", "0.522")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_text_mentions_tracebacks_or_internals(lang):
    for (section, key), text in entries(catalog(lang)).items():
        assert "Traceback" not in text and "autograder/" not in text, (section, key)


# How the Korean catalog speaks: 합니다체 only, particles on their word, a TA's words.
HAEYO_ENDINGS = re.compile(r"(세요|어요|아요|해요|예요|에요|죠)[.!?)]?(\s|$)")
# A particle cut off from the word before it: "JSON 이", "export() 가", "√d_k 로", "1 이어야".
LOOSE_PARTICLE = re.compile(r"[A-Za-z0-9_)\]}'\"] (이|가|을|를|은|는|의|로|으로|와|과|이고|이어야|입니다)(\s|[.,)]|$)")
TRANSLATED_WORDS = ("사례", "받은 값", "받은 것", "벌써", "고쳐 썼", "문장", "<cell", "번 열", "번 자리")


def korean_entries():
    return sorted(entries(catalog("ko")).items())


@pytest.mark.parametrize("entry, text", korean_entries(), ids=lambda e: ".".join(e) if isinstance(e, tuple) else "")
def test_korean_is_formal_polite_throughout(entry, text):
    assert not HAEYO_ENDINGS.search(text), text


@pytest.mark.parametrize("entry, text", korean_entries(), ids=lambda e: ".".join(e) if isinstance(e, tuple) else "")
def test_korean_particles_sit_on_their_word(entry, text):
    assert not LOOSE_PARTICLE.search(text), text


@pytest.mark.parametrize("entry, text", korean_entries(), ids=lambda e: ".".join(e) if isinstance(e, tuple) else "")
def test_korean_uses_the_words_students_use(entry, text):
    assert not [word for word in TRANSLATED_WORDS if word in text], text


def test_the_style_checks_catch_what_they_are_for():
    assert HAEYO_ENDINGS.search("return 을 빠뜨리지 않았는지 보세요.")
    assert HAEYO_ENDINGS.search("모든 단계를 통과했습니다. 수고했어요!")
    assert not HAEYO_ENDINGS.search("확인하십시오. 맞습니다.")
    for loose in ("올바른 JSON 이 아닙니다", "otter 의 export() 가", "√d_k 로 나눴습니다", "모두 1 이어야 합니다",
                  "'{name}' 를 정의하는"):
        assert LOOSE_PARTICLE.search(loose), loose
    for tight in ("올바른 JSON이 아닙니다", "otter의 export()가", "(Q, K, V) 순서로", "행렬곱 Q @ K.T가 필요합니다"):
        assert not LOOSE_PARTICLE.search(tight), tight


# One word for one thing, in every lab's catalog and in the Korean of the students' files: the W
# matrices are 변환 행렬 (가중치 is the attention weights), the tables 점수표 and 가중치표, a word
# is 낱말, the page's example 예제; a row is 행 (줄 is a line of code or of printed output).
OTHER_NAMES = ("가중치 행렬", "비율표", "가중치 표", "점수 표", "단어", "페이지의 예에서")
ROW_AS_LINE = re.compile(r"줄마다|그 줄|한 줄의 값|[0-9]줄 [0-9]칸")


def every_lab():
    from autograder import registry
    return [registry.load(name) for name in registry.lab_names()]


def every_korean_text():
    """(where, text) of every Korean catalog entry of every lab, and each lab's student .py."""
    for lab in every_lab():
        for (section, key), text in entries(merged_catalog("ko", lab)).items():
            yield f"{lab.name}:{section}.{key}", text
        yield lab.script, lab.assignment_file(lab.script).read_text(encoding="utf-8")


def names_used_for_another(text):
    return [name for name in OTHER_NAMES if name in text] + ROW_AS_LINE.findall(text)


def test_every_korean_text_calls_one_thing_by_one_name():
    found = [(where, names_used_for_another(text)) for where, text in every_korean_text()]
    assert not [f for f in found if f[1]], [f for f in found if f[1]]


def test_the_one_name_check_catches_the_other_names():
    for text in ("같은 가중치 행렬을 두 번 썼습니다", "(n, n) 비율표", "관련 점수 표를 만든다",
                 "페이지의 예에서는 맞지만", "그 줄 전체 eˣ의 합", "줄마다 낱말 이름이 붙은", "3줄 4칸의 표"):
        assert names_used_for_another(text), text
    for text in ("같은 변환 행렬을 두 번 썼습니다", "(n, n) 가중치표", "점수표를 만든다", "내 코드의 줄",
                 "3번째 셀 2번째 줄", "두 줄 모두 `0.34`"):
        assert not names_used_for_another(text), text


# In markdown a particle also sits on `code` and on **bold**: "`X`라도", "**W_Q → W_K → W_V**여야".
LOOSE_AFTER_MARKUP = re.compile(r"[`*] (라도|여야|이|가|을|를|은|는|의|로|으로|와|과|이고|입니다)(\s|[.,)]|$)")


def test_the_students_files_follow_the_house_style_too():
    for lab in every_lab():
        text = lab.assignment_file(lab.script).read_text(encoding="utf-8")
        for rule in (HAEYO_ENDINGS, LOOSE_PARTICLE, LOOSE_AFTER_MARKUP):
            assert not rule.search(text), (lab.script, rule.search(text))


def test_the_markup_particle_check_catches_a_loose_particle():
    assert LOOSE_AFTER_MARKUP.search("같은 `X` 라도 곱하는")
    assert LOOSE_AFTER_MARKUP.search("**W_Q → W_K → W_V** 여야 하니")
    assert not LOOSE_AFTER_MARKUP.search("같은 `X`라도 곱하는 `W_O`를")


# Mistakes the step's own hint does not fit (it points at a check the mistake passes, or at another
# part of the formula): each has a hint of its own, in its step's wording or the code's.
MISTAKES_NEEDING_THEIR_OWN_HINT = {
    "self_attention": (("make_qkv", "qkv_order"), ("make_qkv", "same_weight"), ("make_qkv", "rounded"),
                       ("scores", "transposed"), ("scores", "wrong_shape"), ("scores", "rounded"),
                       ("softmax", "no_exp"), ("softmax", "global_max"), ("softmax", "no_keepdims"),
                       ("softmax", "rounded"), ("softmax", "unstable"), ("softmax", "mutates_input"),
                       ("mix", "rounded"), ("self_attention", "return_order"),
                       ("self_attention", "uses_globals"), ("self_attention", "wrong_type"),
                       ("self_attention", "rounded"), ("most_attended", "hardcoded")),
    "masked_attention": (("split_heads", "float_division"), ("multi_head_attention", "float_division"),
                         ("multi_head_attention", "return_order"), ("multi_head_attention", "wrong_type"),
                         ("masked_softmax", "mutates_input")),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lab_name", sorted(MISTAKES_NEEDING_THEIR_OWN_HINT))
def test_a_mistake_the_step_hint_misleads_has_its_own_hint(lab_name, lang):
    from autograder import registry
    lab = registry.load(lab_name)
    hints = merged_catalog(lang, lab)["hint"]
    for step, code in MISTAKES_NEEDING_THEIR_OWN_HINT[lab_name]:
        assert f"{step}.{code}" in hints or code in hints, (step, code)
        named = lab.steps_by_name[step].mistakes + lab.steps_by_name[step].error_mistakes
        assert code in {m.code for m in named} | set(GENERAL_CODES) | {"rounded"}, (step, code)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_title_says_what_the_values_are_never_what_the_code_did(lang):
    # A title is shown beside a repair found in the student's own code: a code word in it (a
    # keyword argument, an operator the student may not have written) can contradict the repair.
    from labs.masked_attention import LAB as MASKED
    for lab in (LAB, MASKED):
        for code, title in merged_catalog(lang, lab)["title"].items():
            assert not re.search(r"\b[a-z_]+=|\*\*|keepdims", title), (lang, code, title)
