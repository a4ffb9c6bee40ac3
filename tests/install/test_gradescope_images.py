"""The autograder zip on the images the LMS's machines may have: Python 3.10 to 3.13, no pip,
no Landlock.

conftest's `gradescope_image` is Gradescope's default kind (Ubuntu 22.04: Python 3.10, no pip,
ensurepip disabled; setup.sh installs python3-pip with the emulated apt-get), and
test_gradescope.py runs its whole battery there. Here: what setup.sh did and said on it; an
image of every other supported Python; a Python the grader does not support; and an image whose
kernel refuses Landlock (as a container's seccomp profile may), where only file permissions keep
the installed reference and hidden cases from the sandbox user, with a submission that tries to
read and import them.
"""
import os
import pathlib
import re
import stat
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor

import nbformat
import pytest

import interpreters
from autograder.otter import lockdown
from autograder.otter.emulation import APT_LOG, UBUNTU_PIP, EmulationError, GradingImage
from conftest import CORPORA, ROOT
from labs.self_attention import LAB
from labs.self_attention.steps import STEPS
from test_install_layouts import WRONG_AXIS, snooper

from autograder.authoring import fill


IS_ROOT = os.geteuid() == 0
HOSTILE = CORPORA / "hostile"
OTHER_VERSIONS = tuple(v for v in interpreters.SUPPORTED if v != "3.10")
REFERENCE_NOTEBOOK = nbformat.writes(fill.fill_notebook(nbformat.read(LAB.assignment_file(LAB.notebook),
                                                                      as_version=4), lab=LAB)).encode()
STUBS = LAB.assignment_file(LAB.notebook).read_bytes()
PRIVATE_PACKAGES = ("autograder", "labs", "solutions")


def scores(run):
    return {t["name"]: t["score"] for t in run.results["tests"] if "max_score" in t}


def grade(image, zip_path, files):
    return image.grade(zip_path, files, private_mount=IS_ROOT)


def assert_reference_full_and_stubs_zero(image, zip_path):
    reference = grade(image, zip_path, {LAB.notebook: REFERENCE_NOTEBOOK})
    assert reference.returncode == 0, reference.output
    assert scores(reference) == {step.name: step.points for step in STEPS}, reference.output
    stubs = grade(image, zip_path, {LAB.notebook: STUBS})
    assert stubs.returncode == 0 and stubs.results["score"] == 0, stubs.output


def private_paths(image):
    site = image.site_packages()
    return [site / name for name in PRIVATE_PACKAGES] + [image.setup_root / "source"]


# Gradescope's default image -----------------------------------------------------------------

@pytest.mark.skipif(not IS_ROOT, reason="setup.sh installs python3-pip with apt-get only as root, as on the platform")
def test_the_default_image_is_python_3_10_without_pip_and_setup_sh_installs_pip_and_says_so(gradescope_image):
    image = gradescope_image["image"]
    interpreters.require("3.10")
    assert image.version() == (3, 10)
    said = gradescope_image["setup_output"]
    assert "has no pip; installing it" in said and "installing python3-pip with apt-get" in said, said
    asked = (image.folder / APT_LOG).read_text("utf-8").splitlines()
    assert asked[0] == "apt-get update -q" and "install" in asked[1] and "python3-pip" in asked[1], asked
    pip = image.run_python("-m", "pip", "--version")
    assert pip.returncode == 0 and pip.stdout.startswith(f"pip {UBUNTU_PIP} "), pip.stdout  # Ubuntu's own pip
    # Ubuntu's python3 still has no ensurepip: pip came from apt-get, as on the platform.
    refused = image.run_python("-m", "ensurepip")
    assert refused.returncode == 1 and "ensurepip is disabled in Debian/Ubuntu" in refused.stderr


def test_setup_sh_leaves_the_grader_and_the_zips_files_to_root_alone(gradescope_image):
    image = gradescope_image["image"]
    paths = private_paths(image)
    assert all(path.exists() for path in paths), paths
    assert lockdown.exposed([str(p) for p in paths]) == []
    for path in paths:
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
        assert str(path.resolve()) in gradescope_image["setup_output"]
    # Everything else pip installed stays readable: a submission imports numpy and pandas.
    numpy = image.site_packages() / "numpy"
    assert stat.S_IMODE(numpy.stat().st_mode) & 0o005 == 0o005


