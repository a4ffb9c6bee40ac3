"""Chapter 3, lab 2 (masked multi-head self-attention) as a lab package: its facts, its known
mistakes, its catalogs, and its grading through the engine.

The planted-mistake corpus is tests/corpora/corpus_masked/: `<step>__<code>__<style>.py` makes one
mistake in one step (every other function right); correct/ holds right answers written unusually.
"""
import ast
import json
import os
import pathlib
import re
import string
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from autograder.core import compare
from autograder import registry
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.render.feedback import as_dict, as_text
from autograder.core.render.messages import catalog
from autograder.core.child import codec
from autograder.sandbox.runner import Limits, Zygote
from labs.masked_attention import LAB, hint_facts, page
from labs.masked_attention.cases import public_cases
from labs.masked_attention.hidden import hidden_cases
from solutions import masked_attention as solution
from conftest import CORPORA, ROOT
from test_saved_results import check_rewritten_equal_fresh

LAB_FOLDER = ROOT / "labs" / "masked_attention"
ASSIGNMENT_FOLDER = ROOT / "assignments" / "masked_attention"
TWIN = ASSIGNMENT_FOLDER / "masked_attention_lab.py"
NOTEBOOK = ASSIGNMENT_FOLDER / "masked_attention_lab.ipynb"
CORPUS = CORPORA / "corpus_masked"
PLANTED = sorted(p for p in CORPUS.iterdir() if p.suffix == ".py")
CORRECT = sorted((CORPUS / "correct").glob("*.py"))
# Codes the judge reports on its own besides the steps' named mistakes.
GENERAL_CODES = ("missing", "syntax_error", "not_implemented", "exception", "crashed", "timeout",
                 "wrong_type", "wrong_shape", "transposed", "not_finite", "wrong_values",
                 "mutates_input", "hardcoded")
# Predictions equal to the right answer on the page's case, by design (the judge never reports
# those; they keep a case the student got right from counting against the mistake).
EQUAL_BY_DESIGN = {
    ("masked_softmax", "mask_after_softmax"): "renormalising after zeroing is right unless the visible weights underflow",
    ("multi_head_attention", "mask_after_softmax"): "the same, inside the composed step",
    ("masked_softmax", "wrong_axis"): "a fixed axis=1 is the last axis of an (n, n) table",
}
# Mistakes that predict nothing different on the page's case, and why.
SILENT_ON_PAGE = {
    ("split_heads", "split_words"): "3 words do not split into 2 heads: np.split raises (an ErrorMistake)",
    ("masked_softmax", "unstable"): "the page's scores are small: a naive exp does not overflow",
    ("multi_head_attention", "hardcoded"): "the page's own √2 is right on the page, by definition",
}


def case_named(name):
    return next(case for case in public_cases() + hidden_cases() if case.name == name)


def steps_by_name():
    return {step.name: step for step in LAB.steps}


def right(expected, values, outputs):
    return compare.matches(outputs, list(expected), values)


# The lab as a package ------------------------------------------------------------------------

def test_the_lab_is_found_by_name():
    assert "masked_attention" in registry.lab_names()
    assert registry.load("masked_attention") is LAB
    assert LAB.title("ko") == "3장 실습 2 — 마스크를 씌운 멀티헤드 어텐션"
    assert LAB.total_points == 10
    assert LAB.function_names == ("split_heads", "causal_mask", "masked_softmax", "merge_heads",
                                  "multi_head_attention")
    assert [step.name for step in LAB.steps if step.composed] == ["multi_head_attention"]


def test_the_lab_stands_alone():
    """No module of the lab imports the other lab; the assignment files ship with the package."""
    for path in LAB_FOLDER.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert "self_attention" not in (node.module or ""), path.name
            elif isinstance(node, ast.Import):
                assert all("self_attention" not in alias.name for alias in node.names), path.name
    assert LAB.assignment_file(LAB.script).is_file()
    assert LAB.catalog("ko") and LAB.catalog("en")


