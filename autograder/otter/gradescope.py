"""The autograder zip's grading entry point: `python3 -I -m autograder.otter.gradescope`.

The zip's `run_autograder` starts it from an empty folder of its own. It never imports, executes
or unpickles anything from the submission folder: it reads the bytes of one .ipynb or .py (or of
the notebook inside an exported .zip, in memory), grades them in the engine's sandbox and writes
`results/results.json`. Every submission gets a results.json that says what happened; only a
failure of the grader itself exits non-zero (after writing one that says so).
"""
from __future__ import annotations

import json
import os
import pathlib
import sys
import traceback
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from ..core.guard import safe_name
from ..sandbox.limits import MB, Limits
from ..core.reading.budget import MAX_BYTES
from ..core.reading.files import read_regular_file
from ..core.reading.names import SUBMISSION_KINDS, kind_rank
from ..core.reading.problems import Detail, detail, os_detail
from ..whole_file import write_atomic

if TYPE_CHECKING:  # imported where used: a broken engine still gets its results.json written (main)
    from ..core.verdict import SubmissionResult
    from ..core.lab import Lab
    from .results import GradescopeResults

ROOT = "/autograder"
CONFIG = "otter_config.json"
PLUGIN = "autograder.otter.plugin.EngineGrading"
GRADABLE = (".ipynb", ".py")
IGNORED_FOLDERS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
MAX_ENTRIES = 10_000  # files and folders looked at in a submission (or a zip), at most


# What went wrong before grading: (code, why), graded as a broken submission.
Problem = tuple[str, Detail]
# The plugin's settings (otter_config.json): lab, lang, step_seconds, memory_mb, visibility.
Settings = Mapping[str, Any]

