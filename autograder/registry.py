"""Finding labs by name: every installed lab names its `Lab` in the "autograder.labs" entry points."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from typing import TYPE_CHECKING, Literal

from .said import Refusal, Said, said, then
from .core.reading.budget import untrusted
from .core.reading.definitions import DEFINED
from .core.reading.submission import METADATA_KEY, lab_evidence  # noqa: F401 (METADATA_KEY re-exported)
from .core.verdict import Note

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from .core.lab import Lab
    from .core.reading.budget import Reading
    from .core.reading.submission import LabEvidence

GROUP = "autograder.labs"
# What the files a lab is chosen by are, in the sentences that tell the choice: one submission, one
# student's file of a class, a file given to `check`.
Files = Literal["submission", "file", "student_file"]


class LabNotFound(Refusal, LookupError):
    """No lab of that name, or none could be chosen; the sentence says what there is."""


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
        raise LabNotFound(said("none_installed", "labs", group=GROUP))
    if name is None:
        if len(names) > 1:
            raise LabNotFound(said("several_installed", "labs", labs=", ".join(names)))
        name = names[0]
    if name not in names:
        raise LabNotFound(said("no_such_lab", "labs", name=repr(name), labs=", ".join(names)))
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
        shown even when none says it), in English (counted() says it in any language)."""
        return str(self.counted(wanted))

    def counted(self, wanted: str | None = None) -> Said:
        """How many submissions say each lab, most said first (`wanted` shown even when none says it)."""
        counts = dict(self.votes)
        if wanted is not None:
            counts.setdefault(wanted, 0)
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        parts = [said("count_lab", "labs", count=count, lab=name) for name, count in ranked]
        if self.silent:
            parts.append(said("count_silent", "labs", count=self.silent))
        if not parts:
            return said("none_says", "labs")
        first = parts[0]
        parts[0] = said(f"{first.key}_first_{'one' if dict(first.params)['count'] == 1 else 'many'}", "labs",
                        **dict(first.params))
        listed = parts[-1]
        for part in reversed(parts[:-1]):
            listed = said("and_then", "labs", first=part, rest=listed)
        return listed


class LabMismatch(LabNotFound):
    """--lab names a lab the submissions are not written for; the sentence says what they say."""


def each_lab(datas: Iterable[bytes]) -> Iterator[str | None]:
    """Per submission (bytes), the name of the lab it says it is for, or None; never raises."""
    labs = {name: load(name) for name in lab_names()}
    for data in datas:
        yield said_by(data, labs)


def said_by(data: bytes, labs: Mapping[str, Lab]) -> str | None:
    """The lab of `labs` a submission says it is for, or None. Read as the grader reads it
    (`reading.submission.lab_evidence`, under the reader's budget and catch-all): a notebook made from
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


def other_lab(data: bytes, lab: Lab) -> Note | None:
    """Whether a submission (bytes) graded as `lab` is written for another installed lab: the
    one rule every face tells a student by (grading.grade_bytes applies it, render says it).

    It is, when the code defines none of `lab`'s step functions and either its notebook's
    metadata names another installed lab, or it defines another lab's functions (the lab it
    defines most of, when one leads). Then a load note (code "other_lab": the lab's name, its
    titles in every language, whether the metadata named it, its functions found); else None.
    Read as `said_by` reads (the reader's budget and catch-all); never raises.
    """
    return untrusted(_other_lab, data, lab).value


def _other_lab(data: bytes, lab: Lab, reading: Reading) -> Note | None:
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
    return Note(code="other_lab", lab=name, titles=tuple(other.titles.items()), declared=declared,
                found=tuple(function for function in other.function_names if function in defined))


class Votes(list[str | None]):
    """Lab names the files were already read for (each_lab's), to choose without reading again."""


def choose(name: str | None = None, datas: Iterable[bytes] | Votes = (), *, fit: bool = False,
           what: Files = "submission") -> Lab:
    """The Lab to grade with: `name` when given, else the only installed one, else the one the
    submissions `datas` (an iterable of bytes, read only when needed; or Votes) were written for.

    With `fit`, a `name` the submissions are not written for is refused (LabMismatch): when
    another lab is said by more of them than `name` is (Tally.rivals). `what` says what the
    submissions are, in the sentences.
    """
    if name is not None or len(lab_names()) <= 1:
        lab = load(name)
        if fit and name is not None and len(lab_names()) > 1:
            tally = Tally.of(datas if isinstance(datas, Votes) else each_lab(datas))
            rivals = tally.rivals(name)
            if rivals:
                raise LabMismatch(said("mismatch", "labs", lab=name, rival=rivals[0], total=tally.total,
                                       subject=said(f"subject_{what}_{_number(tally.total)}", "labs"),
                                       counts=tally.counted(name)))
        return lab
    tally = Tally.of(datas if isinstance(datas, Votes) else each_lab(datas))
    guessed = tally.leader()
    if guessed is None:
        key = "nothing_says_counted" if tally.total else "nothing_says"
        raise LabNotFound(said(key, "labs", labs=", ".join(lab_names()), total=tally.total,
                               noun=said(f"files_{what}_{_number(tally.total)}", "labs"), counts=tally.counted()))
    return load(guessed)


def _number(count: int) -> str:
    return "one" if count == 1 else "many"


def choose_lab(name: str | None, datas: Iterable[bytes] | Votes = (), *, fit: bool, what: Files) -> Lab:
    """choose(), for a command that was given `name` as --lab: a refused --lab says, besides, that
    --allow-other-lab grades as that lab anyway (a class's students: their steps are then 'missing')."""
    try:
        return choose(name, datas, fit=fit, what=what)
    except LabMismatch as refused:
        hint = said("allow_other_lab_class" if what == "student_file" else "allow_other_lab", "labs", lab=name)
        raise LabMismatch(then(refused.said, hint)) from None
