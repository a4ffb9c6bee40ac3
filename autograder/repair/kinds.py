"""What each kind of edit costs (a smaller repair is preferred); the kinds are the record's
(autograder.core.repair_record)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.repair_record import EditKind

# How far an edit is from the code as written: a repair of a smaller cost is preferred; among
# equal costs, the earlier line. Idioms and operand orders are the commonest slips.
COST: dict[EditKind, int] = {
    "torch_idiom": 0, "builtin_rebound": 0, "transpose_added": 1, "transpose_removed": 1, "transpose_axes": 1, "axis": 1,
    "keepdims": 1, "reduction": 1, "operator": 1, "operand_order": 1, "arguments_swapped": 1,
    "comparison": 1, "function": 1, "grouping": 1, "order_of_operations": 1, "order": 1,
    "reshape_as_transpose": 1, "negation": 2, "constant": 2, "variable": 2, "call_removed": 2,
    "term_removed": 2, "slice_bound": 2, "statements_swapped": 2, "statement_removed": 3,
    "square_root": 1, "einsum": 1, "keyword_removed": 2, "hard_coded": 2, "index_removed": 2,
    "transpose_moved": 1, "returned_value": 3, "shadowed_name": 0,
    # `A.T @ B.T` where `B @ A` was meant: the product's own transpose.
    "product_transposed": 1,
    # A line's whole value without the one-argument call it needs (`np.tril`, `np.exp`): after
    # the one-token edits, as it repairs by coincidence more often (a tril over a causal mask
    # zeroes what the mask hid).
    "call_added": 3,
    # Names unpacked in another order (`Q, V, K = ...`) fix any pair of values made in the wrong
    # order, wherever the slip was: the call or the computation that made them comes first.
    "unpacking_order": 3,
    # A condition too many in `a & b` or `a and b` (a band where a triangle was meant).
    "condition_removed": 1,
    # What the student left out, brought in from the reference (grafts.py): tried only when no
    # single edit repairs, beside the pairs; two one-token slips (2, 3) are named before it.
    # One that keeps the student's expression whole, or all of it but one part, before one that
    # changes it as a whole.
    "graft_around": 4, "graft_part": 4, "graft": 5,
    # A graft that keeps the student's expression whole as one operand of the operation it lacks
    # (grafts._graft_kind): a graft_around told by that operation.
    "graft_subtract_from": 4, "graft_subtracted": 4, "graft_add": 4, "graft_multiply": 4, "graft_matmul": 4,
    "graft_divided_by": 4, "graft_divides": 4, "graft_call": 4,
    # A size read from another axis (`len(x)` for `x.shape[-1]`), an index on another axis (`V[k]`
    # for `V[:, k]`), a list indexed as an array, an in-place operation on the caller's array,
    # `math` on an array: each one token of the student's own line; an index one off, like a range.
    "size_of": 1, "index_axis": 1, "as_array": 1, "in_place": 1, "math_on_array": 0, "index_shifted": 2,
    # A missing `[:, None]` is more often a repair by coincidence (a broadcast that happens to fit).
    "axis_added": 2,
    # A generator where its values were meant, `return (a, b),`, sizes one by one where a shape
    # tuple was meant (or the other way round): one token each.
    "generator": 1, "trailing_comma": 1, "arguments_grouped": 1,
    # An index left out (`weights[i]` for `weights[i, j]`); a statement on the wrong side of a
    # loop's edge (like two lines swapped).
    "index_added": 2, "statement_moved": 2,
    # `zip(H)` for `zip(*H)`, a value computed and not returned, one returned too many, a method's
    # None kept, `=` for `+=`.
    "argument_unpacked": 1, "return_missing": 1, "returned_extra": 2, "assigned_none": 1, "accumulate": 2,
    # An argument too many, `==` written for `=`, `break` for `continue`, `+=` on a list, a loop's
    # names that do not match what it walks, an index too many, `(a, b)` or `a` for a range, a
    # value computed and left out of the returned tuple.
    "argument_removed": 2, "comparison_as_assignment": 1, "loop_control": 1, "list_extended": 1, "loop_unpacking": 1,
    "index_dropped": 2, "tuple_as_slice": 1, "index_as_slice": 2, "returned_missing": 1,
    # A name holding several values (indexed elsewhere: `qkv[0]`) used whole where one was meant; a
    # function passed where the value of calling it was meant; a range with its end left open (`a:`
    # for `a:a + d`); the same block read on every pass of a loop (`W[:d]` for `W[h * d:(h + 1) * d]`).
    "element_of": 2, "function_uncalled": 2, "slice_end": 2, "slice_width": 2, "slice_as_index": 2, "repeated_index": 2, "flat_index": 2, "written_into_copy": 1, "never_run": 1, "whole_number": 2, "copies_made": 2, "loop_block": 2,
    # A product or a division made on the wrong value (`V / √d_k` where the scores were to be
    # divided): two places changed, tried with the pairs; after them and the grafts, as it repairs by
    # coincidence where a value is used twice (moved onto where it is made).
    "operation_moved": 5,
    # A loop's range of another axis's length (`for j in range(n)` over `Q[:, j]`), a loop's name
    # given a new array where the walked one was to be written (`row = ...` for `row[:] = ...`),
    # the last d where the first were meant (`[-d:]` for `[:d]`), a lambda reading a loop's name late,
    # a range's end counted from the end that comes out -0, a list's pop from its other end.
    "loop_range": 1, "loop_variable_rebound": 1, "slice_from_end": 1, "late_binding": 1, "slice_end_zero": 1,
    "pop_end": 1,
    # `range(1, n)` where the sum before the loop already holds its first term
    "loop_start": 1,
    # Cells cleared by a product with a mask where choosing them was meant; a bool value the other
    # way round (a mask of the cells to hide where the visible ones are asked).
    "mask_product": 2, "negation_added": 2,
    # A dict's keys where its values were meant (`tuple(found)`, `for x in found`).
    "dict_values": 1,
    # A loop's name counting by a step used as a count (`heads[start]` for `heads[start // d]`), a
    # loop's name that is not the one its body reads, a `yield` where values were to be returned.
    "loop_stride": 2, "loop_name": 1, "yield_used": 1,
    # `print(x)` for `return x`, a call's value dropped where it was to replace its first argument,
    # a keyword whose default surprises (`indexing="ij"`).
    "printed": 1, "value_discarded": 1, "keyword_added": 1,
    # `Q, *K, V = ...`: a list of the values in the middle where one value was meant.
    "starred": 1,
    # The values of two assignments exchanged (`K = X @ W_V`, `V = X @ W_K`): like two lines in
    # another order; where the names are used in another order as well (a tuple, a call's
    # arguments), that is told, and this beside it (search.search).
    "values_swapped": 2,
    # A loop's position used where the item at it was meant (`{words[i]: j}` for `words[j]`).
    "item_of": 2,
    # Pieces added (`sum(...)`) where they were to be joined side by side; a `range` walked from the
    # end (a negative step) where it was to start at the beginning, and a sequence walked from its
    # start where it was to be read from its end; one `np.pad` pair, which pads every axis (numpy's
    # own rule, rarely right by coincidence).
    "joined": 2, "walked_backwards": 2, "walked_forwards": 2, "pad_width": 1,
    # An index 0 or 1 read on every pass of a loop where the loop's name was meant (`H[0]` for
    # `H[h]`); a counter set before a loop that nothing in it advances (`start = 0`, never
    # `start += d`); `~` on a comparison of two numbers (`~True` is -2, true); cells of one axis
    # added one by one (`e[..., 0] + e[..., 1] + e[..., 2]`), right for that one length only.
    "fixed_in_loop": 2, "never_advanced": 2, "recursion_not_advanced": 2, "bitwise_not": 1, "spelled_out": 2,
    # A graft told by what it keeps of the expression it changes as a whole: the function called,
    # with other arguments; the value a method is taken of, another method. Costs as any graft.
    "graft_arguments": 5, "graft_method": 5,
    # A graft of the student's own names, or some of them, computed from otherwise (`K.shape[1]` for
    # `np.linalg.matrix_rank(K)`). Costs as any graft.
    "graft_value": 5,
    # A loop's count used as a position where it was to be multiplied by the width of one part
    # (`M[:, h:h + d]` for `M[:, h * d:(h + 1) * d]`); a returned value that is to sum to 1 over its
    # last axis, not divided by its sums (weights masked after their softmax): dividing by the sums
    # repairs whatever normalisation went wrong before, so it comes after the single edits and any
    # pair of cost 3 (edits.normalisations), beside the grafts.
    "position_scaled": 2, "normalised": 4,
    # An einsum without `->` whose output numpy orders alphabetically, where the written order was
    # meant (`qd,kd` gives `kq`): before swapping its arguments, which repairs it by coincidence.
    "einsum_output": 0,
    # A value given by position where it was meant for the parameter of its name
    # (`partial(split_heads, n_heads)` binds the first parameter).
    "passed_by_name": 1,
    # `np.linspace(0, d, k)` where k + 1 points were meant (a fence post); a keyword numpy's
    # function does not take (`np.tri(n=n)`: its parameter is `N`).
    "count_shifted": 2, "keyword_name": 1,
    # One value put in a list where its parts were meant (`np.hstack([H])`).
    "wrapped_in_list": 1,
    # An `if` whose lines were to run whatever the condition (`if mask.dtype == bool:` where a 0/1
    # mask applies too); pieces joined side by side (`np.concatenate`) where they were to be added
    # (the heads' parts of the output); an array's dtype that cuts what is stored in it (`dtype=str`
    # holds one character, `dtype=int` drops the fraction).
    "branch_always": 2, "added_up": 2, "dtype": 2,
    # A view numpy makes read-only (`np.broadcast_to`), written into where a copy was meant.
    "read_only_view": 1,
    # An input taken in the dtype it comes in (`np.asarray(x)` of integers, of a 0/1 mask): after
    # a dtype written elsewhere, as it changes every value the function reads after it.
    "input_dtype": 3,
    # `np.triu_indices(n)` where `k=1` was meant (or `np.tril(m)` for `k=-1`): the diagonal taken in
    # or left out by the default `k=0`.
    "diagonal_offset": 2,
    # A comprehension's two `for` clauses in the order of the loops read inside out
    # (`[x for x in row for row in M]`): one token-sized slip, as two items in another order.
    "clauses_swapped": 1,
}

# Kinds tried with the pairs and the grafts, never before a single edit: an operation moved (two
# places at once, edits.moved_operations), a returned value normalised (edits.normalisations).
TWO_PLACES: frozenset[EditKind] = frozenset({"operation_moved", "normalised"})

# Among repairs of one cost on one line, which kind is told: an edit that keeps the function the
# student chose (a transpose added, an axis) before one that calls another function or changes an
# operator, which repair more by coincidence (`np.inner(Q, K)` for a missing `K.T`).
LATER: frozenset[EditKind] = frozenset({"function", "operator", "torch_idiom"})
