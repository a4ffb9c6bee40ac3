"""Late submissions: whether a student was late, by how many days, and what the declared policy takes.

Pure data in, plain data out. A student is late when the LMS says so (Canvas's LATE in the file
name) or when the submission time the LMS wrote (Gradescope's metadata, Blackboard's attempt name)
is after --due. A file's modification time never makes anyone late nor counts a day: copying or
downloading a file changes it (a LATE flag without a time is one day). Started days count whole:
one minute late is one day late. With --due, a student whose lateness the LMS does not state
(`lateness_known`: a Moodle download, a plain folder) stops the run, unless the TA accepts counting
them on time (--allow-unknown-times), which the run then says.

Time zones (LmsZone, the one rule): a time the LMS writes without a zone (Blackboard's attempt
names) is read in `--lms-timezone` when given, else in the zone of `--due` when it has an offset
(the TA wrote the deadline in the course's zone), else in this computer's zone; a `--due` without
an offset is read in `--lms-timezone` when given, else in this computer's zone. Every time leaves
here aware, so grades.csv and the feedback always show its offset; and every time shown (the
submission times, the deadline) is shown in that same zone, the course's (LmsZone.shown): a
Canvas file's time, a folder's file time or Gradescope's UTC time is shown at the offset of
`--due` when that is the zone, whatever this computer's zone is.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo

from ..said import Refusal, said
from ..lms.blackboard import receipt as blackboard_receipt

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


def parse_policy(text: str) -> Policy:
    """"10%/day", "10%/day,max=50%" or "20%" (once) as a Policy; a Refusal (a ValueError) when it is none of these."""
    match = _POLICY.match(text or "")
    if not match:
        raise Refusal(said("penalty_form", "grade", text=repr(text)))
    percent = float(match["percent"])
    cap = float(match["cap"]) if match["cap"] is not None else 100.0
    if not 0 <= percent <= 100 or not 0 <= cap <= 100:
        raise Refusal(said("penalty_range", "grade", text=repr(text)))
    return Policy(percent, bool(match["per"]), cap, re.sub(r"\s+", "", text))


def parse_due(text: str, zone: LmsZone | None = None) -> datetime:
    """--due as an aware datetime; a time without an offset is in `zone` (an LmsZone given by
    --lms-timezone), else in this computer's time zone."""
    moment = _due_moment(text)
    if moment.tzinfo is None and zone is not None and zone.explicit:
        return zone.aware(moment)
    return aware(moment)


def _due_moment(text: str) -> datetime:
    """--due as written: a datetime, naive when the TA gave no offset."""
    try:
        moment = datetime.fromisoformat(text.strip().replace(" ", "T", 1).replace("Z", "+00:00"))
    except ValueError:
        raise Refusal(said("due_form", "grade", text=repr(text))) from None
    if len(text.strip()) <= 10:  # a date alone: the end of that day
        moment = moment.replace(hour=23, minute=59, second=59)
    return moment


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.astimezone()


@dataclass(frozen=True, kw_only=True)
class LmsZone:
    """The zone a time the LMS wrote without one is read in, and where that zone comes from."""

    tz: tzinfo | None  # None: this computer's zone, as it was at that time
    source: str  # "--lms-timezone", "--due" or "computer"
    label: str  # as people read it: "Asia/Seoul", "+09:00", "this computer's zone"

    @property
    def explicit(self) -> bool:
        return self.source == "--lms-timezone"

    def aware(self, moment: datetime) -> datetime:
        """A naive datetime read in this zone (an aware one is returned as it is)."""
        if moment.tzinfo is not None:
            return moment
        if self.tz is None:
            return moment.astimezone()
        return moment.replace(tzinfo=self.tz)

    def localise(self, text: str) -> str:
        """An ISO 8601 time as ISO 8601 with its offset, read in this zone when it has none; "" stays "",
        and text that is no time is returned as it is."""
        if not text:
            return ""
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            return text
        return self.aware(moment).isoformat()

    def shown(self, text: str) -> str:
        """An ISO 8601 time as the same moment in this zone, ISO 8601 with this zone's offset: how
        grades.csv, the report and the feedback show every time, in the course's zone. A time
        without an offset is read in this zone; "" stays "", and text that is no time is returned
        as it is."""
        if not text:
            return ""
        try:
            moment = self.aware(datetime.fromisoformat(text))
        except ValueError:
            return text
        return (moment.astimezone() if self.tz is None else moment.astimezone(self.tz)).isoformat()

    def describe(self) -> str:
        """Where the zone comes from, for messages: "the offset of --due"."""
        if self.source == "--lms-timezone":
            return f"--lms-timezone {self.label}"
        if self.source == "--due":
            return "the offset of --due"
        return "this computer's time zone"