def test_the_zip_requires_the_toml_reader_on_python_3_10_only(gradescope_zip):
    with zipfile.ZipFile(gradescope_zip) as archive:
        requirements = archive.read("requirements.txt").decode().splitlines()
        setup = archive.read("setup.sh").decode()
    assert "tomli>=1.1; python_version < '3.11'" in requirements
    assert "sys.version_info >= (3, 10)" in setup


# Every other supported Python ----------------------------------------------------------------

@pytest.fixture(scope="module")
def other_images(tmp_path_factory, gradescope_zip):
    """One image per other supported Python found, pip installed, installed all at once."""
    work = tmp_path_factory.mktemp("python-images")
    found = {version: interpreters.find(version) for version in OTHER_VERSIONS}
    images = {version: GradingImage(work / version, python=python) for version, python in found.items() if python}
    with ThreadPoolExecutor(max_workers=len(images) or 1) as pool:
        installing = {version: pool.submit(image.install, gradescope_zip) for version, image in images.items()}
        return {version: future.exception() or future.result() for version, future in installing.items()}


@pytest.mark.parametrize("version", OTHER_VERSIONS)
def test_the_zip_installs_and_grades_on_every_other_supported_python(version, other_images, gradescope_zip):
    interpreters.require(version)
    image = other_images[version]
    assert not isinstance(image, BaseException), f"setup.sh failed on Python {version}: {image}"
    assert image.version() == tuple(int(part) for part in version.split("."))
    assert lockdown.exposed([str(p) for p in private_paths(image)]) == []
    assert_reference_full_and_stubs_zero(image, gradescope_zip)


def test_setup_sh_refuses_a_python_older_than_3_10_with_a_sentence(tmp_path, gradescope_zip):
    python = interpreters.find("3.9")
    if python is None:
        pytest.skip("no Python 3.9 here to stand for a too old image")
    image = GradingImage(tmp_path / "image", python=python)
    with pytest.raises(EmulationError) as refused:
        image.install(gradescope_zip)
    assert "setup.sh: the grader needs Python 3.10 or newer; this image has 3.9." in str(refused.value)
    assert not list(image.venv.glob("lib/python*/site-packages/autograder"))


# An image without Landlock ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def without_landlock(tmp_path_factory, gradescope_zip):
    """Python 3.10 whose venv has no pip (ensurepip works), on a kernel that refuses Landlock."""
    python = interpreters.require_or_this("3.10")
    image = GradingImage(tmp_path_factory.mktemp("no-landlock") / "image", python=python, pip="ensurepip",
                         landlock=False)
    return image.install(gradescope_zip)


def test_the_image_without_landlock_really_has_none(without_landlock):
    probe = "from autograder.sandbox import landlock; print(landlock.abi_version())"
    assert without_landlock.run_python("-I", "-c", probe).stdout.strip() == "0"
    said = without_landlock.setup_output
    assert "has no pip; installing it" in said and "installed pip with python3 -m ensurepip" in said, said


def test_without_landlock_the_zip_grades_as_everywhere(without_landlock, gradescope_zip):
    assert_reference_full_and_stubs_zero(without_landlock, gradescope_zip)
    planted = grade(without_landlock, gradescope_zip, {LAB.script: WRONG_AXIS.encode()})
    lost = {name: score for name, score in scores(planted).items()
            if score < next(s.points for s in STEPS if s.name == name)}
    assert list(lost) == ["softmax"], planted.output
    softmax = next(t for t in planted.results["tests"] if t["name"] == "softmax")
    assert "행이 아니라 열 방향으로 계산했습니다" in softmax["output"]


def secrets_in(image, wheel_name):
    """The installed reference and hidden cases, and the zip's wheel, as a submission would name them."""
    site = image.site_packages()
    paths = [site / "solutions" / "self_attention.py", site / "labs" / "self_attention" / "hidden.py",
             site / "labs" / "self_attention" / "reference.py", site / "labs" / "self_attention" / "cases.py",
             site / "solutions", site / "labs", site / "autograder"]
    assert all(p.exists() for p in paths), paths
    # Where the platform keeps the zip's files while it grades (the wheel holds everything).
    return [str(p) for p in paths] + [f"/autograder/source/files/{wheel_name}", "/autograder/source/files",
                                      "/autograder/source"]


def wheel_name(zip_path):
    with zipfile.ZipFile(zip_path) as archive:
        [name] = [n for n in archive.namelist() if n.startswith("files/") and n.endswith(".whl")]
    return pathlib.PurePath(name).name


