"""The student assignment: the notebook, its .py twin, the builder and the fill helper."""
import ast
import importlib.util
import os
import subprocess
import sys

import nbformat
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from labs.self_attention.cases import page_case
from autograder.grading import grade_file
from labs.self_attention.steps import FUNCTION_NAMES, STEPS_BY_NAME, TOTAL_POINTS

from labs.self_attention import LAB
from conftest import ROOT

AUTHORING = ROOT / "autograder" / "authoring"
LAB_FOLDER = ROOT / "assignments" / "self_attention"
SCRIPT = LAB_FOLDER / "self_attention_lab.py"
NOTEBOOK = LAB_FOLDER / "self_attention_lab.ipynb"
KIT_READY = ROOT / "autograder" / "kit" / "ready.py"
# Values the lab page prints; a correct run of the lab must print them too.
PAGE_PRINTS = ["(3, 4)", "0.34", "-1.46", "4.92", "0.340  0.138  0.522", "0.824  0.009  0.166",
               "[1. 1. 1.]", "[-0.8  -1.53 -1.18  1.02]",
               "{'나는': '먹었다', '사과를': '나는', '먹었다': '나는'}"]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def builder():
    return load(AUTHORING / "build_notebook.py", "lab_build_notebook")


@pytest.fixture(scope="module")
def fill():
    return load(AUTHORING / "fill.py", "lab_fill")


@pytest.fixture(scope="module")
def notebook():
    return nbformat.read(NOTEBOOK, as_version=nbformat.NO_CONVERT)


@pytest.fixture(scope="module")
def script_text():
    return SCRIPT.read_text(encoding="utf-8")


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def cell_with_tag(notebook, tag):
    matches = [cell for cell in notebook.cells if tag in tags(cell)]
    assert len(matches) == 1, f"{len(matches)} cells tagged {tag}"
    return matches[0]


def step_definition(source, name):
    found = [node for node in ast.parse(source).body
             if isinstance(node, ast.FunctionDef) and node.name == name]
    assert len(found) == 1, f"{len(found)} definitions of {name}"
    return found[0]


def page_arguments(name):
    case = page_case()
    Q = case.X @ case.W_Q
    K = case.X @ case.W_K
    weights = np.full((3, 3), 1 / 3)
    return {"make_qkv": (case.X, case.W_Q, case.W_K, case.W_V), "scores": (Q, K),
            "softmax": (Q @ K.T,), "mix": (weights, case.X @ case.W_V),
            "self_attention": (case.X, case.W_Q, case.W_K, case.W_V),
            "most_attended": (weights, list(case.words))}[name]


# The notebook's shape and tag contract --------------------------------------------------------

def test_notebook_is_valid_nbformat_4(notebook):
    assert notebook.nbformat == 4
    nbformat.validate(notebook)


def test_notebook_stores_no_outputs_and_runs_on_python3(notebook):
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)
    assert notebook.metadata.kernelspec.name == "python3"


def test_tagged_cells_follow_the_contract_order(notebook):
    expected = ["grader-init"]
    for name in FUNCTION_NAMES:
        expected += [f"step:{name}", f"check:{name}"]
    expected += ["check-all", "export"]
    assert [tag for cell in notebook.cells for tag in tags(cell)] == expected


def test_tagged_cells_hold_the_exact_otter_calls(notebook, builder):
    # The short set-up cell, with the lab's name: the grader finds its own notebook by it.
    setup = cell_with_tag(notebook, "grader-init")
    assert setup.source == builder.grader_setup_source("ko", "self_attention")
    assert setup.metadata["cellView"] == "form" and setup.metadata["jupyter"] == {"source_hidden": True}
    assert setup.source.startswith("#@title ") and len(setup.source.splitlines()) <= 20
    for name in FUNCTION_NAMES:
        assert cell_with_tag(notebook, f"check:{name}").source == f'grader.check("{name}")'
    assert cell_with_tag(notebook, "check-all").source == "grader.check_all()"
    assert cell_with_tag(notebook, "export").source == "grader.export(pdf=False)"


def test_grader_is_created_before_any_other_code(notebook):
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert tags(code[0]) == ["grader-init"]


def test_each_check_cell_directly_follows_its_step(notebook):
    for index, cell in enumerate(notebook.cells):
        for tag in tags(cell):
            if tag.startswith("step:"):
                assert tags(notebook.cells[index + 1]) == ["check:" + tag[5:]]


