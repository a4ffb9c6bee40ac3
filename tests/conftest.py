import os
import pathlib
import sys
import time

import pytest
from labs.self_attention import LAB

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The submissions, attack rounds and replays the tests read (tests/corpora/README.md says each one's source).
CORPORA = ROOT / "tests" / "corpora"

# The tests mirror the layers of ARCHITECTURE.md: tests/<layer>/ (vocabulary, reading, sandbox,
# judging, rendering, grading, then the work: batch, lms, otter, kit, authoring; faces) holds the
# tests of that layer's modules, tests/labs/ the labs' contract, tests/docs/ the documentation's,
# tests/install/ what installs, tests/project/ the tree's own rules; tests/corpora/ is their data.
# What a plain `pytest` leaves out (`bash scripts/test.sh`, which CI runs, runs everything) is
# decided by the folder a test file lives in, and a folder of that name anywhere on its path:
# - install/: makes virtual environments, installs wheels or builds the emulated LMS image;
# - browser/: opens pages in headless chromium or builds the documentation site;
# - slow/: runs the CLI or every corpus file many times over (the hostile corpus, the attack rounds,
#   the students' kit against the engine, budgets, slips, the TA's after-grading runs, every file
#   of the blind and field corpora, the docs' commands typed in a fresh clone).
# A new test file is quick unless it is put in such a folder; besides, a test that uses an image
# fixture is `install`, and one whose name says browser or chromium is `browser`.
FOLDER_MARKERS = ("slow", "install", "browser")
INSTALL_FIXTURES = {"gradescope_image", "gradescope_zip", "emulation"}
TESTS = ROOT / "tests"


def marker_folders(path):
    """The markers the folders of test file `path` give it (tests/batch/slow/test_x.py: {"slow"})."""
    return set(FOLDER_MARKERS) & set(pathlib.Path(path).resolve().relative_to(TESTS).parts[:-1])


def folders_of_tests():
    """Every folder holding test modules (the corpora are data)."""
    return sorted({path.parent for path in TESTS.rglob("test_*.py")
                   if "corpora" not in path.relative_to(TESTS).parts})


# A test module imports another one's helpers by its name (`from test_hostile import EXPECTED`), as
# pytest imports it: every folder of test modules is importable, whichever is collected first.
for _folder in folders_of_tests():
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))


def pytest_collection_modifyitems(config, items):
    for item in items:
        folders = marker_folders(item.path)
        if "install" in folders or INSTALL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.install)
        if "browser" in folders or "browser" in item.name or "chromium" in item.name:
            item.add_marker(pytest.mark.browser)
        if "slow" in folders:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: _START_ORDER.get(_cost_class(item), len(_START_ORDER)))


# The order test modules start in, for `scripts/test.sh`'s workers (one per core, each test file in
# one worker, in this order): the modules that take minutes go first, the quick ones fill in at the
# end, so no worker is left alone with a long module while the other has nothing to do. A stable
# sort: the tests of a module stay together and in their order; which tests run never changes.
_START_ORDER = {"install": 0, "slow": 1, "browser": 1}


def _cost_class(item):
    """The folder that says how long `item`'s module takes ("install", "slow", "browser"), or ""."""
    folders = marker_folders(item.path)
    return next((name for name in ("install", "slow", "browser") if name in folders), "")


@pytest.fixture(scope="session")
def zygote():
    from autograder.sandbox.runner import Zygote

    with Zygote() as warm:
        yield warm


@pytest.fixture(scope="session")
def plan():
    from autograder.grading.plan import Plan

    return Plan.build(LAB)


# The emulated platform's step limit, and how many unrelated top-level packages sit beside the
# grader in its site-packages (a course image has hundreds).
GRADESCOPE_STEP_SECONDS = 3.0
UNRELATED_PACKAGES = int(os.environ.get("GRADESCOPE_EMULATION_PACKAGES", "300"))


# Gradescope's default image is Ubuntu 22.04: Python 3.10, and (without python3-pip) no pip.
GRADESCOPE_PYTHON = "3.10"


@pytest.fixture(scope="session")
def gradescope_zip(tmp_path_factory):
    """The autograder zip this tree builds (no self-check)."""
    from autograder.otter import build as otter_build

    work = tmp_path_factory.mktemp("gradescope-zip")
    return otter_build.build(work, LAB, step_seconds=GRADESCOPE_STEP_SECONDS, self_check=False)["zip"]


@pytest.fixture(scope="session")
def gradescope_image(tmp_path_factory, gradescope_zip):
    """The built autograder zip, installed once (non-editable) by its setup.sh into a fresh
    crowded image of Gradescope's default kind: Python 3.10 without pip, ensurepip disabled as
    Ubuntu disables it (setup.sh, run as root, installs python3-pip with the emulated apt-get)."""
    import interpreters
    from autograder.otter.emulation import GradingImage

    python = interpreters.require_or_this(GRADESCOPE_PYTHON)
    work = tmp_path_factory.mktemp("gradescope-image")
    started = time.monotonic()
    # setup.sh uses apt-get only as root, as on the platform; a grader that is not root gets
    # pip from ensurepip.
    pip = "apt" if os.geteuid() == 0 else "ensurepip"
    image = GradingImage(work / "image", python=python, extra_packages=UNRELATED_PACKAGES,
                         pip=pip).install(gradescope_zip)
    # What setup.sh printed when it made the image (a test that installs again overwrites image.setup_output).
    return {"zip": gradescope_zip, "image": image, "seconds": time.monotonic() - started,
            "setup_output": image.setup_output}
