"""Plain-data encoding of values that cross between the grader and a submission's process.

Both sides import this module, so it uses only the standard library, numpy and the guard's rule
for text (autograder.core.guard, standard library only). Decoding never executes anything: it builds
arrays, strings, numbers and containers, nothing else.
"""
from __future__ import annotations

import base64
import json
import math
import re
from typing import TYPE_CHECKING

import numpy as np

from ..guard import SURROGATE, valid_text

if TYPE_CHECKING:
    from typing import Any, TypeGuard

    from numpy.typing import NDArray

    # What `encode` makes of a value: JSON-ready data, untrusted when it comes from a child.
    Encoded = dict[str, Any]

MAX_ELEMENTS = 1_000_000
MAX_ITEMS = 10_000
MAX_DEPTH = 6
MAX_TEXT = 2_000

# Captured before any submission runs, so a submission that patches numpy cannot change them.
_ndarray = np.ndarray
_asarray = np.asarray
_ravel = np.ravel
_ascontiguousarray = np.ascontiguousarray
_tobytes = np.ndarray.tobytes
_FLOAT64 = np.dtype("<f8")
_b64encode = base64.b64encode


def encode(value: object, depth: int = 0) -> Encoded:
    """Describe `value` as JSON-ready data; anything unknown becomes its type name."""
    if depth > MAX_DEPTH:
        return {"t": "other", "type": "too deeply nested"}
    if value is None:
        return {"t": "none"}
    if isinstance(value, (bool, np.bool_)):
        return {"t": "number", "v": bool(value)}
    if isinstance(value, (int, float, np.integer, np.floating)):
        return {"t": "number", "v": _plain_number(value)}
    if isinstance(value, (str, np.str_)):
        return {"t": "str", "v": str.__str__(value)[:MAX_TEXT]}
    if isinstance(value, _ndarray):
        return _encode_array(_ndarray.view(value, _ndarray))
    # A DataFrame or a Series, told by its class's name (this module never imports pandas).
    kind = _pandas_kind(value)
    if kind == "DataFrame":
        return {"t": "frame", "values": _encode_array(_asarray(value.to_numpy())),  # type: ignore[attr-defined]
                "index": [encode(v, depth + 1) for v in list(value.index)[:MAX_ITEMS]],  # type: ignore[attr-defined]
                "columns": [encode(v, depth + 1)
                            for v in list(value.columns)[:MAX_ITEMS]]}  # type: ignore[attr-defined]
    if kind == "Series":
        return {"t": "series", "values": _encode_array(_asarray(value.to_numpy())),  # type: ignore[attr-defined]
                "index": [encode(v, depth + 1) for v in list(value.index)[:MAX_ITEMS]]}  # type: ignore[attr-defined]
    # A subclass (a namedtuple, an OrderedDict) behaves as its base and is sent as one, read
    # through the base's own methods so that an override cannot change what is sent.
    for base in (tuple, list):
        if isinstance(value, base):
            # mypy cannot pair `value` with the base it is an instance of.
            if base.__len__(value) > MAX_ITEMS:  # type: ignore[arg-type]
                return {"t": "other", "type": base.__name__ + " (too long)"}
            return {"t": base.__name__,
                    "items": [encode(v, depth + 1) for v in base.__iter__(value)]}  # type: ignore[arg-type]
    if isinstance(value, dict):
        if dict.__len__(value) > MAX_ITEMS:
            return {"t": "other", "type": "dict (too long)"}
        return {"t": "dict", "items": [[encode(k, depth + 1), encode(v, depth + 1)]
                                       for k, v in dict.items(value)]}
    return {"t": "other", "type": type(value).__qualname__[:100]}


def _plain_number(value: bool | int | float | np.bool_ | np.integer[Any] | np.floating[Any]) -> bool | int | float:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and abs(int(value)) < 2**53:
        return int(value)
    return float(value)


def _pandas_kind(value: object) -> str | None:
    for klass in type(value).__mro__:
        if klass.__module__.startswith("pandas") and klass.__name__ in ("DataFrame", "Series"):
            return klass.__name__
    return None


