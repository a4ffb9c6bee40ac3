"""The LMS's grading machine, emulated: a fresh Python set up by the zip's setup.sh, and
`/autograder/{source,submission,results}` laid out as Gradescope lays it out.

Used by the build's self-check (at a private root) and by the test suite (also at the real
`/autograder`, seen only inside a private mount namespace, with hundreds of unrelated packages
installed). An image can stand for the ways real images differ from this machine:

- `python`: the image's interpreter (Gradescope's default image, Ubuntu 22.04, has Python 3.10);
- `pip`: "venv" (pip installed), "ensurepip" (no pip, `python3 -m ensurepip` works) or "apt"
  (Ubuntu's `python3` without `python3-pip`: no pip, `ensurepip` disabled as Debian disables it,
  and an `apt-get` whose `install python3-pip` gives `python3` Ubuntu 22.04's pip);
- `landlock=False`: every process of the image finds the Landlock system calls refused, as in a
  container whose seccomp profile does not list them.
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


NETWORK_PREFIXES = ("PIP_", "XDG_CACHE_HOME", "SSL_CERT_", "REQUESTS_CA_BUNDLE")
PIP_MODES = ("venv", "ensurepip", "apt")
APT_LOG = "apt-get.log"  # in the image's folder: what setup.sh asked the emulated apt-get

# Debian's own words when its python3 is asked for ensurepip (python3.10 of Ubuntu 22.04).
DEBIAN_ENSUREPIP = """\
ensurepip is disabled in Debian/Ubuntu for the system python.

Python modules for the system python are usually handled by dpkg and apt-get.

    apt install python3-<module name>

Install the python3-pip package to use pip itself.  Using pip together
with the system python might have unexpected results for any system installation
and any other Python installations, but for Debian/Ubuntu specific python packages.
"""
# Imported at every start of the image's python3 (sitecustomize): refuses ensurepip as Debian
# does, except for the emulated apt-get, which installs pip with it.
ENSUREPIP_DISABLED = f'''"""Emulation: ensurepip disabled, as in Debian's and Ubuntu's python3."""
import os
import sys
from importlib.abc import Loader, MetaPathFinder
from importlib.util import spec_from_loader

_MESSAGE = {DEBIAN_ENSUREPIP!r}


class _Refused(Loader):
    """Both for `import ensurepip` and for `python3 -m ensurepip` (runpy asks for the code)."""

    def create_module(self, spec):
        return None

    def get_code(self, fullname):
        return compile("import sys\\nsys.stderr.write(" + repr(_MESSAGE) + ")\\nsys.exit(1)\\n", "<ensurepip>", "exec")

    def exec_module(self, module):
        exec(self.get_code(module.__name__), module.__dict__)


class _DisabledEnsurepip(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "ensurepip" and not os.environ.get("EMULATED_APT_GET"):
            return spec_from_loader(name, _Refused())
        return None


sys.meta_path.insert(0, _DisabledEnsurepip())
'''
# Ubuntu 22.04's python3-pip package holds pip 22.0.2.
UBUNTU_PIP = "22.0.2"
FAKE_APT_GET = """#!/bin/sh
# Emulation of Ubuntu's apt-get, as far as setup.sh uses it: `install python3-pip` gives the
# image's python3 the pip Ubuntu 22.04 packages (bootstrapped from the interpreter's own copy).
set -e
echo "apt-get $*" >> {log}
case " $* " in
    *" install "*python3-pip*)
        EMULATED_APT_GET=1 {python} -m ensurepip --default-pip >/dev/null
        {python} -m pip install --quiet --disable-pip-version-check "pip=={pip}" ;;
