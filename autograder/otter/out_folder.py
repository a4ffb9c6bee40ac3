"""The build's --out folder: claimed only when empty or this lab's earlier build, and stamped with what it wrote."""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
from typing import Any

from ..core.lab import Lab
from ..said import said
from .refusals import BuildError

BUILD_FOLDERS = ("student", "classroom", "autograder")
# Written by every build into --out: the lab it built and every file it wrote (None while it runs).
STAMP = "autograder-build.json"


def claim_out_folder(out: pathlib.Path, lab: Lab) -> None:
    """INVARIANT: a build never replaces what another run, or a person, left in `out`. It writes into
    `out` only when `out` does not exist, is an empty folder, or holds this lab's earlier build and
    nothing else (its stamp, its three folders, only the files that build wrote in them, each still
    holding what it wrote: the stamp records each file's SHA-256; a build that stopped before it
    ended may be replaced whole). Else BuildError names what is in the way: files added, files
    changed since."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass  # a file: told below
    except OSError as error:
        raise BuildError(said("cannot_make", "build", out=str(out), why=error.strerror or str(error))) from None
    if not out.is_dir():
        raise BuildError(said("out_is_a_file", "build", out=str(out)))
    entries = sorted(entry.name for entry in out.iterdir())
    if entries:
        stamp = _read_stamp(out)
        if stamp is None:
            raise BuildError(said("not_empty", "build", out=str(out), listing=_listed(entries)))
        if stamp["lab"] != lab.name:
            raise BuildError(said("other_lab", "build", out=str(out), other=stamp["lab"], lab=lab.name))
        others = [name for name in entries if name not in (STAMP, *BUILD_FOLDERS)]
        changed: list[str] = []
        if stamp["files"] is not None:
            built = stamp["files"]
            present = _built_files(out)
            others += [name for name in present if name not in built]
            changed = [name for name in present if name in built and built[name] is not None
                       and built[name] != _digest(out / name)]
        if changed:
            raise BuildError(said("changed_files", "build", out=str(out), lab=lab.name,
                                  listing=_listed(changed + others)))
        if others:
            raise BuildError(said("other_files", "build", out=str(out), lab=lab.name, listing=_listed(others)))
    _write_stamp(out, lab, None)


def _listed(names: list[str], most: int = 5) -> str:
    return ", ".join(names[:most]) + (", ..." if len(names) > most else "")


def _built_files(out: pathlib.Path) -> list[str]:
    """Relative paths of the files (and links) under the build's folders in `out`; Python's byte-code
    caches (written when the check package is run there) are the build's own files, not counted."""
    found = []
    for folder in BUILD_FOLDERS:
        for path in sorted((out / folder).rglob("*")):
            if "__pycache__" in path.relative_to(out).parts:
                continue
            if path.is_symlink() or not path.is_dir():
                found.append(path.relative_to(out).as_posix())
    return found


def _read_stamp(out: pathlib.Path) -> dict[str, Any] | None:
    """The stamp as {"lab": name, "files": {relative path: SHA-256 or None} or None (a build running or
    stopped)}; a stamp of a build that listed names alone gives None for each digest (compared by name)."""
    try:
        stamp = json.loads((out / STAMP).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or not isinstance(stamp.get("lab"), str):
        return None
    files = stamp.get("files")
    if isinstance(files, list) and all(isinstance(f, str) for f in files):
        return {"lab": stamp["lab"], "files": dict.fromkeys(files)}
    if files is None or (isinstance(files, dict) and all(isinstance(d, str) for d in files.values())):
        return {"lab": stamp["lab"], "files": files}
    return None


def _write_stamp(out: pathlib.Path, lab: Lab, files: list[str] | None) -> None:
    digests = None if files is None else {name: _digest(out / name) for name in files}
    (out / STAMP).write_text(json.dumps({"lab": lab.name, "files": digests}, indent=1) + "\n", "utf-8")


def _digest(path: pathlib.Path) -> str:
    """SHA-256 of a file the build wrote (of a link's target path for a link: never followed)."""
    if path.is_symlink():
        return hashlib.sha256(os.readlink(path).encode("utf-8", "surrogateescape")).hexdigest()
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""  # unreadable now: not as the build wrote it


def _fresh(folder: pathlib.Path) -> pathlib.Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder
