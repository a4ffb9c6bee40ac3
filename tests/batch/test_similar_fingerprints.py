"""The look-alike signal's promises (batch.similar), on generated code and generated classes:

- statements that do nothing and type hints never change a code fingerprint, and a real change does;
- comments and blank lines never count toward the parse budget, and code past it is cut into whole
  statements; what is still left unread is told (similar.csv, the report, grade's notes);
- the whole-file item never counts the same code twice;
- whether a wrong answer weighs nothing is decided per hidden test.
"""
import ast
import copy
import csv
import io
import pathlib
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from autograder.batch import fingerprints, similar_table
from autograder.batch.fingerprints import code_prints
from autograder.batch.similar import (FILE, MIN_NODES, STEP_CODE_CAP, THRESHOLD, combined, items_of, not_compared,
                                      pair_scores, signals)
from autograder.batch.similar_table import similar_rows
from autograder.core.reading.budget import BUDGET, Reading
from conftest import CORPORA, ROOT

sys.path.insert(0, str(CORPORA / "attacks3"))
from simclass import VARIED  # noqa: E402

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")
REFERENCE = (ROOT / "solutions" / "self_attention.py").read_text("utf-8")
FUNCTIONS = ("make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended")
HEADER = "import numpy as np\nimport pandas as pd\n\n\n"


def functions_of(text):
    tree = ast.parse(text)
    return [ast.get_source_segment(text, node) for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name in FUNCTIONS]


# Honest functions of both kinds: the reference's, a TA's correct twin's, eight softmax forms.
POOL = sorted({*functions_of(REFERENCE), *functions_of(CORRECT), *VARIED})


def prints_of(source):
    return code_prints("a.py", (HEADER + source).encode(), FUNCTIONS)


# Statements that do nothing -----------------------------------------------------------------------

NAMES = st.sampled_from(["x", "out", "e", "weights", "scores", "np", "zz_unused"])
FALSY = st.sampled_from(["False", "0", "None", '""', "()", "[]", "{}", "not True", "0.0"])
TRUTHY = st.sampled_from(["True", "1", '"yes"', "(1,)", "not False", "not 0", "...", "[0]"])
HINTS = st.sampled_from(["int", "float", "np.ndarray", "list[float]", '"Tensor"', "tuple[int, ...]", "None"])


def effectless_expressions():
    """Expressions with no call, await, yield or `:=` in them."""
    atoms = st.one_of(NAMES, st.integers(-5, 5).map(str), st.sampled_from(["...", "None", "1.5", "'text'", "()"]),
                      NAMES.map(lambda n: f'f"{{{n}!r:>4}} softmax"'))
    return st.recursive(atoms, lambda inner: st.one_of(
        inner.map(lambda e: f"-({e})"),
        inner.map(lambda e: f"not ({e})"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]}) + ({p[1]})"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]})[{p[1]}]"),
        inner.map(lambda e: f"({e}).shape"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]}, {p[1]})"),
        st.tuples(inner, inner).map(lambda p: f"[{p[0]}, {p[1]}]"),
        st.tuples(inner, inner).map(lambda p: f"{{{p[0]}: {p[1]}}}"),
        st.tuples(inner, inner, inner).map(lambda p: f"({p[0]}) if ({p[1]}) else ({p[2]})"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]}) < ({p[1]})"),
        inner.map(lambda e: f"lambda q: ({e})"),
        inner.map(lambda e: f"[q for q in ({e})]"),
    ), max_leaves=6)


REAL = st.sampled_from(["x = np.exp(x)", "return 0", "print(x)", "out = out + 1", "raise ValueError('x')",
                        "for i in range(3):\n    x = x + i"])


def indented(text, by="    "):
    return "\n".join(by + line for line in text.split("\n"))


EXPRESSIONS = effectless_expressions()


