"""report.html: the class's page, its summary, tables and sections as HTML in the run's language."""
from __future__ import annotations

import html
import urllib.parse
from collections import Counter
from datetime import datetime
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core import pictures
from ..core.render.messages import Messages
from ..core.render.text import one_line
from .grades import SHOWN_STATUS, Listed, Records, class_counts, graded_records
from .late import LmsZone
from ..whole_file import write_atomic
from .run_files import REVIEW
from .report_plots import _figure, _histogram, _pass_rate_plot
from .similar_table import report_section as similar_section
from .version import grader_version

if TYPE_CHECKING:
    from ..core.lab import Lab

Cell = tuple[str, str]  # (the cell's HTML, its attributes)

TOP_MISTAKES = 5


def write_report(path: str, table: pd.DataFrame, records: Records, lab: Lab, lang: str,
                 counts: dict[str, int | str] | None = None, listed: Listed = (),
                 similar: Iterable[dict[str, Any]] = (), times: tuple[str, str] | None = None) -> None:
    write_atomic(path, report_html(table, records, lab, lang, counts, listed, similar, times))


WRAPPED_COLUMNS = ("file", "status")
# The full table shows who, the total and the status first, so the status is in view at 1280 px
# without scrolling sideways; grades.csv keeps its documented order.
SHOWN_FIRST = ("id", "name", "total", "status")
NUMERIC_COLUMNS = ("total", "raw_total", "late_penalty", "automatic_total")  # and every step's column
TRUE_TEXTS = {"true", "yes", "1", "late", "y"}

# Korean-first: Linux (Noto CJK), macOS, Windows, older Linux and Windows fonts, then any sans-serif.
FONT_STACK = ('"Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", "맑은 고딕", '
              '"NanumGothic", "NanumBarunGothic", system-ui, sans-serif')
STYLE = (":root{font-family:" + FONT_STACK + "}"
         "body{max-width:72rem;margin:2rem auto;padding:0 1rem;line-height:1.5;word-break:keep-all;"
         "overflow-wrap:break-word}"
         ".scroll{overflow-x:auto;max-width:100%}"
         "table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.2rem .5rem;"
         "text-align:left;vertical-align:top}th{white-space:nowrap}"
         "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
         "table.grades td{white-space:nowrap}"
         "td.wrap{white-space:normal!important;min-width:12rem;max-width:24rem;overflow-wrap:anywhere}"
         "td.name{white-space:normal!important;min-width:6rem;max-width:12rem;overflow-wrap:anywhere}"
         "td.id{white-space:normal!important;min-width:8rem;max-width:12rem;overflow-wrap:anywhere}table.grades thead th{position:sticky;top:0;background:#f6f8fa}"
         "th button{font:inherit;font-weight:bold;border:0;background:none;padding:0;cursor:pointer;"
         "text-align:left;color:inherit}"
         "th[aria-sort=ascending] button::after{content:' \\25B2'}"
         "th[aria-sort=descending] button::after{content:' \\25BC'}"
         "figure{margin:.5rem 0}figcaption{color:#555;font-size:.9rem}img{max-width:100%;height:auto}"
         ".note{color:#555;font-size:.9rem}")

