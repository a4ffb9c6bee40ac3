"""similar.csv and the report's section of it: the groups and the students not compared, by digests and counts only."""
from __future__ import annotations

import csv
import html
import io
from typing import Any, Mapping, Sequence

from .similar import FILE, THRESHOLD, Group, NotCompared


FILE_NAME = "similar.csv"
CSV_COLUMNS = ("group", "ids", "step", "evidence", "step_score", "score")


def evidence_text(group: Group, step: str, hidden_counts: Mapping[str, int], say: Any) -> str:
    """One cell: what the group shares on a step, by digests and counts only."""
    items = group.evidence.get(step, [])
    answers = [i for i in items if i.kind == "answer"]
    parts = []
    if answers:
        shared = sorted({i.digest[:8] for i in answers})
        holders = min(len(i.holders) for i in answers)
        parts.append(say("similar", "answers", shared=len(answers), hidden=hidden_counts.get(step, len(answers)),
                         digests=", ".join(shared[:4]) + (" …" if len(shared) > 4 else ""), holders=holders))
    for item in (i for i in items if i.kind == "code"):
        parts.append(say("similar", "file_code" if step == FILE else "code", digest=item.digest[:8],
                         holders=len(item.holders)))
    return " / ".join(parts)


def similar_rows(groups: list[Group], hidden_counts: Mapping[str, int], lang: str,
                 uncompared: Sequence[NotCompared] = ()) -> list[dict[str, Any]]:
    """similar.csv's rows: each group's steps, then one row per student not compared in full
    (`group` empty, step FILE, the evidence cell saying why; no score)."""
    from ..core.render.messages import Messages

    say = Messages(lang)
    rows: list[dict[str, Any]] = []
    for number, group in enumerate(groups, 1):
        for step, score in group.steps.items():
            rows.append({"group": number, "ids": " ".join(group.ids), "step": step,
                         "evidence": evidence_text(group, step, hidden_counts, say),
                         "step_score": f"{score:.2f}", "score": f"{group.score:.2f}"})
    for student in uncompared:
        rows.append({"group": "", "ids": student.id, "step": FILE, "evidence": not_compared_text(student, say),
                     "step_score": "", "score": ""})
    return rows


def not_compared_text(student: NotCompared, say: Any) -> str:
    if student.why == "unread":
        return str(say("similar", "not_compared_unread", parts=student.parts))
    return str(say("similar", "not_compared_error", why=student.detail or "?"))


def is_not_compared(row: Mapping[str, Any]) -> bool:
    """Whether a row of similar_rows is a student not compared in full (not a group's)."""
    return row.get("group") == ""


def similar_csv(rows: list[dict[str, Any]]) -> str:
    """similar.csv's text (UTF-8 with BOM, like grades.csv): a header even when no group is listed."""
    from .spreadsheet import spreadsheet_text

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_text(v) if isinstance(v, str) else v for k, v in row.items()})
    return "\ufeff" + buffer.getvalue()


def report_section(rows: list[dict[str, Any]], lang: str, label: Any) -> str:
    """The report's section: a signal for a human, with how it is scored."""
    from ..core.render.messages import Messages

    say = {code: Messages(code) for code in ("ko", "en")}

    def both(key: str, **params: Any) -> str:
        text: str = label.text(say["ko"]("similar", key, **params), say["en"]("similar", key, **params))
        return text

    parts = [f"<h2 id=\"similar\">{both('heading')}</h2>",
             f"<p class=\"note\">{both('explain', threshold=f'{THRESHOLD:.1f}')}</p>"]
    uncompared = [row for row in rows if is_not_compared(row)]
    rows = [row for row in rows if not is_not_compared(row)]
    if uncompared:
        items = "".join(f"<li><strong>{html.escape(str(row['ids']))}</strong>: {html.escape(str(row['evidence']))}</li>"
                        for row in uncompared)
        parts.append(f"<p id=\"not-compared\">{both('not_compared_heading', count=len(uncompared))}</p>"
                     f"<ul class=\"not-compared\">{items}</ul>")
    if not rows:
        parts.append(f"<p>{both('none')}</p>")
        return "".join(parts)
    head = "".join(f"<th scope=\"col\">{both('column_' + c)}</th>" for c in CSV_COLUMNS)
    classes = {"group": ' class="num"', "step_score": ' class="num"', "score": ' class="num"',
               "evidence": ' class="wrap"', "ids": ' class="wrap"'}
    body = "".join("<tr>" + "".join(f"<td{classes.get(c, '')}>{html.escape(str(row[c]))}</td>" for c in CSV_COLUMNS)
                   + "</tr>\n" for row in rows)
    parts.append(f"<div class=\"scroll\"><table class=\"similar\"><thead><tr>{head}</tr></thead>"
                 f"<tbody>\n{body}</tbody></table></div>")
    return "".join(parts)