DEFAULT_SETTINGS: dict[str, Any] = {"lab": None, "lang": "ko", "step_seconds": Limits().step_seconds,
                    "memory_mb": Limits().memory_bytes // MB, "visibility": "after_published"}


def main(argv: Sequence[str] | None = None) -> int:
    root = pathlib.Path(os.environ.get("AUTOGRADER_ROOT", ROOT))
    results = root / "results" / "results.json"
    keep_lms_files_to_the_grader(root)
    try:
        settings = load_settings(root / "source" / CONFIG)
        try:
            name, data, problem = choose_submission(root / "submission", assignment_names(settings["lab"]))
        except Exception:  # never expected; still, the student gets a results.json
            traceback.print_exc()
            name, data, problem = "submission", None, ("grader_failed", detail("grader_reading"))
        name = safe_name(name)  # a file name's bytes that are not UTF-8 read as text, once
        lab = lab_for(settings, name, data)
        result, status = grade_safely(lab, name, data, problem, settings)
        from .results import gradescope_results

        written = gradescope_results(result, lab, settings["lang"], settings["visibility"])
        written = with_file_choice(written, root / "submission", assignment_names(settings["lab"]), lab, settings["lang"])
        write_json(results, with_previous(written, result, lab, settings, root / METADATA))
    except Exception:  # the package itself is broken: results.json says so, in plain words
        traceback.print_exc()
        write_json(results, GRADER_BROKEN)
        return 1
    print(f"{result.submission}: {result.score:g} / {result.max_score:g}")
    return status


def keep_lms_files_to_the_grader(root: pathlib.Path) -> None:
    """Before anything is graded: every file the LMS provides under the root readable by the
    grader only (lockdown.keep_to_the_grader). What cannot be done is told on stderr (the
    instructors' output), and grading goes on: Landlock, where the kernel has it, still keeps the
    sandbox from the root."""
    try:
        from .lockdown import keep_to_the_grader

        left = keep_to_the_grader(str(root))
    except Exception as error:  # noqa: BLE001 (a root this process may not change: said, never fatal)
        print(f"autograder: {root} stays readable by others ({type(error).__name__}: {error})", file=sys.stderr)
        return
    if left:
        print(f"autograder: {len(left)} entries under {root} stay readable by others, e.g. {left[0]}",
              file=sys.stderr)


GRADER_BROKEN: dict[str, Any] = {"score": 0, "stdout_visibility": "hidden",
                 "output": "채점기가 이 제출물을 채점하지 못했습니다. 학생의 잘못이 아니니 조교에게 다시 채점해 달라고 "
                           "요청하십시오.\nThe grader could not grade this submission. This is not your fault: "
                           "ask your TA to grade it again.",
                 "tests": [{"name": "Autograder error", "status": "failed", "visibility": "visible",
                            "output": "see the autograder's output (visible to instructors)"}]}


METADATA = "submission_metadata.json"
STEPS_KEY = "autograder_steps"  # results.json's extra_data: each step's verdict, for the next attempt's comparison


def with_previous(data: GradescopeResults, result: SubmissionResult, lab: Lab, settings: Settings,
                  metadata_path: pathlib.Path) -> GradescopeResults:
    """results.json with each step's verdict kept for the next attempt, and, when Gradescope lists an
    earlier submission, what changed since it (batch.previous). The comparison on all tests has the
    scored entries' visibility; the one visible at once compares the public tests only, so it never
    tells a hidden verdict before grades are published. Anything unreadable: no comparison."""
    from ..core.verdict import rounded_points

    now_all = {s.name: {"status": s.status, "score": rounded_points(s.score), "mistakes": list(s.mistakes)} for s in result.steps}
    now_public = {s.name: {"status": s.status, "score": None, "mistakes": list(s.mistakes)} for s in result.public_steps}
    data.setdefault("extra_data", {})[STEPS_KEY] = {"all": now_all, "public": now_public}
    try:  # the whole comparison: metadata the grader cannot read or use means no comparison, never a failure
        public, full = _changes(metadata_path, lab, settings["lang"], now_all, now_public)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        return data
    lang = settings["lang"]
    name = "지난 제출과 비교" if lang == "ko" else "Since your last submission"
    if public and settings["visibility"] != "visible":
        data["tests"].insert(1, {"name": f"{name} ({'공개 테스트' if lang == 'ko' else 'public tests'})",
                                 "visibility": "visible", "output": public})
    if full:
        data["tests"].insert(1, {"name": name, "visibility": settings["visibility"], "output": full})
    return data


def _changes(metadata_path: pathlib.Path, lab: Lab, lang: str, now_all: dict[str, dict[str, Any]],
             now_public: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """(what changed on the public tests, what changed on all tests) since the last attempt, as text
    ("" when there is no earlier attempt or nothing to say)."""
    from ..batch.outputs import shown_time
    from ..batch.previous import changes_text, compare, summary_of

    before, when = last_attempt(metadata_path)
    if before is None:
        return "", ""
    order = list(lab.function_names)
    shown = shown_time(when) if when else ""
    public = changes_text(compare(summary_of(before.get("public") or {}), summary_of(now_public), order), lang, lab, shown)
    full = changes_text(compare(summary_of(before.get("all") or {}), summary_of(now_all), order), lang, lab, shown)
    return public, full


def last_attempt(metadata_path: str | os.PathLike[str]) -> tuple[dict[str, Any] | None, str]:
    """(steps of the newest previous submission {"all": ..., "public": ...}, its time) from Gradescope's
    submission_metadata.json, or (None, "") when there is none. Older results.json without our
    record: the step tests' own status and score (public verdicts then unknown)."""
    try:
        metadata = json.loads(pathlib.Path(metadata_path).read_text("utf-8"))
    except FileNotFoundError:
        return None, ""
    previous = metadata.get("previous_submissions") if isinstance(metadata, dict) else None
    if not isinstance(previous, list) or not previous:
        return None, ""
    usable = [p for p in previous if isinstance(p, dict) and isinstance(p.get("results"), dict)]
    if not usable:
        return None, ""
    last = max(usable, key=lambda p: str(p.get("submission_time") or ""))
    results = last["results"]
    kept = (results.get("extra_data") or {}).get(STEPS_KEY) if isinstance(results.get("extra_data"), dict) else None
    if isinstance(kept, dict):
        return kept, str(last.get("submission_time") or "")
    steps: dict[str, dict[str, Any]] = {}
    for test in results.get("tests") or ():
        if isinstance(test, dict) and isinstance(test.get("name"), str) and test.get("status") in ("passed", "failed"):
            steps[test["name"]] = {"status": test["status"], "score": test.get("score"), "mistakes": None}
    return ({"all": steps} if steps else None), str(last.get("submission_time") or "")


def load_settings(path: pathlib.Path) -> dict[str, Any]:
    """The plugin's settings in the zip's otter_config.json (written by `autograder build`)."""
    settings = dict(DEFAULT_SETTINGS)
    try:
        config = json.loads(path.read_text("utf-8"))
        for plugin in config.get("plugins", []):
            if isinstance(plugin, dict) and PLUGIN in plugin:
                settings.update(plugin[PLUGIN] or {})
    except (OSError, ValueError, AttributeError) as error:
        print(f"autograder: {path}: {error}; using the default settings", file=sys.stderr)
    return settings


def assignment_names(lab_name: str | None) -> tuple[str, ...]:
    """The file names a submission of the lab (or of any installed lab, when none is set) has."""
    from ..registry import lab_names, load

    labs = [load(lab_name)] if lab_name else [load(name) for name in lab_names()]
    return tuple(name for lab in labs for name in (lab.notebook, lab.script))


def lab_for(settings: Settings, name: str, data: bytes | None) -> Lab:
    """The zip's lab (`autograder build` writes it), else the lab whose assignment file has the
    submission's name, else the one its content is for."""
    from ..registry import choose, lab_names, load

    if not settings["lab"]:
        base = os.path.basename(str(name))
        named = [lab for lab in map(load, lab_names()) if base in (lab.notebook, lab.script)]
        if len(named) == 1:
            return named[0]
    return choose(settings["lab"], [data] if data else [])


def grade_safely(lab: Lab, name: str, data: bytes | None, problem: Problem | None,
                 settings: Settings) -> tuple[SubmissionResult, int]:
    """(SubmissionResult, exit status): a failure of the grader itself is graded as such, status 1."""
    from ..core.file_facts import broken

    if problem:
        return broken(lab, name, *problem), 0
    if data is None:  # read with no problem always gives bytes: told as unreadable, never raised
        return broken(lab, name, "unreadable"), 0
    try:
        from ..grading import grade_bytes
        from ..grading.plan import Plan
        from ..sandbox.runner import Zygote

        limits = Limits.from_options(seconds=settings["step_seconds"], memory_mb=settings["memory_mb"])
        with Zygote() as zygote:
            return grade_bytes(name, data, zygote, Plan.build(lab), limits), 0
    except Exception as error:
        traceback.print_exc()
        return broken(lab, name, "grader_failed", detail("grader_error", type=type(error).__name__)), 1


# Choosing the file ----------------------------------------------------------------------------

def choose_submission(folder: pathlib.Path, wanted: Collection[str]) -> tuple[str, bytes | None, Problem | None]:
    """(name, bytes, problem) of the one file to grade; problem = (code, detail) or None.

    Reads regular files only (no symbolic link is followed). A .zip is passed on whole: grading
    reads the notebook of an Otter export in memory (its log never) and refuses any other zip.
    """
    files = list_files(folder)
    chosen, problem = pick(files, wanted)
    if problem:
        return "submission", None, problem
    name = cast(str, chosen)  # pick names a file whenever it names no problem
    data, problem = read_regular(folder / name)
    return name, data, problem  # an export .zip is opened by read_submission, in memory


def list_files(folder: pathlib.Path) -> list[str]:
    """Relative paths of the regular files under folder (ignored folders and links left out)."""
    found: list[str] = []
    pending, seen = [pathlib.Path(".")], 0
    while pending and seen < MAX_ENTRIES:
        relative = pending.pop()
        try:
            entries = sorted(os.scandir(folder / relative), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if entry.is_symlink() or entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in IGNORED_FOLDERS:
                    pending.append(relative / entry.name)
            elif entry.is_file(follow_symlinks=False):
                found.append((relative / entry.name).as_posix())
    return found


# Why a submitted file was not graded (file_choice), each told by the catalog's [chosen] section.
NotGradedReason = Literal["notebook_first", "script_first", "assignment_name", "outer_folder", "not_code"]
KINDS = SUBMISSION_KINDS  # in the order they are preferred (reading.names.kind_rank, shared with grade)
NOT_GRADED_SHOWN = 8  # file names told per reason, at most


@dataclass(frozen=True)
class FileChoice:
    """Which of a submission's files is graded (`graded`, None with a `problem`), and every other
    file with the rule that left it out."""

    graded: str | None
    problem: Problem | None = None
    not_graded: tuple[tuple[str, NotGradedReason], ...] = ()


def file_choice(names: Sequence[str], wanted: Collection[str]) -> FileChoice:
    """INVARIANT: the one rule that chooses the file to grade among relative names: a notebook
    before a script before a zip (`reading.names.kind_rank`, the order `grade` applies to one attempt's
    files too); among several of a kind, the one with the assignment's own name nearest the top;
    several of the same standing (other names, or the assignment's name at the same depth) are a
    problem to report, never a guess by listing order. Every other file is told with the part of the
    rule that left it out."""
    considered = [n for n in names if not any(part in IGNORED_FOLDERS for part in n.split("/"))]
    for rank in range(len(KINDS)):
        candidates = [n for n in considered if kind_rank(n) == rank]
        if not candidates:
            continue
        named = [n for n in candidates if n.rsplit("/", 1)[-1] in wanted]
        nearest = [n for n in named if n.count("/") == min(m.count("/") for m in named)]
        if len(nearest) == 1:
            graded = nearest[0]
        elif not named and len(candidates) == 1:
            graded = candidates[0]
        else:
            tied = sorted(nearest or candidates)  # shown with their folders: the submission's own
            return FileChoice(None, ("several_submissions", detail("same_standing", submitted=", ".join(
                safe_name(name) for name in tied[:5]))))
        return FileChoice(graded, None, tuple((name, _why_not(name, graded, rank)) for name in considered
                                              if name != graded))
    return FileChoice(None, ("no_submission", detail("files", files=", ".join(safe_name(n) for n in sorted(names)[:5]))
                             if names else detail("no_files")))


def _why_not(name: str, graded: str, rank: int) -> NotGradedReason:
    kind = next((index for index, suffixes in enumerate(KINDS) if name.lower().endswith(suffixes)), None)
    if kind is None:
        return "not_code"
    if kind > rank:
        return "notebook_first" if rank == 0 else "script_first"
    return "outer_folder" if name.rsplit("/", 1)[-1] == graded.rsplit("/", 1)[-1] else "assignment_name"


def pick(names: Sequence[str], wanted: Collection[str]) -> tuple[str | None, Problem | None]:
    """(the file to grade, None) or (None, problem), by file_choice's rule."""
    choice = file_choice(names, wanted)
    return choice.graded, choice.problem


def choice_text(choice: FileChoice, lab: Lab, lang: str) -> str:
    """What the student reads of the choice: the graded file; when others were submitted, each group
    of them with why it was not graded, and the rule. "" when no file was graded (the problem says why)."""
    if choice.graded is None:
        return ""
    from ..core.render.messages import Messages

    say = Messages(lang, lab)
    # Names as the student reads them: a name's bytes that are not UTF-8 through the guard.
    lines = [say("chosen", "graded", file=safe_name(choice.graded))]
    reasons: dict[NotGradedReason, list[str]] = {reason: [] for reason in get_args(NotGradedReason)}
    for name, reason in sorted(choice.not_graded):
        reasons[reason].append(safe_name(name))
    for reason, names in reasons.items():
        if not names:
            continue
        shown = ", ".join(names[:NOT_GRADED_SHOWN])
        if len(names) > NOT_GRADED_SHOWN:
            shown = say("chosen", "more", submitted=shown, count=len(names) - NOT_GRADED_SHOWN)
        lines.append(say("chosen", reason, submitted=shown))
    if choice.not_graded:
        lines.append(say("chosen", "rule", script=lab.script))
    return "\n".join(lines)


def with_file_choice(data: GradescopeResults, folder: pathlib.Path, wanted: Collection[str], lab: Lab,
                     lang: str) -> GradescopeResults:
    """results.json whose output (shown at once) opens with which file was graded and which were
    not, by the rule choose_submission applied to the same folder with the same names."""
    text = choice_text(file_choice(list_files(folder), wanted), lab, lang)
    if text:
        data["output"] = text + ("\n\n" + data["output"] if data.get("output") else "")
    return data


def read_regular(path: str | os.PathLike[str]) -> tuple[bytes | None, Problem | None]:
    """(bytes, None) of a regular file opened without following links, else (None, (code, detail))."""
    try:
        data = read_regular_file(path, follow_links=False)
    except OSError as error:  # NotARegularFile included: links, FIFOs, devices
        return None, ("unreadable", os_detail(error))
    if len(data) > MAX_BYTES:
        return None, ("too_large", detail("size_over", most=MAX_BYTES))
    return data, None


def write_json(path: pathlib.Path, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    sys.exit(main())