def do_nothing(depth=2):
    """Statements that change no behaviour (each a text at column 0)."""
    expression = EXPRESSIONS
    simple = st.one_of(
        expression, st.just("pass"), st.just("..."), st.just('"""a docstring in the middle"""'),
        NAMES.map(lambda n: f"{n} = {n}"), st.tuples(NAMES, HINTS).map(lambda p: f"{p[0]}: {p[1]}"),
        st.tuples(NAMES, HINTS).map(lambda p: f"{p[0]}: {p[1]} = {p[0]}"),
        TRUTHY.map(lambda t: f"assert {t}"), st.tuples(TRUTHY, expression).map(lambda p: f"assert {p[0]}, {p[1]}"),
        st.tuples(FALSY, REAL).map(lambda p: f"if {p[0]}:\n{indented(p[1])}"),
        st.tuples(FALSY, REAL).map(lambda p: f"while {p[0]}:\n{indented(p[1])}"),
    )
    if depth == 0:
        return simple
    inner = st.lists(do_nothing(depth - 1), min_size=1, max_size=2).map("\n".join)
    return st.one_of(
        simple,
        st.tuples(FALSY, REAL, inner).map(lambda p: f"if {p[0]}:\n{indented(p[1])}\nelse:\n{indented(p[2])}"),
        st.tuples(FALSY, REAL, inner).map(lambda p: f"while {p[0]}:\n{indented(p[1])}\nelse:\n{indented(p[2])}"),
        st.tuples(TRUTHY, inner).map(lambda p: f"if {p[0]}:\n{indented(p[1])}"),
        st.tuples(expression, inner, inner).map(lambda p: f"if {p[0]}:\n{indented(p[1])}\nelse:\n{indented(p[2])}"),
    )


DO_NOTHING = do_nothing()


def statement_lists(tree):
    """Every list of statements in the tree (a function's body, an if's branches, a loop's...)."""
    found = []
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                found.append(value)
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(POOL), st.lists(st.tuples(DO_NOTHING, st.integers(0, 10**6), st.integers(0, 10**6)),
                                       min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 10), HINTS)), st.one_of(st.none(), HINTS))
def test_statements_that_do_nothing_and_type_hints_never_change_a_fingerprint(source, noops, hints, returns):
    """Inserted anywhere in a function (any block, before its docstring, at the module's top level),
    and type hints on any argument or the return: the step's and the file's digests and sizes stay."""
    plain = prints_of(source)
    tree = ast.parse(HEADER + source)
    function = next(node for node in tree.body if isinstance(node, ast.FunctionDef))
    for text, where, index in noops:
        inserted = ast.parse(text).body
        lists = statement_lists(tree)
        target = lists[where % len(lists)]
        target[index % (len(target) + 1):index % (len(target) + 1)] = inserted
    arguments = function.args.args
    for position, hint in hints:
        if arguments:
            arguments[position % len(arguments)].annotation = ast.parse(hint, mode="eval").body
    if returns is not None:
        function.returns = ast.parse(returns, mode="eval").body
    changed = ast.unparse(ast.fix_missing_locations(tree))
    assert changed != ast.unparse(ast.parse(HEADER + source)) or not noops
    after = code_prints("a.py", changed.encode(), FUNCTIONS)
    assert after["steps"] == plain["steps"], changed
    assert after["file"] == plain["file"], changed


class Mutator(ast.NodeTransformer):
    """Changes the `which`-th operator or number of a function: a different program."""

    OPERATORS = [ast.Add, ast.Sub, ast.Mult, ast.Div, ast.MatMult, ast.Pow]

    def __init__(self, which, kind):
        self.which, self.kind, self.seen, self.done = which, kind, 0, False

    def hit(self):
        self.seen += 1
        return self.seen - 1 == self.which

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self.kind == "operator" and self.hit():
            others = [op for op in self.OPERATORS if not isinstance(node.op, op)]
            node.op = others[self.which % len(others)]()
            self.done = True
        return node

    def visit_Constant(self, node):
        if self.kind == "number" and isinstance(node.value, (int, float)) and self.hit():
            node.value = (not node.value) if isinstance(node.value, bool) else node.value + 1
            self.done = True
        return node

    def visit_keyword(self, node):
        self.generic_visit(node)
        if self.kind == "axis" and node.arg == "axis" and self.hit():
            node.value = ast.Constant(value=5)
            self.done = True
        return node


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.sampled_from(POOL), st.integers(0, 40), st.sampled_from(["operator", "number", "axis"]))
def test_a_real_change_changes_the_fingerprint(source, which, kind):
    tree = ast.parse(source)
    counted = Mutator(-1, kind)
    counted.visit(copy.deepcopy(tree))
    assume(counted.seen)
    mutator = Mutator(which % counted.seen, kind)
    changed = ast.unparse(ast.fix_missing_locations(mutator.visit(copy.deepcopy(tree))))
    assert mutator.done
    name = next(node.name for node in tree.body if isinstance(node, ast.FunctionDef))
    assert prints_of(changed)["steps"][name][0] != prints_of(source)["steps"][name][0], changed