def test_a_hidden_case_has_the_pages_sentence_and_sizes_with_other_weights():
    """A mistake that only sizes other than the public ones show is right on it: so it is told from
    answers fitted to the public tests (causes.mark_fitted_to_public)."""
    page = public_cases()[0]
    same_sizes = [c for c in hidden_cases() if c.sizes() == page.sizes() and c.words == page.words]
    assert same_sizes and all(not np.array_equal(c.inputs["W_Q"], page.inputs["W_Q"]) for c in same_sizes)


def test_cases_public_first_page_first_and_hidden_apart():
    public, hidden = public_cases(), hidden_cases()
    assert [c.name for c in public] == ["page", "wide", "wide-heads", "large", "one-word"]
    assert not any(c.hidden for c in public) and all(c.hidden for c in hidden) and len(hidden) == 6
    sizes = {(c.X.shape, c.n_heads) for c in public}
    assert len(sizes) == len(public)
    # Every hidden case but the page's sentence with other weights has sizes and words of its own.
    for case in (c for c in hidden if c.words != public[0].words):
        assert (case.X.shape, case.n_heads) not in sizes, case.name
        assert not set(case.words) & {w for c in public for w in c.words}, case.name
    for case in public + hidden:
        n, d_model = case.X.shape
        assert d_model % case.n_heads == 0 and len(case.words) == n == len(set(case.words))
        assert all(getattr(case, w).shape == (d_model, d_model) for w in ("W_Q", "W_K", "W_V", "W_O"))


def test_page_case_draws_the_four_weights_from_seed_0():
    np.random.seed(0)
    drawn = [np.round(np.random.randn(4, 4) * 0.5, 1) for _ in range(4)]
    case = case_named("page")
    for name, matrix in zip(("W_Q", "W_K", "W_V", "W_O"), drawn):
        np.testing.assert_array_equal(getattr(case, name), matrix)
    np.testing.assert_array_equal(case.X, page.X)
    assert case.words == ("나는", "사과를", "먹었다") and case.n_heads == 2
    # Drawing them leaves the caller's random stream alone.
    np.random.seed(5)
    expected_next = np.random.rand()
    np.random.seed(5)
    page.page_weights()
    assert np.random.rand() == expected_next


# The reference -------------------------------------------------------------------------------

def by_loops(case):
    """The computation again, one head, one word and one cell at a time, for checking."""
    X, n_heads = case.X, case.n_heads
    n, d_model = X.shape
    d_head = d_model // n_heads
    Q, K, V = X @ case.W_Q, X @ case.W_K, X @ case.W_V
    weights = np.zeros((n_heads, n, n))
    merged = np.zeros((n, d_model))
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        for i in range(n):
            scores = [float(Q[i, cols] @ K[j, cols]) / d_head ** 0.5 for j in range(i + 1)]
            top = max(scores)
            exps = [np.exp(s - top) for s in scores]
            for j in range(i + 1):
                weights[h, i, j] = exps[j] / sum(exps)
            merged[i, cols] = sum(weights[h, i, j] * V[j, cols] for j in range(i + 1))
    return merged @ case.W_O, weights


@pytest.mark.parametrize("case", public_cases() + hidden_cases(), ids=lambda c: c.name)
def test_reference_matches_a_computation_by_loops(case):
    output, weights = solution.multi_head_attention(case.X, case.W_Q, case.W_K, case.W_V, case.W_O, case.n_heads)
    loop_output, loop_weights = by_loops(case)
    n, d_model = case.X.shape
    assert output.shape == (n, d_model) and weights.shape == (case.n_heads, n, n)
    assert np.all(np.isfinite(output)) and np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights, loop_weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(output, loop_output, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0)
    assert np.all(weights[:, ~np.tri(n, dtype=bool)] == 0.0)  # nothing above the diagonal
    t = LAB.trace(case)
    np.testing.assert_array_equal(t.output, output)
    np.testing.assert_array_equal(solution.merge_heads(solution.split_heads(t.Q, case.n_heads)), t.Q)


