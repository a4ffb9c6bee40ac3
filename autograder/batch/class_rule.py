"""Whether what `grade` was given is a class's submissions at all.

One rule (`mostly_not_submissions`): a folder or .zip in which more than half of the would-be
students have no file that is code for any lab (registry.each_lab names no lab for the file that
counts for them: a .docx, a PDF, notes, an LMS's .zip, a script of another course) is not a class:
it is refused before anything is written, as an empty one is. A class with a few broken files
(an empty file, a .docx, a notebook that is not JSON) is graded: broken submissions are graded as
broken, and half of a class or fewer is "a few" here.

The rule is for what is not a recognised LMS export (a plain folder, a .zip of one): an LMS's
export (source.Source.lms_export) names its students itself, so each is a student whose
submission, broken or not, is graded as it is.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ..said import Said, said, then
from .collect import Student
from .source import EXPORT

SHOWN_AT_MOST = 8  # files named in the sentence


def mostly_not_submissions(said: Mapping[str, str | None], *, lms_export: bool = False) -> bool:
    """`said`: {student id: the lab their counting file is code for, or None}. True when more
    than half of them name no lab, and the class is no LMS's export (`lms_export`)."""
    if lms_export:
        return False
    silent = sum(1 for lab in said.values() if lab is None)
    return 2 * silent > len(said)


def not_a_class(location: str, students: Sequence[Student], votes: Mapping[str, str | None]) -> Said:
    """The sentence refusing a folder that is mostly not submissions: what it found, what to give."""
    silent = [s for s in students if votes.get(s.id) is None and s.chosen is not None]
    paths = [s.chosen.path for s in silent if s.chosen is not None]
    shown = ", ".join(paths[:SHOWN_AT_MOST]) + (", ..." if len(paths) > SHOWN_AT_MOST else "")
    zips = [path for path in paths if path.lower().endswith(EXPORT)]
    found = said("not_a_class", "run_folder", location=location, count=len(votes), silent=len(silent),
                 code=len(votes) - len(silent), listing=shown)
    nothing = said("nothing_graded", "run_folder")
    if zips and os.path.isdir(location):
        return then(found, said("zip_inside", "run_folder", zip=os.path.join(location, zips[0])), nothing)
    return then(found, nothing)
