"""`autograder check` installed from the wheel, as courses install it: crowded, read-only, not root.

Each layout is built once per module from the wheel the build backend makes of this tree: a
fresh venv (no system site-packages), an interpreter's own prefix with site-packages inside the
standard library's folder (as in conda and system installs), and a venv of every supported
Python (3.10 to 3.13; under CI=true a missing one fails, see interpreters.py). Every
site-packages gets 2,000 more top-level entries, as in a course image. In each, the reference
gets full marks, a planted mistake is named, and a submission that would lose a step if it could
read the reference or the hidden cases keeps it.
"""
import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile

import pytest

import interpreters
from autograder.sandbox import landlock
from conftest import ROOT

REFERENCE = ROOT / "solutions" / "self_attention.py"
CROWD = 2000
HERE = "%d.%d" % sys.version_info[:2]
AS_ROOT = os.geteuid() == 0
NOBODY = 65534
INSTALL_SECONDS = 600
CLEAN_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": "/tmp"}

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux-only")


# -- building the layouts -------------------------------------------------------------------

def run(command, timeout=INSTALL_SECONDS, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=timeout,
                          env=kwargs.pop("env", dict(os.environ)), **kwargs)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def shared_folder():
    """A folder every user may walk (pytest's own is root-only): the non-root run reads from it."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="autograder-layouts-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def wheel(shared_folder):
    """Built from a copy of the tree: the build backend leaves build/ and .egg-info behind."""
    source = shared_folder / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "out"))
    out = shared_folder / "wheel"
    run([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "--disable-pip-version-check",
         "-q", "-w", out])
    [built] = out.glob("self_attention_autograder-*.whl")
    return built


class VenvBuild(interpreters.BackgroundVenv):
    """A fresh venv with the wheel and its dependencies, built in the background (dependencies
    come from pip's cache when it has them)."""

    def __init__(self, base, folder, wheel):
        super().__init__(base, folder, f'"{wheel}"', seconds=INSTALL_SECONDS)

    def python(self):
        """The venv's interpreter, once built (with 2,000 more entries); None when it could not be."""
        python = self.built()
        if python is None:
            return None
        site = site_packages(python)
        if not any(name.startswith("course_pkg_") for name in os.listdir(site)):
            crowd(site)
        return python


def _base_python():
    return getattr(sys, "_base_executable", sys.executable)


@pytest.fixture(scope="module")
def builds(shared_folder, wheel):
    """Every venv of the module, started at once (they mostly wait on pip): this interpreter's,
    then one per other supported Python found."""
    started = {HERE: VenvBuild(_base_python(), shared_folder / f"venv{HERE}", wheel)}
    for version in interpreters.SUPPORTED:
        base = interpreters.find(version) if version not in started else None
        if base is not None:
            started[version] = VenvBuild(base, shared_folder / f"venv{version}", wheel)
    yield started
    for build in started.values():
        if build.process.poll() is None:
            build.process.kill()
            build.process.communicate()


def site_packages(python):
    return pathlib.Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                        .stdout.strip())


def crowd(folder, count=CROWD):
    """Top-level entries as a course image has them: packages, metadata folders, plain files."""
    for i in range(count):
        package = folder / f"course_pkg_{i:04d}"
        package.mkdir()
        (package / "__init__.py").write_text(f"VALUE = {i}\n")
        if i % 10 == 0:
            (folder / f"course_pkg_{i:04d}-1.0.dist-info").mkdir()
            (folder / f"course_pkg_{i:04d}-1.0.dist-info" / "METADATA").write_text("Name: x\n")
        if i % 25 == 0:
            (folder / f"course_module_{i:04d}.py").write_text("VALUE = 1\n")
            (folder / f"course_notes_{i:04d}.txt").write_text("not a module\n")


@pytest.fixture(scope="module")
def venv_here(builds):
    """The venv of the interpreter running the tests."""
    python = builds[HERE].python()
    assert python is not None, builds[HERE].error
    return python


@pytest.fixture(scope="module")
def prefix(shared_folder, venv_here):
    """An interpreter's own prefix, relocatable as conda makes it: bin/python3.X finds its
    standard library in ../lib/python3.X, whose site-packages holds the wheel and the crowd.

    Built from this interpreter's files, hard-linked (no copy): the binary gets a `$ORIGIN`
    library path, as conda gives its binaries, so any user may run it from here.
    """
    base = pathlib.Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    root = shared_folder / "prefix"
    stdlib = root / "lib" / version
    shutil.copytree(base / "lib" / version, stdlib, copy_function=os.link,
                    ignore=shutil.ignore_patterns("site-packages", "test", "__pycache__", "idlelib",
                                                  "tkinter", "turtledemo"))
    shutil.copytree(site_packages(venv_here), stdlib / "site-packages", copy_function=os.link, symlinks=True)
    library = sysconfig.get_config_var("LDLIBRARY")
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):
        for name in os.listdir(base / "lib"):
            if name.startswith(library.split(".so")[0]) and ".so" in name:
                shutil.copy2(base / "lib" / name, root / "lib" / name)
    (root / "bin").mkdir()
    python = root / "bin" / version
    shutil.copy2(os.path.realpath(_base_python()), python)
    _relocate(python, str(base / "lib"))
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o755)
    assert run([python, "-c", "import sys, numpy, pandas, autograder; print(sys.prefix)"]).stdout.strip() \
        == str(root)
    return python