def test_page_case_facts():
    t = LAB.trace(case_named("page"))
    assert t.mask.dtype == bool
    assert t.mask.tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    assert t.weights.shape == (2, 3, 3) and t.output.shape == (3, 4)
    assert t.Q_heads.shape == (2, 3, 2)
    np.testing.assert_allclose(t.weights.sum(axis=-1), np.ones((2, 3)))
    assert np.all(t.weights[:, [0, 0, 1], [1, 2, 2]] == 0.0)
    np.testing.assert_array_equal(t.weights[:, 0, 0], [1.0, 1.0])  # the first word sees only itself
    np.testing.assert_allclose(t.merged[0], t.V[0])
    for name, (decimals, printed) in page.PRINTED.items():
        value = getattr(t, name)
        if value.dtype == bool:
            assert value.tolist() == printed, name
        else:
            np.testing.assert_allclose(value, printed, atol=0.5 * 10.0 ** -decimals + 1e-12, err_msg=name)
    # The hand computation the notebook walks through: the second head's '사과를' row.
    visible = np.exp([0.17, 0.76])
    np.testing.assert_allclose(t.weights[1, 1, :2], visible / visible.sum(), atol=6e-3)


def test_reference_takes_a_mask_of_ones_and_zeros_and_one_dimensional_rows():
    scores = np.array([[1.0, 2.0, 3.0]])
    np.testing.assert_allclose(solution.masked_softmax(scores, np.array([[1.0, 1.0, 0.0]])),
                               solution.masked_softmax(scores, np.array([[True, True, False]])))
    np.testing.assert_allclose(solution.masked_softmax(np.array([1000.0, 1000.0]), np.array([True, True])),
                               [0.5, 0.5])
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # underflow to 0 is harmless
        solution.masked_softmax(np.array([[1e4, -1e4, 3e3]]), np.array([[True, True, False]]))


def test_large_case_overflows_a_naive_exp():
    t = LAB.trace(case_named("large"))
    with np.errstate(all="ignore"):
        assert not np.all(np.isfinite(np.exp(np.where(t.mask, t.scaled, -np.inf))))


# Known mistakes ------------------------------------------------------------------------------

def mistakes():
    return [(step, mistake) for step in LAB.steps for mistake in step.mistakes]


@pytest.mark.parametrize("step, mistake", mistakes(), ids=lambda x: getattr(x, "name", getattr(x, "code", "")))
def test_every_mistake_differs_from_the_answer_on_the_page(step, mistake):
    case = case_named("page")
    probes = step.probes(case, LAB.trace(case))
    predictions = [(p, c) for p in probes for c in mistake.candidates(p)]
    if (step.name, mistake.code) in SILENT_ON_PAGE:
        assert all(right(p.expected, c, step.outputs) for p, c in predictions) or not predictions
        return
    assert predictions, f"{mistake.code} predicts nothing on the page"
    for probe in probes:  # every call on the page can show the mistake
        assert any(not right(probe.expected, c, step.outputs) for c in mistake.candidates(probe)), probe.label
    if (step.name, mistake.code) not in EQUAL_BY_DESIGN:
        assert not any(right(p.expected, c, step.outputs) for p, c in predictions), mistake.code


def test_silent_mistakes_speak_elsewhere():
    by_name = steps_by_name()
    large = case_named("large")
    probes = by_name["masked_softmax"].probes(large, LAB.trace(large))
    unstable = next(m for m in by_name["masked_softmax"].mistakes if m.code == "unstable")
    assert all(list(unstable.candidates(p)) for p in probes)
    split = next(m for m in by_name["split_heads"].mistakes if m.code == "split_words")
    probe = by_name["split_heads"].probes(large, LAB.trace(large))[0]  # 4 words, 2 heads
    (candidate,) = split.candidates(probe)
    assert not right(probe.expected, candidate, by_name["split_heads"].outputs)