def test_step_functions_are_used_only_after_their_check(notebook):
    checked = set()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for tag in tags(cell):
            if tag.startswith("check:"):
                checked.add(tag[6:])
        called = {node.func.id for node in ast.walk(ast.parse(cell.source))
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        used_early = (called & set(FUNCTION_NAMES)) - checked
        if any(t.startswith("step:") for t in tags(cell)):
            continue  # the step cells themselves only define
        assert not used_early, f"{sorted(used_early)} used before its check: {cell.source[:60]!r}"


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_step_cell_holds_only_a_documented_stub(notebook, name):
    tree = ast.parse(cell_with_tag(notebook, f"step:{name}").source)
    assert len(tree.body) == 1
    function = step_definition(cell_with_tag(notebook, f"step:{name}").source, name)
    assert [a.arg for a in function.args.args] == list(STEPS_BY_NAME[name].params)
    docstring = ast.get_docstring(function)
    assert "입력" in docstring and "돌려줄 값" in docstring
    for parameter in STEPS_BY_NAME[name].params:
        assert parameter in docstring
    assert any("\uac00" <= ch <= "\ud7a3" for ch in docstring)  # written in Korean
    body = function.body[1:]
    assert len(body) == 1 and isinstance(body[0], ast.Raise)
    assert ast.unparse(body[0].exc) == "NotImplementedError"


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_notebook_and_script_define_the_same_stub(notebook, script_text, name):
    in_notebook = step_definition(cell_with_tag(notebook, f"step:{name}").source, name)
    in_script = step_definition(script_text, name)
    assert ast.get_docstring(in_notebook) == ast.get_docstring(in_script)
    assert ast.dump(in_notebook) == ast.dump(in_script)


def test_script_runs_its_demo_and_checks_only_as_main(script_text):
    tree = ast.parse(script_text)
    for node in tree.body:
        if isinstance(node, ast.If):
            assert ast.unparse(node.test) == "__name__ == '__main__'"
        else:
            assert "grader" not in ast.unparse(node) and "print(" not in ast.unparse(node)
    checked = [node.args[0].value for node in ast.walk(tree)
               if isinstance(node, ast.Call) and ast.unparse(node.func) == "grader.check"]
    assert checked == list(FUNCTION_NAMES)


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_script_stubs_raise_not_implemented(name):
    module = load(SCRIPT, "lab_stub_script")
    with pytest.raises(NotImplementedError):
        getattr(module, name)(*page_arguments(name))


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_notebook_stubs_raise_not_implemented(notebook, name):
    namespace = {"np": np}
    exec(cell_with_tag(notebook, f"step:{name}").source, namespace)
    with pytest.raises(NotImplementedError):
        namespace[name](*page_arguments(name))


def test_setup_reproduces_the_page_inputs():
    module = load(SCRIPT, "lab_setup_script")
    case = page_case()
    assert module.words == list(case.words)
    for name in ("X", "W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(module, name), getattr(case, name))


def test_grader_setup_installs_otter_only_when_missing_and_never_names_the_engine(builder):
    ready = KIT_READY.read_text(encoding="utf-8")
    tree = ast.parse(ready)
    code = ast.unparse(tree)
    assert "pip" in code and "otter-grader" in code
    guarded = [node for node in ast.walk(tree) if isinstance(node, ast.Try)
               and any(ast.unparse(h.type) == "ImportError" for h in node.handlers)]
    assert guarded and "pip" in ast.unparse(guarded[0].handlers[0])
    for lang in ("ko", "en"):
        cell = builder.grader_setup_source(lang, "self_attention")
        # The notebook's metadata key "autograder_lab" is data, not the engine.
        assert "autograder" not in cell and "solutions" not in cell and "otter" not in cell
        assert "%" not in [line.lstrip()[:1] for line in cell.splitlines()]  # no magics
    assert not any(isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("autograder")
                   for node in ast.walk(tree))


def test_script_tells_how_to_check_without_the_instructors_package(script_text):
    assert "python -m lab_check" in script_text
    assert "autograder check" not in script_text


# The builder ---------------------------------------------------------------------------------

def test_committed_notebook_is_a_fresh_build(builder, script_text):
    assert NOTEBOOK.read_text(encoding="utf-8") == builder.render(script_text, LAB)


def test_build_is_repeatable(builder, script_text):
    assert builder.render(script_text, LAB) == builder.render(script_text, LAB)


def test_builder_check_mode_from_the_command_line():
    result = subprocess.run([sys.executable, str(AUTHORING / "build_notebook.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_builder_rewrites_a_stale_notebook(builder, monkeypatch, tmp_path, capsys):
    target = tmp_path / "lab.ipynb"
    target.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(builder, "assignment_paths", lambda lab: (SCRIPT, target))
    assert builder.main(["--lab", "self_attention", "--check"]) == 1
    assert builder.main(["--lab", "self_attention"]) == 0
    assert target.read_text(encoding="utf-8") == NOTEBOOK.read_text(encoding="utf-8")
    assert builder.main(["--lab", "self_attention", "--check"]) == 0
    assert "out of date" in capsys.readouterr().err


def _swap_steps(text):
    first = text.index("# %%\ndef make_qkv")
    second = text.index("# %%\ndef scores")
    third = text.index("# %% [markdown]", second)
    block_a = text[first:second]
    block_b = text[second:third]
    return text[:first] + block_b + block_a + text[third:]


BROKEN_SOURCES = {
    "check missing after a step": lambda t: t.replace('    print(grader.check("scores"))\n', "", 1),
    "check of the wrong step": lambda t: t.replace('grader.check("mix")', 'grader.check("scores")', 1),
    "steps out of order": _swap_steps,
    "a step missing": lambda t: t[:t.index("# %%\ndef most_attended")],
    "code before the first cell": lambda t: "import os\n" + t,
    "grader set up differently": lambda t: t.replace('prepare_grader("self_attention")', 'prepare_grader("x")', 1),
    "a demo cell that would stop Run All": lambda t: t.replace(
        "    except (NotImplementedError, NameError) as error:\n        display(error)\n", "    except NameError:\n        pass\n", 1),
    "markdown line that is not a comment": lambda t: t.replace("# %% [markdown]\n", "# %% [markdown]\ntext\n", 1),
    "no grader": lambda t: t.replace('    grader = prepare_grader("self_attention")\n', "    pass\n", 1),
}


@pytest.mark.parametrize("problem", sorted(BROKEN_SOURCES))
def test_builder_refuses_a_broken_source(builder, script_text, problem):
    broken = BROKEN_SOURCES[problem](script_text)
    assert broken != script_text
    with pytest.raises(ValueError):
        builder.render(broken, LAB)


# The fill helper -----------------------------------------------------------------------------

def test_fill_keeps_signatures_and_docstrings(fill, script_text):
    filled = fill.fill_script(script_text)
    for name in FUNCTION_NAMES:
        before, after = step_definition(script_text, name), step_definition(filled, name)
        assert ast.get_docstring(after) == ast.get_docstring(before)
        assert ast.dump(after.args) == ast.dump(before.args)
        assert "NotImplementedError" not in ast.unparse(after)


def test_fill_notebook_leaves_its_argument_alone(fill, notebook):
    before = nbformat.writes(notebook)
    filled = fill.fill_notebook(notebook)
    assert nbformat.writes(notebook) == before
    nbformat.validate(filled)
    assert cell_with_tag(filled, "check:mix").source == 'grader.check("mix")'


def test_fill_without_checks_turns_otter_cells_into_no_ops(fill, notebook):
    filled = fill.fill_notebook(notebook, keep_checks=False)
    for cell in filled.cells:
        if any(t == "grader-init" or t.startswith("check") or t == "export" for t in tags(cell)):
            assert cell.source == "pass"
    code = ast.unparse(ast.parse(fill.fill_script(SCRIPT.read_text(encoding="utf-8"), keep_checks=False)))
    assert "otter" not in code and "grader" not in code


def test_fill_refuses_a_script_with_a_step_missing(fill, script_text):
    with pytest.raises(ValueError, match="most_attended"):
        fill.fill_script(script_text[:script_text.index("# %%\ndef most_attended")])


def test_fill_refuses_a_notebook_with_a_step_cell_untagged(fill, notebook):
    changed = nbformat.reads(nbformat.writes(notebook), as_version=4)
    cell_with_tag(changed, "step:softmax").metadata["tags"] = []
    with pytest.raises(ValueError, match="softmax"):
        fill.fill_notebook(changed)


# Grading the assignment as students hand it in -----------------------------------------------

@pytest.mark.parametrize("path", [SCRIPT, NOTEBOOK], ids=["py", "ipynb"])
def test_untouched_assignment_is_not_implemented_everywhere(zygote, plan, path):
    result = grade_file(path, zygote, plan=plan)
    assert {step.name: step.status for step in result.steps} == dict.fromkeys(FUNCTION_NAMES, "not_implemented")
    assert result.score == 0


@pytest.fixture(scope="module")
def filled_files(fill, notebook, script_text, tmp_path_factory):
    folder = tmp_path_factory.mktemp("filled")
    nbformat.write(fill.fill_notebook(notebook, keep_checks=False), folder / "lab.ipynb")
    (folder / "lab.py").write_text(fill.fill_script(script_text, keep_checks=False), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", ["lab.py", "lab.ipynb"])
def test_filled_assignment_gets_full_marks(zygote, plan, filled_files, name):
    result = grade_file(filled_files / name, zygote, plan=plan)
    assert [step.status for step in result.steps] == ["passed"] * len(FUNCTION_NAMES)
    assert result.score == TOTAL_POINTS


def test_filled_notebook_runs_top_to_bottom_in_a_kernel(filled_files):
    from nbclient import NotebookClient

    notebook = nbformat.read(filled_files / "lab.ipynb", as_version=4)
    NotebookClient(notebook, kernel_name="python3", timeout=60,
                   resources={"metadata": {"path": str(filled_files)}}).execute()
    printed = ""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output.output_type != "error", f"{output.get('ename')}: {output.get('evalue')}"
            if output.output_type == "stream":
                printed += output.text
    for value in PAGE_PRINTS:
        assert value in printed


def test_filled_script_prints_the_page_values_when_run(filled_files):
    result = subprocess.run([sys.executable, "lab.py"], capture_output=True, text=True,
                            cwd=filled_files, timeout=120)
    assert result.returncode == 0, result.stderr
    for value in PAGE_PRINTS:
        assert value in result.stdout


def test_script_imported_as_a_module_prints_nothing():
    code = f"import runpy; runpy.run_path({str(SCRIPT)!r}, run_name='submission')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


# The student half: what the set-up cell, the demo cells and the .py twin run against.

@pytest.fixture(scope="module")
def student_half(tmp_path_factory):
    from autograder.otter import build as otter_build

    return otter_build.build(tmp_path_factory.mktemp("dist") / "out", LAB, self_check=False)["student"]


def run_all(notebook, folder, first_cells=()):
    """Run the notebook top to bottom in a real kernel as "Run All" does (the first error stops it);
    [(cell index, tags, text of its outputs)] of the cells that ran."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    running = nbformat.reads(nbformat.writes(notebook), as_version=4)
    for index, source in enumerate(first_cells):
        running.cells.insert(index, nbformat.v4.new_code_cell(source))
    stopped = None
    try:
        NotebookClient(running, kernel_name="python3", timeout=120,
                       resources={"metadata": {"path": str(folder)}}).execute()
    except CellExecutionError as error:
        stopped = error
    shown = [(index, tags(cell), "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                                           + o.get("ename", "") for o in cell.get("outputs", [])))
             for index, cell in enumerate(running.cells) if cell.cell_type == "code"]
    return shown, stopped


def test_run_all_on_the_untouched_notebook_reaches_the_last_cell(student_half):
    """Every demo cell of an unfinished step says so instead of stopping Run All (the field test's
    notebook stopped at the first demo cell)."""
    notebook = nbformat.read(student_half / "self_attention_lab.ipynb", as_version=4)
    shown, stopped = run_all(notebook, student_half)
    assert stopped is None, stopped
    assert shown[-1][1] == ["export"]
    demos = [text for _, cell_tags, text in shown if not cell_tags and "아직" in text]
    assert "make_qkv 함수를 아직 완성하지 않아 이 셀의 예시는 실행하지 않았습니다." in demos[0]
    assert any("이 셀에 필요한 값(Q)이 아직 없어" in text for text in demos)
    assert all("Traceback" not in text and "NotImplementedError" not in text for text in demos)


def test_run_all_with_one_step_unfinished_runs_the_other_examples(student_half, fill):
    notebook = fill.fill_notebook(nbformat.read(student_half / "self_attention_lab.ipynb", as_version=4))
    for cell in notebook.cells:
        if "step:softmax" in tags(cell):
            cell.source = cell.source[:cell.source.rindex('"""') + 3] + "\n    raise NotImplementedError\n"
    shown, stopped = run_all(notebook, student_half, first_cells=["import os\nos.environ['LAB_CHECK_LANG'] = 'en'"])
    assert stopped is None, stopped
    printed = "\n".join(text for _, _, text in shown)
    assert "This cell's example was not run: softmax is not finished yet." in printed
    assert "0.34" in printed and "4.92" in printed  # make_qkv's and scores' examples ran


def test_the_py_twin_speaks_as_the_kit_and_runs_to_the_end(student_half):
    done = subprocess.run([sys.executable, "self_attention_lab.py"], cwd=student_half, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr
    for word in ("Test case failed", "Error at line", "case.check(env)", "Traceback", "results:"):
        assert word not in done.stdout + done.stderr, word
    assert done.stdout.count("· 아직 구현하지 않음") == len(FUNCTION_NAMES)
    assert "make_qkv 함수를 아직 완성하지 않아 이 셀의 예시는 실행하지 않았습니다." in done.stdout
    english = subprocess.run([sys.executable, "self_attention_lab.py"], cwd=student_half, capture_output=True,
                             text=True, timeout=120, env={**os.environ, "PYTHONPATH": "", "LAB_CHECK_LANG": "en"})
    assert english.returncode == 0 and "■ softmax — 0/2 points · not implemented yet" in english.stdout, english.stdout


def test_the_py_twin_outside_the_student_half_says_what_to_do(tmp_path):
    (tmp_path / "lab.py").write_bytes(SCRIPT.read_bytes())
    done = subprocess.run([sys.executable, "lab.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "lab_check/ 폴더가 이 파일과 같은 폴더에 있어야 검사할 수 있습니다" in done.stderr


BLOCK_OTTER = """import importlib.abc, subprocess, sys
calls = []
class NoOtterYet(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "otter" and not calls:
            raise ImportError("No module named 'otter'")
sys.meta_path.insert(0, NoOtterYet())
for name in [n for n in sys.modules if n.split(".")[0] == "otter"]:
    del sys.modules[name]
subprocess.run = lambda command, **kwargs: calls.append(command)
"""


def test_the_set_up_cell_installs_otter_when_missing(student_half):
    """Where otter-grader is missing (Colab), the set-up cell pip-installs it, then gets ready."""
    notebook = nbformat.read(student_half / "self_attention_lab.ipynb", as_version=4)
    notebook.cells = [cell for cell in notebook.cells if "grader-init" in tags(cell)]
    notebook.cells.append(nbformat.v4.new_code_cell("print('PIP', calls)"))
    shown, stopped = run_all(notebook, student_half, first_cells=[BLOCK_OTTER])
    assert stopped is None, stopped
    printed = "\n".join(text for _, _, text in shown)
    assert "otter-grader를 설치합니다" in printed and "검사 준비가 끝났습니다" in printed
    assert f"'-m', 'pip', 'install', '-q', 'otter-grader>=7,<8'" in printed


def test_the_py_twins_cells_run_in_a_kernel_speak_as_the_kit(student_half, builder):
    """VS Code runs the twin's `# %%` cells in a kernel: print(grader.check(...)) is the kit's text there too."""
    twin = (student_half / "self_attention_lab.py").read_text("utf-8")
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(source) for kind, source in builder.split_cells(twin) if kind == "code"])
    shown, stopped = run_all(notebook, student_half)
    assert stopped is None, stopped
    printed = "\n".join(text for _, _, text in shown)
    assert printed.count("· 아직 구현하지 않음") == len(FUNCTION_NAMES)
    for word in ("Test case failed", "Error at line", "results:", "Traceback"):
        assert word not in printed, word


# The builder's guard rule over generated demo cells ------------------------------------------

# statement -> (names it reads, names it makes)
DEMO_STATEMENTS = {
    "print(X.shape)": ({"print", "X"}, set()),
    "Q, K, V = make_qkv(X, W_Q, W_K, W_V)": ({"make_qkv", "X", "W_Q", "W_K", "W_V"}, {"Q", "K", "V"}),
    "table = scores(Q, K)": ({"scores", "Q", "K"}, {"table"}),
    "print(table)": ({"print", "table"}, set()),
    "total = 1 + 2": (set(), {"total"}),
    "print(total)": ({"print", "total"}, set()),
    "weights = softmax(np.zeros(3))": ({"softmax", "np"}, {"weights"}),
}


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(st.tuples(st.lists(st.sampled_from(sorted(DEMO_STATEMENTS)), min_size=1, max_size=4),
                                st.booleans()), min_size=1, max_size=6))
def test_the_builder_refuses_exactly_the_demo_cells_that_would_stop_run_all(builder, cells):
    may_be_missing = set()
    for statements, guarded in cells:
        source = "\n".join(statements)
        if guarded:
            source = "try:\n" + "\n".join("    " + line for line in statements) + "\n" + builder.DEMO_HANDLER
        reads = set().union(*(DEMO_STATEMENTS[s][0] for s in statements))
        makes = set().union(*(DEMO_STATEMENTS[s][1] for s in statements))
        needs = reads & (set(FUNCTION_NAMES) | may_be_missing)
        if needs and not guarded:
            with pytest.raises(ValueError, match="must be one try: statement"):
                builder._demo_names(source, FUNCTION_NAMES, may_be_missing)
            continue
        made = builder._demo_names(source, FUNCTION_NAMES, may_be_missing)
        assert made == (makes if needs else set())
        may_be_missing |= made
