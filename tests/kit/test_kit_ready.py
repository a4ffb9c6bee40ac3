"""What a demo cell of an unfinished step says (autograder/kit/ready.py, why_skipped), over generated names."""
import builtins
import keyword

import pytest
from hypothesis import given, strategies as st

from autograder.kit import ready

NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n) and not hasattr(builtins, n) and not n.startswith("__"))


def raised(source, env):
    try:
        exec(source, env)
    except (NotImplementedError, NameError) as error:
        return error
    raise AssertionError("nothing raised")


@pytest.mark.parametrize("lang", ["ko", "en"])
@given(step=NAMES)
def test_a_stub_raising_is_named_as_unfinished(lang, step):
    env = {}
    exec(f"def {step}(x):\n    '''doc'''\n    raise NotImplementedError\n", env)
    error = raised(f"value = {step}(1)", env)
    assert ready.why_skipped(error, env, lang) == ready.WORDS[lang]["unfinished"].format(steps=step)


@pytest.mark.parametrize("lang", ["ko", "en"])
@given(missing=NAMES)
def test_a_value_an_earlier_example_did_not_make_is_named(lang, missing):
    env = {}
    error = raised(f"print({missing})", env)
    assert ready.why_skipped(error, env, lang) == ready.WORDS[lang]["missing_value"].format(name=missing)


@given(missing=NAMES)
def test_an_error_inside_a_finished_function_is_told_as_python_tells_it(missing):
    env = {}
    if missing == "finished":
        return
    exec(f"def finished():\n    return {missing} + 1\n", env)
    error = raised("finished()", env)
    said = ready.why_skipped(error, env, "ko")
    assert said.startswith("NameError") and missing in said
    assert said not in {ready.WORDS["ko"]["missing_value"].format(name=missing)}


def test_the_twins_display_prints_the_sentence(capsys, monkeypatch):
    monkeypatch.setenv(ready.LANG_VARIABLE, "en")

    def make_qkv():
        raise NotImplementedError

    try:
        make_qkv()
    except NotImplementedError as error:
        ready.display(error, "and a value")
    assert capsys.readouterr().out == ready.WORDS["en"]["unfinished"].format(steps="make_qkv") + "\nand a value\n"
