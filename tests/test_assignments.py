"""The student assignment: the notebook, its .py twin, the builder and the fill helper."""
import ast
import importlib.util
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from labs.self_attention.cases import page_case
from autograder.grading import grade_file
from labs.self_attention.steps import FUNCTION_NAMES, STEPS_BY_NAME, TOTAL_POINTS

from labs.self_attention import LAB
from conftest import ROOT

AUTHORING = ROOT / "autograder" / "authoring"
LAB_FOLDER = ROOT / "assignments" / "self_attention"
SCRIPT = LAB_FOLDER / "self_attention_lab.py"
NOTEBOOK = LAB_FOLDER / "self_attention_lab.ipynb"
SCRIPT_GRADER_INIT = 'import otter\ngrader = otter.Notebook(tests_dir="tests")'
GRADER_SETUP = (AUTHORING / "grader_setup.py").read_text(encoding="utf-8").strip("\n")
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


def test_tagged_cells_hold_the_exact_otter_calls(notebook):
    # grader_setup.py, called with the lab's name: the cell finds its own notebook by it.
    assert cell_with_tag(notebook, "grader-init").source == \
        GRADER_SETUP.removesuffix("grader = _prepare_grader()") + "grader = _prepare_grader(lab='self_attention')"
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


def test_grader_setup_installs_otter_only_when_missing_and_never_names_the_engine():
    tree = ast.parse(GRADER_SETUP)
    code = ast.unparse(tree)
    assert "pip" in code and "otter-grader" in code
    guarded = [node for node in ast.walk(tree) if isinstance(node, ast.Try)
               and any(ast.unparse(h.type) == "ImportError" for h in node.handlers)]
    assert guarded and "pip" in ast.unparse(guarded[0].handlers[0])
    # The notebook's metadata key "autograder_lab" is data, not the engine.
    assert "autograder" not in GRADER_SETUP.replace('"autograder_lab"', "") and "solutions" not in GRADER_SETUP
    assert "%" not in [line.lstrip()[:1] for line in GRADER_SETUP.splitlines()]  # no magics


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
    "grader set up differently": lambda t: t.replace('tests_dir="tests"', 'tests_dir="t"', 1),
    "markdown line that is not a comment": lambda t: t.replace("# %% [markdown]\n", "# %% [markdown]\ntext\n", 1),
    "no grader": lambda t: t.replace('    import otter\n    grader = otter.Notebook(tests_dir="tests")\n',
                                     "    pass\n", 1),
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


GRADER_SETUP_PROBE = '''import importlib.abc, subprocess, sys
calls = []
class NoOtterYet(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "otter" and not calls:
            raise ImportError("No module named 'otter'")
sys.meta_path.insert(0, NoOtterYet())
subprocess.run = lambda command, **kwargs: calls.append(command)
namespace = {{"__name__": "__main__"}}
exec(compile(open({setup!r}, encoding="utf-8").read(), "setup", "exec"), namespace)
namespace["grader"].check("softmax")  # the stand-in says again what is wrong
print("PIP", calls)
'''


def test_grader_setup_installs_otter_when_missing_then_says_what_is_wrong(tmp_path):
    """Where otter-grader is missing, the cell pip-installs it; without its metadata it says so."""
    probe = GRADER_SETUP_PROBE.format(setup=str(AUTHORING / "grader_setup.py"))
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"PIP [[{sys.executable!r}, '-m', 'pip', 'install', '-q', 'otter-grader>=7,<8']]" in done.stdout
    assert done.stderr.count("이 노트북에서 검사 데이터를 찾지 못했습니다") == 2 and "Traceback" not in done.stderr
