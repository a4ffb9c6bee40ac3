"""`autograder build --lab NAME --out DIR`: DIR/student/ (what students get) and DIR/autograder/ (the LMS zip).

The student half holds the lab's notebook, its .py twin, Otter test files with public checks only
and the `lab_check` package: the engine's `autograder.kit` subpackage shipped whole with
every engine module it imports (judge, renderer, catalogs), and the lab's public cases as data;
never a reference, a hidden case or the grading engine. The zip installs this package from a wheel
with pip (setup.sh) and grades with `python3 -I -m autograder.otter.gradescope` (run_autograder);
`otter run -a ZIP` grades through plugin.EngineGrading. Before the build succeeds, the zip is
installed into a fresh Python environment and must give the filled-in notebook full marks and the
untouched stubs zero there, as on the LMS (see emulation.py).
"""
from __future__ import annotations

import os
import pathlib
from typing import TYPE_CHECKING, TypedDict

from ..core.lab import Lab
from ..said import Said, said
from .autograder_zip import write_autograder_zip, zip_name
from .classroom import write_classroom_template
from .out_folder import _built_files, _fresh, _write_stamp, claim_out_folder
from .refusals import BuildError, BuildRefused
from .results import VISIBILITIES
from .self_check import check_zip
from .student_half import write_student_half
from ..options import BuildOptions, BuildResult

if TYPE_CHECKING:  # imported where used (check_zip)
    from .emulation import GradingImage

ROOT = pathlib.Path(__file__).resolve().parents[2]


class BuildReport(TypedDict):
    """What `build` wrote: the two halves, the classroom template, the zip, the self-check's lines."""

    student: pathlib.Path
    classroom: pathlib.Path
    zip: pathlib.Path
    checks: list[Said]


def run_build(options: BuildOptions) -> BuildResult:
    """commands.build: a BuildRefused (exit 2) when the lab cannot be chosen, a BuildError (exit 1)
    when the build is refused or its zip does not grade as it must."""
    from ..registry import LabNotFound, choose, lab_names
    from ..core.render.messages import Messages

    names = lab_names()
    if options.lab is None and len(names) > 1:  # a build is of one lab, and nothing but --lab says which
        raise BuildRefused(said("several_labs", "build", labs=", ".join(names), first=names[0], out=options.out))
    try:
        lab = choose(options.lab)
    except LabNotFound as error:
        raise BuildRefused(*error.sentences) from None
    out = pathlib.Path(options.out)
    report = build(out, lab, step_seconds=options.timeout, lang=options.lang, memory_mb=options.memory_mb,
                   visibility=options.visibility, extra_requirements=_read_optional(options.requirements),
                   setup_script=_read_optional(options.setup_script), self_check=options.self_check)
    say = Messages(options.lang)
    checks = tuple(line.text(say) for line in report["checks"])
    lines = [said("summary_student", "build", path=str(out / "student")),
             said("summary_classroom", "build", path=str(out / "classroom")),
             said("summary_zip", "build", path=str(report["zip"]))]
    summary = "\n".join([line.text(say) for line in lines]
                        + [said("summary_check", "build", line=check).text(say) for check in checks])
    return BuildResult(status=0, student=str(report["student"]), classroom=str(report["classroom"]),
                       zip=str(report["zip"]), checks=checks, summary=summary)


def _read_optional(path: str | None) -> str:
    if not path:
        return ""
    try:
        return pathlib.Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BuildError(said("cannot_read", "build", path=path, problem=str(error))) from None


def build(out: str | os.PathLike[str], lab: Lab, step_seconds: float = 10.0, lang: str = "ko", self_check: bool = True,
          memory_mb: int = 1024, visibility: str = "after_published", extra_requirements: str = "",
          setup_script: str = "", image: "GradingImage | None" = None) -> BuildReport:
    """Write both halves of `lab` under `out`; raise BuildError when the zip does not grade as it must.

    `image`: an emulation.GradingImage to self-check in (a fresh venv is made when None; a given
    one keeps its venv, and the zip's setup.sh installs this build's wheel into it).
    """
    out = pathlib.Path(out)
    if step_seconds <= 0 or memory_mb < 256:
        raise BuildError(said("options", "build"))
    if visibility not in VISIBILITIES:
        raise BuildError(said("visibility", "build", visibilities=", ".join(VISIBILITIES)))
    for name in (lab.notebook, lab.script):
        if not lab.assignment_file(name).is_file():
            raise BuildError(said("missing_file", "build", name=name, package=lab.assignment_package))
    claim_out_folder(out, lab)
    student = _fresh(out / "student")
    write_student_half(student, lab, lang)
    classroom = write_classroom_template(_fresh(out / "classroom"), student, lab)
    settings = {"lab": lab.name, "lang": lang, "step_seconds": step_seconds, "memory_mb": memory_mb,
                "visibility": visibility}
    zip_path = write_autograder_zip(_fresh(out / "autograder"), ROOT, student / "tests", settings,
                                    extra_requirements, setup_script, zip_name(lab))
    _write_stamp(out, lab, _built_files(out))
    checks = check_zip(zip_path, lab, image) if self_check else []
    return {"student": student, "classroom": classroom, "zip": zip_path, "checks": checks}
