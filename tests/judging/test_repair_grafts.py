"""Grafts from the reference (autograder/repair/grafts.py): what the student left out, brought back
in the student's own names, and never shown in the default feedback."""
import ast
import builtins
import dataclasses

from hypothesis import given, settings, strategies as st

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.render.step import step_feedback
from autograder.repair.edits import single_edits
from autograder.repair.grafts import graft_edits, reference_function, written_forms
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

from autograder.core.repair_record import GRAFTS
from conftest import ROOT

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")


def _function(source: str) -> ast.FunctionDef:
    node = ast.parse(source).body[-1]
    assert isinstance(node, ast.FunctionDef)
    return node


def _grafts(source: str, lab, name: str):
    """The grafts of the step's reference and of every other way the solution module writes it."""
    return [edit for reference in (reference_function(lab.solution, name), *written_forms(lab.solution, name))
            for edit in graft_edits(_function(source), reference, source=source)]


def _step(result, name):
    return next(s for s in result.steps if s.name == name)


NO_SHIFT = "import numpy as np\n\ndef softmax(z):\n    e = np.exp(z)\n    return e / e.sum(axis=-1, keepdims=True)\n"
NO_SCALE = ("def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n    d_k = K.shape[1]\n"
            "    weights = softmax(Q @ K.T)\n    return mix(weights, V), weights\n")


def test_the_missing_shift_is_grafted_in_the_students_own_parameter_name():
    grafts = _grafts(NO_SHIFT, LAB, "softmax")
    assert any("np.exp(z - z.max(axis=-1, keepdims=True))" in edit.source and edit.line == 4 for edit in grafts)
    assert all(edit.kind in GRAFTS for edit in grafts)


def test_the_missing_scale_is_grafted_around_the_students_own_product():
    grafts = _grafts("import numpy as np\n" + NO_SCALE, LAB, "self_attention")
    assert any(edit.after == "Q @ K.T / np.sqrt(d_k)" and edit.before == "weights = softmax(«Q @ K.T»)" for edit in grafts)


def test_a_reference_local_is_read_as_the_students_local_assigned_the_same_expression():
    source = ("import numpy as np\n\ndef masked_softmax(scores, mask):\n    mask = np.asarray(mask).astype(bool)\n"
              "    filled = np.where(mask, scores, -np.inf)\n    shifted = filled\n    e = np.exp(shifted)\n"
              "    return e / np.sum(e, axis=-1, keepdims=True)\n")
    grafts = _grafts(source, MASKED, "masked_softmax")
    assert any(edit.line == 6 and edit.after == "filled - filled.max(axis=-1, keepdims=True)" for edit in grafts)


# A multi-head attention up to its scores (lines 3 to 6), as the masked lab's students write it.
MULTI_HEAD_START = ("import numpy as np\n\ndef multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):\n"
                    "    Q, K, V = X @ W_Q, X @ W_K, X @ W_V\n"
                    "    Q_h, K_h, V_h = (split_heads(M, n_heads) for M in (Q, K, V))\n"
                    "    scores = Q_h @ K_h.transpose(0, 2, 1) / np.sqrt(Q_h.shape[-1])\n")


def test_what_the_student_named_is_grafted_by_its_name():
    source = (MULTI_HEAD_START +
              "    weights = masked_softmax(scores, causal_mask(X.shape[0]))\n"
              "    merged = merge_heads(weights @ V_h)\n    output = merged\n    return output, weights\n")
    grafts = _grafts(source, MASKED, "multi_head_attention")
    assert any(edit.line == 9 and edit.after == "merged @ W_O" for edit in grafts)
    assert any(edit.line == 8 and edit.after == "merge_heads(weights @ V_h) @ W_O" for edit in grafts)


def test_a_part_written_otherwise_is_grafted_with_the_rest_as_written():
    source = ("import numpy as np\n\ndef softmax(x):\n    shifted = x - np.maximum.reduce(x)\n"
              "    e = np.exp(shifted)\n    return e / np.sum(e, axis=-1, keepdims=True)\n")
    grafts = _grafts(source, LAB, "softmax")
    assert any(edit.line == 4 and edit.after == "x - x.max(axis=-1, keepdims=True)" for edit in grafts)


def test_no_graft_leaves_a_line_of_the_students_unused():
    source = (MULTI_HEAD_START +
              "    mask = causal_mask(n_heads)\n    weights = masked_softmax(scores, mask)\n"
              "    return merge_heads(weights @ V_h) @ W_O, weights\n")
    grafts = _grafts(source, MASKED, "multi_head_attention")
    assert any(edit.line == 7 and edit.after == "causal_mask(X.shape[0])" for edit in grafts)
    assert not any("mask)" not in edit.source.split("weights = ")[1].split("\n")[0] for edit in grafts if edit.line == 8)


def test_no_graft_reads_a_name_the_student_does_not_have():
    # No `d_k` anywhere and no numpy imported: the scale cannot be said in the student's names.
    source = NO_SCALE.replace("    d_k = K.shape[1]\n", "")
    grafts = _grafts(source, LAB, "self_attention")
    assert not any("sqrt" in edit.source or "d_k" in edit.source for edit in grafts)
    assert not any("sqrt" in edit.source for edit in _grafts(NO_SCALE, LAB, "self_attention"))  # `np` not bound