def _encode_array(array: NDArray[Any]) -> Encoded:
    if array.size > MAX_ELEMENTS:
        return {"t": "other", "type": f"ndarray (too large: {array.size} elements)"}
    kind = array.dtype.kind
    header = {"t": "array", "dtype": array.dtype.str, "kind": kind, "shape": list(array.shape)}
    if kind in "biuf":
        # The float64 bytes, little-endian, in base64: exact, and far cheaper than writing and
        # reading every number as text.
        raw = _tobytes(_ascontiguousarray(array, dtype=_FLOAT64))
        return {**header, "f8": _b64encode(raw).decode("ascii")}
    if kind == "c":
        return {"t": "other", "type": f"ndarray of {array.dtype}"}
    return {**header, "data": [str(v)[:MAX_TEXT] for v in _ndarray.tolist(_ravel(array))]}


def decode(data: object) -> object:
    """Rebuild plain Python/numpy values from `encode`'s output (trusted types only).

    The data may be forged by a submission: anything malformed becomes Opaque, never an error.
    """
    try:
        return _decode(data, 0)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError,
            RecursionError, MemoryError):
        return Opaque("malformed")


def _decode(data: object, depth: int) -> object:
    if depth > MAX_DEPTH + 2 or not isinstance(data, dict):
        return Opaque("malformed")
    tag = data.get("t")
    if tag == "none":
        return None
    if tag == "number":
        return _number(data.get("v"))
    if tag == "str":
        v = data.get("v", "")
        return v[:MAX_TEXT] if isinstance(v, str) else Opaque("malformed")
    if tag == "array":
        return _decode_array(data)
    if tag in ("list", "tuple"):
        items = [_decode(v, depth + 1) for v in _items(data)]
        return items if tag == "list" else tuple(items)
    if tag == "dict":
        out: dict[object, object] = {}
        for pair in _items(data):
            key = _decode(pair[0], depth + 1)
            out[_key(key)] = _decode(pair[1], depth + 1)
        return out
    if tag in ("frame", "series"):
        values = _decode_array(data.get("values"))
        if not isinstance(values, np.ndarray) or values.ndim != (2 if tag == "frame" else 1):
            return Opaque(f"{'DataFrame' if tag == 'frame' else 'Series'} of unreadable values")
        index = [_key(_decode(v, depth + 1)) for v in _items(data, "index")]
        if tag == "series":
            return Labelled("Series", values, index, None)
        return Labelled("DataFrame", values, index,
                        [_key(_decode(v, depth + 1)) for v in _items(data, "columns")])
    return Opaque(clean_text(_text(data.get("type"), "unknown"), 100))


def _number(v: object) -> bool | int | float | Opaque:
    if isinstance(v, bool) or isinstance(v, float):
        return v
    if isinstance(v, int):
        return v if abs(v) < 2**63 else float(v)  # float() of a huge int raises OverflowError
    return Opaque("malformed")


def _items(data: dict[str, Any], key: str = "items") -> list[Any]:
    items = data.get(key, [])
    if not isinstance(items, list):
        raise TypeError("not a list")
    return items[:MAX_ITEMS]


def _text(value: object, default: str) -> str:
    return value if isinstance(value, str) else default


def _key(value: object) -> object:
    """Keys and labels must be hashable: anything else stands in as its repr."""
    hashable = isinstance(value, (str, int, float, bool)) or value is None or (
        isinstance(value, tuple) and all(isinstance(v, (str, int, float, bool)) for v in value))
    return value if hashable else repr(value)[:MAX_TEXT]


def _decode_array(data: object) -> NDArray[Any] | Opaque:
    if not isinstance(data, dict):
        return Opaque("malformed")
    if "f8" in data:
        return _decode_float_bytes(data)
    shape, values = data.get("shape"), data.get("data")
    if not isinstance(shape, list) or not isinstance(values, list) or len(shape) > 32 \
            or not all(type(s) is int and 0 <= s <= MAX_ELEMENTS for s in shape) \
            or math.prod(shape) != len(values) or len(values) > MAX_ELEMENTS:
        return Opaque("malformed")
    if data.get("kind") in ("b", "i", "u", "f"):
        if not all(type(v) in (int, float, bool) for v in values):
            return Opaque("malformed")
        try:
            array = np.array(values, dtype=np.float64).reshape(shape)
        except (OverflowError, ValueError):
            return Opaque("malformed")
        return _restore_dtype(array, data)
    if not all(isinstance(v, str) for v in values):
        return Opaque("malformed")
    return np.array([v[:MAX_TEXT] for v in values], dtype=object).reshape(shape)