esac
"""


class EmulationError(RuntimeError):
    pass


@dataclass
class Run:
    results: dict[str, Any]  # results.json (GradingImage.grade raises when the run wrote none)
    returncode: int
    output: str  # stdout and stderr of run_autograder, the end of them
    seconds: float


class GradingImage:
    """A venv standing in for the platform's Python (`python3` on PATH), set up by a zip's setup.sh."""

    def __init__(self, folder: str | os.PathLike[str], python: str = sys.executable, extra_packages: int = 0,
                 pip: str = "venv", landlock: bool = True, byte_compile: bool = True) -> None:
        """`byte_compile=False`: setup.sh's pip installs without compiling every module (an image
        thrown away after a few runs: its runs compile what they import)."""
        if pip not in PIP_MODES:
            raise ValueError(f"pip must be one of {', '.join(PIP_MODES)}")
        self.folder = pathlib.Path(folder)
        self.python = python
        self.extra_packages = extra_packages
        self.pip = pip
        self.landlock = landlock
        self.byte_compile = byte_compile
        self.venv = self.folder / "venv"
        self.setup_root = self.folder / "setup-root"
        self.setup_output = ""  # what the last setup.sh printed
        self.installed: pathlib.Path | None = None  # the zip setup.sh last installed
        self._prefix: str | None = None  # the interpreter's prefix, once asked

    @property
    def bin(self) -> pathlib.Path:
        return self.venv / "bin"

    def run_python(self, *args: str | os.PathLike[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """The image's python3 with `args`, run as the platform runs it (its PATH, its kernel)."""
        return subprocess.run(self._command([self.bin / "python3", *args]), capture_output=True, text=True,
                              timeout=timeout, env=self.environment(), cwd="/")

    def version(self) -> tuple[int, ...]:
        """The image's python3 version, as (major, minor)."""
        done = self.run_python("-c", "import sys; print(*sys.version_info[:2])")
        return tuple(int(part) for part in done.stdout.split())

    def install(self, zip_path: str | os.PathLike[str], timeout: float = 900) -> "GradingImage":
        """Create the venv (once), add the unrelated packages, run the zip's setup.sh in it."""
        if not (self.bin / "python3").exists():
            self._create_venv(timeout)
        shutil.rmtree(self.setup_root, ignore_errors=True)
        _unpack(zip_path, self.setup_root / "source")
        # pip keeps the caller's index, proxy and certificate settings.
        network = {key: value for key, value in os.environ.items()
                   if key.startswith(NETWORK_PREFIXES) or key.lower().endswith("_proxy")}
        if not self.byte_compile:
            network["PIP_NO_COMPILE"] = "0"  # pip reads a "no-" switch's variable inverted: 0 is --no-compile
        done = self._run(["bash", str(self.setup_root / "source" / "setup.sh")], "setup.sh", timeout,
                         env={**network, **self.environment(self.setup_root)}, cwd=self.setup_root / "source")
        self.setup_output = done.stdout + done.stderr
        self.installed = pathlib.Path(zip_path).resolve()
        return self

    def _create_venv(self, timeout: float) -> None:
        command = [self.python, "-m", "venv", str(self.venv)]
        if self.pip != "venv":
            command.insert(3, "--without-pip")
        self._run(command, "creating the venv", timeout)
        site = self.site_packages()
        for number in range(self.extra_packages):
            package = site / f"unrelated_package_{number:03d}"
            package.mkdir(exist_ok=True)
            (package / "__init__.py").write_text(f"VALUE = {number}\n", "utf-8")
        if self.pip == "apt":
            (site / "sitecustomize.py").write_text(ENSUREPIP_DISABLED, "utf-8")
            apt_get = self.bin / "apt-get"
            apt_get.write_text(FAKE_APT_GET.format(log=shlex.quote(str(self.folder / APT_LOG)),
                                                   python=shlex.quote(str(self.bin / "python3")),
                                                   pip=UBUNTU_PIP), "utf-8")
            apt_get.chmod(0o755)

    def folders_in_the_image(self) -> list[str]:
        """Folders outside the system's that the image's python3 needs: the image's own folder and
        the prefix of the interpreter its venv was made from (real paths)."""
        if self._prefix is None:
            done = self.run_python("-I", "-c", "import os, sys; print(os.path.realpath(sys.base_prefix))")
            if done.returncode != 0:
                raise EmulationError(f"the image's python3 does not run:\n{done.stderr[-2000:]}")
            self._prefix = done.stdout.strip()
        return [os.path.realpath(self.folder), self._prefix]

    def site_packages(self) -> pathlib.Path:
        return next(self.venv.glob("lib/python*/site-packages"))

    def environment(self, root: str | os.PathLike[str] | None = None) -> dict[str, str]:
        environment = {"PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"),
                       "LANG": "C.UTF-8"}
        if root is not None:
            environment["AUTOGRADER_ROOT"] = str(root)
        return environment

    def grade(self, zip_path: str | os.PathLike[str], files: Mapping[str, bytes | pathlib.Path],
              private_mount: bool = False, timeout: float = 600, shown: Iterable[str] = (),
              metadata: Mapping[str, Any] | None = None) -> Run:
        """Run the zip's run_autograder on one submission as Gradescope does.

        The zip must be the one installed last: `source/` is the folder setup.sh ran in, as it
        left it (the platform keeps it in the image it builds).

        files: {relative path: bytes, or a pathlib.Path the file is a symbolic link to}.

        private_mount: lay the folders out at the real /autograder, in a private mount namespace
        whose root holds only what an image holds (see AT_THE_REAL_ROOT; root only, nothing is
        created at this machine's root); otherwise at a temporary root named by AUTOGRADER_ROOT.
        `shown`: folders of this machine to show in that root at their own paths as well (a
        test's marker folders, which code that must never run would write to).
        """
        if self.installed != pathlib.Path(zip_path).resolve():
            raise EmulationError(f"{zip_path} is not the zip installed in this image: install it first")
        with tempfile.TemporaryDirectory(prefix="autograder-root-") as staging:
            root = pathlib.Path(staging) / "autograder"
            shutil.copytree(self.setup_root / "source", root / "source", symlinks=True)
            for relative, data in files.items():
                target = root / "submission" / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(data, pathlib.Path):
                    target.symlink_to(data)  # a link the student planted
                else:
                    target.write_bytes(data)
            (root / "submission").mkdir(parents=True, exist_ok=True)
            (root / "results").mkdir()
            # Gradescope's submission_metadata.json (`metadata`: its content, e.g. previous_submissions).
            (root / "submission_metadata.json").write_text(json.dumps(metadata or {}), "utf-8")
            # Gradescope copies run_autograder to the root and runs it from there.
            shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
            cwd: str | pathlib.Path
            if private_mount:
                new_root = pathlib.Path(staging) / "root"
                new_root.mkdir()
                command = ["unshare", "--mount", "--propagation", "private", "bash", "-c", AT_THE_REAL_ROOT,
                           "bash", str(root), str(new_root), *self.folders_in_the_image(),
                           *(os.path.realpath(folder) for folder in shown)]
                environment, cwd = self.environment(), "/"
            else:
                # The platform's working folder is not ours to choose: the worst case, the student's.
                command = [str(root / "run_autograder")]
                environment, cwd = self.environment(root), root / "submission"
            started = time.monotonic()
            try:
                done = subprocess.run(self._command(command), cwd=cwd, env=environment, capture_output=True,
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

    def _command(self, command: Iterable[str | os.PathLike[str]]) -> list[str]:
        """`command` as the image runs it: on a kernel without Landlock when the image has none."""
        words = [str(c) for c in command]
        return words if self.landlock else [sys.executable, "-I", "-c", WITHOUT_LANDLOCK, *words]

    def _run(self, command: Sequence[str | os.PathLike[str]], what: str, timeout: float,
             **kwargs: Any) -> subprocess.CompletedProcess[str]:
        try:
            done = subprocess.run(self._command(command), capture_output=True, text=True, timeout=timeout,
                                  **kwargs)
        except subprocess.TimeoutExpired:
            raise EmulationError(f"{what} did not finish within {timeout} s") from None
        if done.returncode != 0:
            raise EmulationError(f"{what} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        return done


# In a private mount namespace: a new root holding what an image holds, and nothing else of this
# machine: its system folders (bound, not copied) and top-level links, a fresh /tmp, the folders
# the image needs at their own paths (its venv, the interpreter's prefix; the folders on the way
# keep their modes) and /autograder, a tmpfs holding the staged folders. run_autograder runs
# there as the platform runs it; results/ is the staged one, bound. Nothing is created at this
# machine's root, and no checkout of this project (world-readable, holding the reference) is in
# the image, as on the platform. $1: the staged /autograder, $2: an empty folder, then the folders.
AT_THE_REAL_ROOT = r"""
set -e
staged=$1 new=$2
shift 2
enter=$(PATH="/usr/sbin:/sbin:$PATH" command -v chroot)
mount -t tmpfs -o mode=755 tmpfs "$new"
for entry in /*; do
    [ -L "$entry" ] && cp -P "$entry" "$new/${entry#/}"
done
for name in usr etc dev proc sys run var; do
    if [ -d "/$name" ] && [ ! -L "/$name" ]; then mkdir "$new/$name" && mount --rbind "/$name" "$new/$name"; fi
done
mkdir -m 1777 "$new/tmp"
for folder in "$@" "$staged/results"; do
    [ -e "$new$folder" ] && continue
    path=""
    IFS=/ read -r -a parts <<< "${folder#/}"
    for part in "${parts[@]}"; do
        path="$path/$part"
        if [ ! -e "$new$path" ]; then mkdir "$new$path" && chmod --reference="$path" "$new$path"; fi
    done
    mount --rbind "$folder" "$new$folder"
done
mkdir "$new/autograder"
mount -t tmpfs -o mode=755 tmpfs "$new/autograder"
cp -a "$staged/." "$new/autograder/"
exec "$enter" "$new" /bin/bash -c \
    'cd /autograder/submission && /autograder/run_autograder; status=$?
     cp /autograder/results/results.json "$1/results/" 2>/dev/null; exit $status' bash "$staged"
"""


# Run as `python -I -c WITHOUT_LANDLOCK COMMAND...`: installs a seccomp filter under which the
# three Landlock system calls fail with ENOSYS, as under a container's seccomp profile that does
# not list them, then becomes COMMAND. The filter holds for every process COMMAND starts, so the
# grader finds a kernel without Landlock (landlock.abi_version() == 0).
WITHOUT_LANDLOCK = r"""
import ctypes, os, sys

class Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]

class Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(Instruction))]

LOAD_NUMBER, JUMP_IF_EQUAL, GIVE = 0x20, 0x15, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_RET|K
ALLOW, ENOSYS = 0x7FFF0000, 0x00050000 | 38  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | ENOSYS
# landlock_create_ruleset, landlock_add_rule, landlock_restrict_self: 444-446 on every architecture.
code = [(LOAD_NUMBER, 0, 0, 0), (JUMP_IF_EQUAL, 3, 0, 444), (JUMP_IF_EQUAL, 2, 0, 445),
        (JUMP_IF_EQUAL, 1, 0, 446), (GIVE, 0, 0, ALLOW), (GIVE, 0, 0, ENOSYS)]
instructions = (Instruction * len(code))(*[Instruction(*i) for i in code])
program = Program(len(code), instructions)
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0:
    sys.exit("cannot install the seccomp filter that refuses Landlock: " + os.strerror(ctypes.get_errno()))
os.execvp(sys.argv[1], sys.argv[1:])
"""


def _unpack(zip_path: str | os.PathLike[str], folder: pathlib.Path) -> None:
    """Unpack the zip as the platform does, keeping the executable bits it records."""
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path) as archive:
        for info in archive.infolist():
            path = archive.extract(info, folder)
            mode = info.external_attr >> 16
            if mode and not info.is_dir():
                os.chmod(path, mode & 0o777)