def test_renormalised_mask_after_softmax_differs_where_the_visible_weights_underflow():
    by_name = steps_by_name()
    step = by_name["masked_softmax"]
    mistake = next(m for m in step.mistakes if m.code == "mask_after_softmax")
    scores = np.array([[0.0, 900.0], [0.0, 1.0]])
    mask = np.array([[True, False], [True, True]])
    expected = solution.masked_softmax(scores, mask)
    probe = step.probes(case_named("page"), LAB.trace(case_named("page")))[0]
    probe = type(probe)(step=step, case=probe.case, trace=probe.trace, args=(scores, mask), expected=(expected,),
                        label="2-D")
    plain, renormalised = mistake.candidates(probe)
    assert np.isnan(renormalised[0][0]).all() and not right(probe.expected, renormalised, step.outputs)


def error_of(function, *args):
    try:
        function(*args)
    except Exception as error:  # noqa: BLE001 - the error is the data
        return {"type": type(error).__name__, "message": str(error)}
    raise AssertionError("no error")


def matches(mistake, probe, error):
    """As the judge reads an error: its type and a pattern the mistake gives for this probe."""
    message = error.get("message")
    return isinstance(message, str) and any(kind == error.get("type") and re.search(pattern, message)
                                            for kind, pattern in mistake.messages(probe))


def test_error_mistakes_match_numpys_own_words_and_nothing_else():
    by_name = steps_by_name()
    page_case = case_named("page")
    t = LAB.trace(page_case)
    split = by_name["split_heads"]
    probe = split.probes(page_case, t)[0]
    split_words, float_division = split.error_mistakes
    assert matches(split_words, probe, error_of(lambda M, h: np.stack(np.split(M, h)), *probe.args))
    n, d = t.Q.shape
    float_error = error_of(lambda M, h: M.reshape(n, h, d / h), *probe.args)
    assert matches(float_division, probe, float_error) and not matches(split_words, probe, float_error)
    reshape_error = error_of(lambda M, h: M.reshape(5, 7), *probe.args)
    assert not matches(split_words, probe, reshape_error) and not matches(float_division, probe, reshape_error)
    assert not matches(split_words, probe, {"type": "ValueError", "message": None})
    # Where the words do divide evenly np.split does not raise: the value is told instead.
    large = case_named("large")
    assert not matches(split_words, split.probes(large, LAB.trace(large))[0],
                                   {"type": "ValueError", "message": "array split does not result in an equal division"})


def test_mistake_candidates_are_plain_arrays_and_never_raise_on_any_case():
    for case in public_cases() + hidden_cases():
        t = LAB.trace(case)
        for step in LAB.steps:
            for probe in step.probes(case, t):
                for mistake in step.mistakes:
                    for candidate in mistake.candidates(probe):
                        assert len(candidate) == len(step.outputs)
                        assert all(isinstance(v, np.ndarray) for v in candidate)
                        codec.dumps(codec.encode(candidate))


# Catalogs ------------------------------------------------------------------------------------

def placeholders(text):
    return sorted((field, spec) for _, field, spec, _ in string.Formatter().parse(text) if field is not None)


def test_catalogs_have_the_same_keys_and_placeholders():
    ko, en = LAB.catalog("ko"), LAB.catalog("en")
    assert set(ko) == set(en) == {"text", "title", "cause", "hint", "case", "quantity", "kind", "label", "computes"}
    for section in ko:
        assert set(ko[section]) == set(en[section]), section
        for key in ko[section]:
            assert placeholders(ko[section][key]) == placeholders(en[section][key]), (section, key)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_code_has_a_title_and_a_cause_and_every_hint_renders(lang):
    table = catalog(lang, LAB)
    own = LAB.catalog(lang)
    for step in LAB.steps:
        codes = ({m.code for m in step.mistakes} | {m.code for m in step.error_mistakes}) - set(GENERAL_CODES)
        for code in codes:
            for section in ("title", "cause"):
                assert f"{step.name}.{code}" in own[section] or code in own[section], (section, step.name, code)
        for code in GENERAL_CODES:
            assert f"{step.name}.{code}" in table["title"] or code in table["title"], code
        assert step.hint in own["hint"], step.name
    facts = hint_facts()
    for key, text in own["hint"].items():
        text.format(**facts)  # only the page's facts, all of them known
    for key in [k for section in own.values() for k in section if "." in k]:
        step, code = key.split(".", 1)
        assert step in steps_by_name(), key
        known = {m.code for m in steps_by_name()[step].mistakes} | set(GENERAL_CODES)
        assert code in known, key


