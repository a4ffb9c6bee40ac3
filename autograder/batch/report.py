"""grades.csv and report.html from the records of a class: tables with pandas, plots with matplotlib."""
import base64
import html
import io
import multiprocessing
import os
import signal
from collections import Counter
from multiprocessing.connection import wait

import pandas as pd

from ..render import Messages, one_line, printable
from ..sandbox import linux
from ..steps import STEPS, TOTAL_POINTS
from .outputs import grader_version, write_atomic

STEP_NAMES = [step.name for step in STEPS]
COLUMNS = ["id", "name", "file", "submitted_at", "late", "total", "raw_total", "late_penalty", *STEP_NAMES,
           "status"]
TEXT_COLUMNS = ("id", "name", "file", "submitted_at", "late", "status")
TOP_MISTAKES = 5
HANGUL_FONTS = ("Noto Sans CJK KR", "Noto Sans KR", "NanumGothic", "Malgun Gothic", "AppleGothic", "UnDotum")

WORDS = {
    "ko": {"title": "셀프 어텐션 실습 — 반 전체 채점 보고서", "summary": "요약", "students": "학생",
           "files": "받은 파일", "graded": "채점", "broken": "읽을 수 없는 파일", "errors": "채점 오류",
           "superseded": "새 파일로 대체된 파일", "ignored": "제외한 파일",
           "merged": "이름이 다른 학생인데 같은 ID 로 합쳐진 파일 (grades.csv 의 merged 행을 확인하십시오)",
           "mean": "평균", "median": "중앙값", "full": "만점", "histogram": "점수 분포", "pass_rate": "단계별 통과율", "mistakes": "단계별 흔한 실수",
           "step": "단계", "mistake": "실수", "meaning": "뜻", "count": "학생 수", "share": "비율",
           "table": "전체 표", "chosen": "채점한 파일", "older": "대체된 파일", "none": "없음",
           "version": "채점기 버전"},
    "en": {"title": "Self-attention lab — class report", "summary": "Summary", "students": "Students",
           "files": "Files received", "graded": "Graded", "broken": "Unreadable files", "errors": "Grading errors",
           "superseded": "Files superseded by newer ones", "ignored": "Files ignored",
           "merged": "Files of differently named students under one id (check the 'merged' rows)",
           "mean": "Mean", "median": "Median", "full": "Full marks", "histogram": "Score distribution",
           "pass_rate": "Pass rate per step", "mistakes": "Most frequent mistakes per step", "step": "Step",
           "mistake": "Mistake", "meaning": "Meaning", "count": "Students", "share": "Share",
           "table": "All files", "chosen": "Graded file", "older": "Superseded files", "none": "none",
           "version": "Grader version"},
}


def rows_for(student, record):
    """grades.csv rows of one student: the graded file, then every other file and why it was not graded."""
    chosen = student.chosen
    rows = []
    who = {"id": student.id, "name": student.name}
    if chosen is not None:
        late = record.get("late") or {}
        rows.append({**who, "file": record["file"], "submitted_at": student.submitted_at,
                     "late": "yes" if late.get("late") else "no", "total": record["total"],
                     "raw_total": record.get("raw_total", record["total"]), "late_penalty": late.get("percent", 0.0),
                     **{name: record["steps"][name]["score"] for name in STEP_NAMES}, "status": record["status"]})
    for entry in student.superseded:
        if entry.path == chosen.path:
            status = f"superseded by {chosen.path} (archive member {chosen.index + 1}, the same name)"
        elif student.merged and entry.owner != chosen.owner:
            status = f"merged: superseded by {chosen.path}, a file of another name ({chosen.owner})"
        else:
            status = f"superseded by {chosen.path}"
        rows.append({**who, "file": entry.path, "status": status})
    for entry, reason in student.ignored:
        rows.append({**who, "file": entry.path, "status": f"ignored: {reason}"})
    return rows


def grades_table(rows):
    return pd.DataFrame(rows, columns=COLUMNS)


