"""A wheel of this project (engine, labs with their hidden cases, references) for the autograder zip to install.

Built by the project's own build backend (`pip wheel --no-deps`), from a copy of the sources, so
that a stale `build/` folder in the working tree can never leak old files into the wheel.
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from os import PathLike

SOURCES = ("pyproject.toml", "README.md", "autograder", "labs", "solutions")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


class WheelError(RuntimeError):
    pass


def write_wheel(root: str | PathLike[str], folder: str | PathLike[str], python: str = sys.executable,
                timeout: float = 300) -> pathlib.Path:
    """Build `<name>-<version>-py3-none-any.whl` from the sources under `root` into `folder`."""
    root, folder = pathlib.Path(root), pathlib.Path(folder)
    with tempfile.TemporaryDirectory(prefix="autograder-wheel-") as staging_name:
        staging = pathlib.Path(staging_name)
        for name in SOURCES:
            source = root / name
            if source.is_dir():
                shutil.copytree(source, staging / "src" / name, ignore=IGNORED)
            else:
                (staging / "src").mkdir(exist_ok=True)
                shutil.copy(source, staging / "src" / name)
        out = staging / "out"
        command = [python, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check",
                   "-w", str(out), str(staging / "src")]
        done = _pip(command, timeout)
        if done.returncode != 0:
            # Offline: build with the setuptools already installed here instead of a fresh one.
            done = _pip(command[:4] + ["--no-build-isolation"] + command[4:], timeout)
        wheels = sorted(out.glob("*.whl")) if done.returncode == 0 else []
        if len(wheels) != 1:
            raise WheelError(f"building the wheel failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        target = folder / wheels[0].name
        shutil.move(str(wheels[0]), target)
    return target


def _pip(command: Sequence[str], timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise WheelError(f"building the wheel did not finish within {timeout} s") from None