def test_korean_follows_the_style_rules():
    for section, keys in LAB.catalog("ko").items():
        for key, text in keys.items():
            for word in ("사례", "벌써", "문장", "하세요", "해요", "했어요", "1번 열", "0번"):
                assert word not in text, (section, key, word)
            assert not re.search(r"요[.)]*(\s|$)", text), (section, key)  # 해요체
            if section == "cause":
                assert re.search("니다|십시오", text), key  # 합니다체
    ko_twin = TWIN.read_text(encoding="utf-8")
    for word in ("사례", "벌써", "하세요", "해요"):
        assert word not in ko_twin, word


# The student's twin --------------------------------------------------------------------------

def twin_module(text, name="twin"):
    namespace = {"__name__": name}
    exec(compile(text, str(TWIN), "exec"), namespace)  # the twin's own code, as a module
    return namespace


def filled(text, required=LAB.function_names):
    """`text` with each step function's body replaced by the reference's (docstring kept)."""
    reference = pathlib.Path(solution.__file__).read_text(encoding="utf-8")
    bodies = {}
    for node in ast.parse(reference).body:
        if isinstance(node, ast.FunctionDef):
            statements = node.body[1:] if ast.get_docstring(node) else node.body
            lines = reference.splitlines()[statements[0].lineno - 1:node.end_lineno]
            bodies[node.name] = textwrap.dedent("\n".join(lines))
    lines = text.split("\n")
    nodes = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name in LAB.function_names]
    assert sorted(n.name for n in nodes) == sorted(required)
    for node in sorted(nodes, key=lambda n: n.lineno, reverse=True):
        start = node.body[0].end_lineno  # after the docstring
        lines[start:node.end_lineno] = textwrap.indent(bodies[node.name], "    ").split("\n")
    return "\n".join(lines)


def test_twin_holds_the_page_facts_and_stubs_in_order():
    text = TWIN.read_text(encoding="utf-8")
    namespace = twin_module(text)
    np.testing.assert_array_equal(namespace["X"], page.X)
    for name, matrix in zip(("W_Q", "W_K", "W_V", "W_O"), page.page_weights()):
        np.testing.assert_array_equal(namespace[name], matrix)
    assert namespace["words"] == list(page.WORDS) and namespace["n_heads"] == page.N_HEADS
    defined = [n.name for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)]
    assert tuple(defined) == LAB.function_names
    for node in (n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)):
        assert "(" in ast.get_docstring(node) and "돌려줄 값" in ast.get_docstring(node), node.name
    for name in defined:
        with pytest.raises(NotImplementedError):
            namespace[name](*([None] * namespace[name].__code__.co_argcount))
    # Each step's markdown says its step number, and the steps declare the same numbers.
    for step in LAB.steps:
        assert f"## {step.page_step}단계" in text, step.name


FAKE_KIT = '''
class Checks:
    def check(self, name):
        return "checked " + name


def prepare_grader(lab):
    return Checks()


display = print
'''


