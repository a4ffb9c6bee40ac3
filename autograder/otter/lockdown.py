"""The grader's installed packages and the zip's own files, readable by their owner only.

Run by the zip's setup.sh as root, right after pip: `python3 -I -m autograder.otter.lockdown
FOLDER...`. On the LMS the grader runs as root and every submission as another user id. Where
the kernel offers Landlock, the sandbox keeps that user from the reference and the hidden cases
with its rules; where it does not (an old kernel, a container whose seccomp profile blocks the
Landlock system calls), file permissions are the only wall. So every file and folder of the
private packages (the grader, the labs with their hidden cases, the references, wherever pip put
them) and of FOLDER (the zip's unpacked files, whose wheel holds them all) loses every permission
of group and others. The owner, root, reads them as before.
"""
import importlib.util
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib import metadata

from ..registry import GROUP as LAB_GROUP  # a lab installed from another distribution is private too
from ..sandbox.confinement import PRIVATE_NAMES

KEPT_BITS = ~0o077  # what remains of a mode: the owner's permissions and the special bits


def private_packages() -> list[str]:
    """Top-level names of the grader, the references and every installed lab, without importing any."""
    names = set(PRIVATE_NAMES)
    for entry in metadata.entry_points(group=LAB_GROUP):
        names.add(entry.value.split(":")[0].split(".")[0].strip())
    return sorted(names)


def installed_paths(names: Iterable[str]) -> list[str]:
    """Where each of `names` is installed: a package's folders, a module's file (real paths)."""
    found: list[str] = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)  # finds, never imports
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            found.extend(os.path.realpath(p) for p in spec.submodule_search_locations)
        elif spec.origin and os.path.isfile(spec.origin):
            found.append(os.path.realpath(spec.origin))
    return sorted(set(found))


def restrict(paths: Iterable[str]) -> int:
    """Take group's and others' permissions from every file and folder under `paths`; as root,
    also make root their owner (a file pip unpacked with another owner would stay theirs).

    Symbolic links are neither followed nor changed (a link has no permissions of its own; what
    it points to outside `paths` is not ours). Returns how many entries were changed.
    """
    me = os.geteuid()
    changed = 0
    for top in paths:
        for path in _walk(top):
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                continue
            if me == 0 and info.st_uid != 0:
                os.chown(path, 0, -1, follow_symlinks=False)
            elif not info.st_mode & 0o077:
                continue
            os.chmod(path, stat.S_IMODE(info.st_mode) & KEPT_BITS)
            changed += 1
    return changed


def keep_to_the_grader(root: str) -> list[str]:
    """Everything the LMS provides under the grading root (Gradescope's /autograder: the root
    itself, submission_metadata.json with the earlier attempts' whole results, results/, source/,
    the submission's own folder, run_autograder) readable by the grader only; returns the entries
    that stay readable by others (none when it worked).

    The sandbox is given the submission's code through its command pipe, never a path under the
    root, so it needs none of it; without Landlock, file permissions are all that keep the sandbox
    user from the earlier results (hidden tests included) that Gradescope writes world-readable.
    """
    restrict([root])
    return exposed([root])


def exposed(paths: Iterable[str]) -> list[str]:
    """Entries under `paths` that anyone but this process's user may still read, write or enter."""
    me = os.geteuid()
    found = []
    for top in paths:
        for path in _walk(top):
            info = os.lstat(path)
            if not stat.S_ISLNK(info.st_mode) and (info.st_mode & 0o077 or info.st_uid != me):
                found.append(path)
    return found


def _walk(top: str) -> Iterator[str]:
    if not os.path.lexists(top):
        return
    yield top
    if os.path.isdir(top) and not os.path.islink(top):
        for folder, dirs, files in os.walk(top):
            for name in dirs + files:
                yield os.path.join(folder, name)


def main(argv: Sequence[str] | None = None) -> int:
    folders = [os.path.realpath(p) for p in (sys.argv[1:] if argv is None else argv)]
    packages = installed_paths(private_packages())
    if not any(os.path.basename(p) == "autograder" for p in packages):
        print("setup.sh: the grader is not installed (no package autograder found)", file=sys.stderr)
        return 1
    paths = packages + folders
    restrict(paths)
    left = exposed(paths)
    if left:
        print(f"setup.sh: {len(left)} entries stay readable by others, e.g. {left[0]}", file=sys.stderr)
        return 1
    if os.geteuid() == 0:
        print("setup.sh: readable by root only (submissions run as another user: Landlock or not, they cannot):")
    else:
        print(f"setup.sh: readable by user {os.geteuid()} only:")
    for path in paths:
        print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
