"""The Korean and English catalogs say the same things: same keys, same placeholders, every code."""
import re
import string

import pytest

from autograder.error_model import parts

from autograder.render import LANGUAGES, catalog as merged_catalog
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
