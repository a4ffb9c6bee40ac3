"""The console scripts of the environment running the tests, found beside its interpreter.

A test that needs the installed `autograder` or `lint-imports` runs the one beside
`sys.executable` (the venv or prefix pytest runs in, wherever it is), never a fixed folder of the checkout: a
plain `pytest` passes in any virtual environment the project is installed into.
"""
import os
import sys
import sysconfig

import pytest


def script(name):
    """The path of console script `name` of the running environment; fails, saying what to
    install, when it is not there."""
    for folder in (os.path.dirname(sys.executable), sysconfig.get_path("scripts")):
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    pytest.fail(f"{name} is not installed beside {sys.executable}: install the project with its test "
                f"tools into this environment (pip install -e '.[test]')", pytrace=False)