def _decode_float_bytes(data: dict[str, Any]) -> NDArray[Any] | Opaque:
    shape, text = data.get("shape"), data.get("f8")
    if not _plain_shape(shape) or not isinstance(text, str) or data.get("kind") not in ("b", "i", "u", "f") \
            or len(text) > 4 * MAX_ELEMENTS * 8 // 3 + 4:
        return Opaque("malformed")
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        return Opaque("malformed")
    if len(raw) != 8 * math.prod(shape):
        return Opaque("malformed")
    array = np.frombuffer(raw, dtype=_FLOAT64).reshape(shape).astype(np.float64)  # a writable copy
    return _restore_dtype(array, data)


# numpy's integer types, by their `dtype.str`: an integer array keeps its own (a 0/1 mask of int32
# or uint8 is not numpy's default int, and a test of `mask.dtype == int` must see that).
_INTEGER_TYPES = {np.dtype(name).str: np.dtype(name)
                  for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")}


def _restore_dtype(array: NDArray[np.float64], data: dict[str, Any]) -> NDArray[Any]:
    """float32 stays float32, a boolean array (a mask) stays boolean and an integer array stays
    integer, of its own integer type where its numbers fit it (else int64; a test may pass whole
    numbers or a 0/1 table); other numbers are float64."""
    if data.get("kind") == "f" and _text(data.get("dtype"), "").endswith("4"):
        return array.astype(np.float32)
    if data.get("kind") == "b":
        return array != 0  # type: ignore[no-any-return]  # numpy types an array comparison as Any
    if data.get("kind") in ("i", "u") and bool(np.all(np.abs(array) < 2**53)):  # exact in the float64 bytes
        own = _INTEGER_TYPES.get(_text(data.get("dtype"), ""), np.dtype(np.int64))
        limits = np.iinfo(own)
        fits = array.size == 0 or (float(array.min()) >= limits.min and float(array.max()) <= limits.max)
        return array.astype(own if fits else np.int64)
    return array


def _plain_shape(shape: object) -> TypeGuard[list[int]]:
    return isinstance(shape, list) and len(shape) <= 32 \
        and all(type(s) is int and 0 <= s <= MAX_ELEMENTS for s in shape) and math.prod(shape) <= MAX_ELEMENTS


class Opaque:
    """A returned value the grader cannot use; only its type name is known."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"


class Labelled:
    """A pandas DataFrame or Series seen as values plus labels."""

    def __init__(self, kind: str, values: NDArray[Any], index: list[object], columns: list[object] | None) -> None:
        self.kind, self.values, self.index, self.columns = kind, values, index, columns

    def __repr__(self) -> str:
        return f"<{self.kind} {getattr(self.values, 'shape', '?')}>"


# Terminal escape sequences (CSI, OSC, and the two-character ones), then single control
# characters: C0 but newline and tab, DEL, C1, and the bidirectional overrides that reorder text.
_ESCAPE_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -~]?)"
                              r"|\x9b[0-?]*[ -/]*[@-~]?|\x9d[^\x07\x1b]*\x07?")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean_text(text: str, limit: int) -> str:
    """`text` as a grader may show it: at most `limit` characters, no control characters.

    Cut before cleaning (a huge string costs no more than `limit` does), then cut again.
    """
    text = str.__str__(text)[:4 * limit]
    return _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", text))[:limit]


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=True)


def loads(text: str) -> Any:
    """JSON text as data whose every string is valid Unicode: a lone surrogate a forged event
    escapes in ("\\ud800") becomes U+FFFD, so no later write or print of it can fail."""
    data = json.loads(text)
    if "\\ud" in text or "\\uD" in text:
        data = _valid_unicode(data)
    return data


def _valid_unicode(data: Any) -> Any:
    """`data` with its strings made valid, walked without recursion (any nesting JSON allows)."""
    if isinstance(data, str):
        return valid_text(data)
    root = [data]
    stack: list[tuple[Any, Any]] = [(root, 0)]  # (a list and an index, or a dict and a key)
    while stack:
        container, key = stack.pop()
        value = container[key]
        if isinstance(value, str):
            container[key] = valid_text(value)
        elif isinstance(value, list):
            stack.extend((value, index) for index in range(len(value)))
        elif isinstance(value, dict):
            for name in list(value):
                if isinstance(name, str) and SURROGATE.search(name):
                    value[valid_text(name)] = value.pop(name)
            stack.extend((value, name) for name in value)
    return root[0]
