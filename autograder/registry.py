"""Finding labs by name: every installed lab names its `Lab` in the "autograder.labs" entry points."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from typing import TYPE_CHECKING

from .submission import DEFINED, METADATA_KEY, lab_evidence, untrusted  # noqa: F401 (METADATA_KEY re-exported)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import Any

    from .lab import Lab
    from .submission import LabEvidence, Reading

GROUP = "autograder.labs"


class LabNotFound(LookupError):
    """No lab of that name, or none could be chosen; the message says what there is."""


@lru_cache(maxsize=1)
def _entries() -> dict[str, metadata.EntryPoint]:
    """The group's entry points by name, read once: each reading scans every installed
    distribution's metadata (tens of ms with Otter's dependencies), and a check needs them twice."""
    entries: dict[str, metadata.EntryPoint] = {}
    for entry in metadata.entry_points(group=GROUP):
        entries.setdefault(entry.name, entry)  # the first on sys.path wins, as `import` would choose
    return entries


def lab_names() -> tuple[str, ...]:
    return tuple(sorted(_entries()))


def forget() -> None:
    """Read the entry points again at the next lookup (after installing a lab into this process)."""
    _entries.cache_clear()
    _loaded.cache_clear()


def load(name: str | None = None) -> Lab:
    """The Lab called `name`; with no name, the only installed lab."""
    names = lab_names()
    if not names:
        raise LabNotFound("no lab is installed (none in the 'autograder.labs' entry points)")
    if name is None:
        if len(names) > 1:
            raise LabNotFound(f"several labs are installed ({', '.join(names)}): choose one with --lab")
        name = names[0]
    if name not in names:
        raise LabNotFound(f"no lab named {name!r}; installed: {', '.join(names)}")
    return _loaded(name)


@lru_cache(maxsize=None)
def _loaded(name: str) -> Lab:
    lab: Lab = _entries()[name].load()
    return lab


def guess(datas: Iterable[bytes]) -> str | None:
    """The name of the lab the submissions `datas` (bytes) were written for, or None.

    A notebook made from a lab's assignment says so in its metadata; otherwise the lab whose
    step functions the files define most, when one lab clearly leads. Files that say nothing
    (empty, broken) do not vote.
    """
    return winner(each_lab(datas))


def winner(said: Iterable[str | None]) -> str | None:
    """The lab most files say they are for (None says nothing), when one clearly leads."""
    return Tally.of(said).leader()


@dataclass(frozen=True, kw_only=True)
class Tally:
    """What the submissions say they are written for: one vote per submission (in a class, per
    student: the file that counts for them, never their other files)."""

    votes: dict[str, int]  # lab name -> how many submissions say that lab
    silent: int  # how many name no lab (broken, empty, defining none of a lab's functions)

    @classmethod
    def of(cls, said: Iterable[str | None]) -> Tally:
        votes: dict[str, int]
        votes, silent = {}, 0
        for name in said:
            if name is None:
                silent += 1
            else:
                votes[name] = votes.get(name, 0) + 1
        return cls(votes=votes, silent=silent)

    @property
    def total(self) -> int:
        return sum(self.votes.values()) + self.silent

    def leader(self) -> str | None:
        """The lab strictly more submissions say than any other, else None."""
        ranked = sorted(self.votes.items(), key=lambda item: -item[1])
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return None
        return ranked[0][0]

    def rivals(self, name: str) -> list[str]:
        """Other labs more submissions say than `name`: grading them all as `name` would give more
        zeros than grades. Most said first. Strictly more, so that one student's file, one vote,
        cannot stop a class that is evenly split or better."""
        own = self.votes.get(name, 0)
        return [other for other, count in sorted(self.votes.items(), key=lambda item: (-item[1], item[0]))
                if other != name and count > own]

    def describe(self, wanted: str | None = None) -> str:
        """"12 look written for masked_attention, 1 for self_attention, 2 for no lab" (`wanted`
        shown even when none says it)."""
        counts = dict(self.votes)
        if wanted is not None:
            counts.setdefault(wanted, 0)
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        parts = [f"{count} for {name}" for name, count in ranked]
        if self.silent:
            parts.append(f"{self.silent} for no lab (empty, unreadable or defining none of a lab's functions)")
        if not parts:
            return "none says"
        first_count = ranked[0][1] if ranked else self.silent
        parts[0] = f"{first_count} {'looks' if first_count == 1 else 'look'} written" + parts[0][len(str(first_count)):]
        return ", ".join(parts)


class LabMismatch(LabNotFound):
    """--lab names a lab the submissions are not written for; the message says what they say."""


def each_lab(datas: Iterable[bytes]) -> Iterator[str | None]:
    """Per submission (bytes), the name of the lab it says it is for, or None; never raises."""
    labs = {name: load(name) for name in lab_names()}
    for data in datas:
        yield said_by(data, labs)


def said_by(data: bytes, labs: Mapping[str, Lab]) -> str | None:
    """The lab of `labs` a submission says it is for, or None. Read as the grader reads it
    (`submission.lab_evidence`, under the reader's budget and catch-all): a notebook made from
    a lab's assignment names it in its metadata; otherwise the lab whose step functions the
    code defines most, when one lab clearly leads."""
    return untrusted(_said_by, data, labs).value


def _said_by(data: bytes, labs: Mapping[str, Lab], reading: Reading) -> str | None:
    evidence: LabEvidence | None = lab_evidence(data, reading.budget)
    if evidence is None:
        return None
    if evidence.declared in labs:
        return evidence.declared
    defined = _defined(evidence, labs)
    return _leader(defined, labs)


def _defined(evidence: LabEvidence, labs: Mapping[str, Lab]) -> set[str]:
    """The step functions of `labs` the code defines. Names are read with a pattern, not a parser:
    a file with a syntax error still says what it is for."""
    wanted = {name for lab in labs.values() for name in lab.function_names}
    return {found.group(1) for source in evidence.sources for found in DEFINED.finditer(source)
            if found.group(1) in wanted}


def _leader(defined: set[str], labs: Mapping[str, Lab]) -> str | None:
    """The lab of `labs` whose functions `defined` holds most, when one strictly leads."""
    scores = sorted(((len(defined & set(lab.function_names)), name) for name, lab in labs.items()), reverse=True)
    if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[0][0] == scores[1][0]):
        return None
    return scores[0][1]


def other_lab(data: bytes, lab: Lab) -> dict[str, Any] | None:
    """Whether a submission (bytes) graded as `lab` is written for another installed lab: the
    one rule every face tells a student by (grading.grade_bytes applies it, render says it).

    It is, when the code defines none of `lab`'s step functions and either its notebook's
    metadata names another installed lab, or it defines another lab's functions (the lab it
    defines most of, when one leads). Then a load note (code "other_lab": the lab's name, its
    titles in every language, whether the metadata named it, its functions found); else None.
    Read as `said_by` reads (the reader's budget and catch-all); never raises.
    """
    return untrusted(_other_lab, data, lab).value


def _other_lab(data: bytes, lab: Lab, reading: Reading) -> dict[str, Any] | None:
    evidence: LabEvidence | None = lab_evidence(data, reading.budget)
    if evidence is None:
        return None
    labs = {name: load(name) for name in lab_names()}
    others = {name: other for name, other in labs.items() if name != lab.name}
    defined = _defined(evidence, {**others, lab.name: lab})
    if not others or defined & set(lab.function_names):
        return None
    declared = evidence.declared in others
    name = evidence.declared if declared else _leader(defined, others)
    if name is None:
        return None
    other = others[name]
    return {"code": "other_lab", "lab": name, "titles": dict(other.titles), "declared": declared,
            "found": [function for function in other.function_names if function in defined]}


class Said(list[str | None]):
    """Lab names the files were already read for (each_lab's), to choose without reading again."""


def choose(name: str | None = None, datas: Iterable[bytes] | Said = (), *, fit: bool = False,
           what: tuple[str, str] = ("submission", "submissions")) -> Lab:
    """The Lab to grade with: `name` when given, else the only installed one, else the one the
    submissions `datas` (an iterable of bytes, read only when needed; or a Said) were written for.

    With `fit`, a `name` the submissions are not written for is refused (LabMismatch): when
    another lab is said by more of them than `name` is (Tally.rivals). `what` names a
    submission and several in messages (("file", "files"), ("student's file", "students' files")).
    """
    if name is not None or len(lab_names()) <= 1:
        lab = load(name)
        if fit and name is not None and len(lab_names()) > 1:
            tally = Tally.of(datas if isinstance(datas, Said) else each_lab(datas))
            rivals = tally.rivals(name)
            if rivals:
                subject = f"the {what[0]} is" if tally.total == 1 else f"the {what[1]} are"
                raise LabMismatch(
                    f"--lab {name}, but {subject} written for {rivals[0]}: of {tally.total}, "
                    f"{tally.describe(name)}. Nothing was graded. Give --lab {rivals[0]}.")
        return lab
    tally = Tally.of(datas if isinstance(datas, Said) else each_lab(datas))
    guessed = tally.leader()
    if guessed is None:
        said = f" (of {tally.total}, {tally.describe()})" if tally.total else ""
        raise LabNotFound(f"several labs are installed ({', '.join(lab_names())}) and nothing in the "
                          f"{what[0] if tally.total == 1 else what[1]} says which lab to grade{said}: "
                          "choose one with --lab")
    return load(guessed)