needs_root = pytest.mark.skipif(not IS_ROOT, reason="without Landlock, only a root grader runs submissions as "
                                                    "another user (then the files are at the real /autograder)")


@needs_root
def test_without_landlock_a_submission_cannot_read_or_import_the_reference_or_hidden_cases(
        without_landlock, gradescope_zip):
    secrets = secrets_in(without_landlock, wheel_name(gradescope_zip))
    run = grade(without_landlock, gradescope_zip, {LAB.script: snooper(secrets).encode()})
    assert run.returncode == 0, run.output
    assert scores(run) == {step.name: step.points for step in STEPS}, run.output  # softmax kept: nothing read
    hostile = grade(without_landlock, gradescope_zip,
                    {LAB.script: (HOSTILE / "snoop__import_reference_and_hidden.py").read_bytes()})
    assert scores(hostile)["softmax"] == 0, hostile.output  # it found no reference softmax to call


@needs_root
def test_without_landlock_the_probe_reads_the_reference_once_the_files_are_readable(without_landlock, gradescope_zip):
    """The control: with the permissions setup.sh set undone, the same submission reads the
    reference and loses the step, so the probe works and Landlock really was off."""
    paths = [str(p) for p in private_paths(without_landlock)]
    secrets = secrets_in(without_landlock, wheel_name(gradescope_zip))
    try:
        for top in paths:
            for path in lockdown._walk(top):
                if not os.path.islink(path):
                    os.chmod(path, os.lstat(path).st_mode | (0o055 if os.path.isdir(path) else 0o044))
        run = grade(without_landlock, gradescope_zip, {LAB.script: snooper(secrets).encode()})
    finally:
        lockdown.restrict(paths)
    assert scores(run)["softmax"] < 1, run.output
    assert lockdown.exposed(paths) == []


def sandbox_reads(site):
    """docs/SECURITY.md's lists of what the sandbox user reads without Landlock on the LMS's image:
    (readable paths, unreadable paths), `{site}` the image's site-packages."""
    text = (ROOT / "docs" / "SECURITY.md").read_text("utf-8")
    lists = {}
    for kind in ("readable", "unreadable"):
        start = text.index(f"<!-- sandbox-reads: {kind} -->")
        end = text.index("<!-- sandbox-reads:", start + 1)
        lists[kind] = [path.replace("{site}", str(site)) for path in re.findall(r"`([^`]+)`", text[start:end])]
    return lists["readable"], lists["unreadable"]


READS = (ROOT / "solutions" / "self_attention.py").read_text("utf-8") + """
import os

_READABLE, _UNREADABLE = {readable!r}, {unreadable!r}
_honest_softmax, _honest_mix = softmax, mix


def _reads(path):
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as handle:
                handle.read(1)
        return True
    except OSError:
        return False


def softmax(x):
    read = [path for path in _UNREADABLE if _reads(path)]
    if read:
        raise PermissionError("read " + ", ".join(read))
    return _honest_softmax(x)


def mix(weights, V):
    unread = [path for path in _READABLE if not _reads(path)]
    if unread:
        raise PermissionError("could not read " + ", ".join(unread))
    return _honest_mix(weights, V)
"""


@needs_root
def test_without_landlock_the_sandbox_user_reads_what_the_security_page_says_and_nothing_of_the_lms(
        without_landlock, gradescope_zip):
    """docs/SECURITY.md's list, checked: every path it says the sandbox user cannot read (the LMS's
    files under /autograder, Gradescope's metadata with an earlier attempt's whole results among
    them, and the private packages) stays unread, and every path it says it can read is read (so
    the probe works and the sandbox user really is another user without Landlock)."""
    readable, unreadable = sandbox_reads(without_landlock.site_packages())
    assert "/autograder/submission_metadata.json" in unreadable and readable
    earlier = {"score": 7.0, "tests": [{"name": "softmax", "score": 0, "output": "hidden-2: wrong"}]}
    metadata = {"previous_submissions": [{"submission_time": "2024-03-01T10:00:00+09:00", "score": 7.0,
                                          "results": earlier}]}
    source = READS.replace("{readable!r}", repr(readable)).replace("{unreadable!r}", repr(unreadable))
    run = without_landlock.grade(gradescope_zip, {LAB.script: source.encode()}, private_mount=True,
                                 metadata=metadata)
    assert run.returncode == 0, run.output
    steps = {t["name"]: t for t in run.results["tests"] if "max_score" in t}
    assert steps["softmax"]["score"] == steps["softmax"]["max_score"], steps["softmax"]["output"]
    assert steps["mix"]["score"] == steps["mix"]["max_score"], steps["mix"]["output"]


