"""The edited function's text, written statement by statement (repair.edits._Texts), is the text
`ast.unparse` writes of the whole edited function, for every edit of every function in the
corpora's files, and for every pair of edits the search tries (two edits of two statements are
joined from each one's own text): the shortcuts change which candidates are tried by nothing."""
import ast
import pathlib

import pytest

from autograder.repair.edits import _combined, _Texts, _node_at, _places, _put, paired_edits, repeated_edits, single_edits
from autograder.repair.rewrites import Scope, rewrites
from conftest import CORPORA

FILES = sorted(path for path in CORPORA.glob("corpus*/**/*.py") if path.stat().st_size < 20_000)


def _functions(path):
    try:
        tree = ast.parse(path.read_text("utf-8"))
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return []
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)]


@pytest.mark.parametrize("path", FILES[::7], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_each_edited_text_is_the_whole_functions_unparse(path):
    for function in _functions(path):
        texts = _Texts(function)
        scope = Scope(local_names=(), rebound_builtins=frozenset())
        for place in _places(function):
            target = _node_at(place)
            for _, rewrite in rewrites(target, scope):
                replacement = rewrite(__import__("copy").deepcopy(target))
                if replacement is None:
                    continue
                _put(place, replacement)
                try:
                    text = texts.source(place)
                    if text is not None:
                        assert text == ast.unparse(function), (path.name, function.name, place[1])
                finally:
                    _put(place, target)


def test_a_nested_definition_and_a_bare_string_are_written_as_in_the_whole():
    function = ast.parse('def f(x):\n    y = 1\n    "not a docstring"\n    def g():\n        """doc\n        more"""\n'
                         '        return 2\n    return x + y\n').body[0]
    texts = _Texts(function)
    assert texts.exact
    place = next(p for p in _places(function) if isinstance(_node_at(p), ast.BinOp))
    target = _node_at(place)
    _put(place, ast.BinOp(left=target.left, op=ast.Sub(), right=target.right))
    try:
        assert texts.source(place) == ast.unparse(function)
    finally:
        _put(place, target)


@pytest.mark.parametrize("path", FILES[3::53], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_each_pair_and_repeat_is_the_whole_edited_functions_unparse(path):
    for function in _functions(path):
        singles = single_edits(function, source=path.read_text("utf-8"))
        places = _places(function)
        combined = [*paired_edits(function, singles, limit=100), *repeated_edits(function, singles)]
        for edits in combined:
            # Written whole, each edit made on the tree: no statement's text reused.
            assert edits.source == _combined(function, places, edits.parts), (path.name, function.name, edits.parts)
        # (and the shortcut was taken: most pairs are of two statements)
        joined = [edits for edits in combined if all(part.statement for part in edits.parts)
                  and len({part.statement[0] for part in edits.parts}) == len(edits.parts)]
        assert joined or len({part.statement[0] for edits in combined for part in edits.parts if part.statement}) < 2