def test_without_a_reference_there_is_no_graft_and_the_mutants_never_have_one():
    assert graft_edits(_function(NO_SHIFT), None, source=NO_SHIFT) == []
    assert reference_function(None, "softmax") is None
    assert reference_function("no_such_package.module", "softmax") is None
    assert not any(edit.kind in GRAFTS for edit in single_edits(_function(NO_SHIFT), limit=2000))


def test_a_graft_is_the_last_single_edit_tried():
    from autograder.repair.kinds import COST, TWO_PLACES
    assert min(COST[kind] for kind in GRAFTS) > max(cost for kind, cost in COST.items()
                                                    if kind not in GRAFTS and kind not in TWO_PLACES)


_LINES = ["x = x + 1", "x = x.T", "x = np.exp(x)", "x = x.sum(axis=0)", "y = x @ x", "x = x[:2]", "z = y - y.max()",
          "x = x - x.max(axis=-1, keepdims=True)", "y = f(x) / np.sqrt(k)", "k = x.shape[0]", "x = f(x)",
          "z = [v * 2 for v in x]", "y = g(x, y)", "x = (x, x)[0]", "y = x / y.max()", "z = np.where(x, y, -np.inf)"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(_LINES), min_size=1, max_size=4), st.lists(st.sampled_from(_LINES), min_size=1, max_size=5),
       st.sampled_from(["x, y", "a, b", "y, x", "x"]), st.booleans())
def test_every_graft_compiles_and_reads_only_the_students_names(ours, theirs, parameters, imported):
    """INVARIANT: a graft is expressed in the student's own names (parameters, locals, names its
    code reads, the names its file binds at its top, built-ins)."""
    source = ("import numpy as np\n" if imported else "") + f"def f({parameters}):\n" + \
        "".join(f"    {line}\n" for line in ours) + "    return x\n"
    reference = _function("def f(x, y):\n" + "".join(f"    {line}\n" for line in theirs) + "    return x\n")
    function = _function(source)
    allowed = {node.id for node in ast.walk(function) if isinstance(node, ast.Name)} | \
        {a.arg for a in function.args.args} | {function.name} | ({"np"} if imported else set()) | set(dir(builtins))
    for edit in graft_edits(function, reference, source=source):
        compile(edit.source, "<graft>", "exec")
        grafted = _function(edit.source)
        own = {node.id for c in ast.walk(grafted) if isinstance(c, ast.comprehension)
               for node in ast.walk(c.target) if isinstance(node, ast.Name)}  # bound inside the graft itself
        assert {node.id for node in ast.walk(grafted) if isinstance(node, ast.Name)} <= allowed | own
        assert edit.line >= function.lineno + 1 and edit.kind in GRAFTS


def _graded(zygote, step_source):
    wrong = CORRECT + "\n\n" + step_source
    return wrong, _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB)), _function(step_source).name)


def test_a_missing_scale_is_named_on_its_line_without_the_answer(zygote):
    wrong, step = _graded(zygote, NO_SCALE)
    line = wrong[:wrong.index("    weights = softmax(Q @ K.T)")].count("\n") + 1
    # Told by the operation it lacks: the scores divided by a value (never which value).
    assert [(part.kind, part.line) for part in step.repair.parts] == [("graft_divided_by", line)]
    korean, english = step_feedback(step, LAB, "ko"), step_feedback(step, LAB, "en")
    assert f"{line}번째 줄: `weights = softmax(«Q @ K.T»)`에서 «»로 표시한 식은 그대로 두되, 이 식을 어떤 값으로 나눠야 합니다" in korean
    assert f"line {line}: the expression marked «» in `weights = softmax(«Q @ K.T»)` can stay as it is, but it must be divided by a value" in english
    for text, cause in ((korean, "짐작되는 원인"), (english, "Likely cause")):
        # "where" (the default) names the place, never the reference's code
        assert "sqrt" not in _cause(text, cause)
    # The reference's expression is kept in the verdict (what every face saves) only to be shown.
    assert [part.after for part in step.repair.parts] == [""]
    fix_lab = dataclasses.replace(LAB, repair_shows="fix")
    fixed_step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(fix_lab)), "self_attention")
    assert "`Q @ K.T / np.sqrt(d_k)`처럼 고치면" in step_feedback(fixed_step, fix_lab, "ko")


def test_a_missing_shift_is_named_on_its_line(zygote):
    source = "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n"
    wrong, step = _graded(zygote, source)
    line = wrong[:wrong.index("    e = np.exp(x)\n")].count("\n") + 1
    assert step.repair is not None and step.repair.parts[0].kind in GRAFTS
    assert line in {part.line for part in (*step.repair.parts, *step.repair.also)}
    assert ".max(" not in _cause(step_feedback(step, LAB, "ko"), "짐작되는 원인")


def _cause(text: str, heading: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(heading))


