"""Relations between a student's wrong values and the reference's own computation of a case.

Pure data in, data out; no lab's names. A lab's reference trace holds every quantity a student
could have returned by mistake, so of a wrong output `got` on a case we ask: is it another quantity
of the trace or an input (or one with its axes in another order)? The expected value, or such a
quantity, times a size of the case (n, d_k, their square roots, 2)? Plus or minus another quantity?
Rounded? Summed along an axis? A matrix product of two quantities with one term of its sum left out?
Or, with no formula to give, is it normalised along another axis, all its rows alike, symmetric?

Each candidate is a *formula*: a base (the expected value or a quantity), perhaps its axes in
another order, perhaps one transform. Its size counts its changes from the expected value; single
changes are searched before pairs, and the smallest formula that reproduces every failing case
wins. A case that passed rules out every formula that would have changed its values. Which kinds of
case fail (the lab declares each case's kinds) is told when the failing cases are exactly one kind.

Why these mechanisms, and not one detector per file: each names a family of slips by what it does
to the values, so a slip nobody listed still reads precisely.
- The reference's own computation with ONE input changed (autograder.core.trace_variants): a square
  matrix transposed, an input in another's place, a count replaced by the page's, an input cut to
  whole numbers. The lab's `trace` is re-run on those reference inputs (never on a student's), and
  the student's output is compared with the changed trace's quantity of the same name. This names
  a W used transposed, V made from W_K (or weights @ K), n_heads ignored for the page's 2, X cast to
  int, with no word of the lab. One change: searched after the formulas of one change, before pairs.
- Distributions (rows summing to 1) get two more transforms: each row times a number of its own
  ("unnormalised": exp returned without the division by the row sum) and the rows tempered by a size
  ("tempered": softmax of the scores divided once more by √n, or not divided by √d_k, or multiplied
  by √d_k where they should be divided by it: "inverted", a power of d_k), found by fitting the one
  power p with got ∝ expected ** p row by row.
- Structure: every row the sum of the expected rows ([[0.0] * d] * n aliasing), a product summed
  along its left factor's other axis, values that are all float16 numbers, weight only where the
  expected is 0 (a mask used the other way round), a mapping holding each row's maximum instead of
  its name, the first part of the expected along one axis, an axis as long as a combination of the
  test's sizes (n // n_heads where d_head belongs). Lengths are named by size names only.

Invariant (hidden tests): an Explanation holds names only (of quantities, sizes, kinds, outputs,
axes, relations, size expressions) and small numbers from a fixed set (decimals, axes) or the page
case's own inputs (a count the page prints), never a value read from a hidden test. Numbers read from values (a constant ratio, which rows are wrong) come from public
tests alone: `explain` reads them only from samples whose `hidden` is False.
"""
