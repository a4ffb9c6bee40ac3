"""Tester-side decoding of what a leaking attack printed (its chunks may be cut short by the grader).

The grader cuts a load note's message at 300 characters (reading.submission.load_note), so the chunks of
attacks 01, 02 and 06 (400 characters each) arrive cut; what arrived is decoded as far as it goes:
base64 of the longest unbroken prefix, then zlib as a stream (a cut stream still yields its
beginning), then every complete array in it.
"""
import base64
import json
import re
import struct
import zlib

import numpy as np


def chunk_texts(text):
    """{index: visible chunk text}, total count (None when no chunk)."""
    found, total = {}, None
    for index, count, chunk in re.findall(r"LEAK(\d\d)of(\d\d):([A-Za-z0-9_=\-]+)", text):
        found[int(index)] = chunk
        total = int(count)
    return found, total


def visible_bytes(text, chunk_length=400):
    """The decompressed bytes recoverable from the chunks in `text`: chunks taken in order while
    each arrived whole (a whole chunk is `chunk_length` long, the last may be shorter)."""
    found, total = chunk_texts(text)
    if not found:
        return b"", 0, 0
    joined = ""
    for index in range(total):
        piece = found.get(index)
        if piece is None:
            break
        joined += piece
        if len(piece) < chunk_length and index < total - 1:
            break  # cut short: nothing after it lines up
    usable = joined[: len(joined) // 4 * 4]
    raw = base64.urlsafe_b64decode(usable)
    stream = zlib.decompressobj()
    try:
        data = stream.decompress(raw)
    except zlib.error:
        data = b""
    return data, len(found), total


def json_arrays(data):
    """Every complete 2-D array (a list of lists of numbers) in a JSON text that may be cut short."""
    text = data.decode("utf-8", "ignore")
    arrays = []
    for match in re.finditer(r"\[(\[[-0-9.eE, ]*\](?:, ?\[[-0-9.eE, ]*\])*)\]", text):
        try:
            value = json.loads("[" + match.group(1) + "]")
        except ValueError:
            continue
        if value and all(isinstance(row, list) and row for row in value):
            arrays.append(np.array(value, dtype=float))
    return arrays


def packed_arrays(data, scale):
    """Arrays packed as <rows:u8><cols:u8><int32 * rows*cols>, values divided by `scale`, while complete."""
    arrays, at = [], 0
    while at + 2 <= len(data):
        rows, cols = struct.unpack_from("<BB", data, at)
        size = rows * cols * 4
        if at + 2 + size > len(data):
            break
        values = np.frombuffer(data[at + 2:at + 2 + size], dtype="<i4").astype(float) / scale
        arrays.append(values.reshape(rows, cols))
        at += 2 + size
    return arrays