# Sorts a table.sortable by the clicked column: numbers (data-sort) as numbers, text in natural order.
SORT_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  function key(cell) {
    var value = cell.getAttribute("data-sort");
    return value !== null && value !== "" && !isNaN(value) ? parseFloat(value) : cell.textContent.trim();
  }
  Array.prototype.forEach.call(heads, function (th, column) {
    var button = document.createElement("button");
    button.type = "button";
    while (th.firstChild) button.appendChild(th.firstChild);
    th.appendChild(button);
    button.addEventListener("click", function () {
      var direction = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", direction === 1 ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a.cells[column]), y = key(b.cells[column]);
        if (typeof x === "number" && typeof y === "number") return (x - y) * direction;
        if (typeof x === "number") return -1;
        if (typeof y === "number") return 1;
        return x.localeCompare(y, undefined, {numeric: true}) * direction;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""

# A Korean page on a machine with no Hangul font: two different syllables drawn alike are both
# the missing-glyph box, so the labels switch to their English twins (names stay as they are).
HANGUL_FALLBACK_SCRIPT = """
(function () {
  var canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  var context = canvas.getContext("2d");
  if (!context) return;
  var family = getComputedStyle(document.documentElement).fontFamily;
  function pixels(text) {
    context.clearRect(0, 0, 32, 32);
    context.font = "24px " + family;
    context.fillText(text, 2, 26);
    return Array.prototype.join.call(context.getImageData(0, 0, 32, 32).data);
  }
  if (pixels("\\uac00") !== pixels("\\ud7a3")) return;
  document.documentElement.lang = "en";
  document.documentElement.setAttribute("data-hangul", "missing");
  document.querySelectorAll("[data-en]").forEach(function (element) {
    element.textContent = element.getAttribute("data-en");
  });
})();
"""


class Labels:
    """The catalogs' [report] words in the run's language, as HTML; on a Korean page each carries
    its English twin (data-en)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.say, self.english = Messages(lang), Messages("en")

    def __call__(self, key: str, **params: object) -> str:
        return self.text(self.say("report", key, **params), self.english("report", key, **params))

    def text(self, korean: str, english: str) -> str:
        if self.lang == "en":
            return html.escape(english)
        return f"<span data-en=\"{html.escape(english)}\">{html.escape(korean)}</span>"


def report_html(table: pd.DataFrame, records: Records, lab: Lab, lang: str,
                counts: dict[str, int | str] | None = None, listed: Listed = (),
                similar: Iterable[dict[str, Any]] = (), times: tuple[str, str] | None = None) -> str:
    """The class report; `counts` are the batch's own (the CLI summary's), else counted here;
    `listed`: the LMS files that are not submissions (lms_files); `times`: the sentence saying
    which zone times are shown in, in Korean and English (times_note)."""
    label = Labels(lang)
    counts = class_counts(table, records, lab, listed) if counts is None else counts
    totals = pd.Series([r["total"] for r in records], dtype=float)
    words = label.say.table["report"]
    summary = "".join(f"<tr><th>{label(str(key)) if key in words else html.escape(str(key))}</th>"
                      f"<td class=\"num\">{html.escape(str(value))}</td></tr>" for key, value in counts.items())
    # Every rate per step counts the students whose file was graded as code, and says so (DENOMINATOR).
    graded = graded_records(records)
    pass_rates = {name: _share([r["steps"][name]["status"] == "passed" for r in graded])
                  for name in lab.function_names}
    titles = {code: f"{lab.title(code)} — {Messages(code)('report', 'title')}" for code in ("ko", "en")}
    title = titles[lang]
    statuses = table["status"].fillna("") if "status" in table else pd.Series([], dtype=str)
    denominator = label("denominator", graded=len(graded), students=len(records),
                        broken=int(statuses.str.startswith("broken").sum()),
                        errors=int(statuses.str.startswith("error").sum()))
    parts = [
        f"<h1>{label.text(titles['ko'], titles['en'])}</h1>",
        f"<p>{label('version')}: <code>{html.escape(grader_version(lab))}</code></p>",
        *([f"<p class=\"note\" id=\"times\">{label.text(*times)}</p>"] if times else []),
        f"<h2>{label('summary')}</h2><div class=\"scroll\"><table class=\"summary\">{summary}</table></div>",
        f"<p class=\"note\" id=\"denominator\">{denominator}</p>",
        f"<h2>{label('histogram')}</h2>",
        _figure(_histogram(totals, lang, lab.total_points), label.say("report", "histogram"),
                label("caption_histogram")),
        f"<h2>{label('pass_rate')}</h2>",
        _figure(_pass_rate_plot(pass_rates, lang), label.say("report", "pass_rate"),
                label("caption_pass_rate", graded=len(graded))),
        f"<h2>{label('mistakes')}</h2>", _mistakes_table(graded, label, lab),
        f"<h2>{label('cells')}</h2>", f"<p class=\"note\">{label('caption_cells', graded=len(graded))}</p>",
        _cell_maps(graded, label, lab, lang),
        f"<h2>{label('superseded')}</h2>", _superseded_table(records, label),
        f"<h2>{label('lms_section')}</h2>", _lms_table(listed, label),
        *_overrides_section(records, label),
        similar_section(list(similar), lang, label),
        f"<h2>{label('table')}</h2>", f"<p class=\"note\">{label('caption_sort')}</p>",
        _grades_table(table, {r["id"] for r in records}, label, set(lab.function_names)),
    ]
    scripts = SORT_SCRIPT + (HANGUL_FALLBACK_SCRIPT if lang == "ko" else "")
    return (f"<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(parts) + f"\n<script>{scripts}</script>\n</body></html>\n")


def _html_table(css_class: str, headers: Iterable[str], rows: Iterable[Iterable[Cell]]) -> str:
    """A table in a box that scrolls sideways by itself; headers are HTML, each row a list of
    (cell HTML, attributes) pairs."""
    head = "".join(f"<th scope=\"col\">{header}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td{attributes}>{cell}</td>" for cell, attributes in row) + "</tr>\n"
                   for row in rows)
    return (f"<div class=\"scroll\"><table class=\"{css_class}\"><thead><tr>{head}</tr></thead>"
            f"<tbody>\n{body}</tbody></table></div>")


def _grades_table(table: pd.DataFrame, linked: set[str], label: Labels, step_columns: set[str]) -> str:
    """Every row of grades.csv, sortable; each id links to that student's feedback/<id>.html."""
    if SHOWN_STATUS in table.columns:  # the status as people read it, in the report's language
        shown = [words if isinstance(words, dict) else code for words, code in zip(table[SHOWN_STATUS], table["status"])]
        table = table.assign(status=pd.Series(shown, index=table.index, dtype=object))
        table = table.drop(columns=[SHOWN_STATUS])
    columns = [c for c in SHOWN_FIRST if c in table.columns] + [c for c in table.columns if c not in SHOWN_FIRST]
    words = label.say.table["report"]
    headers = [label(f"column_{c}") if f"column_{c}" in words else html.escape(c) for c in columns]
    rows: list[list[Cell]] = []
    for values in table[columns].itertuples(index=False):
        row: list[Cell] = []
        for column, value in zip(columns, values):
            row.append(_grades_cell(column, value, linked, label, column in step_columns))
        rows.append(row)
    return _html_table("grades sortable", headers, rows)


def _grades_cell(column: str, value: object, linked: set[str], label: Labels, is_step: bool = False) -> Cell:
    missing = value is None or (isinstance(value, float) and value != value)
    if column in NUMERIC_COLUMNS or is_step:
        if missing or not isinstance(value, (int, float)):
            return ("" if missing else html.escape(one_line(value)), " class=\"num\"")
        return (f"{value:g}", f" class=\"num\" data-sort=\"{value!r}\"")
    if missing:
        return ("", "")
    if column == "status" and isinstance(value, dict):
        return (_status_cell(value, label), " class=\"wrap\"")
    if column == "late":
        truthy = value is True or str(value).strip().lower() in TRUE_TEXTS
        falsy = value is False or str(value).strip().lower() in ("", "false", "no", "0")
        if truthy or falsy:
            return (label("late_yes") if truthy else "", "")
    text = html.escape(one_line(value))
    if column == "id" and value in linked:
        target = urllib.parse.quote(f"feedback/{value}.html")
        return (f"<a href=\"{html.escape(target)}\">{text}</a>", " class=\"id\"")
    if column == "id":
        return (text, " class=\"id\"")
    # Long free text wraps in a column of readable width; ids, times and words stay on one line.
    return (text, " class=\"wrap\"" if column in WRAPPED_COLUMNS else " class=\"name\"" if column == "name" else "")


def _status_cell(status: object, label: Labels) -> str:
    """A status as HTML: {lang: text} (SHOWN_STATUS) in the page's language with its English twin,
    else the code as it is."""
    if isinstance(status, dict):
        return label.text(one_line(status.get(label.lang, "")), one_line(status.get("en", "")))
    return html.escape(one_line(status))


def _share(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def times_note(zone: LmsZone) -> tuple[str, str]:
    """(Korean, English) sentence of the zone every time of the run is shown in (LmsZone.shown)."""
    if zone.tz is None:  # this computer's zone: its offset now
        offset = datetime.now().astimezone().strftime("%z")
        shown = f"UTC{offset[:3]}:{offset[3:]}"
    else:
        shown = f"UTC{zone.label}" if zone.label[:1] in "+-" else zone.label
    said = []
    for lang in ("ko", "en"):
        say = Messages(lang)
        source = say("grade", "zone_lms", label=zone.label) if zone.source == "--lms-timezone" else \
            say("grade", "zone_due" if zone.source == "--due" else "zone_computer")
        said.append(say("report", "times", zone=shown, source=source))
    return said[0], said[1]


def _mistakes_table(graded: Records, label: Labels, lab: Lab) -> str:
    """Mistakes in the code students wrote (`graded`: graded_records); unreadable files and
    grading errors are counted above."""
    say = {lang: Messages(lang, lab) for lang in ("ko", "en")}
    rows: list[list[Cell]] = []
    for name in lab.function_names:
        counter = Counter(code for r in graded for code in r["steps"][name]["mistakes"])
        for code, count in counter.most_common(TOP_MISTAKES):
            meaning = label.text(say["ko"].stepwise("title", name, code), say["en"].stepwise("title", name, code))
            example = min(r["id"] for r in graded if code in r["steps"][name]["mistakes"])
            link = html.escape(urllib.parse.quote(f"feedback/{example}.html") + f"#step-{name}")
            rows.append([(html.escape(name), ""), (f"<code>{html.escape(code)}</code>", ""), (meaning, ""),
                         (str(count), f" class=\"num\" data-sort=\"{count}\""),
                         (f"{100 * count / len(graded):.0f}%", f" class=\"num\" data-sort=\"{count}\""),
                         (f"<a href=\"{link}\">{html.escape(one_line(example))}</a>", "")])
    if not rows:
        return f"<p>{label('none')}</p>"
    headers = [label(key) for key in ("step", "mistake", "meaning", "count", "share", "example")]
    return _html_table("mistakes sortable", headers, rows)


def _cell_maps(graded: Records, label: Labels, lab: Lab, lang: str) -> str:
    """Per step, the share of graded students (graded_records) who had each cell of the page's case wrong."""
    parts: list[str] = []
    for name in lab.function_names:
        cells = [r["steps"][name].get("wrong_cells") for r in graded]
        drawn = pictures.class_map_html(cells, len(graded), lang)
        if drawn:
            parts.append(f"<h3>{html.escape(name)}</h3>{drawn}")
    return "".join(parts) or f"<p>{label('none')}</p>"


def _superseded_table(records: Records, label: Labels) -> str:
    rows = [[(html.escape(one_line(r["id"])), ""), (html.escape(one_line(r["file"])), ""),
             (html.escape(", ".join(one_line(name) for name in r["superseded"])), "")]
            for r in records if r["superseded"]]
    if not rows:
        return f"<p>{label('none')}</p>"
    return _html_table("superseded sortable", [label(key) for key in ("students", "chosen", "older")], rows)


def _lms_table(listed: Listed, label: Labels) -> str:
    """The LMS's own files (receipts, online text, submission lists, grade sheets) and the TA's
    files beside an export's units: read or listed, never graded, never rows of grades.csv."""
    rows = [[(html.escape(one_line(item["id"])), ""), (html.escape(one_line(item["name"])), ""),
             (html.escape(one_line(item["file"])), " class=\"wrap\""),
             (_status_cell(item.get(SHOWN_STATUS) or item["status"], label), " class=\"wrap\"")] for item in listed]
    if not rows:
        return f"<p>{label('none')}</p>"
    headers = [label("column_id"), label("name"), label("file"), label("what")]
    return _html_table("lms sortable", headers, rows)


def _overrides_section(records: Records, label: Labels) -> list[str]:
    """Every override of the run, those under review first; nothing when the run has none."""
    entries = [(r["id"], e) for r in records for e in r.get("overrides") or ()]
    if not entries:
        return []
    entries.sort(key=lambda pair: (pair[1]["state"] != REVIEW, pair[1]["line"]))
    rows: list[list[Cell]] = []
    for student, entry in entries:
        state = label(f"override_{entry['state']}")
        rows.append([(html.escape(one_line(student)), " class=\"id\""), (html.escape(entry["step"]), ""),
                     (f"{entry['written_against']:g}", " class=\"num\""), (f"{entry['automatic']:g}", " class=\"num\""),
                     (f"{entry['points']:g}", " class=\"num\""), (html.escape(one_line(entry["by"])), ""),
                     (html.escape(one_line(entry["comment"])), " class=\"wrap\""),
                     (f"<strong>{state}</strong>" if entry["state"] == REVIEW else state, " class=\"wrap\""),
                     (str(entry["line"]), " class=\"num\"")])
    headers = [label("column_id"), label("step")] + [
        label(f"override_{key}") for key in ("against", "automatic", "points", "by", "comment", "state", "line")]
    return [f"<h2 id=\"overrides\">{label('override_heading')}</h2>",
            _html_table("overrides sortable", headers, rows)]
