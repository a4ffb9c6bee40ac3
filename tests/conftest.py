import os
import pathlib
import time

import pytest
from labs.self_attention import LAB

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def zygote():
    from autograder.sandbox.runner import Zygote

    with Zygote() as warm:
        yield warm


@pytest.fixture(scope="session")
def plan():
    from autograder.grading import Plan

    return Plan.build(LAB)


# The emulated platform's step limit, and how many unrelated top-level packages sit beside the
# grader in its site-packages (a course image has hundreds).
GRADESCOPE_STEP_SECONDS = 3.0
UNRELATED_PACKAGES = int(os.environ.get("GRADESCOPE_EMULATION_PACKAGES", "300"))


@pytest.fixture(scope="session")
def gradescope_image(tmp_path_factory):
    """The built autograder zip, installed once (non-editable) into a fresh crowded venv."""
    from autograder.otter import build as otter_build
    from autograder.otter.emulation import GradingImage

    work = tmp_path_factory.mktemp("gradescope-image")
    built = otter_build.build(work / "build", LAB, step_seconds=GRADESCOPE_STEP_SECONDS, self_check=False)
    started = time.monotonic()
    image = GradingImage(work / "image", extra_packages=UNRELATED_PACKAGES).install(built["zip"])
    return {"zip": built["zip"], "image": image, "seconds": time.monotonic() - started}
