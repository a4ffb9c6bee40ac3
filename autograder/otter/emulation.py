"""The LMS's grading machine, emulated: a fresh Python set up by the zip's setup.sh, and
`/autograder/{source,submission,results}` laid out as Gradescope lays it out.

Used by the build's self-check (at a private root) and by the test suite (also at the real
`/autograder`, in a private mount namespace, with hundreds of unrelated packages installed).
"""
import json
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass


NETWORK_PREFIXES = ("PIP_", "XDG_CACHE_HOME", "SSL_CERT_", "REQUESTS_CA_BUNDLE")


class EmulationError(RuntimeError):
    pass


@dataclass
class Run:
    results: dict  # results.json, or None when the run wrote none
    returncode: int
    output: str  # stdout and stderr of run_autograder, the end of them
    seconds: float


class GradingImage:
    """A venv standing in for the platform's Python (`python3` on PATH), set up by a zip's setup.sh."""

    def __init__(self, folder, python=sys.executable, extra_packages=0):
        self.folder = pathlib.Path(folder)
        self.python = python
        self.extra_packages = extra_packages
        self.venv = self.folder / "venv"

    @property
    def bin(self):
        return self.venv / "bin"

    def describe(self):
        return "a fresh Python environment set up by the zip's setup.sh"

    def install(self, zip_path, timeout=900):
        """Create the venv (once), add the unrelated packages, run the zip's setup.sh in it."""
        if not (self.bin / "python3").exists():
            self._run([self.python, "-m", "venv", str(self.venv)], "creating the venv", timeout)
            self._add_unrelated_packages()
        root = self.folder / "setup-root"
        shutil.rmtree(root, ignore_errors=True)
        _unpack(zip_path, root / "source")
        # pip keeps the caller's index, proxy and certificate settings.
        network = {key: value for key, value in os.environ.items()
                   if key.startswith(NETWORK_PREFIXES) or key.lower().endswith("_proxy")}
        self._run(["bash", str(root / "source" / "setup.sh")], "setup.sh", timeout,
                  env={**network, **self.environment(root)}, cwd=root / "source")
        return self

    def _add_unrelated_packages(self):
        site = next(self.venv.glob("lib/python*/site-packages"))
        for number in range(self.extra_packages):
            package = site / f"unrelated_package_{number:03d}"
            package.mkdir(exist_ok=True)
            (package / "__init__.py").write_text(f"VALUE = {number}\n", "utf-8")

    def environment(self, root=None):
        environment = {"PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"),
                       "LANG": "C.UTF-8"}
        if root is not None:
            environment["AUTOGRADER_ROOT"] = str(root)
        return environment

    def grade(self, zip_path, files, private_mount=False, timeout=600):
        """Run the zip's run_autograder on one submission as Gradescope does.

        files: {relative path: bytes, or a pathlib.Path the file is a symbolic link to}.

        private_mount: lay the folders out at the real /autograder, in a private mount namespace
        (root only); otherwise at a temporary root named by AUTOGRADER_ROOT.
        """
        with tempfile.TemporaryDirectory(prefix="autograder-root-") as staging:
            root = pathlib.Path(staging) / "autograder"
            _unpack(zip_path, root / "source")
            for relative, data in files.items():
                target = root / "submission" / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(data, pathlib.Path):
                    target.symlink_to(data)  # a link the student planted
                else:
                    target.write_bytes(data)
            (root / "submission").mkdir(parents=True, exist_ok=True)
            (root / "results").mkdir()
            (root / "submission_metadata.json").write_text("{}", "utf-8")
            # Gradescope copies run_autograder to the root and runs it from there.
            shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
            if private_mount:
                os.makedirs("/autograder", exist_ok=True)
                staged = shlex.quote(str(root))
                script = (f"mount -t tmpfs -o mode=755 tmpfs /autograder && cp -a {staged}/. /autograder/"
                          f" && cd /autograder/submission && /autograder/run_autograder; status=$?;"
                          f" cp /autograder/results/results.json {staged}/results/ 2>/dev/null; exit $status")
                command = ["unshare", "--mount", "--propagation", "private", "bash", "-c", script]
                environment, cwd = self.environment(), "/"
            else:
                # The platform's working folder is not ours to choose: the worst case, the student's.
                command = [str(root / "run_autograder")]
                environment, cwd = self.environment(root), root / "submission"
            started = time.monotonic()
            try:
                done = subprocess.run(command, cwd=cwd, env=environment, capture_output=True,
                                      text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise EmulationError(f"run_autograder did not finish within {timeout} s") from None
            seconds = time.monotonic() - started
            results_path = root / "results" / "results.json"
            results = json.loads(results_path.read_text("utf-8")) if results_path.is_file() else None
            output = (done.stdout[-3000:] + "\n" + done.stderr[-3000:]).strip()
            if results is None:
                raise EmulationError(f"run_autograder wrote no results.json (exit {done.returncode}):\n{output}")
            return Run(results, done.returncode, output, seconds)

    def _run(self, command, what, timeout, **kwargs):
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
        except subprocess.TimeoutExpired:
            raise EmulationError(f"{what} did not finish within {timeout} s") from None
        if done.returncode != 0:
            raise EmulationError(f"{what} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        return done


def _unpack(zip_path, folder):
    """Unpack the zip as the platform does, keeping the executable bits it records."""
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path) as archive:
        for info in archive.infolist():
            path = archive.extract(info, folder)
            mode = info.external_attr >> 16
            if mode and not info.is_dir():
                os.chmod(path, mode & 0o777)