def test_the_attacks_no_op_lines_and_a_dead_branch_that_shapes_its_function():
    base = "def softmax(x):\n    out = np.exp(x)\n    return out\n"
    plain = prints_of(base)
    for line in ("-1", "out", "()", "if False: pass", "assert True", "out = out", 'f"softmax"', "...",
                 "if 0:\n        x = np.exp(x)\n    else:\n        pass", "while None:\n        return 1"):
        changed = base.replace("    return out", f"    {line}\n    return out")
        assert prints_of(changed) == plain, line
    # A dead `yield` still makes a generator, a dead `global` still binds: they are kept.
    for line in ("if False:\n        yield 1", "if False:\n        global out"):
        changed = base.replace("    return out", f"    {line}\n    return out")
        assert prints_of(changed)["steps"] != plain["steps"], line
    for line in ("out = np.exp(out)", "print(out)", "assert out.sum() > 0", "out += 0", "if out: print(out)"):
        changed = base.replace("    return out", f"    {line}\n    return out")
        assert prints_of(changed)["steps"] != plain["steps"], line


# Comments, blank lines and the parse budget ----------------------------------------------------------

COMMENTS = st.text(st.characters(blacklist_categories=["Cs", "Cc"], blacklist_characters="\r\n\u2028\u2029"),
                   max_size=40).map(lambda text: "# " + text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(POOL), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 10**6), COMMENTS, st.booleans(), st.integers(0, 3)), max_size=12))
def test_comments_and_blank_lines_change_no_tree(functions, additions):
    """Whole-line comments, comments after code and blank lines anywhere (inside brackets too),
    never inside a string: `code_statements` gives the same trees and never cuts a string."""
    text = HEADER + '\nNOTE = """\n# not a comment\n\nkept = [1,\n]\n"""\n\n' + "\n\n".join(functions)
    lines = text.split("\n")
    for where, comment, after_code, blanks in additions:
        row = where % len(lines)
        inside_string = any(i <= row <= j for i, j in string_rows(text))
        if inside_string:
            continue
        if after_code and lines[row].strip() and not lines[row].rstrip().endswith("\\"):
            lines[row] += "  " + comment
        else:
            lines[row:row] = [comment] + [""] * blanks
        text = "\n".join(lines)
        lines = text.split("\n")
    text = "\n".join(lines)
    statements = fingerprints.code_statements(text, Reading())
    assert statements is not None
    assert ast.dump(ast.parse("".join(statements))) == ast.dump(ast.parse(text))
    assert all(ast.parse(statement).body for statement in statements)
    assert not any(line.strip().startswith("#") for statement in statements for line in statement.split("\n")
                   if "not a comment" not in line)
    assert "# not a comment\n\nkept" in "".join(statements)


def string_rows(text):
    """(first, last) 0-based rows of every string spanning lines."""
    import tokenize

    spans = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING and token.end[0] > token.start[0]:
            spans.append((token.start[0] - 1, token.end[0] - 1))
    return spans


NOTES = "".join(f"# note {'keep working on the lab ' * 4}{n}\n" for n in range(1400))


def test_comments_past_the_budget_change_no_fingerprint():
    """The reported case: 150 000 characters of comments appended to a copy."""
    assert len(NOTES) > BUDGET.parse_chars
    plain = code_prints("a.py", CORRECT.encode(), FUNCTIONS)
    for padded in (CORRECT + "\n" + NOTES, NOTES + CORRECT, CORRECT.replace("def softmax", NOTES + "def softmax")):
        assert code_prints("b.py", padded.encode(), FUNCTIONS) == plain