# Counts any readable /proc file of its parent or of pid 1 as a find; without Landlock Linux lets
# every user read another process's cmdline (which holds no secret), so here it is replaced by
# PROC_PROBE, which asks for what would hold one.
READS_ANY_PROC_FILE = "snoop__grader_memory_and_modules.py"
# The reference, except that mix answers wrongly when it could read the environment, memory map,
# memory or open files of any process of another user (the grader, the zygote, pid 1).
PROC_PROBE = (ROOT / "solutions" / "self_attention.py").read_text("utf-8") + """
import os

_honest_mix = mix


def _others_readable():
    me = os.getuid()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{pid}").st_uid == me:
                continue
        except OSError:
            continue
        for leaf in ("environ", "maps", "mem"):
            try:
                with open(f"/proc/{pid}/{leaf}", "rb") as handle:
                    if handle.read(1):
                        return f"{pid}/{leaf}"
            except OSError:
                pass
        try:
            if os.listdir(f"/proc/{pid}/fd"):
                return f"{pid}/fd"
        except OSError:
            pass
    return None


def mix(weights, V):
    if _others_readable():
        return _honest_mix(weights, V) * 2.0
    return _honest_mix(weights, V)
"""


@needs_root
def test_without_landlock_no_hostile_file_gains_a_point(without_landlock, gradescope_zip):
    """The whole hostile corpus, as on the default image (see test_hostile_everywhere.py)."""
    from test_hostile_everywhere import PROTECTED, assert_scores_meet_expectations

    assert READS_ANY_PROC_FILE in PROTECTED
    for name in PROTECTED:
        source = PROC_PROBE.encode() if name == READS_ANY_PROC_FILE else (HOSTILE / name).read_bytes()
        run = grade(without_landlock, gradescope_zip, {"self_attention_lab" + pathlib.Path(name).suffix: source})
        assert run.returncode == 0, (name, run.output)
        scored = {t["name"]: (t["score"], t["max_score"]) for t in run.results["tests"] if "max_score" in t}
        if name == READS_ANY_PROC_FILE:
            assert scored == {step.name: (step.points, step.points) for step in STEPS}, run.output
        else:
            assert_scores_meet_expectations(name, scored)


# The emulation itself --------------------------------------------------------------------------

SEEING_RUN_AUTOGRADER = """#!/usr/bin/env bash
# Stands in for the zip's: says what it sees, writes an empty results.json.
ls -A / > {seen}/root.txt
ls -A {seen} > {seen}/shown.txt
if [ -e {checkout} ]; then echo visible; else echo absent; fi > {seen}/checkout.txt
echo '{{"score": 0, "tests": []}}' > /autograder/results/results.json
"""


@pytest.mark.skipif(not IS_ROOT, reason="the real /autograder is laid out in a mount namespace, as root")
def test_the_emulated_root_holds_the_image_and_no_more_of_this_machine(tmp_path):
    existed = os.path.lexists("/autograder")
    seen = tmp_path / "seen"
    seen.mkdir()
    (seen / "marker").write_text("")
    zip_path = tmp_path / "seeing.zip"
    with zipfile.ZipFile(zip_path, "w") as archive:
        for name, text in (("setup.sh", "true\n"), ("run_autograder", SEEING_RUN_AUTOGRADER.format(seen=seen, checkout=ROOT / "pyproject.toml"))):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            archive.writestr(info, text)
    image = GradingImage(tmp_path / "image", pip="ensurepip").install(zip_path)
    run = image.grade(zip_path, {"a.py": b""}, private_mount=True, shown=[seen])
    assert run.results == {"score": 0, "tests": []}
    top = set((seen / "root.txt").read_text().split())
    assert {"autograder", "usr", "etc", "tmp", "proc", "dev"} <= top
    assert not top & {"home", "opt", "srv", "mnt", "work"}, top
    assert (seen / "checkout.txt").read_text().strip() == "absent"  # no checkout of this project
    assert "marker" in (seen / "shown.txt").read_text()
    if not existed:
        assert not os.path.lexists("/autograder")  # nothing made at this machine's root