# A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_text(value):
    """A text cell no spreadsheet runs: control characters made visible, a formula start quoted
    with a leading "'" (OWASP's CSV injection advice). Numbers are left alone."""
    if not isinstance(value, str):
        return value
    text = printable(value, newlines=False)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write_grades(path, table):
    safe = table.copy()
    for column in TEXT_COLUMNS:
        safe[column] = safe[column].map(spreadsheet_text)
    # utf-8-sig: spreadsheet programs then read Korean names correctly.
    write_atomic(path, "\ufeff" + safe.to_csv(index=False))


def write_report(path, table, records, lang):
    write_atomic(path, report_html(table, records, lang))


PREPARE = "prepare"


class ReportWriter:
    """Writes report.html in a process started before grading, which loads matplotlib meanwhile.

    Loading matplotlib and its fonts takes a few tenths of a second; done while the class is
    graded (once prepare() says grading is under way, so it does not slow the start), it is no
    longer part of the run's single-core end. If that process fails or is gone, the report is
    written here instead.
    """

    def __init__(self, lang):
        context = multiprocessing.get_context("fork")
        self._connection, theirs = context.Pipe()
        self._process = context.Process(target=_serve_one_report, args=(theirs, lang, os.getpid()),
                                        daemon=True, name="report-writer")
        self._process.start()
        theirs.close()
        self._prepared = False

    def prepare(self):
        """Load matplotlib now; once is enough."""
        if not self._prepared:
            self._prepared = True
            try:
                self._connection.send(PREPARE)
            except OSError:
                pass

    def write(self, path, table, records, lang):
        try:
            self._connection.send((path, table, records, lang))
            wait([self._connection, self._process.sentinel])
            if self._connection.poll() and self._connection.recv() is None:
                return
        except (OSError, EOFError):
            pass
        finally:
            self.close()
        write_report(path, table, records, lang)

    def close(self):
        """Stop the process (if still running); safe to call more than once."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._connection.close()


def _serve_one_report(connection, lang, parent):
    linux.die_with_parent(parent, 0)
    linux.name_process("report-writer")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the batch decides how an interrupt ends
    try:
        job = connection.recv()
        if job == PREPARE:
            _pyplot(lang)
            job = connection.recv()
    except (EOFError, OSError):
        return
    try:
        write_report(*job)
    except Exception as error:  # the batch writes the report itself, and sees the error there
        connection.send(repr(error))
    else:
        connection.send(None)


def class_counts(table, records):
    """The class in numbers, as both the terminal summary and report.html give them.

    Counted from the statuses in grades.csv: "graded" is a file graded as readable code, a broken
    or unreadable one is counted under "broken" only.
    """
    totals = pd.Series([r["total"] for r in records], dtype=float)
    statuses = table["status"].fillna("")
    return {
        "students": len(records), "files": len(table),
        "graded": int((statuses == "graded").sum()), "broken": int(statuses.str.startswith("broken").sum()),
        "errors": int(statuses.str.startswith("error").sum()),
        "superseded": int(statuses.str.startswith("superseded").sum()),
        "ignored": int(statuses.str.startswith("ignored").sum()),
        "merged": int(statuses.str.startswith("merged").sum()),
        "mean": f"{totals.mean():.2f}" if len(totals) else "–",
        "median": f"{totals.median():.2f}" if len(totals) else "–",
        "full": int((totals >= TOTAL_POINTS).sum()),
    }


def report_html(table, records, lang):
    words = WORDS[lang]
    say = Messages(lang)
    counts = class_counts(table, records)
    totals = pd.Series([r["total"] for r in records], dtype=float)
    summary = "".join(f"<tr><th>{html.escape(words[key])}</th><td>{value}</td></tr>" for key, value in counts.items())
    pass_rates = {name: _share([r["steps"][name]["status"] == "passed" for r in records]) for name in STEP_NAMES}
    parts = [
        f"<h1>{html.escape(words['title'])}</h1>",
        f"<p>{html.escape(words['version'])}: <code>{html.escape(grader_version())}</code></p>",
        f"<h2>{html.escape(words['summary'])}</h2><table class=\"summary\">{summary}</table>",
        f"<h2>{html.escape(words['histogram'])}</h2>", _png(_histogram(totals, lang), words["histogram"]),
        f"<h2>{html.escape(words['pass_rate'])}</h2>", _png(_pass_rate_plot(pass_rates, lang), words["pass_rate"]),
        f"<h2>{html.escape(words['mistakes'])}</h2>", _mistakes_table(records, words, say),
        f"<h2>{html.escape(words['superseded'])}</h2>", _superseded_table(records, words),
        f"<h2>{html.escape(words['table'])}</h2>",
        _displayed(table).to_html(index=False, na_rep="", classes="grades", border=0,
                                  float_format=lambda v: f"{v:g}"),
    ]
    style = ("body{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}"
             "table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.2rem .5rem;"
             "text-align:left}img{max-width:100%}")
    return (f"<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(words['title'])}</title><style>{style}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")


def _displayed(table):
    """The table as shown: control characters in names made visible (pandas escapes the HTML)."""
    shown = table.copy()
    for column in TEXT_COLUMNS:
        shown[column] = shown[column].map(lambda v: one_line(v) if isinstance(v, str) else v)
    return shown


def _share(flags):
    return sum(flags) / len(flags) if flags else 0.0


def _mistakes_table(records, words, say):
    """Mistakes in the code students wrote; unreadable files and grading errors are counted above."""
    graded = [r for r in records if r["status"] == "graded"]
    rows = []
    for name in STEP_NAMES:
        counter = Counter(code for r in graded for code in r["steps"][name]["mistakes"])
        for code, count in counter.most_common(TOP_MISTAKES):
            rows.append({words["step"]: name, words["mistake"]: code,
                         words["meaning"]: say.stepwise("title", name, code),
                         words["count"]: count, words["share"]: f"{100 * count / len(graded):.0f}%"})
    if not rows:
        return f"<p>{html.escape(words['none'])}</p>"
    return pd.DataFrame(rows).to_html(index=False, border=0, classes="mistakes")


def _superseded_table(records, words):
    rows = [{words["students"]: one_line(r["id"]), words["chosen"]: one_line(r["file"]),
             words["older"]: ", ".join(one_line(name) for name in r["superseded"])}
            for r in records if r["superseded"]]
    if not rows:
        return f"<p>{html.escape(words['none'])}</p>"
    return pd.DataFrame(rows).to_html(index=False, border=0, classes="superseded")


def _pyplot(lang):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager, pyplot

    available = {font.name for font in font_manager.fontManager.ttflist}
    hangul = next((name for name in HANGUL_FONTS if name in available), None)
    if hangul:
        pyplot.rcParams["font.family"] = hangul
    # Without a Hangul font Korean labels would show as boxes, so the axes fall back to English.
    return pyplot, ("ko" if lang == "ko" and hangul else "en")


AXES = {"ko": {"score": "총점 (k: k점 이상 k+1점 미만)", "students": "학생 수", "pass": "통과율 (%)"},
        "en": {"score": "total (k: from k to below k + 1)", "students": "students", "pass": "passed (%)"}}


def _histogram(totals, lang):
    pyplot, axes_lang = _pyplot(lang)
    figure, axis = pyplot.subplots(figsize=(7, 3.2))
    # Bin k holds totals from k up to (not including) k + 1, so full marks stand alone.
    edges = list(range(int(TOTAL_POINTS) + 2))
    axis.hist(totals.dropna(), bins=edges, color="#4c72b0", edgecolor="white")
    axis.set_xlabel(AXES[axes_lang]["score"])
    axis.set_ylabel(AXES[axes_lang]["students"])
    axis.set_xticks([k + 0.5 for k in edges[:-1]], [str(k) for k in edges[:-1]])
    axis.yaxis.get_major_locator().set_params(integer=True)
    return figure


def _pass_rate_plot(pass_rates, lang):
    pyplot, axes_lang = _pyplot(lang)
    figure, axis = pyplot.subplots(figsize=(7, 3.2))
    names = list(pass_rates)
    values = [100 * pass_rates[n] for n in names]
    bars = axis.bar(names, values, color="#55a868")
    axis.bar_label(bars, labels=[f"{v:.0f}%" for v in values])
    axis.set_ylim(0, 110)
    axis.set_ylabel(AXES[axes_lang]["pass"])
    axis.tick_params(axis="x", labelrotation=15)
    return figure


def _png(figure, alt):
    from matplotlib import pyplot

    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    pyplot.close(figure)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img alt=\"{html.escape(alt)}\" src=\"data:image/png;base64,{encoded}\">"
