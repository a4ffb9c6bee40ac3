"""Filling a sheet's grade column with a run's totals, the same way for every LMS (pure data).

An LMS module reads its sheet's layout (which column, which rows are students, each one's LMS id
and maximum); this module matches those ids with the run's, scales, and says who did not match.
"""
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace

from ..core.render.text import one_line
from .graded import Graded
from ..said import Refusal, Said, said
from .sheet import Sheet, number, points_text


class UsageError(Refusal):
    """The sheet or --column does not say which column to fill; the sentence lists the choices."""


@dataclass(frozen=True)
class Seat:
    """One student's row in the sheet."""
    row: int            # index into sheet.rows
    keys: tuple[str, ...]  # the student's ids in the layout's identity columns, the LMS's own first
    name: str           # as the sheet shows it
    maximum: float | None

    @property
    def key(self) -> str:
        return self.keys[0]


@dataclass
class Layout:
    column: int                 # index of the grade column
    title: str                  # its header, as shown to the TA
    seats: list[Seat]
    identities: tuple[str, ...] = ("ID",)  # headers of the columns in Seat.keys
    comment: int | None = None  # Moodle's feedback comments column
    decimals_fixed: bool = False  # "7.50" rather than "7.5" (Moodle writes its own grades so)
    decimal: str = "."  # the sheet's decimal mark ("," where Moodle writes "100,00")
    percent: bool = False  # the column takes a percentage of its points ("75%": Blackboard's Percentage display)


@dataclass
class Filled:
    """What filling did: the rows written, and the students on one side only."""
    title: str
    matched_by: str = ""
    written: list[tuple[Seat, Graded, str]] = field(default_factory=list)  # (seat, graded, grade text)
    # (seat, old text, new text): a grade was there
    replaced: list[tuple[Seat, str, str]] = field(default_factory=list)
    no_submission: list[Seat] = field(default_factory=list)  # seats nobody graded
    not_in_sheet: list[Graded] = field(default_factory=list)  # graded students with no seat
    no_maximum: list[Seat] = field(default_factory=list)  # seats whose maximum is missing or not a number
    # (seat, graded): a grade that must not be written
    withheld: list[tuple[Seat, Graded]] = field(default_factory=list)


# The text of a student's feedback comment: (student, grade as written, seat) -> text.
CommentFor = Callable[[Graded, str, Seat], str]


def fill(sheet: Sheet, layout: Layout, run: Mapping[str, Graded], comment_for: CommentFor | None = None) -> Filled:
    """Write the run's totals (scaled to each seat's maximum) into the layout's column of `sheet`.

    Ids are matched in one identity column: the LMS's own id, unless another (a student number,
    a login) matches more of the run's ids. Exactly, else ignoring case when that names one
    student only. Seats without a submission keep what they hold.
    """
    which = identity_column(layout, run)
    filled = Filled(layout.title, matched_by=layout.identities[which])
    seats = [replace(seat, keys=(seat.keys[which],)) for seat in layout.seats]
    seats = [seat for seat in seats if seat.key]
    by_fold: dict[str, list[Graded]] = {}
    student: Graded | None
    for student in run.values():
        by_fold.setdefault(student.id.casefold(), []).append(student)
    matched: set[str] = set()
    for seat in seats:
        student = run.get(seat.key)
        if student is None:
            same = by_fold.get(seat.key.casefold(), [])
            student = same[0] if len(same) == 1 and same[0].id not in matched else None
        if student is None:
            filled.no_submission.append(seat)
            continue
        matched.add(student.id)
        if student.withheld is not None:
            filled.withheld.append((seat, student))  # its cell keeps what it holds
            continue
        if seat.maximum is None or seat.maximum <= 0:
            filled.no_maximum.append(seat)
            continue
        grade = student.total / student.max_total * (100.0 if layout.percent else seat.maximum)
        text = points_text(grade, decimal=layout.decimal, fixed=layout.decimals_fixed) + ("%" if layout.percent else "")
        old = sheet.rows[seat.row][layout.column]
        if old.strip() and number(old.removesuffix("%"), layout.decimal) != number(text.removesuffix("%"), layout.decimal):
            filled.replaced.append((seat, old, text))
        sheet.rows[seat.row][layout.column] = text
        if layout.comment is not None and comment_for is not None:
            sheet.rows[seat.row][layout.comment] = comment_for(student, text, seat)
        filled.written.append((seat, student, text))
    filled.not_in_sheet = sorted((s for s in run.values() if s.id not in matched), key=lambda s: s.id)
    return filled


def identity_column(layout: Layout, run: Mapping[str, Graded]) -> int:
    """Index of the identity column that names the most of the run's students (the first on a tie)."""
    folded = {student.casefold() for student in run}
    counts = [sum(1 for seat in layout.seats if seat.keys[i] and seat.keys[i].casefold() in folded)
              for i in range(len(layout.identities))]
    return counts.index(max(counts)) if counts else 0


def choose(columns: Mapping[str, Collection[str]], wanted: str | None, what: Said) -> str:
    """The one column of `columns` ({header: aliases}) that `wanted` names, or the only one when
    `wanted` is None; otherwise a UsageError listing the choices. `what`: the kind of column, said."""
    if not columns:
        raise UsageError(said("column_none", what=what))
    choices = listed(columns)
    if wanted is None:
        if len(columns) == 1:
            return next(iter(columns))
        raise UsageError(said("column_several", count=len(columns), what=what, choices=choices))
    found = [header for header, aliases in columns.items() if wanted == header or wanted in aliases]
    if len(found) == 1:
        return found[0]
    if found:
        raise UsageError(said("column_ambiguous", wanted=wanted, count=len(found), what=what, choices=listed(found)))
    raise UsageError(said("column_unknown", wanted=wanted, what=what, choices=choices))


def listed(headers: Collection[str]) -> str:
    """Column headers one per line, indented, each on its own line whatever it holds."""
    return "\n".join(f"  {one_line(header)}" for header in headers)
