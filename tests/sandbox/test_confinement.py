"""Which paths a child may read, for any installation layout, and the layers that enforce it."""
import os
import pickle
import resource
import sys

import pytest

from autograder.sandbox import confinement, landlock
from autograder.sandbox.confinement import Confinement, ReadLayer, public_entries, readable_paths

HAS_LANDLOCK = landlock.abi_version() > 0


def tree(root, names):
    """Folders (ending in /) and files under `root`; returns root."""
    for name in names:
        path = root / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("x = 1\n")
    return root


def installation(root):
    """A site-packages as a wheel installs the grader into: private packages among public ones."""
    return tree(root, ["numpy/__init__.py", "mpl_toolkits/axes_grid1/__init__.py", "numpy.libs/lib.so",
                       "numpy-2.0.dist-info/METADATA", "six.py", "course_notes.txt", "distutils-precedence.pth",
                       "solutions/__init__.py", "solutions/self_attention.py", "labs/self_attention/hidden.py",
                       "autograder/__init__.py", "__editable___finder.py", ".hidden/secret",
                       "__pycache__/six.cpython-311.pyc",
                       "self_attention_autograder-0.1.0.dist-info/RECORD"])


def allowed(paths, target):
    """Whether a rule on one of `paths` covers `target` (a Landlock path-beneath rule)."""
    target = os.path.realpath(target)
    return any(target == p or target.startswith(p.rstrip("/") + "/") for p in paths)


def test_a_tree_without_private_code_is_one_rule(tmp_path):
    plain = tree(tmp_path / "plain", ["a/__init__.py", "b.py"])
    assert readable_paths([plain], {tmp_path / "elsewhere"}) == [str(plain)]


def test_an_installation_folder_keeps_everything_but_the_private_packages(tmp_path):
    site = installation(tmp_path / "site-packages")
    paths = readable_paths([site], {site})
    for public in ("numpy/__init__.py", "mpl_toolkits/axes_grid1/__init__.py", "numpy.libs/lib.so", "six.py",
                   "numpy-2.0.dist-info/METADATA", "course_notes.txt", "__pycache__/six.cpython-311.pyc",
                   "self_attention_autograder-0.1.0.dist-info/RECORD"):
        assert allowed(paths, site / public), public
    for private in ("solutions/self_attention.py", "labs/self_attention/hidden.py", "__editable___finder.py", ".hidden/secret"):
        assert not allowed(paths, site / private), private
    assert not allowed(paths, site)  # the folder itself cannot be listed


def test_a_cache_of_private_modules_is_private(tmp_path):
    site = tree(tmp_path / "site", ["x.dist-info/RECORD", "solutions.py", "__pycache__/solutions.cpython-311.pyc"])
    paths = readable_paths([site], {site})
    assert not allowed(paths, site / "__pycache__" / "solutions.cpython-311.pyc")
    assert not allowed(paths, site / "solutions.py")


def test_a_source_tree_shows_only_what_is_importable(tmp_path):
    checkout = tree(tmp_path / "checkout", ["labs/self_attention/hidden.py", "solutions/self_attention.py", "tests/EXPECTED.json",
                                            ".git/config", "docs/SECURITY.md", "samples/kim.py", "lib/__init__.py",
                                            "helper.py", "README.md"])
    paths = readable_paths([checkout], {checkout})
    assert allowed(paths, checkout / "lib" / "__init__.py") and allowed(paths, checkout / "helper.py")
    for hidden in ("labs/self_attention/hidden.py", "solutions/self_attention.py", "tests/EXPECTED.json", ".git/config",
                   "docs/SECURITY.md", "samples/kim.py", "README.md"):
        assert not allowed(paths, checkout / hidden), hidden


def test_private_code_deeper_in_a_tree_is_cut_out_level_by_level(tmp_path):
    """conda and system installs: site-packages inside the standard library's folder."""
    stdlib = tree(tmp_path / "lib" / "python3.11", ["os.py", "json/__init__.py", "lib-dynload/_x.so"])
    site = installation(stdlib / "site-packages")
    paths = readable_paths([stdlib, stdlib / "lib-dynload", site], {site})
    assert allowed(paths, stdlib / "os.py") and allowed(paths, stdlib / "json" / "__init__.py")
    assert allowed(paths, site / "numpy" / "__init__.py")
    assert not allowed(paths, site / "solutions" / "self_attention.py")
    assert not allowed(paths, site / "labs" / "self_attention" / "hidden.py")


