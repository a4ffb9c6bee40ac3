import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def zygote():
    from autograder.sandbox.runner import Zygote

    with Zygote() as warm:
        yield warm


@pytest.fixture(scope="session")
def plan():
    from autograder.grading import Plan

    return Plan.build()
