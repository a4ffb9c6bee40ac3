"""Installs the test lab tests/corpora/labs/positional/ on the fly, as a real lab is found: a distribution
on sys.path whose entry point in the "autograder.labs" group names its Lab."""
import contextlib
import os
import pathlib

from autograder import registry
from conftest import CORPORA

LABS = CORPORA / "labs"
NAME = "positional"


def write_distribution(folder):
    """A folder holding the lab's distribution metadata (what `pip install` would write)."""
    info = pathlib.Path(folder) / "positional_test_lab-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: positional-test-lab\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n{NAME} = positional:LAB\n", "utf-8")
    return pathlib.Path(folder)


def _forget():
    registry.forget()


@contextlib.contextmanager
def installed(folder):
    """The test lab installed for this process and the processes it starts (PYTHONPATH)."""
    import sys

    site = write_distribution(folder)
    paths = [str(site), str(LABS)]
    saved_path, saved_env = list(sys.path), os.environ.get("PYTHONPATH")
    sys.path[:0] = paths
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + ([saved_env] if saved_env else []))
    _forget()
    try:
        yield registry.load(NAME)
    finally:
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved_env
        _forget()
