"""One rule for everything the check kit prints outside a Jupyter kernel: every character is written.

A character the output's encoding lacks (cp949 on Korean Windows, output redirected with
PYTHONIOENCODING=cp949, an ASCII locale) becomes a look-alike the encoding has ("—" as "―"),
else its compatibility form, else "?"; Hangul stays Hangul wherever the encoding has it, and no
print of the kit (or of Otter around it: the .py twin's `print(grader.check(...))`) stops on a
character. The package applies the rule once, when it is loaded (see __init__.py); a kernel's
output is the notebook's, which takes every character, and is left alone.

Parsed and run by Python 3.6 and newer: `python -m lab_check` says which Python it needs
through this module before it imports anything that an old Python cannot run.
"""
import codecs
import sys
import unicodedata
from typing import Any, Optional, TextIO, Tuple

FALLBACK_ERRORS = "lab_check_fallback"
LOOK_ALIKES = {"\u2014": ("\u2015", "-"), "\u2013": ("-",), "\u2212": ("-",), "\u2026": ("...",),
               "\u2192": ("->",), "\u00d7": ("x",), "\u221a": ("sqrt",), "\u00b7": (".",),
               "\u2018": ("'",), "\u2019": ("'",), "\u201c": ('"',), "\u201d": ('"',),
               "\u274c": ("X",), "\u2705": ("O",), "\u2714": ("V",), "\u2716": ("X",)}


def readable_output() -> None:
    """Make stdout and stderr write every character: those their encoding lacks become a look-alike
    the encoding has (LOOK_ALIKES, then the character's compatibility form), else "?". Idempotent."""
    codecs.register_error(FALLBACK_ERRORS, _look_alike)
    for stream in (sys.stdout, sys.stderr):
        if stream is None or writes_unicode(stream):
            continue
        try:
            stream.reconfigure(errors=FALLBACK_ERRORS)  # type: ignore[union-attr]
        except (AttributeError, ValueError, LookupError):
            pass  # not a TextIOWrapper (a test's capture), or Python 3.6: write_text still writes


def readable_output_outside_a_kernel() -> None:
    """The rule, where the output is a terminal's (or a file's), not a Jupyter kernel's."""
    if not in_kernel():
        readable_output()


def write_text(text: str, stream: Optional[TextIO] = None) -> None:
    """Write `text` to `stream` (stderr) by the rule, also where the stream cannot be reconfigured."""
    stream = stream or sys.stderr
    codecs.register_error(FALLBACK_ERRORS, _look_alike)
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.flush()
        stream.buffer.write(text.encode(encoding, FALLBACK_ERRORS))
    stream.flush()


def writes_unicode(stream: object) -> bool:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    return encoding.startswith("utf")


def in_kernel() -> bool:
    """Whether a Jupyter (or Colab) kernel runs this process."""
    return kernel_shell() is not None


def kernel_shell() -> Any:
    """The running Jupyter/Colab kernel's shell, or None (a terminal, or Otter grading)."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
    except Exception:  # noqa: BLE001
        return None
    return shell if shell is not None and getattr(shell, "kernel", None) is not None else None


def _look_alike(error: UnicodeError) -> Tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    shown = []
    for character in error.object[error.start:error.end]:
        for candidate in LOOK_ALIKES.get(character, ()) + (unicodedata.normalize("NFKC", character), "?"):
            try:
                candidate.encode(error.encoding)
            except (UnicodeError, LookupError):
                continue
            if candidate != character:
                shown.append(candidate)
                break
        else:
            shown.append("?")
    return "".join(shown), error.end