_EXPRESSIONS = st.recursive(
    st.sampled_from(["x", "y", "k", "1", "2"]),
    lambda inner: st.one_of(st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "@"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
                            st.tuples(st.sampled_from(["np.sqrt", "np.exp", "f"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
                            inner.map(lambda e: f"({e}).T")),
    max_leaves=6)


@settings(max_examples=200, deadline=None)
@given(_EXPRESSIONS, _EXPRESSIONS)
def test_the_part_a_graft_marks_is_where_the_two_expressions_part(ours_text, theirs_text):
    """INVARIANT: the part marked in the student's expression is inside it, and putting the graft's
    part there gives the graft: the student's text outside the mark is the reference's."""
    from autograder.repair.grafts import _differing

    ours, theirs = ast.parse(ours_text, mode="eval").body, ast.parse(theirs_text, mode="eval").body
    part = _differing(ours, theirs)
    if ast.dump(ours) == ast.dump(theirs):
        assert part is None
        return
    assert any(node is part for node in ast.walk(ours))
    # The same path followed in the graft gives the graft's part; replacing ours by it gives the graft.
    path = _path_to(ours, part)
    other = _follow(theirs, path)
    replaced = _replace(ours, path, other)
    assert ast.dump(replaced) == ast.dump(theirs)


def _path_to(root, target):
    if root is target:
        return []
    for index, child in enumerate(ast.iter_child_nodes(root)):
        found = _path_to(child, target)
        if found is not None:
            return [index, *found]
    return None


def _follow(root, path):
    for index in path:
        root = list(ast.iter_child_nodes(root))[index]
    return root


def _replace(root, path, new):
    import copy

    made = copy.deepcopy(root)
    if not path:
        return new
    parent = _follow(made, path[:-1])
    old = list(ast.iter_child_nodes(parent))[path[-1]]
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
        elif isinstance(value, list) and any(item is old for item in value):
            value[[i for i, item in enumerate(value) if item is old][0]] = new
    return made


def test_a_graft_that_keeps_the_function_or_the_value_a_method_is_taken_of_is_told_so():
    """corpus_blind16: `x.max(-1, True)` (keepdims given where `out` goes) and `.values` taken of the
    right Series where `.to_dict()` was meant: the graft says what it keeps, not only "otherwise"."""
    source = ("import numpy as np\n\ndef softmax(x):\n    top = x.max(-1, True)\n    e = np.exp(x - top)\n"
              "    return e / e.sum(axis=-1, keepdims=True)\n")
    assert any(edit.kind == "graft_arguments" and edit.line == 4 and edit.before == "top = «x.max(-1, True)»"
               for edit in _grafts(source, LAB, "softmax"))
    source = ("import pandas as pd\n\ndef most_attended(weights, words):\n"
              "    table = pd.DataFrame(weights, index=words, columns=words)\n    return table.idxmax(axis=1).values\n")
    assert any(edit.kind == "graft_method" and edit.line == 5 for edit in _grafts(source, LAB, "most_attended"))
    # Another function altogether stays a plain graft.
    source = "import numpy as np\n\ndef softmax(x):\n    return np.tanh(x)\n"
    assert not any(edit.kind in ("graft_arguments", "graft_method") for edit in _grafts(source, LAB, "softmax"))


def test_a_value_computed_otherwise_from_the_right_names_is_grafted_whole_at_its_place(zygote):
    """corpus_blind17: `d_k = np.linalg.matrix_rank(K)`. `matrix_rank(W_K)` is right wherever
    d_model ≥ d_k, as in every public case; the repair cases of other sizes the lab draws refuse it,
    and the reference's value of `d_k`, of the names the student's reads, is the repair."""
    source = ("import numpy as np\n\ndef self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
              "    d_k = np.linalg.matrix_rank(K)\n    weights = softmax(scores(Q, K) / np.sqrt(d_k))\n"
              "    return mix(weights, V), weights\n")
    assert any(edit.kind == "graft_value" and edit.line == 5 and edit.before == "d_k = «np.linalg.matrix_rank(K)»"
               for edit in _grafts(source, LAB, "self_attention"))
    wrong, step = _graded(zygote, source.split("\n\n", 1)[1])
    line = wrong[:wrong.index("    d_k = np.linalg.matrix_rank(K)")].count("\n") + 1
    assert [(part.kind, part.line) for part in step.repair.parts] == [("graft_value", line)]
    assert "맞는 값에서 출발하지만" in step_feedback(step, LAB, "ko")


def test_values_put_in_another_container_are_not_told_as_computed_otherwise():
    """corpus_blind4: `return {"Q": Q, "K": K, "V": V}` for the tuple (Q, K, V): the same values in
    another container, a plain graft, never "the right values computed otherwise"."""
    source = ("def make_qkv(X, W_Q, W_K, W_V):\n    Q = X @ W_Q\n    K = X @ W_K\n    V = X @ W_V\n"
              "    return {'Q': Q, 'K': K, 'V': V}\n")
    whole = [edit for edit in _grafts(source, LAB, "make_qkv") if edit.line == 5]
    assert whole and all(edit.kind != "graft_value" for edit in whole)
    assert any(edit.kind == "graft" for edit in whole)
