"""Finding labs by name: every installed lab names its `Lab` in the "autograder.labs" entry points."""
import json
from functools import lru_cache
from importlib import metadata

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
    """Per submission (bytes), the name of the lab it says it is for, or None."""
    labs = {name: load(name) for name in lab_names()}
    for data in datas:
        data = _inside_export(data)
        yield _declared(data, labs) or _by_functions(data, labs)


METADATA_KEY = "autograder_lab"


def _inside_export(data):
    """The notebook inside the zip Otter's export() writes, else the bytes as they are."""
    if not isinstance(data, bytes) or not data.startswith(b"PK"):
        return data
    from .submission import NotAnOtterExport, otter_export_notebook

    try:
        return otter_export_notebook(data)[1]
    except NotAnOtterExport:
        return b""


def _declared(data, labs):
    try:
        notebook = json.loads(data)
        name = notebook.get("metadata", {}).get(METADATA_KEY)
    except (ValueError, AttributeError, UnicodeDecodeError, RecursionError):
        return None
    return name if isinstance(name, str) and name in labs else None


def _by_functions(data, labs):
    """Names are read with a pattern, not a parser: a file with a syntax error still votes."""
    sources = _source_text(data)
    if sources is None:
        return None
    from .submission import DEFINED

    defined = {name for source in sources for name in DEFINED.findall(source)}
    scores = sorted(((len(defined & set(lab.function_names)), name) for name, lab in labs.items()), reverse=True)
    if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[0][0] == scores[1][0]):
        return None
    return scores[0][1]


def _source_text(data):
    """The code of a .py file or of a notebook's code cells, as a list of sources."""
    try:
        text = data.decode("utf-8")
    except (UnicodeDecodeError, AttributeError):
        return None
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError):
        return [text]
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None
    sources = []
    for cell in notebook["cells"]:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source")
            sources.append("".join(source) if isinstance(source, list) else str(source or ""))
    return sources


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
