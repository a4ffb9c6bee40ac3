"""The tests' own layout.

INVARIANT: a plain `pytest` runs in any virtual environment the project is installed into, so no
test reaches into this checkout's `.venv/` (a test that needs an installed command finds it beside
`sys.executable`: tests/installed.py).
INVARIANT: every folder of data the tests read is under tests/corpora/, and tests/corpora/README.md
says for each where it came from and which tests read it.
INVARIANT: the tests mirror the layers: each test module lives in the folder of the layer (or the
part of the work) it tests, never loose in tests/, under a name no other test module has; whether it
runs in a plain `pytest` is decided by its folder (slow/, install/, browser/: tests/conftest.py)."""
import pathlib
import re
import subprocess
import sys

from hypothesis import given, strategies as st

from conftest import CORPORA, FOLDER_MARKERS, ROOT, folders_of_tests, marker_folders

TESTS = ROOT / "tests"
# The test files whose subject is a `.venv` by name: scripts/setup.sh making one in a copied tree,
# a copy that leaves the checkout's out, the commands the README and scripts/demo.sh show.
NAMES_A_VENV = {
    "test_setup_script.py": "scripts/setup.sh makes and remakes the .venv of a copied tree",
    "test_install_layouts.py": "the copied tree leaves the checkout's .venv out",
    "test_docs_commands_in_a_clone.py": "says why the docs' `.venv` commands are not typed in the clone",
    "test_readme_commands.py": "reads the `.venv/bin/autograder` lines of scripts/demo.sh",
    "test_layout.py": "this check",
}
# This checkout's .venv joined as a path: never, in any test file.
INTO_THE_CHECKOUTS_VENV = re.compile(r"""(ROOT|parents\[\d+\]|\.parent)\s*/\s*["']\.venv""")
# `.venv` as a folder's name (`image.venv`, an attribute, is not one).
A_VENV = re.compile(r"(?<![\w)\]])\.venv\b")


def suite_files():
    """Every Python file of the suite itself (the corpora beside it are data)."""
    return [path for path in sorted(TESTS.rglob("*.py"))
            if "corpora" not in path.relative_to(TESTS).parts and "__pycache__" not in path.parts]


def test_no_test_reaches_into_the_checkouts_venv():
    files = suite_files()
    assert len(files) > 100
    for path in files:
        text = path.read_text("utf-8")
        assert not INTO_THE_CHECKOUTS_VENV.search(text), f"{path}: joins ROOT with .venv; use installed.script(NAME)"
        if path.name not in NAMES_A_VENV:
            lines = [number for number, line in enumerate(text.splitlines(), 1) if A_VENV.search(line)]
            assert not lines, (f"{path.relative_to(ROOT)} names .venv (lines {lines}): find an installed command "
                               "with installed.script(NAME), beside sys.executable")
    named = {path.name for path in files if A_VENV.search(path.read_text("utf-8"))}
    assert named == set(NAMES_A_VENV), "NAMES_A_VENV lists exactly the files that name a .venv"


def test_every_corpus_has_its_section_in_the_corpora_readme():
    readme = (CORPORA / "README.md").read_text("utf-8")
    sections = re.findall(r"^## (\S+)$", readme, re.M)
    folders = sorted(path.name for path in CORPORA.iterdir() if path.is_dir() and path.name != "__pycache__")
    assert sorted(sections) == folders and len(sections) == len(set(sections))
    for section in re.split(r"^## ", readme, flags=re.M)[1:]:
        assert "**Source**" in section and "**Guards**" in section, section.splitlines()[0]
    named = set(re.findall(r"tests/[\w/]+\.py", readme))
    assert named and all((ROOT / path).is_file() for path in named), sorted(p for p in named if not (ROOT / p).is_file())


def test_no_data_folder_sits_beside_the_tests():
    """Beside the test modules only the corpora and the layer folders of the tests (no loose data)."""
    data = [path.name for path in TESTS.iterdir() if path.is_dir() and path.name not in ("corpora", "__pycache__")
            and not any(path.rglob("test_*.py"))]
    assert not data, f"data folders outside tests/corpora/: {data} (move them there and describe them in its README)"


# The layers of ARCHITECTURE.md and the parts of its work layer, then the labs' contract, the
# documentation, what installs and the tree's own rules.
LAYER_FOLDERS = ("vocabulary", "reading", "sandbox", "judging", "rendering", "grading", "batch", "lms", "otter",
                 "kit", "authoring", "faces", "labs", "docs", "install", "project")


def suite_test_modules():
    return [path for path in suite_files() if path.name.startswith("test_")]


def test_every_test_module_lives_in_a_layer_folder_under_a_name_of_its_own():
    modules = suite_test_modules()
    assert len(modules) > 100
    loose = [path.name for path in modules if path.parent == TESTS]
    assert not loose, f"test modules loose in tests/: {loose}; put each in its layer's folder (ARCHITECTURE.md)"
    for path in modules:
        layer, *below = path.relative_to(TESTS).parts[:-1]
        assert layer in LAYER_FOLDERS and set(below) <= set(FOLDER_MARKERS), path.relative_to(ROOT)
    names = [path.name for path in modules]
    assert len(names) == len(set(names)), "two test modules share a name (pytest imports them by it)"
    assert {path.parts[len(TESTS.parts)] for path in modules} == set(LAYER_FOLDERS)


def test_every_layer_of_the_architecture_has_its_folder():
    """ARCHITECTURE.md's layers table names the folders; a new layer gets its folder of tests."""
    architecture = (ROOT / "ARCHITECTURE.md").read_text("utf-8")
    layers = re.findall(r"^\| \d\. (\w+) \|", architecture, re.M)
    assert layers and set(layers) - {"work"} <= set(LAYER_FOLDERS)
    assert "tests/<layer>/" in architecture


@given(layer=st.sampled_from(LAYER_FOLDERS), below=st.lists(st.sampled_from(FOLDER_MARKERS), max_size=2, unique=True),
       name=st.from_regex(r"test_[a-z][a-z0-9_]{0,20}\.py", fullmatch=True))
def test_the_folder_alone_decides_the_marker(layer, below, name):
    """A test file's markers are the marker folders on its path, whatever the file is called."""
    expected = set(below) | ({layer} & set(FOLDER_MARKERS))  # tests/install/ is install itself
    assert marker_folders(TESTS / layer / pathlib.Path(*below) / name) == expected


def test_folder_markers_as_collected():
    """What a plain `pytest` collects of each folder, as collected: a slow/ or install/ or browser/
    test is left out, the others are in."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-m", "not slow and not install and not browser", str(TESTS / "project"),
                           str(TESTS / "docs")], capture_output=True, text=True, cwd=ROOT, timeout=300)
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert "tests/project/test_layout.py" in collected, done.stdout[-2000:] + done.stderr[-2000:]
    assert not [path for path in collected if set(FOLDER_MARKERS) & set(path.split("/")[:-1])]


def test_every_folder_of_test_modules_is_importable_by_the_others():
    """`from test_hostile import EXPECTED` works from any folder, whichever module pytest collects first."""
    assert set(map(str, folders_of_tests())) <= set(sys.path)
    assert set(folders_of_tests()) == {path.parent for path in suite_test_modules()}