COMPUTER_ZONE = LmsZone(tz=None, source="computer", label="this computer's zone")
_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*(?P<sign>[+-])(?P<hours>\d{1,2})(?::?(?P<minutes>\d{2}))?$", re.I)


def parse_zone(text: str | None) -> tuple[tzinfo, str]:
    """--lms-timezone as a tzinfo and its label: "Asia/Seoul" (a zone of the IANA database), "+09:00",
    "+0900", "UTC+9", "UTC" or "Z"; a Refusal (a ValueError) saying how to write it."""
    written = (text or "").strip()
    if written.upper() in ("UTC", "Z", "GMT"):
        return timezone.utc, "UTC"
    match = _OFFSET.match(written)
    if match:
        hours, minutes = int(match["hours"]), int(match["minutes"] or 0)
        if hours > 14 or minutes >= 60:
            raise Refusal(said("zone_range", "grade", text=repr(text)))
        sign = -1 if match["sign"] == "-" else 1
        offset = timedelta(hours=hours, minutes=minutes) * sign
        return timezone(offset), f"{match['sign']}{hours:02d}:{minutes:02d}"
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*", written):
            raise ValueError(written)
        return ZoneInfo(written), written
    except (ZoneInfoNotFoundError, ValueError):
        raise Refusal(said("zone_form", "grade", text=repr(text))) from None


def lms_zone(zone_text: str | None = None, due_text: str | None = None) -> LmsZone:
    """The zone of times the LMS writes without one: --lms-timezone, else --due's offset when it
    has one, else this computer's zone (module docstring)."""
    if zone_text:
        tz, label = parse_zone(zone_text)
        return LmsZone(tz=tz, source="--lms-timezone", label=label)
    if due_text:
        due = _due_moment(due_text)
        offset = due.utcoffset() if due.tzinfo is not None else None
        if offset is not None:
            return LmsZone(tz=timezone(offset), source="--due", label=offset_text(offset))
    return COMPUTER_ZONE


def offset_text(offset: timedelta) -> str:
    """A UTC offset as "+09:00"."""
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


# Zone abbreviations that name one offset only (CST, IST, BST, AST name several: never read).
ABBREVIATIONS = {"UTC": 0, "GMT": 0, "KST": 540, "JST": 540, "HKT": 480, "SGT": 480, "AWST": 480, "WIB": 420,
                 "ICT": 420, "ACST": 570, "ACDT": 630, "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780,
                 "EST": -300, "EDT": -240, "CDT": -300, "MST": -420, "MDT": -360, "PST": -480, "PDT": -420,
                 "AKST": -540, "AKDT": -480, "HST": -600, "WET": 0, "WEST": 60, "CET": 60, "CEST": 120,
                 "EET": 120, "EEST": 180}
MONTHS = {name: number for number, names in enumerate(
    (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
     ("november", "nov"), ("december", "dec")), start=1) for name in names}
# "Sunday, March 1, 2026 12:30:45 PM KST": the "Date Submitted" of Blackboard's receipt in English.
_RECEIPT_DATE = re.compile(
    r"^(?:[A-Za-z]+,[ \t]*)?(?P<month>[A-Za-z]+)\.?[ \t]+(?P<day>\d{1,2}),[ \t]*"
    r"(?P<year>\d{4})[ \t]+(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?[ \t]*"
    r"(?P<half>[AaPp]\.?[Mm]\.?)?[ \t]+(?P<zone>[A-Z]{2,5})$")


@dataclass(frozen=True, kw_only=True)
class StatedZone:
    """The zone an LMS states beside a time it also writes without one (a Blackboard receipt)."""

    abbreviation: str  # "KST"
    offset: timedelta
    where: str  # the file that states it