def _relocate(binary, old_library_path):
    """Point the binary's library path at $ORIGIN/../lib (same length or shorter, padded with NULs)."""
    data = binary.read_bytes()
    old = old_library_path.encode()
    new = b"$ORIGIN/../lib"
    if old in data and len(new) <= len(old):
        binary.write_bytes(data.replace(old + b"\0", new + b"\0" * (len(old) - len(new) + 1), 1))


def python_of(version, builds):
    """The venv of Python `version`; fails under CI (skips elsewhere) when the interpreter is missing."""
    interpreters.require(version)
    python = builds[version].python()
    assert python is not None, f"the wheel does not install on Python {version}:\n{builds[version].error}"
    return python


# -- submissions ----------------------------------------------------------------------------

WRONG_AXIS = REFERENCE.read_text(encoding="utf-8").replace(
    "x.max(axis=-1, keepdims=True))\n    return shifted / shifted.sum(axis=-1, keepdims=True)",
    "x.max(axis=0, keepdims=True))\n    return shifted / shifted.sum(axis=0, keepdims=True)")

# The reference, except that softmax answers wrongly when the submission could read any secret.
SNOOPER = REFERENCE.read_text(encoding="utf-8") + '''
import os

_SECRETS = {secrets!r}
_honest_softmax = softmax


def softmax(x):
    for path in _SECRETS:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                with open(path, "rb") as handle:
                    handle.read(1)
            return "read " + path
        except OSError:
            pass
    for name in ("solutions.self_attention", "labs.self_attention.hidden", "labs.self_attention.reference"):
        try:
            __import__(name)
            return "imported " + name
        except Exception:
            pass
    return _honest_softmax(x)
'''


def snooper(secrets):
    return SNOOPER.replace("{secrets!r}", repr(secrets))


def secrets_of(site):
    """The installed reference and hidden cases, and the folders that hold them."""
    paths = [site / "solutions" / "self_attention.py", site / "solutions" / "__init__.py",
             site / "labs" / "self_attention" / "hidden.py", site / "labs" / "self_attention" / "reference.py",
             site / "labs" / "self_attention" / "cases.py", site / "solutions", site / "labs", site / "autograder"]
    for path in paths:
        assert path.exists(), path
    return [str(p) for p in paths]


def write(folder, name, text):
    path = pathlib.Path(tempfile.mkdtemp(prefix="submission-", dir=folder)) / name
    os.chmod(path.parent, 0o755)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o644)
    return path


def check(python, submission, *flags, user=None, wrap=()):
    """`autograder check --json` as the outside world runs it: a clean environment, another folder."""
    command = [*wrap, python, "-m", "autograder", "check", str(submission), "--json", "--lang", "en", *flags]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=300,
                          cwd="/", env=dict(CLEAN_ENVIRONMENT))
    assert done.returncode in (0, 1), f"exit {done.returncode}:\n{done.stderr[-3000:]}"
    return done.returncode, json.loads(done.stdout)


def assert_full_marks(python, folder, **kwargs):
    code, result = check(python, write(folder, "attention.py", REFERENCE.read_text(encoding="utf-8")), **kwargs)
    assert (code, result["score"]) == (0, result["max_score"]), result


def assert_mistake_named(python, folder, **kwargs):
    code, result = check(python, write(folder, "attention.py", WRONG_AXIS), **kwargs)
    steps = {step["name"]: step for step in result["steps"]}
    assert code == 1
    assert steps["softmax"]["status"] != "passed" and "wrong_axis" in steps["softmax"]["mistakes"], steps["softmax"]
    assert all(steps[name]["score"] == steps[name]["max_score"] for name in steps if name != "softmax")


def assert_secrets_unreadable(python, folder, **kwargs):
    secrets = secrets_of(site_packages(python))
    code, result = check(python, write(folder, "attention.py", snooper(secrets)), **kwargs)
    softmax = next(step for step in result["steps"] if step["name"] == "softmax")
    assert (code, softmax["status"]) == (0, "passed"), softmax


def assert_installed(python):
    """The wheel's copy is the one that runs, not this source tree."""
    location = run([python, "-I", "-c", "import autograder; print(autograder.__file__)"], cwd="/").stdout.strip()
    assert str(site_packages(python)) in location and str(ROOT) not in location, location


