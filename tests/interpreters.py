"""The Pythons the grader supports, found on this machine for the tests that install into them.

Looked up in pyenv's versions (the newest patch of each), else as `python3.X` on PATH. A test
that needs a missing one fails under CI=true (the check must not vanish quietly) and skips with
the reason elsewhere.
"""
import glob
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
PYENV_ROOT = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))


def find(version):
    """The path of a Python `version` ("3.10") interpreter, or None."""
    pyenv = glob.glob(os.path.join(PYENV_ROOT, "versions", f"{version}.*", "bin", f"python{version}"))
    pyenv.sort(key=lambda path: [int(p) for p in path.split("/versions/")[1].split("/")[0].split(".")
                                 if p.isdigit()])
    for candidate in reversed(pyenv):
        if _is(candidate, version):
            return candidate
    on_path = shutil.which(f"python{version}")
    return on_path if on_path and _is(on_path, version) else None


def require(version):
    """The path of a Python `version` interpreter; fails (CI) or skips the test when there is none."""
    path = find(version)
    if path is None:
        reason = (f"Python {version} is not installed (looked in {PYENV_ROOT}/versions and for "
                  f"python{version} on PATH)")
        if _in_ci():
            pytest.fail(f"{reason}; CI must test every supported Python", pytrace=False)
        pytest.skip(reason)
    return path


def require_or_this(version):
    """Python `version` where it is installed; else, under CI, the test fails; elsewhere the
    interpreter running the tests stands in (the tests that need that very version skip)."""
    path = find(version)
    if path is not None:
        return path
    if _in_ci():
        require(version)
    return sys.executable


def _in_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _is(path, version):
    try:
        done = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.strip() == version


class BackgroundVenv:
    """A fresh venv of `base` at `folder` with `pip install ARGS` run in it, built in the background
    (several at once mostly wait on pip). Without byte-compiling: three times faster, and the first
    run compiles what it imports."""

    def __init__(self, base, folder, install, *, cwd=None, seconds=900):
        self.base, self.folder, self.seconds, self.error = base, folder, seconds, None
        script = (f'"{base}" -m venv "{folder}" && "{folder}/bin/python" -m pip install -q --no-compile '
                  f'--disable-pip-version-check {install}')
        self.process = subprocess.Popen(["sh", "-c", script], cwd=cwd, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)

    def built(self):
        """The venv's interpreter once built; None (and `error` says why) when it could not be."""
        try:
            output, _ = self.process.communicate(timeout=self.seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            self.error = f"not built within {self.seconds} s"
            return None
        if self.process.returncode != 0:
            self.error = output[-3000:]
            return None
        return self.folder / "bin" / "python"



def shared_venvs(tmp_path_factory, requirements, versions=SUPPORTED, seconds=900):
    """{version: (folder, error)}: one fresh venv per Python `version` with `pip install -r` of
    `requirements` (its text), built once per test run and shared by every test file and xdist
    worker that asks for the same list (the first builds them all at once, under a file lock; the
    others wait for it). `folder` is None where the Python is missing or the install failed
    (`error` says why)."""
    import fcntl
    import hashlib
    import json

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, which every worker's own folder is in
    digest = hashlib.sha256("\n".join([requirements, *versions]).encode()).hexdigest()[:16]
    root = base / f"shared-venvs-{digest}"
    root.mkdir(exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / "built.json"
        if not done.exists():
            (root / "requirements.txt").write_text(requirements, "utf-8")
            started = {version: BackgroundVenv(base_python, root / f"venv{version}", "-r requirements.txt",
                                               cwd=root, seconds=seconds)
                       for version in versions if (base_python := find(version))}
            built = {}
            for version in versions:
                venv = started.get(version)
                if venv is None:
                    built[version] = [None, f"Python {version} is not installed"]
                else:
                    python = venv.built()
                    built[version] = [None if python is None else str(root / f"venv{version}"), venv.error]
            done.write_text(json.dumps(built), "utf-8")
        built = json.loads(done.read_text("utf-8"))
    return {version: (None if folder is None else pathlib.Path(folder), error)
            for version, (folder, error) in built.items()}