def stated_zone(receipt: str | None, lms_time: str, where: str = "", attempt: str = "") -> StatedZone | None:
    """The zone a Blackboard receipt states for the attempt whose name gives `lms_time` (naive ISO
    8601): only from the "Date Submitted" line of the header Blackboard writes in English
    (lms.blackboard.receipt; never a line of the student's text below it), when it shows that
    same wall-clock time, in an abbreviation that names one offset; else None."""
    try:
        named = datetime.fromisoformat(lms_time)
    except (TypeError, ValueError):
        return None
    header = blackboard_receipt(receipt or "", attempt)
    match = _RECEIPT_DATE.match(header.submitted) if header.english else None
    if match is None:
        return None
    month, zone = MONTHS.get(match["month"].lower()), match["zone"]
    if month is None or zone not in ABBREVIATIONS:
        return None
    hour = int(match["hour"])
    if match["half"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if match["half"][0] in "Pp" else 0)
    try:
        said = datetime(int(match["year"]), month, int(match["day"]), hour, int(match["minute"]),
                        int(match["second"] or 0))
    except ValueError:
        return None
    same = said == named.replace(microsecond=0) if match["second"] else \
        said == named.replace(second=0, microsecond=0)
    if same and named.tzinfo is None:
        return StatedZone(abbreviation=zone, offset=timedelta(minutes=ABBREVIATIONS[zone]), where=where)
    return None


def agreed_zone(stated: Sequence[StatedZone | None]) -> StatedZone | None:
    """The zone the class's receipts state, when it can be the class's: stated by at least two students'
    receipts (one per student in `stated`, None where a student's states none) and the same offset in
    every one that states a zone. One student's receipt never sets a rule for the class."""
    said = [zone for zone in stated if zone is not None]
    if len(said) < 2 or len({zone.offset for zone in said}) > 1:
        return None
    return said[0]


def parse_time(text: str | None) -> datetime | None:
    """An ISO 8601 time as an aware datetime (naive ones in this computer's zone), None when empty or bad."""
    if not text:
        return None
    try:
        return aware(datetime.fromisoformat(text))
    except ValueError:
        return None


def file_time(stamp: float | None) -> str:
    """A file's modification time (seconds) as ISO 8601 in this computer's zone, "" when unknown."""
    if not stamp:
        return ""
    return datetime.fromtimestamp(stamp, timezone.utc).astimezone().isoformat(timespec="seconds")


def lateness(lms_time: str | None, lms_late: bool, due: datetime | None) -> tuple[bool, int]:
    """(late, days late) of one submission, from what the LMS says alone.

    lms_time: the ISO time the LMS wrote, or ""; lms_late: the LMS's own late flag; due: aware
    datetime or None. A flag without an LMS time (Canvas's LATE) is one started day late: a file's
    time never counts the days (a copy or a download changes it).
    """
    submitted = parse_time(lms_time)
    if due is not None and submitted is not None:
        seconds = (submitted - due).total_seconds()
        if seconds > 0:
            return True, math.ceil(seconds / DAY_SECONDS)
        return bool(lms_late), (1 if lms_late else 0)
    if lms_late:
        return True, 1
    return False, 0


# The LMS rules (naming.Unit.kind) whose file names mark every late submission (Canvas's LATE): a
# file of theirs without the mark is on time by the LMS's own word.
LATE_MARKED_IN_NAME = frozenset({"canvas"})


def lateness_known(*, lms_time: str, lms_late: bool, rule: str) -> bool:
    """Whether the LMS says whether a submission was on time: it wrote a submission time, marked it
    late, or marks every late file in its name (`rule`, naming's). A Moodle download or a plain
    folder says nothing: against --due, its students' lateness is unknown."""
    return bool(lms_time) or lms_late or rule in LATE_MARKED_IN_NAME


def deduction(policy: Policy | None, late: bool, days: int) -> float:
    """Percent of the score the policy takes (0 when on time or without a policy)."""
    if policy is None or not late:
        return 0.0
    taken = policy.percent * (days if policy.per_day else 1)
    return min(taken, policy.cap, 100.0)


def penalised(raw_total: float, percent: float) -> float:
    """The total after the deduction, rounded once at the end (to hundredths)."""
    return round(raw_total * (1 - percent / 100), 2)
