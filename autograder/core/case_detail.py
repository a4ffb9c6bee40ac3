"""What a failed test carries for its message (`CaseResult.detail`), as typed, frozen records.

The judge makes them (autograder.core.compare for a returned value, autograder.core.judge for an error, a
refused stand-in or a changed input); the renderer (render.step, pictures) words and draws them;
grading.hidden.hidden_facts_only reduces a hidden test's to `HiddenRaised` or nothing; batch.saved keeps
them. Each record's `as_data` is the mapping saved results keep (format 1: the keys, their order
and their types the judge wrote before the records were typed), `case_detail_from_data` reads it
back and refuses any key, type or shape it does not know (ValueError).

Which record a failure carries:
- `WrongType`: the value is not of the output's kind (an array, a mapping), or nothing was returned;
- `WrongCount`: a step of several outputs did not return one value per output;
- `WrongShape`: an array of another shape;
- `WrongValues`: an array of the right shape and other values; `MappingValues`: a mapping's;
- `Raised`: the call raised (and what a refused stand-in request was); `HiddenRaised` is what a
  hidden test keeps of it;
- `MutatedInput`: the value was right, and the call changed an argument it was given.
A test that passed, timed out, crashed, was not run or met a stub carries None.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

if TYPE_CHECKING:
    from collections.abc import Callable

Word = TypeVar("Word", bound=str)

# What a value came in (compare.container_name); the explainer names all but "other" (explain.records).
Container = Literal["dict", "list", "tuple", "ndarray", "Series", "DataFrame", "float", "int", "str", "None", "other"]
CONTAINERS: tuple[Container, ...] = get_args(Container)
# Why the grader refused a stand-in request (child.protocol.REFUSALS).
RefusalReason = Literal["arguments", "not_stood_in", "too_many"]
REFUSAL_REASONS: tuple[RefusalReason, ...] = get_args(RefusalReason)
# How a table's columns are named (declaration.Output.columns).
Columns = Literal["features", "words"]
COLUMNS: tuple[Columns, ...] = get_args(Columns)

# One frame of the student's own code an error passed through: (file, line, function, source line).
Frame = tuple[str, int | None, str, str]
# A table as a failure keeps it for the heat-maps: rows of numbers ("nan", "inf", "-inf" as text),
# one level deeper for a stack of tables.
TableRows = tuple[tuple[float | str, ...], ...]
Table = TableRows | tuple[TableRows, ...]


class UnknownShape(ValueError):
    """Data of a shape no record writes (a results file of another version, or damaged)."""


# Reading -------------------------------------------------------------------------------------------

def _mapping(data: object, required: frozenset[str], optional: frozenset[str] = frozenset()) -> dict[str, Any]:
    """`data` as a dict holding every key of `required` and no key outside `required | optional`."""
    if type(data) is not dict or not required <= set(data) <= required | optional:
        raise UnknownShape(f"keys {sorted(map(str, data)) if isinstance(data, dict) else type(data).__name__}")
    return data


def _text(data: object) -> str:
    if type(data) is not str:
        raise UnknownShape(f"{type(data).__name__}, not text")
    return data


def _int(data: object) -> int:
    if type(data) is not int:
        raise UnknownShape(f"{type(data).__name__}, not an int")
    return data


def _float(data: object) -> float:
    if type(data) is not float:
        raise UnknownShape(f"{type(data).__name__}, not a float")
    return data


def _float_or_truth(data: object) -> float | bool:
    return data if type(data) is bool else _float(data)


def _bool(data: object) -> bool:
    if type(data) is not bool:
        raise UnknownShape(f"{type(data).__name__}, not a bool")
    return data


def _optional_text(data: object) -> str | None:
    return None if data is None else _text(data)


def _list(data: object) -> list[Any]:
    if type(data) is not list:
        raise UnknownShape(f"{type(data).__name__}, not a list")
    return data


def _texts(data: object) -> tuple[str, ...]:
    return tuple(_text(item) for item in _list(data))


def _ints(data: object) -> tuple[int, ...]:
    return tuple(_int(item) for item in _list(data))


def _shape(data: object) -> tuple[int, ...]:
    """A shape as the judge wrote it: a tuple of ints (numpy's `.shape`)."""
    if type(data) is not tuple:
        raise UnknownShape(f"{type(data).__name__}, not a shape")
    return tuple(_int(size) for size in data)


def _one_of(data: object, choices: tuple[Word, ...], what: str) -> Word:
    """`data` as the one of `choices` (a closed set's words) it is; UnknownShape for any other."""
    for choice in choices:
        if type(data) is str and data == choice:
            return choice
    raise UnknownShape(f"{data!r} is no {what}")


# The parts -----------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Cell:
    """A cell named by its words (compare._cell): its row's word (None for a value of one axis),
    its column (a word where columns are words, else its position), the index; in a stack of
    tables, the indexes of the table first (`blocks`, () for a single table)."""

    row: str | None
    column: str | int | None
    column_is_word: bool
    index: tuple[int, ...]
    blocks: tuple[int, ...] = ()

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {"row": self.row, "column": self.column, "column_is_word": self.column_is_word,
                                   "index": list(self.index)}
        if self.blocks:
            data["blocks"] = list(self.blocks)
        return data

    @classmethod
    def from_data(cls, data: object) -> Cell:
        found = _mapping(data, frozenset({"row", "column", "column_is_word", "index"}), frozenset({"blocks"}))
        column = found["column"]
        if not (column is None or type(column) in (str, int)):
            raise UnknownShape("a cell's column")
        blocks = _ints(found["blocks"]) if "blocks" in found else ()
        if "blocks" in found and not blocks:
            raise UnknownShape("a cell's empty blocks")
        return cls(row=_optional_text(found["row"]), column=column, column_is_word=_bool(found["column_is_word"]),
                   index=_ints(found["index"]), blocks=blocks)


@dataclass(frozen=True, kw_only=True)
class NotFinite:
    """How many cells are NaN or infinite where finite values were expected, and the first of them."""

    count: int
    where: Cell

    def as_data(self) -> dict[str, object]:
        return {"count": self.count, "where": self.where.as_data()}

    @classmethod
    def from_data(cls, data: object) -> NotFinite:
        found = _mapping(data, frozenset({"count", "where"}))
        return cls(count=_int(found["count"]), where=Cell.from_data(found["where"]))


@dataclass(frozen=True, kw_only=True)
class Worst:
    """The cell that differs most (of those whose difference is a number): the student's value
    there, the expected one and their difference. A value of a True/False array is a bool."""

    cell: Cell
    got: float | bool
    expected: float | bool
    difference: float


@dataclass(frozen=True, kw_only=True)
class Tables:
    """A public test's whole tables, small enough to draw (compare.check_array): the student's,
    the expected ones, the words naming rows (and columns, when `columns` is "words"), and
    whether each row should sum to one."""

    got: Table
    expected: Table
    words: tuple[str, ...]
    columns: Columns
    rows_sum_to_one: bool

    def as_data(self) -> dict[str, object]:
        return {"got": _lists(self.got), "expected": _lists(self.expected), "words": list(self.words),
                "columns": self.columns, "rows_sum_to_one": self.rows_sum_to_one}

    @classmethod
    def from_data(cls, data: object) -> Tables:
        found = _mapping(data, frozenset({"got", "expected", "words", "columns", "rows_sum_to_one"}))
        return cls(got=_table(found["got"]), expected=_table(found["expected"]), words=_texts(found["words"]),
                   columns=_one_of(found["columns"], COLUMNS, "way of naming columns"),
                   rows_sum_to_one=_bool(found["rows_sum_to_one"]))


def _lists(table: object) -> object:
    """Nested tuples as the nested lists the format keeps."""
    return [_lists(item) for item in table] if isinstance(table, tuple) else table


def _table(data: object) -> Table:
    """A table of two or three axes, as Tables.as_data writes it."""
    rows = _list(data)
    if rows and all(type(row) is list and row and all(type(inner) is list for inner in row) for row in rows):
        return tuple(_table_rows(table) for table in rows)
    return _table_rows(rows)


def _table_rows(data: object) -> TableRows:
    return tuple(tuple(_table_value(value) for value in _list(row)) for row in _list(data))


def _table_value(data: object) -> float | str:
    if type(data) is float or (type(data) is str and data in ("nan", "inf", "-inf")):
        return data
    raise UnknownShape(f"{data!r} in a table")


@dataclass(frozen=True, kw_only=True)
class RaisedError:
    """What a call raised, as the sandbox passes it on (child.protocol.plain_error, the kit's
    describe_exception): its type's name, its message and the student's own frames."""

    type: str
    message: str
    frames: tuple[Frame, ...] = ()

    def as_data(self) -> dict[str, object]:
        return {"type": self.type, "message": self.message, "frames": [list(frame) for frame in self.frames]}

    @classmethod
    def from_data(cls, data: object) -> RaisedError:
        found = _mapping(data, frozenset({"type", "message", "frames"}))
        return cls(type=_text(found["type"]), message=_text(found["message"]),
                   frames=tuple(_frame(frame) for frame in _list(found["frames"])))

    @classmethod
    def of_call(cls, error: object) -> RaisedError:
        """An outcome's error (the judge's input): the shape `from_data` reads; of anything else,
        what can be read (a type's name "Exception", no message, the well-formed frames)."""
        try:
            return cls.from_data(error)
        except UnknownShape:
            pass
        found = error if isinstance(error, dict) else {}
        listed = found.get("frames")
        frames: list[Frame] = []
        for frame in listed if isinstance(listed, list) else []:
            try:
                frames.append(_frame(frame))
            except UnknownShape:
                continue
        kind, message = found.get("type"), found.get("message")
        return cls(type=kind if isinstance(kind, str) else "Exception",
                   message=message if isinstance(message, str) else "", frames=tuple(frames))


def _frame(data: object) -> Frame:
    items = _list(data)
    if len(items) != 4 or not (items[1] is None or type(items[1]) is int):
        raise UnknownShape("a frame")
    return _text(items[0]), items[1], _text(items[2]), _text(items[3])


@dataclass(frozen=True, kw_only=True)
class Refusal:
    """A stand-in request the grader refused during the call (its own record, sandbox.driver):
    the helper asked for ("" where a hidden test may not name it) and why."""

    helper: str
    reason: RefusalReason

    def as_data(self) -> dict[str, object]:
        return {"helper": self.helper, "reason": self.reason}

    @classmethod
    def from_data(cls, data: object) -> Refusal:
        found = _mapping(data, frozenset({"helper", "reason"}))
        return cls(helper=_text(found["helper"]), reason=_one_of(found["reason"], REFUSAL_REASONS, "refusal reason"))


# The records ---------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class WrongType:
    """The value is not of the output's kind: its type's name (compare.describe_type), whether the
    call returned nothing (True), something (False), or, where an array's check says nothing of it
    (it says only True), None; the output's name; the argument the call changed, if one."""

    got: str
    no_return: bool | None
    output: str
    changed_input: str | None = None

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {"got": self.got}
        if self.no_return is not None:
            data["no_return"] = self.no_return
        data["output"] = self.output
        return _with_changed_input(data, self.changed_input)

    @classmethod
    def from_data(cls, data: object) -> WrongType:
        found = _mapping(data, frozenset({"got", "output"}), frozenset({"no_return", "changed_input"}))
        return cls(got=_text(found["got"]), no_return=_bool(found["no_return"]) if "no_return" in found else None,
                   output=_text(found["output"]), changed_input=_changed_input(found))


@dataclass(frozen=True, kw_only=True)
class WrongCount:
    """A step of several outputs given not one value per output: what it returned (its type's
    name), how many outputs, their names; the argument the call changed, if one."""

    got: str
    expected_count: int
    names: tuple[str, ...]
    changed_input: str | None = None

    def as_data(self) -> dict[str, object]:
        return _with_changed_input({"got": self.got, "expected_count": self.expected_count,
                                    "names": list(self.names)}, self.changed_input)

    @classmethod
    def from_data(cls, data: object) -> WrongCount:
        found = _mapping(data, frozenset({"got", "expected_count", "names"}), frozenset({"changed_input"}))
        return cls(got=_text(found["got"]), expected_count=_int(found["expected_count"]),
                   names=_texts(found["names"]), changed_input=_changed_input(found))


@dataclass(frozen=True, kw_only=True)
class WrongShape:
    """An array of another shape: the tolerances, both shapes, both values cut short
    (compare.preview), the whole tables of a small public test, the output's name, the argument
    the call changed, if one."""

    rtol: float
    atol: float
    got_shape: tuple[int, ...]
    expected_shape: tuple[int, ...]
    got_preview: str
    expected_preview: str
    tables: Tables | None = None
    output: str
    changed_input: str | None = None

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {"rtol": self.rtol, "atol": self.atol, "got_shape": self.got_shape,
                                   "expected_shape": self.expected_shape, "got_preview": self.got_preview,
                                   "expected_preview": self.expected_preview}
        if self.tables is not None:
            data["values"] = self.tables.as_data()
        data["output"] = self.output
        return _with_changed_input(data, self.changed_input)

    @classmethod
    def from_data(cls, data: object) -> WrongShape:
        found = _mapping(data, frozenset({"rtol", "atol", "got_shape", "expected_shape", "got_preview",
                                          "expected_preview", "output"}), frozenset({"values", "changed_input"}))
        return cls(rtol=_float(found["rtol"]), atol=_float(found["atol"]), got_shape=_shape(found["got_shape"]),
                   expected_shape=_shape(found["expected_shape"]), got_preview=_text(found["got_preview"]),
                   expected_preview=_text(found["expected_preview"]),
                   tables=Tables.from_data(found["values"]) if "values" in found else None,
                   output=_text(found["output"]), changed_input=_changed_input(found))


WORST_KEYS = frozenset({"cell", "got_value", "expected_value", "max_abs"})


@dataclass(frozen=True, kw_only=True)
class WrongValues:
    """An array of the right shape and other values, in assert_allclose's order: the tolerances,
    the shape, how many cells are wrong of how many, both values cut short, the cells that are not
    finite, the worst cell, the rows' sums (an output whose rows sum to one), the container it came
    in, the whole tables of a small public test, the output's name, the argument the call changed."""

    rtol: float
    atol: float
    shape: tuple[int, ...]
    mismatched: int
    total: int
    got_preview: str
    expected_preview: str
    not_finite: NotFinite | None = None
    worst: Worst | None = None
    row_sums: str | None = None
    container: Container
    tables: Tables | None = None
    output: str
    changed_input: str | None = None

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {"rtol": self.rtol, "atol": self.atol, "shape": self.shape,
                                   "mismatched": self.mismatched, "total": self.total,
                                   "got_preview": self.got_preview, "expected_preview": self.expected_preview}
        if self.not_finite is not None:
            data["not_finite"] = self.not_finite.as_data()
        if self.worst is not None:
            data.update(cell=self.worst.cell.as_data(), got_value=self.worst.got,
                        expected_value=self.worst.expected, max_abs=self.worst.difference)
        if self.row_sums is not None:
            data["row_sums"] = self.row_sums
        data["container"] = self.container
        if self.tables is not None:
            data["values"] = self.tables.as_data()
        data["output"] = self.output
        return _with_changed_input(data, self.changed_input)

    @classmethod
    def from_data(cls, data: object) -> WrongValues:
        found = _mapping(data, frozenset({"rtol", "atol", "shape", "mismatched", "total", "got_preview",
                                          "expected_preview", "container", "output"}),
                         frozenset({"not_finite", "row_sums", "values", "changed_input"}) | WORST_KEYS)
        worst = None
        if WORST_KEYS & set(found):
            if not WORST_KEYS <= set(found):
                raise UnknownShape("a worst cell without all its facts")
            worst = Worst(cell=Cell.from_data(found["cell"]), got=_float_or_truth(found["got_value"]),
                          expected=_float_or_truth(found["expected_value"]), difference=_float(found["max_abs"]))
        return cls(rtol=_float(found["rtol"]), atol=_float(found["atol"]), shape=_shape(found["shape"]),
                   mismatched=_int(found["mismatched"]), total=_int(found["total"]),
                   got_preview=_text(found["got_preview"]), expected_preview=_text(found["expected_preview"]),
                   not_finite=NotFinite.from_data(found["not_finite"]) if "not_finite" in found else None,
                   worst=worst, row_sums=_text(found["row_sums"]) if "row_sums" in found else None,
                   container=_one_of(found["container"], CONTAINERS, "container"),
                   tables=Tables.from_data(found["values"]) if "values" in found else None,
                   output=_text(found["output"]), changed_input=_changed_input(found))


@dataclass(frozen=True, kw_only=True)
class MappingValues:
    """A mapping with other items (compare.check_mapping): how many expected keys hold another
    value, of how many; the first of them as (key, its value, the expected value) in short reprs,
    and whether its key is missing; up to five keys not expected; both mappings cut short; the
    output's name; whether its words equal the expected ones once put in the same Unicode form
    (NFC: they print alike); the argument the call changed, if one."""

    mismatched: int
    total: int
    first: tuple[str, str, str] | None
    first_missing: bool
    extra_keys: tuple[str, ...]
    got_preview: str
    expected_preview: str
    output: str
    other_form: bool = False
    changed_input: str | None = None

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {
            "mismatched": self.mismatched, "total": self.total,
            "first": None if self.first is None else list(self.first), "first_missing": self.first_missing,
            "extra_keys": list(self.extra_keys), "got_preview": self.got_preview,
            "expected_preview": self.expected_preview, "output": self.output}
        if self.other_form:
            data["other_form"] = True
        return _with_changed_input(data, self.changed_input)

    @classmethod
    def from_data(cls, data: object) -> MappingValues:
        found = _mapping(data, frozenset({"mismatched", "total", "first", "first_missing", "extra_keys",
                                          "got_preview", "expected_preview", "output"}),
                         frozenset({"changed_input", "other_form"}))
        if "other_form" in found and found["other_form"] is not True:
            raise UnknownShape("other_form written other than true")
        first = None if found["first"] is None else _texts(found["first"])
        if first is not None and len(first) != 3:
            raise UnknownShape("a first difference of other than three parts")
        return cls(mismatched=_int(found["mismatched"]), total=_int(found["total"]),
                   first=None if first is None else (first[0], first[1], first[2]),
                   first_missing=_bool(found["first_missing"]), extra_keys=_texts(found["extra_keys"]),
                   got_preview=_text(found["got_preview"]), expected_preview=_text(found["expected_preview"]),
                   output=_text(found["output"]), other_form="other_form" in found,
                   changed_input=_changed_input(found))


@dataclass(frozen=True, kw_only=True)
class Raised:
    """The call raised: the error, and the stand-in request the grader refused when that is why."""

    error: RaisedError
    refused: Refusal | None = None

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {"error": self.error.as_data()}
        if self.refused is not None:
            data["refused"] = self.refused.as_data()
        return data

    @classmethod
    def from_data(cls, data: object) -> Raised:
        found = _mapping(data, frozenset({"error"}), frozenset({"refused"}))
        return cls(error=RaisedError.from_data(found["error"]),
                   refused=Refusal.from_data(found["refused"]) if "refused" in found else None)


@dataclass(frozen=True, kw_only=True)
class HiddenRaised(Raised):
    """What a hidden test keeps of `Raised` (grading.hidden.hidden_facts_only): an error type the grader
    can name, never a message or a place; of a refusal, its reason and a helper of the lab's only.
    Saved with the refusal first, as the reduction always wrote it."""

    def __post_init__(self) -> None:
        if self.error.message or self.error.frames:
            raise ValueError("a hidden test keeps no error message and no frames")

    def as_data(self) -> dict[str, object]:
        data: dict[str, object] = {"refused": self.refused.as_data()} if self.refused is not None else {}
        data["error"] = self.error.as_data()
        return data

    @classmethod
    def from_data(cls, data: object) -> HiddenRaised:
        read = Raised.from_data(data)
        if read.error.message or read.error.frames:
            raise UnknownShape("a hidden test's error with a message or frames")
        return cls(error=read.error, refused=read.refused)


@dataclass(frozen=True, kw_only=True)
class MutatedInput:
    """The value was right, and the call changed an argument it was given: which, and whether
    only its shape changed (its numbers kept in their order)."""

    argument: str
    reshaped: bool = False

    def as_data(self) -> dict[str, object]:
        return {"argument": self.argument, **({"reshaped": True} if self.reshaped else {})}

    @classmethod
    def from_data(cls, data: object) -> MutatedInput:
        found = _mapping(data, frozenset({"argument"}), frozenset({"reshaped"}))
        if "reshaped" in found and found["reshaped"] is not True:
            raise UnknownShape("reshaped is written only when true")
        return cls(argument=_text(found["argument"]), reshaped="reshaped" in found)


def _with_changed_input(data: dict[str, object], changed_input: str | None) -> dict[str, object]:
    if changed_input is not None:
        data["changed_input"] = changed_input
    return data


def _changed_input(found: dict[str, Any]) -> str | None:
    return _text(found["changed_input"]) if "changed_input" in found else None


# A returned value that is wrong, and how.
WrongValue = WrongType | WrongCount | WrongShape | WrongValues | MappingValues
CaseDetail = WrongValue | Raised | MutatedInput


def detail_data(detail: CaseDetail | None) -> dict[str, object]:
    """The mapping saved results keep for a test's detail ({} for none)."""
    return {} if detail is None else detail.as_data()


def case_detail_from_data(data: object, *, hidden: bool) -> CaseDetail | None:
    """`detail_data`'s mapping back; a hidden test's error is read as `HiddenRaised`. ValueError
    for a key, a type or a shape no record writes."""
    if type(data) is not dict:
        raise UnknownShape("a test's detail")
    if not data:
        return None
    reader: Callable[[object], CaseDetail]
    if "error" in data:
        reader = HiddenRaised.from_data if hidden else Raised.from_data
    elif "argument" in data:
        reader = MutatedInput.from_data
    elif "expected_count" in data:
        reader = WrongCount.from_data
    elif "got" in data:
        reader = WrongType.from_data
    elif "first" in data:
        reader = MappingValues.from_data
    elif "got_shape" in data:
        reader = WrongShape.from_data
    else:
        reader = WrongValues.from_data
    return reader(data)