needs_isolation = pytest.mark.skipif(not (AS_ROOT or landlock.abi_version() > 0),
                                     reason="the reference is kept from submissions only as root or with Landlock")


# -- the layouts ----------------------------------------------------------------------------

def test_a_crowded_venv_grades_and_names_the_mistake(venv_here, shared_folder):
    assert_installed(venv_here)
    assert len(os.listdir(site_packages(venv_here))) > CROWD
    assert_full_marks(venv_here, shared_folder)
    assert_mistake_named(venv_here, shared_folder)


@needs_isolation
def test_a_crowded_venv_keeps_the_installed_reference_and_hidden_cases_from_submissions(venv_here, shared_folder):
    assert_secrets_unreadable(venv_here, shared_folder)


# The reference, with make_qkv importing two packages of the crowd the grader never imported itself:
# a course that installs more packages for its students (`autograder build --requirements`) has them.
IMPORTER = REFERENCE.read_text(encoding="utf-8").replace(
    "def make_qkv(X, W_Q, W_K, W_V):\n",
    "def make_qkv(X, W_Q, W_K, W_V):\n    import course_pkg_0007, course_module_0025\n"
    "    assert course_pkg_0007.VALUE == 7 and course_module_0025.VALUE == 1\n", 1)


def test_a_package_beside_the_grader_in_site_packages_can_be_imported(venv_here, shared_folder):
    assert "import course_pkg_0007" in IMPORTER
    code, result = check(venv_here, write(shared_folder, "attention.py", IMPORTER))
    assert (code, result["score"]) == (0, result["max_score"]), result


def test_the_secrets_probe_does_catch_a_read_when_the_sandbox_is_off(venv_here, shared_folder):
    """Without confinement the same submission reads the reference and loses the step."""
    secrets = secrets_of(site_packages(venv_here))
    submission = write(shared_folder, "attention.py", snooper(secrets))
    code, result = check(venv_here, submission, "--no-sandbox")
    softmax = next(step for step in result["steps"] if step["name"] == "softmax")
    assert code == 1 and softmax["status"] != "passed"


def test_an_interpreters_own_prefix_with_site_packages_inside_the_standard_library(prefix, shared_folder):
    assert_installed(prefix)
    assert (site_packages(prefix).parent / "os.py").exists()  # site-packages inside the standard library
    assert_full_marks(prefix, shared_folder)
    assert_mistake_named(prefix, shared_folder)


@needs_isolation
def test_an_interpreters_own_prefix_keeps_the_reference_from_submissions(prefix, shared_folder):
    assert_secrets_unreadable(prefix, shared_folder)


@pytest.fixture
def read_only(prefix):
    """The prefix's site-packages without write permission for anyone, restored afterwards."""
    site = site_packages(prefix)
    modes = {}
    for folder, dirs, files in os.walk(site):
        for name in [folder] + [os.path.join(folder, f) for f in files]:
            if not os.path.islink(name):
                modes[name] = os.stat(name).st_mode
                os.chmod(name, modes[name] & ~0o222)
    yield site
    for name, mode in modes.items():
        os.chmod(name, mode)


def _read_only_mount(site):
    """As root, also a read-only mount of it (root ignores permission bits), as in an image."""
    if not AS_ROOT or shutil.which("unshare") is None:
        return ()
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        return ()
    script = f'mount --bind "{site}" "{site}" && mount -o remount,bind,ro "{site}" && exec "$@"'
    return ("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh")


def test_a_read_only_site_packages(prefix, read_only, shared_folder):
    wrap = _read_only_mount(read_only)
    assert_full_marks(prefix, shared_folder, wrap=wrap)
    assert_mistake_named(prefix, shared_folder, wrap=wrap)
    if AS_ROOT or landlock.abi_version() > 0:
        assert_secrets_unreadable(prefix, shared_folder, wrap=wrap)


def _can_switch_user():
    return AS_ROOT and shutil.which("setpriv") is not None


@pytest.mark.skipif(not _can_switch_user(), reason="needs root and setpriv to run the grader as another user")
@pytest.mark.skipif(landlock.abi_version() <= 0, reason="a grader that is not root confines only with Landlock")
def test_a_grader_that_is_not_root_confines_with_landlock_alone(prefix, shared_folder):
    assert_full_marks(prefix, shared_folder, user=NOBODY)
    assert_mistake_named(prefix, shared_folder, user=NOBODY)
    assert_secrets_unreadable(prefix, shared_folder, user=NOBODY)


@pytest.mark.parametrize("version", interpreters.SUPPORTED)
def test_every_supported_python(version, builds, shared_folder):
    python = python_of(version, builds)
    assert run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).stdout.strip() == version
    assert_installed(python)
    assert_full_marks(python, shared_folder)
    assert_mistake_named(python, shared_folder)
    if AS_ROOT or landlock.abi_version() > 0:
        assert_secrets_unreadable(python, shared_folder)