def test_filled_twin_prints_the_values_its_markdown_promises(tmp_path):
    """Run as a script (with a stand-in for the check package): every "나와야 할 값" the notebook quotes appears."""
    (tmp_path / "lab_check" / "kit").mkdir(parents=True)
    (tmp_path / "lab_check" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "lab_check" / "kit" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "lab_check" / "kit" / "ready.py").write_text(FAKE_KIT, encoding="utf-8")
    script = tmp_path / "masked_attention_lab.py"
    script.write_text(filled(TWIN.read_text(encoding="utf-8")), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for promised in ("모양: (2, 3, 2)", "[[0.27 0.73 0.  ]]", "큰 값: [[0.5 0.5]]",
                     "되돌리면 Q와 같은가: True", "단계별 결과와 같은가: True True", "모양: (3, 4)",
                     "[-0.82 -1.55 -1.27  0.52]", "[ 0.96  0.65  0.5  -0.69]", "0.837  0.001  0.162",
                     "0.356  0.644  0.000", "0.208  0.376  0.416", "3.31 -3.63  0.54",
                     "행마다 더한 값: [[1. 1. 1.]", "-0.8 -0.1 -0.4  0.2", "checked multi_head_attention"):
        assert promised in out, promised
    assert "nan" not in out


# Through the engine --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def zygote():
    with Zygote() as warm:
        yield warm


@pytest.fixture(scope="module")
def plan():
    return Plan.build(LAB)


@pytest.fixture(scope="module")
def grade(zygote, plan):
    cache = {}

    def graded(name, data):
        key = (name, data)
        if key not in cache:
            cache[key] = grade_bytes(name, data, zygote, plan, Limits())
        return cache[key]
    return graded


def test_plan_probes_every_case(plan):
    cases = len(public_cases()) + len(hidden_cases())
    # 2-D and 3-D on every case; the forms the notebook promises and two masks that are not causal (one with few visible cells) on one public case
    assert len(plan.probes["masked_softmax"]) == 2 * cases + 5
    for name in ("split_heads", "causal_mask", "merge_heads", "multi_head_attention"):
        assert len(plan.probes[name]) == cases
    mask_probe = plan.probes["causal_mask"][0]
    assert mask_probe.args == (3,)


def test_filled_twin_gets_full_marks(grade):
    result = grade("masked_attention_lab.py", filled(TWIN.read_text(encoding="utf-8")).encode())
    assert [(s.name, s.status) for s in result.steps] == [(n, "passed") for n in LAB.function_names]
    assert result.score == 10 and result.max_score == 10 and not result.notes
    assert "모든 단계를 통과했습니다" in as_text(result, LAB, "ko")


def test_untouched_twin_is_not_implemented_everywhere(grade):
    result = grade("masked_attention_lab.py", TWIN.read_bytes())
    assert [(s.name, s.status, s.score) for s in result.steps] == \
        [(n, "not_implemented", 0.0) for n in LAB.function_names]
    assert not result.notes


def notebook_cells():
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]


def cell_source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_notebook_steps_are_the_twins_functions():
    """The notebook is built from the twin: same step functions, in order, each with its check."""
    twin = TWIN.read_text(encoding="utf-8")
    twin_sources = {node.name: ast.get_source_segment(twin, node) for node in ast.parse(twin).body
                    if isinstance(node, ast.FunctionDef)}
    tags = [cell["metadata"].get("tags", [""])[0] for cell in notebook_cells() if cell["cell_type"] == "code"]
    steps = [t.split(":", 1)[1] for t in tags if t.startswith("step:")]
    assert tuple(steps) == LAB.function_names
    assert [t.split(":", 1)[1] for t in tags if t.startswith("check:")] == steps
    for cell in notebook_cells():
        tag = cell["metadata"].get("tags", [""])[0]
        if tag.startswith("step:"):
            assert cell_source(cell).strip() == twin_sources[tag[5:]].strip(), tag
    # Every markdown cell of the twin, as the notebook shows it.
    blocks = re.split(r"^# %%.*$", twin, flags=re.MULTILINE)
    marks = re.findall(r"^# %%.*$", twin, flags=re.MULTILINE)
    twin_markdown = ["\n".join(line[2:] if line.startswith("# ") else "" for line in block.strip("\n").splitlines())
                     for mark, block in zip(marks, blocks[1:]) if mark.strip() == "# %% [markdown]"]
    notebook_markdown = [cell_source(c) for c in notebook_cells() if c["cell_type"] == "markdown"]
    assert notebook_markdown[:len(twin_markdown)] == twin_markdown
    metadata = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["metadata"]
    assert metadata.get(registry.METADATA_KEY) == LAB.name
    markdown = [cell_source(c) for c in notebook_cells() if c["cell_type"] == "markdown"]
    assert any("0.208 0.376 0.416" in text for text in markdown)


