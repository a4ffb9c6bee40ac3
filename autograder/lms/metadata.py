"""What every LMS's metadata files share: their bytes read as text, their times read as ISO 8601.

Pure text in, plain data out. These files are read for names, student ids and submission times,
never graded (each LMS's own in its module: `gradescope.submitters`, `blackboard.receipt`).
"""
from __future__ import annotations

import re
from datetime import datetime

MAX_METADATA_BYTES = 8 * 1024 * 1024


_TIME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})[T ](?P<time>\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?"
                   r"\s*(?P<zone>Z|UTC|[+-]\d{2}:?\d{2})?$")


def iso_time(text: str) -> str:
    """"2024-03-01 12:30:45.123456000 +09:00" (Ruby's YAML time) as "2024-03-01T12:30:45+09:00"; "" if not a time."""
    match = _TIME.match(text.strip())
    if not match:
        return ""
    clock = match["time"] if match["time"].count(":") == 2 else match["time"] + ":00"
    zone = match["zone"] or ""
    if zone in ("Z", "UTC"):
        zone = "+00:00"
    elif zone and ":" not in zone:
        zone = f"{zone[:3]}:{zone[3:]}"
    try:
        return datetime.fromisoformat(f"{match['date']}T{clock}{zone}").isoformat()
    except ValueError:
        return ""


def decode(data: bytes) -> str:
    """Metadata bytes as text: UTF-8 (with or without BOM), else cp949 (Korean Windows), else Latin-1."""
    for encoding in ("utf-8-sig", "cp949"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")
