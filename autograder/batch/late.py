"""Late submissions: whether a student was late, by how many days, and what the declared policy takes.

Pure data in, plain data out. A student is late when the LMS says so (Canvas's LATE in the file
name) or when the submission time the LMS wrote (Gradescope's metadata, Blackboard's attempt name)
is after --due. A file's modification time never makes anyone late: copying or downloading a file
changes it. Started days count whole: one minute late is one day late.
"""
import math
import re
from dataclasses import dataclass
from datetime import datetime, timezone

DAY_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Policy:
    """A deduction of `percent` of the score per started day late (once, when `per_day` is False), at most `cap`."""

    percent: float
    per_day: bool = True
    cap: float = 100.0
    text: str = ""  # as the TA wrote it, for the feedback


_POLICY = re.compile(r"^\s*(?P<percent>\d+(?:\.\d+)?)\s*%\s*(?P<per>/\s*day)?\s*"
                     r"(?:,\s*max\s*=\s*(?P<cap>\d+(?:\.\d+)?)\s*%\s*)?$", re.I)


def parse_policy(text):
    """"10%/day", "10%/day,max=50%" or "20%" (once) as a Policy; ValueError when it is none of these."""
    match = _POLICY.match(text or "")
    if not match:
        raise ValueError(f"--late-penalty {text!r}: write it as 10%/day, 10%/day,max=50% or 20%")
    percent = float(match["percent"])
    cap = float(match["cap"]) if match["cap"] is not None else 100.0
    if not 0 <= percent <= 100 or not 0 <= cap <= 100:
        raise ValueError(f"--late-penalty {text!r}: percentages go from 0% to 100%")
    return Policy(percent, bool(match["per"]), cap, re.sub(r"\s+", "", text))


def parse_due(text):
    """--due as an aware datetime; a time without an offset is in this computer's time zone."""
    try:
        moment = datetime.fromisoformat(text.strip().replace(" ", "T", 1).replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"--due {text!r}: write an ISO 8601 date and time, e.g. 2024-03-01T23:59+09:00")
    if len(text.strip()) <= 10:  # a date alone: the end of that day
        moment = moment.replace(hour=23, minute=59, second=59)
    return aware(moment)


def aware(moment):
    return moment if moment.tzinfo is not None else moment.astimezone()


def parse_time(text):
    """An ISO 8601 time as an aware datetime (naive ones in this computer's zone), None when empty or bad."""
    if not text:
        return None
    try:
        return aware(datetime.fromisoformat(text))
    except ValueError:
        return None


def file_time(stamp):
    """A file's modification time (seconds) as ISO 8601 in this computer's zone, "" when unknown."""
    if not stamp:
        return ""
    return datetime.fromtimestamp(stamp, timezone.utc).astimezone().isoformat(timespec="seconds")


def lateness(lms_time, lms_late, due, file_stamp=0.0):
    """(late, days late) of one submission.

    lms_time: the ISO time the LMS wrote, or ""; lms_late: the LMS's own late flag; due: aware
    datetime or None. With a flag but no LMS time, the file's time counts the days (at least one).
    """
    submitted = parse_time(lms_time)
    if due is not None and submitted is not None:
        seconds = (submitted - due).total_seconds()
        if seconds > 0:
            return True, math.ceil(seconds / DAY_SECONDS)
        return bool(lms_late), (1 if lms_late else 0)
    if lms_late:
        days = 1
        if due is not None and file_stamp:
            seconds = file_stamp - due.timestamp()
            days = max(1, math.ceil(seconds / DAY_SECONDS)) if seconds > 0 else 1
        return True, days
    return False, 0


def deduction(policy, late, days):
    """Percent of the score the policy takes (0 when on time or without a policy)."""
    if policy is None or not late:
        return 0.0
    taken = policy.percent * (days if policy.per_day else 1)
    return min(taken, policy.cap, 100.0)


def penalised(raw_total, percent):
    """The total after the deduction, rounded once at the end (to hundredths)."""
    return round(raw_total * (1 - percent / 100), 2)
