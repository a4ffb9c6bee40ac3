"""autograder.otter.lockdown: what the zip's setup.sh leaves to root alone.

Over generated trees (files and folders of any mode, links inside and out, neighbours that are
not the grader's): after `restrict`, nothing under the given paths is open to group or others,
the owner keeps what it had, links and everything outside are untouched, and another user can
neither list a folder nor read a file there.
"""
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.otter import lockdown

NOBODY = 65534

names = st.text(alphabet="abcdefghij_", min_size=1, max_size=6)
modes = st.integers(min_value=0, max_value=0o777)
# A tree: {name: mode (a file) or (mode, subtree) (a folder)}.
trees = st.recursive(st.dictionaries(names, modes, max_size=4),
                     lambda children: st.dictionaries(names, st.one_of(modes, st.tuples(modes, children)), max_size=4),
                     max_leaves=12)


def build(folder, tree):
    """Make `tree` under `folder`; folders get their modes after their contents."""
    made = []
    for name, spec in tree.items():
        path = folder / name
        if isinstance(spec, tuple):
            path.mkdir()
            made += build(path, spec[1])
            made.append((path, spec[0] | 0o700))  # the owner must walk it to build the tree
        else:
            path.write_text(name)
            made.append((path, spec))
    return made


def snapshot(top):
    found = {}
    for folder, dirs, files in os.walk(top):
        for name in [folder] + [os.path.join(folder, n) for n in dirs + files]:
            info = os.lstat(name)
            found[name] = (stat.S_IMODE(info.st_mode), stat.S_ISLNK(info.st_mode))
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(private=trees, neighbour=trees, private_mode=modes)
def test_restrict_closes_everything_beneath_and_nothing_else(tmp_path_factory, private, neighbour, private_mode):
    site = tmp_path_factory.mktemp("site")
    package, other = site / "solutions", site / "numpy"
    package.mkdir()
    other.mkdir()
    for path, mode in build(package, private) + build(other, neighbour):
        os.chmod(path, mode)
    (package / "link_out").symlink_to(other)  # a link inside leads outside: not followed
    (other / "link_in").symlink_to(package)
    os.chmod(package, private_mode | 0o700)
    before_package, before_other = snapshot(package), snapshot(other)

    lockdown.restrict([str(package)])

    assert lockdown.exposed([str(package)]) == []
    after = snapshot(package)
    assert after.keys() == before_package.keys()
    for path, (mode, is_link) in after.items():
        old_mode, _ = before_package[path]
        if not is_link:
            assert mode & 0o077 == 0 and mode & 0o700 == old_mode & 0o700, (path, oct(old_mode), oct(mode))
    assert snapshot(other) == before_other
    shutil.rmtree(site)  # every folder kept its owner's rwx: removable without root


def test_the_installed_packages_are_found_without_importing_them():
    before = set(sys.modules)
    found = lockdown.installed_paths(lockdown.private_packages())
    assert {"autograder", "labs", "solutions"} <= {os.path.basename(p) for p in found}
    assert "solutions" not in set(sys.modules) - before
    assert set(lockdown.private_packages()) >= {"autograder", "labs", "solutions"}


@pytest.fixture
def shared_folder():
    """A folder every user may walk (pytest's own is root's alone)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="lockdown-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to try as another user")
def test_another_user_can_neither_list_nor_read_what_was_restricted(shared_folder):
    package = shared_folder / "labs"
    (package / "self_attention").mkdir(parents=True)
    (package / "self_attention" / "hidden.py").write_text("ANSWER = 42\n")
    for path in (package, package / "self_attention"):
        os.chmod(path, 0o755)
    os.chmod(package / "self_attention" / "hidden.py", 0o644)

    def as_nobody(*command):
        return subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command],
                              capture_output=True, text=True, cwd="/")

    hidden = str(package / "self_attention" / "hidden.py")
    assert "ANSWER = 42" in as_nobody("cat", hidden).stdout  # the probe reads it while it is open
    assert lockdown.restrict([str(package)]) == 3
    refused = as_nobody("cat", hidden)
    assert refused.returncode != 0 and "Permission denied" in refused.stderr and not refused.stdout
    listing = as_nobody("ls", str(package))
    assert listing.returncode != 0 and "Permission denied" in listing.stderr
    assert open(package / "self_attention" / "hidden.py").read() == "ANSWER = 42\n"  # root still reads it


def test_main_lists_what_it_closed_and_fails_when_the_grader_is_missing(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "source"
    (folder / "files").mkdir(parents=True)
    (folder / "files" / "grader.whl").write_bytes(b"PK")
    monkeypatch.setattr(lockdown, "private_packages", lambda: ["not_installed_anywhere"])
    assert lockdown.main([str(folder)]) == 1
    assert "the grader is not installed" in capsys.readouterr().err
    grader = tmp_path / "site" / "autograder"
    grader.mkdir(parents=True)
    (grader / "__init__.py").write_text("")
    monkeypatch.setattr(lockdown, "installed_paths", lambda names: [str(grader)])
    assert lockdown.main([str(folder)]) == 0
    printed = capsys.readouterr().out
    assert str(grader) in printed and str(folder) in printed
    assert lockdown.exposed([str(grader), str(folder)]) == []
    assert stat.S_IMODE(pathlib.Path(folder, "files", "grader.whl").stat().st_mode) & 0o077 == 0
