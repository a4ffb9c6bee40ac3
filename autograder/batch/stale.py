"""Outputs in a run folder that belong to no student of this run: found, and moved aside when asked."""
from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable

from .naming import NAME_MAX
from .run_files import fit_id
from ..whole_file import TEMP_SUFFIX


def stale_outputs(out: str, ids: Iterable[str]) -> list[str]:
    """Files in feedback/ and results/ that belong to no student of this run (an earlier class, a
    renamed id), as paths relative to `out`."""
    named = {fit_id(student) for student in ids}
    stale: list[str] = []
    for folder, suffixes in (("feedback", (".md", ".html")), ("results", (".json",))):
        directory = os.path.join(out, folder)
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else ():
            if name.endswith(TEMP_SUFFIX):
                continue
            stem, suffix = os.path.splitext(name)
            if suffix not in suffixes or stem not in named:
                stale.append(f"{folder}/{name}")
    return stale


def move_stale(out: str, stale: Iterable[str]) -> list[str]:
    """Move each stale file to out/stale/<same path> (never over another file); the new paths."""
    moved: list[str] = []
    for relative in stale:
        folder, name = os.path.split(os.path.join(out, "stale", relative))
        os.makedirs(folder, exist_ok=True)
        target, number = os.path.join(folder, name), 1
        while os.path.lexists(target):
            target = os.path.join(folder, fitting_name(name, f".{number}"))
            number += 1
        shutil.move(os.path.join(out, relative), target)
        moved.append(os.path.relpath(target, out))
    return moved


def fitting_name(name: str, suffix: str) -> str:
    """`name` + `suffix`, fitted in NAME_MAX bytes: its stem cut and a hash of the name added."""
    def size(text: str) -> int:
        return len(text.encode("utf-8", "surrogateescape"))

    if size(name + suffix) <= NAME_MAX:
        return name + suffix
    stem, extension = os.path.splitext(name)
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    if size(extension + suffix) > NAME_MAX // 2:
        stem, extension = name, ""
    room = NAME_MAX - size(extension + suffix) - len(digest) - 1
    head = stem.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f"{head}-{digest}{extension}{suffix}"