def test_a_link_along_the_way_never_leads_into_private_code(tmp_path):
    stdlib = tree(tmp_path / "python3.11", ["os.py"])
    site = installation(stdlib / "site-packages")
    (stdlib / "answers").symlink_to(site / "solutions")
    (stdlib / "grader").symlink_to(site / "labs" / "self_attention" / "hidden.py")
    (stdlib / "numeric").symlink_to(site / "numpy")
    (tmp_path / "elsewhere").symlink_to(site)
    paths = readable_paths([stdlib, tmp_path / "elsewhere"], {site})
    assert not allowed(paths, site / "solutions" / "self_attention.py")
    assert not allowed(paths, site / "labs" / "self_attention" / "hidden.py")
    assert allowed(paths, site / "numpy" / "__init__.py") and allowed(paths, stdlib / "os.py")


def test_public_entries_of_an_installation_include_namespace_packages():
    names = ["numpy", "google", "x-1.0.dist-info", "solutions", "autograder", "solutions.py", ".cache",
             "__editable___self_attention_autograder_0_1_0_finder.py"]
    assert set(public_entries("/nowhere", names)) == {"numpy", "google", "x-1.0.dist-info"}


def test_the_zygote_holds_no_descriptor_per_installed_package(tmp_path, monkeypatch):
    site = installation(tmp_path / "site")
    tree(site, [f"course_pkg_{i:04d}/__init__.py" for i in range(1500)])
    monkeypatch.setattr(sys, "path", [str(site)])
    before = len(os.listdir("/proc/self/fd"))
    prepared = Confinement.prepare()
    try:
        assert len(os.listdir("/proc/self/fd")) - before < 20
    finally:
        for fd in prepared.roots:
            os.close(fd)
        if prepared.read_layer is not None:
            prepared.read_layer.ruleset.close()


def in_child(work):
    """Run `work` in a forked child; what it returns (pickled), or the exception it raised."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            result = ("ok", work())
        except BaseException as error:
            result = ("raised", repr(error))
        os.write(write, pickle.dumps(result))
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    kind, value = pickle.loads(data)
    assert kind == "ok", value
    return value


def attempt(path, write=False):
    try:
        if write:
            with open(path, "w") as handle:
                handle.write("x")
        elif os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as handle:
                handle.read(1)
        return "yes"
    except OSError as error:
        return type(error).__name__


@pytest.mark.skipif(not HAS_LANDLOCK, reason="needs Landlock")
def test_a_child_with_few_descriptors_enters_thousands_of_rules(tmp_path):
    """256 descriptors for the child, 2,000 entries beside the reference: reads as it should."""
    site = installation(tmp_path / "site")
    tree(site, [f"course_pkg_{i:04d}/__init__.py" for i in range(2000)])
    workdir, other = tmp_path / "run", tmp_path / "other"
    workdir.mkdir()
    tree(other, ["notes.txt"])
    abi = landlock.abi_version()
    root = os.open(site, os.O_PATH)
    prepared = Confinement(abi, [root], [], ReadLayer(abi, [str(site)], {str(site)}))
    prepared.admit(str(workdir))

    def confined():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
        landlock.no_new_privileges()
        prepared.apply(str(workdir))
        return {"public": attempt(site / "course_pkg_1999" / "__init__.py"),
                "numpy": attempt(site / "numpy" / "__init__.py"),
                "reference": attempt(site / "solutions" / "self_attention.py"),
                "hidden": attempt(site / "labs" / "self_attention" / "hidden.py"),
                "listing": attempt(site),
                "write here": attempt(workdir / "out.txt", write=True),
                "read here": attempt(workdir / "out.txt"),
                "elsewhere": attempt(other / "notes.txt"),
                "write elsewhere": attempt(other / "new.txt", write=True)}

    try:
        seen = in_child(confined)
    finally:
        os.close(root)
        prepared.read_layer.ruleset.close()
    assert seen == {"public": "yes", "numpy": "yes", "reference": "PermissionError", "hidden": "PermissionError",
                    "listing": "PermissionError", "write here": "yes", "read here": "yes",
                    "elsewhere": "PermissionError", "write elsewhere": "PermissionError"}


@pytest.mark.skipif(not HAS_LANDLOCK, reason="needs Landlock")
def test_the_read_layer_is_built_afresh_after_many_folders_and_forgets_them(tmp_path, monkeypatch):
    monkeypatch.setattr(confinement, "MAX_WORKDIRS", 2)
    site = installation(tmp_path / "site")
    folders = [tmp_path / f"run{i}" for i in range(3)]
    for folder in folders:
        tree(folder, ["file.txt"])
    layer = ReadLayer(landlock.abi_version(), [str(site)], {str(site)})
    try:
        assert [layer.admit(str(f)) for f in folders[:2]] == [False, False]
        assert layer.admit(str(folders[1])) is False  # known already
        assert layer.admit(str(folders[2])) is True  # a new ruleset: spares forked before must go

        def confined():
            landlock.no_new_privileges()
            layer.enforce()
            return [attempt(f / "file.txt") for f in folders] + [attempt(site / "six.py")]

        assert in_child(confined) == ["PermissionError", "PermissionError", "yes", "yes"]
    finally:
        layer.ruleset.close()
