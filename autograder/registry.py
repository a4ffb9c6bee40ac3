"""Finding labs by name: every installed lab names its `Lab` in the "autograder.labs" entry points."""
from functools import lru_cache
from importlib import metadata

from .submission import DEFINED, METADATA_KEY, lab_evidence, untrusted  # noqa: F401 (METADATA_KEY re-exported)

GROUP = "autograder.labs"


class LabNotFound(LookupError):
    """No lab of that name, or none could be chosen; the message says what there is."""


@lru_cache(maxsize=1)
def lab_names():
    return tuple(sorted({entry.name for entry in metadata.entry_points(group=GROUP)}))


def load(name=None):
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
def _loaded(name):
    (entry,) = [entry for entry in metadata.entry_points(group=GROUP) if entry.name == name][:1]
    return entry.load()


def guess(datas):
    """The name of the lab the submissions `datas` (bytes) were written for, or None.

    A notebook made from a lab's assignment says so in its metadata; otherwise the lab whose
    step functions the files define most, when one lab clearly leads. Files that say nothing
    (empty, broken) do not vote.
    """
    return winner(each_lab(datas))


def winner(said):
    """The lab most files say they are for (None says nothing), when one clearly leads."""
    votes = {}
    for name in said:
        if name is not None:
            votes[name] = votes.get(name, 0) + 1
    if not votes:
        return None
    ranked = sorted(votes.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def each_lab(datas):
    """Per submission (bytes), the name of the lab it says it is for, or None; never raises."""
    labs = {name: load(name) for name in lab_names()}
    for data in datas:
        yield said_by(data, labs)


def said_by(data, labs):
    """The lab of `labs` a submission says it is for, or None. Read as the grader reads it
    (`submission.lab_evidence`, under the reader's budget and catch-all): a notebook made from
    a lab's assignment names it in its metadata; otherwise the lab whose step functions the
    code defines most, when one lab clearly leads."""
    return untrusted(_said_by, data, labs).value


def _said_by(data, labs, reading):
    evidence = lab_evidence(data, reading.budget)
    if evidence is None:
        return None
    if evidence.declared in labs:
        return evidence.declared
    # Names are read with a pattern, not a parser: a file with a syntax error still votes.
    wanted = {name for lab in labs.values() for name in lab.function_names}
    defined = {found.group(1) for source in evidence.sources for found in DEFINED.finditer(source)
               if found.group(1) in wanted}
    scores = sorted(((len(defined & set(lab.function_names)), name) for name, lab in labs.items()), reverse=True)
    if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[0][0] == scores[1][0]):
        return None
    return scores[0][1]


class Said(list):
    """Lab names the files were already read for (each_lab's), to choose without reading again."""


def choose(name=None, datas=()):
    """The Lab to grade with: `name` when given, else the only installed one, else the one the
    submissions `datas` (an iterable of bytes, read only when needed) were written for."""
    if name is not None or len(lab_names()) <= 1:
        return load(name)
    guessed = winner(datas) if isinstance(datas, Said) else guess(datas)
    if guessed is None:
        raise LabNotFound(f"several labs are installed ({', '.join(lab_names())}) and the submissions "
                          "do not say which one they are for: choose one with --lab")
    return load(guessed)