def test_filled_notebook_gets_full_marks_and_the_untouched_one_none(grade):
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    untouched = grade(NOTEBOOK.name, NOTEBOOK.read_bytes())
    assert [s.status for s in untouched.steps] == ["not_implemented"] * len(LAB.steps)
    for cell in notebook["cells"]:
        tag = cell["metadata"].get("tags", [""])[0]
        if tag.startswith("step:"):
            cell["source"] = filled(cell_source(cell), required=(tag[5:],))
    result = grade(NOTEBOOK.name, json.dumps(notebook, ensure_ascii=False).encode())
    assert [s.status for s in result.steps] == ["passed"] * len(LAB.steps) and result.score == 10


def planted(path):
    step, code, _style = path.stem.split("__")
    return step, code


def test_corpus_names_real_steps_and_codes_and_covers_every_mistake():
    by_name = steps_by_name()
    seen = set()
    for path in PLANTED:
        step, code = planted(path)
        assert step in by_name, path.name
        known = {m.code for m in by_name[step].mistakes} | {m.code for m in by_name[step].error_mistakes}
        assert code in known | set(GENERAL_CODES), path.name
        seen.add((step, code))
    declared = {(s, m.code) for s, m in ((s.name, m) for s in LAB.steps for m in s.mistakes + s.error_mistakes)}
    assert declared <= seen, declared - seen
    main = ("split_no_transpose", "split_interleaved", "mask_transposed", "mask_no_diagonal",
            "mask_after_softmax", "mask_zero", "merge_no_transpose", "heads_reversed",
            "no_output_projection", "scale_by_d_model")
    for code in main:  # the main mistakes, each written at least two ways
        assert len([p for p in PLANTED if planted(p)[1] == code]) >= 2, code


@pytest.mark.parametrize("path", PLANTED + CORRECT, ids=lambda p: p.stem)
def test_outputs_written_from_the_saved_result_equal_this_gradings(grade, path, zygote, plan, tmp_path):
    """As tests/batch/slow/test_saved_results_corpora.py checks the corpora no test grades anyway."""
    check_rewritten_equal_fresh(path, zygote, {LAB.name: plan}, tmp_path, result=grade(path.name, path.read_bytes()))


@pytest.mark.parametrize("path", PLANTED, ids=lambda p: p.stem)
def test_planted_mistake_is_named_on_its_step(grade, path):
    step, code = planted(path)
    result = grade(path.name, path.read_bytes())
    by_step = {s.name: s for s in result.steps}
    assert by_step[step].status != "passed", path.name
    assert by_step[step].mistakes[0] == code, (by_step[step].mistakes, by_step[step].cases)
    for other in result.steps:
        if other.name != step:
            assert other.status == "passed", (other.name, other.mistakes)
    for lang in ("ko", "en"):
        text = as_text(result, LAB, lang)
        title = LAB.catalog(lang)["title"].get(code) or catalog(lang, LAB)["title"][code]
        assert title in text, (lang, title)
        assert "{" not in text and "Traceback" not in text
        json.dumps(as_dict(result, LAB, lang), ensure_ascii=False)


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.stem)
def test_right_answers_written_unusually_get_full_marks(grade, path):
    result = grade(path.name, path.read_bytes())
    assert [(s.name, s.status, s.mistakes) for s in result.steps] == \
        [(n, "passed", []) for n in LAB.function_names]


