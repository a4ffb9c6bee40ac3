"""TOML text parsed once per machine: the catalogs are read on every `check`, and parsing them (and
importing the parser) is a good part of a check's time past its import of numpy and pandas.

A parse is kept as JSON in the user's cache folder (`$XDG_CACHE_HOME/autograder/toml`, else
`~/.cache/...`), named by the SHA-256 of the very text parsed: a changed catalog has another name,
so a kept parse is never stale. A kept file that cannot be read, or reads as anything but a
table, is parsed again and written anew; a folder that cannot be written is only not used.
`AUTOGRADER_TOML_CACHE=off` parses every time.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

CACHE_SWITCH = "AUTOGRADER_TOML_CACHE"


def parsed_toml(text: str) -> dict[str, Any]:
    """`text` parsed as TOML (tomllib's tables), from the kept parse of the same text when there is one."""
    folder = cache_folder()
    if folder is None:
        return _parse(text)
    path = folder / (hashlib.sha256(text.encode("utf-8")).hexdigest() + ".json")
    try:
        kept = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        kept = None
    if isinstance(kept, dict):
        return kept
    parsed = _parse(text)
    _keep(path, parsed)
    return parsed


def cache_folder() -> Path | None:
    """Where parses are kept, or None (switched off, or no home to keep them in)."""
    if os.environ.get(CACHE_SWITCH, "").lower() in ("off", "0", "no", "false"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or (os.path.join(os.path.expanduser("~"), ".cache")
                                                if os.path.expanduser("~") != "~" else "")
    if not base or not os.path.isabs(base):
        return None
    return Path(base) / "autograder" / "toml"


def _parse(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the same parser, as the tomli package
        import tomli as tomllib
    return tomllib.loads(text)


def _keep(path: Path, parsed: dict[str, Any]) -> None:
    """Write the parse beside the others, whole or not at all (another process may read it now)."""
    try:
        written = json.dumps(parsed, ensure_ascii=False)
    except (TypeError, ValueError):  # a date or time TOML allows and JSON has not: not kept
        return
    if json.loads(written) != parsed:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".toml-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(written)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return
