"""A lab's Korean sentences name a public test by its Korean title ('큰 값'), never by its id
('large'), which is the English feedback's name for it."""
import pathlib

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import pytest

from autograder import registry

LABS = [registry.load(name) for name in ("self_attention", "masked_attention")]


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: lab.name)
def test_korean_sentences_quote_no_test_by_its_id(lab):
    folder = pathlib.Path(__import__(f"labs.{lab.name}", fromlist=["_"]).__file__).parent / "locale"
    korean = list(strings(tomllib.loads((folder / "ko.toml").read_text("utf-8"))))
    ids = {case.name for case in lab.public_cases()}
    quoted = [(name, text) for name in ids for text in korean if f"'{name}'" in text or f"‘{name}’" in text]
    assert quoted == [], quoted
