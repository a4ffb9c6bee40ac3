"""The child's side of the sandbox: what it keeps of a submission's lines for its tracebacks."""
import linecache

from autograder.core.child import codec, worker
from autograder.sandbox.runner import Call, Limits, run

LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)


def test_a_lazy_linecache_entry_is_replaced_by_the_cells_lines():
    """linecache keeps a module it may read later as a 1-tuple; such an entry under a cell's file
    name is replaced by the cell's lines, never indexed as a full entry."""
    filename = "lazy_entry_probe.py"
    linecache.cache[filename] = (lambda: None,)
    try:
        worker._remember_lines(filename, "x = 1\n")
        assert linecache.cache[filename] == (6, None, ["x = 1\n"], filename)
    finally:
        linecache.cache.pop(filename, None)


def test_cells_of_one_file_are_laid_over_each_other():
    filename = "laid_over_probe.py"
    try:
        worker._remember_lines(filename, "a = 1\n\n")
        worker._remember_lines(filename, "\nb = 2\n")
        assert linecache.cache[filename][2] == ["a = 1\n", "b = 2\n"]
    finally:
        linecache.cache.pop(filename, None)


def test_a_cell_that_leaves_a_lazy_entry_does_not_end_the_next_cells_load(zygote):
    """A later cell of the same file still loads in the same child: nothing is reported as a
    statement that ended the process, and the function defined after it is there."""
    cells = [{"source": "import linecache\nlinecache.cache['probe.py'] = (lambda: None,)\n", "filename": "probe.py"},
             {"source": "\n\n\ndef scores(x):\n    return x + 1\n", "filename": "probe.py"}]
    call = Call(0, "scores", "scores", (codec.encode(1),))
    outcome = run(zygote, cells, [call], LIMITS)
    assert outcome.load_events == []
    assert outcome.calls[0].kind == "returned" and outcome.calls[0].value == 2