def test_code_past_the_budget_is_cut_into_statements_and_what_is_left_is_counted():
    filler = "".join(f"_padding_{n} = {n}\n" for n in range(BUDGET.parse_chars // 14 + 100))
    assert len(filler) > BUDGET.parse_chars
    plain = code_prints("a.py", CORRECT.encode(), FUNCTIONS)
    long = code_prints("b.py", (CORRECT + filler).encode(), FUNCTIONS)
    assert long["steps"] == plain["steps"] and "unread" not in long
    one_statement = "_table = [\n" + "    1,\n" * (BUDGET.parse_chars // 6 + 100) + "]\n"
    huge = code_prints("c.py", (CORRECT + one_statement).encode(), FUNCTIONS)
    assert huge["steps"] == plain["steps"] and huge["unread"] == 1
    told = not_compared([{"id": "s01", "status": "graded", "code": huge},
                         {"id": "s02", "status": "graded", "code": plain},
                         {"id": "s03", "status": "graded", "code": {"not_computed": "reading it took more than 10 s"}},
                         {"id": "s04", "status": "broken: unreadable", "code": None}])
    assert [(s.id, s.why) for s in told] == [("s01", "unread"), ("s03", "not_computed")]
    rows = similar_rows([], {}, "en", told)
    text = similar_table.similar_csv(rows)
    read = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert [(r["ids"], r["group"]) for r in read] == [("s01", ""), ("s03", "")]
    assert "not compared in full: 1 part" in read[0]["evidence"] and "more than 10 s" in read[1]["evidence"]
    section = similar_table.report_section(rows, "ko", Label())
    assert "s01" in section and "s03" in section and "직접 살펴보십시오" in section


class Label:
    def text(self, ko, en):
        return ko


# The whole file never counts the same code twice -----------------------------------------------------

STEPS = ["scores", "softmax", "mix", "attention"]


@st.composite
def code_class(draw):
    """A class whose files are made of step functions: each the stub's (nobody's), or one of a few
    versions (so some students share them) of a drawn size; a file is the same exactly when all its
    steps are."""
    size = draw(st.integers(4, 30))
    sizes = {step: draw(st.lists(st.integers(5, 400), min_size=3, max_size=3)) for step in STEPS}
    records = []
    for number in range(size):
        steps = {}
        for step in STEPS:
            version = draw(st.integers(-1, 2))
            steps[step] = [f"stub-{step}", 8] if version < 0 else [f"{step}-{version}", sizes[step][version]]
        file_print = ["file-" + "|".join(steps[s][0] for s in STEPS), 40 + sum(p[1] for p in steps.values())]
        records.append({"id": f"s{number:02d}", "status": "graded", "steps": {s: {} for s in STEPS},
                        "code": {"file": file_print, "steps": steps}})
    return records


NEVER = {step: {f"stub-{step}"} for step in STEPS}


@settings(max_examples=300, deadline=None)
@given(code_class())
def test_the_file_never_counts_the_same_code_twice(records):
    """A pair's code evidence is the larger of its shared file and its shared steps combined, never
    both; when a file's own code is one step (the others shorter than MIN_NODES or the stub's), the
    pair's evidence is that step's once, capped as a step is, and never listed."""
    items = items_of(records, STEPS, NEVER)
    scores = pair_scores(items, {})
    weight = {}
    for item in items:
        for a in item.holders:
            for b in item.holders:
                if a < b:
                    weight.setdefault((a, b), {})[item.step] = max(weight.get((a, b), {}).get(item.step, 0.0),
                                                                   item.weight)
    by_id = {r["id"]: r for r in records}
    for pair, steps in scores.items():
        shared = weight[pair]
        step_part = 1.0
        for step, strength in shared.items():
            if step != FILE:
                step_part *= 1 - strength
        expected = max(shared.get(FILE, 0.0), 1 - step_part)
        assert combined(steps) == pytest.approx(expected, abs=1e-9)
        own = [p[1] for s, p in by_id[pair[0]]["code"]["steps"].items() if not p[0].startswith("stub")]
        if FILE in shared and sum(1 for n in own if n >= MIN_NODES) <= 1:
            assert combined(steps) <= STEP_CODE_CAP + 1e-9
            assert combined(steps) < THRESHOLD


def test_the_reported_file_with_one_step_written_is_not_listed():
    """The handed-out file with one step written (148 nodes), the same in two files."""
    stub = {s: [f"stub-{s}", 7] for s in STEPS}
    one = {**stub, "attention": ["mine", 148]}
    records = [{"id": f"s{n}", "status": "graded", "steps": {s: {} for s in STEPS},
                "code": {"file": ["same", 1114], "steps": one}} for n in (1, 2)]
    records += [{"id": f"o{n}", "status": "graded", "steps": {s: {} for s in STEPS},
                 "code": {"file": [f"f{n}", 300], "steps": {**stub, "attention": [f"a{n}", 150]}}} for n in range(8)]
    assert signals(records, STEPS, {}, NEVER) == []
    two = {**one, "softmax": ["mine too", 90]}
    for record in records[:2]:
        record["code"] = {"file": ["same", 1200], "steps": two}
    assert [g.ids for g in signals(records, STEPS, {}, NEVER)] == [["s1", "s2"]]


# Named wrong answers, per hidden test ------------------------------------------------------------------

HIDDEN = [f"h{n}" for n in range(4)]


@settings(max_examples=200, deadline=None)
@given(st.integers(3, HIDDEN.__len__()), st.lists(st.sampled_from(["exception", "timeout", "wrong_axis",
                                                                   "mutates_input", "crashed", "hardcoded"]),
                                                  max_size=3),
       st.integers(0, 8))
def test_a_mistake_on_one_test_never_voids_the_others_shared_answers(shared, step_mistakes, others):
    """A pair returns the same rare wrong values on `shared` hidden tests; whatever the copier's
    other tests say (an error on a public test, a named mistake on another hidden test), the
    shared answers still count; a named test's own answer never does."""
    rare = {case: f"rare-{case}" for case in HIDDEN[:shared]}

    def student(name, answers, named=(), mistakes=("wrong_values",)):
        return {"id": name, "status": "graded", "code": {},
                "steps": {"softmax": {"hidden": len(HIDDEN), "answers": dict(answers), "named_answers": list(named),
                                      "mistakes": list(mistakes)}}}
    copier_answers = {**rare, **({"h3": "named-value"} if shared < 4 else {})}
    records = [student("a", rare), student("b", copier_answers, named=["h3"] if shared < 4 else [],
                                           mistakes=["wrong_values", *step_mistakes])]
    records += [student(f"o{n}", {}) for n in range(others)]
    groups = signals(records, ["softmax"], {"softmax": len(HIDDEN)})
    assert [g.ids for g in groups] == [["a", "b"]]
    # A named mistake's values, shared on every hidden test, weigh nothing.
    named = {case: f"named-{case}" for case in HIDDEN}
    records = [student("a", named, named=HIDDEN), student("b", named, named=HIDDEN)]
    assert signals(records, ["softmax"], {"softmax": len(HIDDEN)}) == []


# Through the CLI: a student whose code could not be compared in full is told -------------------------

@pytest.mark.slow
def test_grade_tells_a_student_whose_code_was_not_compared(tmp_path):
    root = tmp_path / "class"
    root.mkdir()
    one_statement = "_table = [\n" + "    1,\n" * (BUDGET.parse_chars // 6 + 100) + "]\n"
    (root / "s01.py").write_text(CORRECT + "\n" + one_statement, "utf-8")
    (root / "s02.py").write_text(CORRECT + "\n" + NOTES, "utf-8")
    (root / "s03.py").write_text(CORRECT, "utf-8")
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "2",
                           "--lang", "en"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with open(out / "similar.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["ids"], r["step"]) for r in rows if r["group"] == ""] == [("s01", FILE)]
    assert "not compared in full" in rows[-1]["evidence"]
    section = (out / "report.html").read_text("utf-8").split('id="similar"', 1)[1].split("<h2", 1)[0]
    listed = section.split('class="not-compared"', 1)[1].split("</ul>", 1)[0]
    assert "s01" in listed and "not compared in full" in listed and "s02" not in listed
    assert "could not be compared with the class's, or only in part (s01)" in done.stderr


def test_each_call_of_a_hidden_case_is_a_test_of_its_own():
    """A case that calls the step on several inputs (a 2-D and a 1-D one) holds as many hidden
    tests as "hidden" counts: each call's wrong value is kept, none overwrites another, so two
    students sharing every wrong value share all of the step's hidden tests."""
    from autograder.batch.outputs import hidden_answers
    from autograder.registry import load
    from autograder.core.verdict import CaseResult, StepResult

    lab = load("self_attention")
    cases = [CaseResult(case=f"h{n}", hidden=True, label=label, passed=False, code="wrong_values",
                        answer=f"{n}-{label}") for n in range(3) for label in ("2-D", "1-D")]
    step = StepResult(name="softmax", score=0.0, max_score=2.0, status="failed", mistakes=["wrong_values"], cases=cases)
    answers = hidden_answers(step, lab)
    assert answers["hidden"] == len(answers["answers"]) == 6

    def student(name):
        return {"id": name, "status": "graded", "code": {}, "steps": {"softmax": answers}}

    groups = signals([student("a"), student("b"), *({"id": f"o{n}", "status": "graded", "code": {}, "steps": {}}
                                                    for n in range(8))], ["softmax"], {"softmax": answers["hidden"]})
    assert [g.ids for g in groups] == [["a", "b"]] and groups[0].score == pytest.approx(1.0)