def bool_arrays_cross_as_bool():
    return codec.decode(codec.encode(np.array([True, False]))).dtype == bool


TILDE_MASK = '''
import numpy as np


def split_heads(M, n_heads):
    n, d = M.shape
    return M.reshape(n, n_heads, d // n_heads).transpose(1, 0, 2)


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def masked_softmax(scores, mask):
    scores = scores.copy()
    scores[..., ~mask] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def merge_heads(H):
    return np.concatenate(list(H), axis=1)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    Q, K, V = (split_heads(X @ W, n_heads) for W in (W_Q, W_K, W_V))
    scores = Q @ K.transpose(0, 2, 1) / np.sqrt(Q.shape[-1])
    mask = causal_mask(len(X))
    scores[..., ~mask] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return merge_heads(weights @ V) @ W_O, weights
'''


def test_a_mask_inverted_with_tilde_is_right_on_booleans_only(grade):
    """A mask reaches the student's function as booleans, so `scores[~mask]` works on a True/False
    mask; the page promises a 1/0 mask works too, and there `~` is bitwise (-2/-1): masked_softmax
    fails its public 0/1 call and nothing else."""
    assert bool_arrays_cross_as_bool()
    result = grade("tilde.py", TILDE_MASK.encode())
    assert [(s.name, s.status) for s in result.steps] == [
        (n, "failed" if n == "masked_softmax" else "passed") for n in LAB.function_names]
    step = next(s for s in result.steps if s.name == "masked_softmax")
    assert {(c.case, c.label, c.hidden) for c in step.cases if not c.passed} == {("wide", "0/1", False)}


def test_submissions_for_this_lab_are_recognised():
    assert registry.guess([TWIN.read_bytes()]) == "masked_attention"
    assert registry.guess([NOTEBOOK.read_bytes()]) == "masked_attention"
    assert registry.guess([p.read_bytes() for p in PLANTED[:3]]) == "masked_attention"
    assert registry.choose(None, [TWIN.read_bytes()]) is LAB


def test_a_plain_zygote_grades_this_lab(plan):
    with Zygote() as plain:
        result = grade_bytes("masked_attention_lab.py", filled(TWIN.read_text(encoding="utf-8")).encode(),
                             plain, plan, Limits())
    assert [s.status for s in result.steps] == ["passed"] * len(LAB.steps)


def test_the_lab_ships_in_the_package():
    """Entry point, package and package data: an installed (not editable) grader has the lab."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["autograder.labs"]["masked_attention"] == "labs.masked_attention:LAB"
    assert {"labs*", "assignments*"} <= set(project["tool"]["setuptools"]["packages"]["find"]["include"])
    package_data = project["tool"]["setuptools"]["package-data"]
    shipped = [(LAB.catalog_package, "locale/ko.toml"), (LAB.catalog_package, "locale/en.toml"),
               (LAB.assignment_package, LAB.script), (LAB.assignment_package, LAB.notebook)]
    for package, name in shipped:
        assert any(pathlib.PurePath(name).match(pattern) for pattern in package_data[package]), (package, name)


INTERLEAVED_SPLIT = '''
import numpy as np


def split_heads(M, n_heads):
    return np.stack([M[:, h::n_heads] for h in range(n_heads)])
'''


def test_a_cell_of_a_stack_of_tables_is_named_by_its_head_then_its_words(grade):
    result = grade("interleaved.py", INTERLEAVED_SPLIT.encode())
    (split,) = [s for s in result.steps if s.name == "split_heads"]
    assert split.mistakes[0] == "split_interleaved"
    korean, english = (as_text(result, LAB, lang) for lang in ("ko", "en"))
    assert "(첫 번째 헤드의 '사과를' 행, 두 번째 열)" in korean
    assert "at head 0 (the first), row '사과를', column 1 (the second)" in english
