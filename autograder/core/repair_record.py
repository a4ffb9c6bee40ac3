"""What a repair of a student's function is, as the verdict keeps it and the feedback tells it:
the kinds of edit, and the record of the edits found (the search itself is autograder.repair)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

EditKind = Literal[
    "operand_order", "operator", "term_removed", "grouping", "order_of_operations",
    "transpose_added", "transpose_removed", "transpose_axes", "axis", "keepdims", "reduction", "function",
    "arguments_swapped", "call_removed", "constant", "comparison", "negation", "variable",
    "builtin_rebound", "order", "slice_bound", "statement_removed", "statements_swapped",
    "torch_idiom", "reshape_as_transpose", "square_root", "einsum", "keyword_removed", "hard_coded", "index_removed", "transpose_moved", "returned_value", "shadowed_name",
    "unpacking_order", "condition_removed", "product_transposed", "call_added", "graft", "graft_around", "graft_part",
    "graft_subtract_from", "graft_subtracted", "graft_add", "graft_multiply", "graft_matmul", "graft_divided_by",
    "graft_divides", "graft_call", "size_of", "index_shifted", "index_axis", "as_array", "axis_added", "in_place",
    "math_on_array", "generator", "trailing_comma", "arguments_grouped", "index_added", "statement_moved",
    "argument_unpacked", "return_missing", "returned_extra", "assigned_none", "accumulate",
    "argument_removed", "comparison_as_assignment", "loop_control", "list_extended", "loop_unpacking", "index_dropped",
    "tuple_as_slice", "index_as_slice", "returned_missing", "element_of", "function_uncalled", "slice_end",
    "loop_block", "operation_moved", "loop_range", "loop_variable_rebound", "slice_from_end", "slice_end_zero",
    "mask_product", "negation_added", "pop_end", "loop_start", "late_binding",
    "dict_values", "loop_stride", "loop_name", "yield_used", "printed", "value_discarded", "keyword_added",
    "starred", "values_swapped", "item_of", "joined", "walked_backwards", "walked_forwards", "pad_width", "fixed_in_loop", "never_advanced", "recursion_not_advanced",
    "bitwise_not", "spelled_out", "graft_arguments", "graft_method", "graft_value", "position_scaled", "normalised", "einsum_output", "passed_by_name",
    "first_wrong_value", "wrong_return", "count_shifted", "keyword_name", "wrapped_in_list",
    "branch_always", "added_up", "dtype", "read_only_view", "input_dtype", "diagonal_offset", "clauses_swapped",
    "slice_width", "slice_as_index", "repeated_index", "flat_index", "written_into_copy", "never_run", "whole_number", "copies_made",
]
EDIT_KINDS: tuple[EditKind, ...] = EditKind.__args__  # type: ignore[attr-defined]

# Around the place an edit of one name or number changes, in the whole line the repair shows.
MARK_OPEN, MARK_CLOSE = "«", "»"

# The edits that bring in an expression of the reference's (grafts.py), every kind named graft...:
# what they put in is shown only when the lab chooses to show the fix (Repair.as_told).
GRAFTS: frozenset[EditKind] = frozenset(kind for kind in EDIT_KINDS if kind.startswith("graft"))

# Where the student's values part from the reference's (repair.values): a place, told with no edit
# (a part of one of these kinds changes nothing; its `after` is empty).
LOCATED: frozenset[EditKind] = frozenset({"first_wrong_value", "wrong_return"})


@dataclass(frozen=True, kw_only=True)
class RepairPart:
    """One edit of a repair: its kind, the line it changes, the code there as written and as edited."""

    kind: EditKind
    line: int
    before: str
    after: str


@dataclass(frozen=True, kw_only=True)
class Repair:
    """The repair found: where (the cell or file the student reads) and its one or two edits."""

    filename: str
    parts: tuple[RepairPart, ...]
    also: tuple[RepairPart, ...] = ()  # another repair as small, on other lines (told as "or")

    def as_told(self, shows: str) -> Repair:
        """The repair as a lab that shows `shows` ("where", "kind" or "fix") may keep it: the
        reference's expression a graft brings in only with the fix (every face saves what it tells)."""
        if shows == "fix":
            return self

        def hidden(parts: tuple[RepairPart, ...]) -> tuple[RepairPart, ...]:
            return tuple(replace(p, after="") if p.kind in GRAFTS else p for p in parts)
        return replace(self, parts=hidden(self.parts), also=hidden(self.also))

    def as_data(self) -> dict[str, object]:
        """As the saved results keep it (batch.saved)."""
        def plain(parts: tuple[RepairPart, ...]) -> list[dict[str, object]]:
            return [{"kind": p.kind, "line": p.line, "before": p.before, "after": p.after} for p in parts]
        return {"filename": self.filename, "parts": plain(self.parts), **({"also": plain(self.also)} if self.also else {})}

    @classmethod
    def from_data(cls, data: object) -> Repair:
        """`as_data`'s mapping back; ValueError for anything else (a kind, a line or a text it does not know)."""
        def parts(items: object) -> tuple[RepairPart, ...]:
            if not isinstance(items, list):
                raise ValueError("repair parts")
            made = []
            for item in items:
                if not isinstance(item, dict) or item.get("kind") not in EDIT_KINDS or \
                        type(item.get("line")) is not int or not all(isinstance(item.get(k), str) for k in ("before", "after")):
                    raise ValueError("a repair part")
                made.append(RepairPart(kind=item["kind"], line=item["line"], before=item["before"], after=item["after"]))
            return tuple(made)
        if not isinstance(data, dict) or not isinstance(data.get("filename"), str) or set(data) - {"filename", "parts", "also"}:
            raise ValueError("a repair")
        return cls(filename=data["filename"], parts=parts(data.get("parts")), also=parts(data.get("also", [])))
