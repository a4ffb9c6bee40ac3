"""Spies that count the work the grader's process does while reading submissions (imported by
the tests of reading budgets): Python's parser and compiler, the JSON parser, the tokenizer and
zipfile's decompression, counted where those libraries are called, never by the clock."""
import ast
import contextlib
import json
import tokenize
import zipfile
from unittest import mock

from autograder.core.reading import budget
from autograder.core.reading.budget import BUDGET


@contextlib.contextmanager
def counted_work():
    """Counts what the grader's process does while reading, by spying on the libraries themselves:
    Python's parser and compiler, the JSON parser, the tokenizer and zipfile's decompression."""
    work = {"parses": [], "json": [], "inflated": 0, "tokenized": 0}
    real_parse, real_loads, real_read = ast.parse, json.loads, zipfile.ZipExtFile.read
    real_tokens = tokenize.generate_tokens

    def parse(source, *args, **kwargs):
        work["parses"].append(len(source))
        return real_parse(source, *args, **kwargs)

    def compile_(source, *args, **kwargs):
        work["parses"].append(len(source))
        return compile(source, *args, **kwargs)

    def loads(text, *args, **kwargs):
        work["json"].append(len(text))
        return real_loads(text, *args, **kwargs)

    def read(self, *args, **kwargs):
        data = real_read(self, *args, **kwargs)
        work["inflated"] += len(data)
        return data

    def tokens(readline):
        for token in real_tokens(readline):
            work["tokenized"] += 1
            yield token

    with mock.patch.object(ast, "parse", parse), mock.patch.object(budget, "compile", compile_, create=True), \
            mock.patch.object(json, "loads", loads), mock.patch.object(zipfile.ZipExtFile, "read", read), \
            mock.patch.object(tokenize, "generate_tokens", tokens):
        yield work


def assert_within_budget(work, budget=BUDGET, reads=1):
    """What `reads` readings may cost at most, whatever the files held."""
    assert all(size <= budget.parse_chars for size in work["parses"]), max(work["parses"])
    assert sum(work["parses"]) <= reads * budget.parsed_chars
    assert work["inflated"] <= reads * budget.inflated_bytes
    assert all(size <= budget.file_bytes for size in work["json"])
    assert len(work["json"]) <= reads
