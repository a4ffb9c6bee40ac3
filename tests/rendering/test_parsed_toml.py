"""The catalogs' TOML parsed once per machine (autograder/core/parsed_toml.py): a kept parse is the
parse of the very same text, a broken or foreign kept file is parsed again, and a cache that cannot
be used only costs the parse."""
import json
import sys

import pytest
from hypothesis import given, settings, strategies as st

from autograder.core import parsed_toml as module
from autograder.core.parsed_toml import CACHE_SWITCH, cache_folder, parsed_toml
from autograder.core.render.messages import LANGUAGES, engine_catalog

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

TEXT = '[text]\nhello = "안녕하세요, {name}."\ncount = 3\n\n[cause]\nx = "a \\"quoted\\" word"\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(CACHE_SWITCH, raising=False)
    return tmp_path / "autograder" / "toml"


def test_a_parse_is_kept_and_read_back_the_same(cache):
    assert parsed_toml(TEXT) == tomllib.loads(TEXT)
    kept = list(cache.glob("*.json"))
    assert len(kept) == 1
    assert parsed_toml(TEXT) == tomllib.loads(TEXT)
    assert list(cache.glob("*.json")) == kept and not list(cache.glob(".toml-*"))


def test_a_changed_text_is_never_read_from_the_parse_of_the_old_one(cache):
    parsed_toml(TEXT)
    changed = TEXT.replace("안녕하세요", "반갑습니다")
    assert parsed_toml(changed)["text"]["hello"] == "반갑습니다, {name}."
    assert len(list(cache.glob("*.json"))) == 2


@pytest.mark.parametrize("kept", ["{not json", "[1, 2]", "", "\x00\xff"])
def test_a_kept_file_that_is_broken_or_no_table_is_parsed_again_and_replaced(cache, kept):
    parsed_toml(TEXT)
    (path,) = cache.glob("*.json")
    path.write_text(kept, encoding="utf-8", errors="surrogateescape") if kept != "\x00\xff" \
        else path.write_bytes(b"\x00\xff")
    assert parsed_toml(TEXT) == tomllib.loads(TEXT)
    assert json.loads(path.read_text("utf-8")) == tomllib.loads(TEXT)


def test_a_folder_that_cannot_be_written_only_costs_the_parse(tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert parsed_toml(TEXT) == tomllib.loads(TEXT)
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize("setting", ["switched off", "relative folder", "no home"])
def test_switched_off_or_without_a_home_nothing_is_kept(tmp_path, monkeypatch, setting):
    monkeypatch.chdir(tmp_path)
    if setting == "switched off":
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setenv(CACHE_SWITCH, "off")
    elif setting == "relative folder":
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/folder")
    else:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        monkeypatch.setattr(module.os.path, "expanduser", lambda path: path)
    assert parsed_toml(TEXT) == tomllib.loads(TEXT)
    assert cache_folder() is None
    assert not any(tmp_path.rglob("*.json"))


def test_a_date_json_cannot_hold_is_parsed_every_time_and_never_kept(cache):
    text = "when = 2026-12-06\n"
    assert parsed_toml(text) == tomllib.loads(text)
    assert not cache.exists() or not list(cache.glob("*.json"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_engine_catalog_is_the_parse_of_its_file(cache, lang):
    from importlib import resources
    text = resources.files("autograder.core.locale").joinpath(f"{lang}.toml").read_text("utf-8")
    engine_catalog.cache_clear()
    try:
        assert engine_catalog(lang) == tomllib.loads(text)
        engine_catalog.cache_clear()
        assert engine_catalog(lang) == tomllib.loads(text)  # read back from the kept parse
    finally:
        engine_catalog.cache_clear()


_KEYS = st.from_regex(r"[a-z][a-z_0-9]{0,8}", fullmatch=True)
_VALUES = st.one_of(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x7f"), max_size=30), st.integers(-10**6, 10**6), st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False))


@settings(max_examples=60, deadline=None)
@given(tables=st.dictionaries(_KEYS, st.dictionaries(_KEYS, _VALUES, max_size=5), min_size=1, max_size=4))
def test_any_table_reads_back_as_tomllib_parses_it(tmp_path_factory, tables):
    folder = tmp_path_factory.mktemp("cache")
    lines = []
    for section, keys in tables.items():
        lines.append(f"[{section}]")
        for key, value in keys.items():
            lines.append(f"{key} = {_toml_value(value)}")
    text = "\n".join(lines) + "\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        patch.delenv(CACHE_SWITCH, raising=False)
        first, second = parsed_toml(text), parsed_toml(text)
    assert first == second == tomllib.loads(text)


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    return repr(value)
