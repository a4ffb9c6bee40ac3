"""Heat-maps of a failed table: the student's values, the expected ones and their difference.

Pure: a StepResult (or plain lists) in, an HTML fragment of inline SVG out. No script, no
network, no dependency beyond numpy; text stays text, in a declared Korean-first font stack.
Fills carry their own text colour, labels use `currentColor`: readable on light and dark pages.
"""
from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import numpy as np

from .case_detail import WrongShape, WrongValues
from .tolerance import RTOL, atol_for

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from numpy.typing import NDArray

    from .case_detail import Tables
    from .verdict import CaseResult, StepResult

    # A table as a failed test keeps it (case_detail.Table): rows of numbers ("nan", "inf", "-inf"
    # as text), one level deeper for a stack of tables; or plain lists of them; or the array itself.
    Table = Sequence[Any] | NDArray[Any]

FONT_STACK = ('"Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", "맑은 고딕", '
              '"NanumGothic", "NanumBarunGothic", system-ui, sans-serif')
CELL_W, CELL_H, FONT = 54, 26, 12
LABELS = {
    "ko": {"got": "제출한 값", "expected": "기대한 값", "difference": "차이 (제출 − 기대)",
           "table": "{n}번째 표", "sums": "행 합", "column_sums": "열 합", "case": "{case} 테스트의 값",
           "legend": "굵은 테두리: 허용 오차(rtol={rtol:g}, atol={atol:.2g})를 벗어난 칸 {bad}개 / {total}개"},
    "en": {"got": "Your values", "expected": "Expected", "difference": "Difference (yours − expected)",
           "table": "table {n}", "sums": "row sum", "column_sums": "column sum", "case": "values on the {case} case",
           "legend": "Thick outline: the {bad} of {total} cells outside the tolerance (rtol={rtol:g}, atol={atol:.2g})"},
}
STYLE = (".ag-maps{font-family:" + FONT_STACK + ";margin:.5rem 0}"
         ".ag-maps .ag-row{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}"
         ".ag-maps figure{margin:0}.ag-maps figcaption{font-size:.85rem;font-weight:bold}"
         ".ag-maps .ag-legend{font-size:.85rem;margin:.25rem 0}")


def mismatched(got: NDArray[np.float64], expected: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Cells outside the judge's tolerance (same rule as compare.check_array)."""
    with np.errstate(all="ignore"):
        return ~np.isclose(got, expected, rtol=RTOL, atol=atol_for(expected), equal_nan=True)


def as_floats(values: Table) -> NDArray[np.float64]:
    return np.asarray([[*map(float, row)] for row in values] if np.ndim(values) == 2 else
                      [[[*map(float, row)] for row in table] for table in values], dtype=float)


def step_maps(result: StepResult, lang: str = "ko", page: str = "page", names: Mapping[str, str] | None = None) -> str:
    """The maps of the step's failed table on the page's case (else its first public failure with
    values); "" when there is nothing to draw (passed, a mapping, a value too large or not a table).
    `names`: {case id: the name students read} (render.messages.case_names)."""
    failed = [(c, tables) for c in result.cases if not c.passed and not c.hidden
              and (tables := drawn_tables(c)) is not None]
    if not failed:
        return ""
    case, v = next(((c, tables) for c, tables in failed if c.case == page), failed[0])
    output = case.detail.output if isinstance(case.detail, (WrongShape, WrongValues)) else ""
    return maps_html(v.got, v.expected, v.words, v.columns, v.rows_sum_to_one, lang,
                     caption=f"{output} — "
                             + LABELS[lang]["case"].format(case=(names or {}).get(case.case, case.case)))


def drawn_tables(case: CaseResult) -> Tables | None:
    """The whole tables a failed test keeps for the heat-maps (compare.check_array), if any."""
    return case.detail.tables if isinstance(case.detail, (WrongShape, WrongValues)) else None


def maps_html(got: Table, expected: Table, words: Sequence[str], columns: str = "features",
              rows_sum_to_one: bool = False, lang: str = "ko", caption: str = "") -> str:
    """One row of three maps per table (a 3-D value is a stack of tables, one row each)."""
    say = LABELS[lang]
    got, expected = as_floats(got), as_floats(expected)
    same = got.shape == expected.shape
    bad = mismatched(got, expected) if same else None
    got3, expected3 = (a if a.ndim == 3 else a[None] for a in (got, expected))
    bad3 = None if bad is None else (bad if bad.ndim == 3 else bad[None])
    parts = [f'<div class="ag-maps"><style>{STYLE}</style>']
    if caption:
        parts.append(f'<p class="ag-legend"><b>{html.escape(caption)}</b></p>')
    for t in range(max(len(got3), len(expected3))):
        if len(got3) > 1 or len(expected3) > 1:
            parts.append(f'<p class="ag-legend">{html.escape(say["table"].format(n=t + 1))}</p>')
        g = got3[t] if t < len(got3) else None
        e = expected3[t] if t < len(expected3) else None
        b = None if bad3 is None else bad3[t]
        pieces = [a[np.isfinite(a)] for a in (g, e) if a is not None]
        finite = np.concatenate(pieces) if pieces else np.zeros(1)
        scale = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        maps = []
        for key, table in (("got", g), ("expected", e)):
            if table is not None:
                maps.append(_figure(say[key], _svg(table, words, columns, b, scale, rows_sum_to_one, say, key)))
        if same and g is not None and e is not None:  # same shapes: a table of each, always
            with np.errstate(all="ignore"):
                diff = g - e
            reach = np.abs(diff[np.isfinite(diff)])
            reach = float(reach.max()) if reach.size and reach.max() > 0 else 1.0
            maps.append(_figure(say["difference"], _svg(diff, words, columns, b, (-reach, reach), False, say,
                                                       "difference")))
        parts.append('<div class="ag-row">' + "".join(maps) + "</div>")
    if bad is not None:
        parts.append('<p class="ag-legend">' + html.escape(say["legend"].format(
            bad=int(bad.sum()), total=int(bad.size), rtol=RTOL, atol=atol_for(expected))) + "</p>")
    return "".join(parts) + "</div>"


def _figure(title: str, svg: str) -> str:
    return f"<figure><figcaption>{html.escape(title)}</figcaption>{svg}</figure>"


def _text_width(text: str, size: float = FONT) -> float:
    return sum(size * (1.0 if ord(ch) > 0x2e80 else 0.62) for ch in text)


def _labels(words: Sequence[str], count: int, as_words: bool) -> list[str]:
    if as_words:
        return [f"{i + 1} {words[i]}" if i < len(words) else str(i + 1) for i in range(count)]
    return [str(i + 1) for i in range(count)]


def _svg(table: NDArray[np.float64], words: Sequence[str], columns: str, bad: NDArray[np.bool_] | None,
         scale: tuple[float, float], sums: bool, say: Mapping[str, str], kind: str,
         number: Callable[[float], str] | None = None) -> str:
    rows, cols = table.shape
    # A table of another shape (a transposed answer) has no words where they would be.
    row_labels = _labels(words, rows, rows == len(words))
    col_labels = _labels(words, cols, columns == "words" and cols == len(words))
    left = int(max(_text_width(s) for s in row_labels) + 10)
    top = 22
    extra = CELL_W + 8 if sums else 0
    bottom = CELL_H + 4 if sums else 4
    width, height = left + cols * CELL_W + extra + 2, top + rows * CELL_H + bottom
    out = [f'<svg class="ag-map ag-{kind}" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family=\'{FONT_STACK}\' font-size="{FONT}" role="img">']
    for j, label in enumerate(col_labels):
        out.append(f'<text class="ag-col" x="{left + (j + .5) * CELL_W:.1f}" y="{top - 7}" text-anchor="middle" '
                   f'fill="currentColor">{html.escape(label)}</text>')
    for i, label in enumerate(row_labels):
        out.append(f'<text class="ag-rowlabel" x="{left - 6}" y="{top + (i + .5) * CELL_H + 4:.1f}" '
                   f'text-anchor="end" fill="currentColor">{html.escape(label)}</text>')
    outlines = []
    for i in range(rows):
        for j in range(cols):
            value = table[i, j]
            fill, ink = _colour(value, scale, kind == "difference")
            x, y = left + j * CELL_W, top + i * CELL_H
            out.append(f'<rect class="ag-cell" data-row="{i}" data-col="{j}" x="{x}" y="{y}" width="{CELL_W}" '
                       f'height="{CELL_H}" fill="{fill}" stroke="#888" stroke-width=".5"/>'
                       f'<text x="{x + CELL_W / 2:.1f}" y="{y + CELL_H / 2 + 4:.1f}" text-anchor="middle" '
                       f'fill="{ink}">{(number or _number)(value)}</text>')
            if bad is not None and bad.shape == table.shape and bad[i, j]:
                outlines.append(f'<rect class="ag-bad" data-row="{i}" data-col="{j}" x="{x + 1.5}" y="{y + 1.5}" '
                                f'width="{CELL_W - 3}" height="{CELL_H - 3}" fill="none" stroke="#000" '
                                f'stroke-width="3"/><rect x="{x + 1.5}" y="{y + 1.5}" width="{CELL_W - 3}" '
                                f'height="{CELL_H - 3}" fill="none" stroke="#ffb000" stroke-width="1.5"/>')
    out.extend(outlines)
    if sums:
        with np.errstate(all="ignore"):
            row_sums, col_sums = table.sum(axis=1), table.sum(axis=0)
        x = left + cols * CELL_W + 8
        out.append(f'<text x="{x + CELL_W / 2:.1f}" y="{top - 7}" text-anchor="middle" fill="currentColor">Σ '
                   f'{html.escape(say["sums"])}</text>')
        for i, total in enumerate(row_sums):
            out.append(_sum_cell(x, top + i * CELL_H, total, "ag-rowsum"))
        y = top + rows * CELL_H + 4
        for j, total in enumerate(col_sums):
            out.append(_sum_cell(left + j * CELL_W, y, total, "ag-colsum"))
        out.append(f'<text x="{left - 6}" y="{y + CELL_H / 2 + 4:.1f}" text-anchor="end" fill="currentColor">'
                   f'Σ {html.escape(say["column_sums"])}</text>')
    out.append("</svg>")
    return "".join(out)


def _sum_cell(x: float, y: float, total: float, kind: str) -> str:
    one = bool(np.isfinite(total) and abs(total - 1.0) <= 1e-3)
    fill, ink = ("#d3f0d3", "#0b4d0b") if one else ("#ffd6d6", "#7a0000")
    mark = "✓" if one else "✗"
    return (f'<rect class="{kind}" x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" stroke="#888" '
            f'stroke-width=".5"/><text x="{x + CELL_W / 2:.1f}" y="{y + CELL_H / 2 + 4:.1f}" text-anchor="middle" '
            f'fill="{ink}">{_number(total)}{mark}</text>')


def _number(value: float) -> str:
    if np.isnan(value):
        return "nan"
    if np.isinf(value):
        return "∞" if value > 0 else "−∞"
    text = f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}" if abs(value) < 1000 else f"{value:.2g}"
    return "0.000" if text in ("-0.000",) else text.replace("-", "−")


def _colour(value: float, scale: tuple[float, float], diverging: bool) -> tuple[str, str]:
    """(fill, text colour): white→blue for values, blue↔white↔red for differences; grey if not finite."""
    if not np.isfinite(value):
        return "#9e9e9e", "#000"
    low, high = scale
    if diverging:
        t = 0.0 if high == 0 else max(-1.0, min(1.0, value / high))
        end = (202, 0, 32) if t > 0 else (5, 113, 176)
        t = abs(t)
    else:
        # Halved before subtracting: a student's ±1.7e308 spans more than a float holds.
        span = high / 2 - low / 2
        t = 0.0 if span <= 0 else max(0.0, min(1.0, (value / 2 - low / 2) / span))
        end = (8, 69, 148)
    t = t if np.isfinite(t) else 0.0
    r, g, b = (round(255 + (c - 255) * t) for c in end)
    ink = "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"
    return f"#{r:02x}{g:02x}{b:02x}", ink


# A whole feedback page: verdict colours that read on light and dark pages alike.
PAGE_STYLE = (":root{font-family:" + FONT_STACK + ";color-scheme:light dark}"
              "body{max-width:72rem;margin:2rem auto;padding:0 1rem;line-height:1.5}"
              "pre{padding:.5rem 1rem;white-space:pre-wrap;margin:.25rem 0;font-family:inherit}"
              "section.step{border-left:.4rem solid;padding:.1rem .8rem;margin:1rem 0}"
              "section.step h2{font-size:1.05rem;margin:.4rem 0;padding:.2rem .5rem;border-radius:.2rem}"
              "section.pass{border-color:#2e7d32}section.pass h2{background:#2e7d32;color:#fff}"
              "section.fail{border-color:#c62828}section.fail h2{background:#c62828;color:#fff}"
              + STYLE)


def wrong_cells(result: StepResult, page: str = "page") -> dict[str, Any] | None:
    """{"shape", "cells": [[index…], …], "words", "columns"} of the cells outside the tolerance on
    the page's case, for the class report; None when there is no table to compare there."""
    values = next((tables for c in result.cases if c.case == page and not c.passed
                   and (tables := drawn_tables(c)) is not None), None)
    if values is None:
        return None
    got, expected = as_floats(values.got), as_floats(values.expected)
    if got.shape != expected.shape:
        return None
    return {"shape": list(got.shape), "cells": [[int(i) for i in index] for index in np.argwhere(mismatched(got, expected))],
            "words": list(values.words), "columns": values.columns}


def class_map_html(records_cells: Iterable[object], students: int, lang: str = "ko") -> str:
    """How often each cell of the page's case was wrong across a class, one map per table.

    `records_cells`: the wrong_cells of every student whose step was judged on that table.
    """
    usable = [c for c in records_cells if isinstance(c, dict) and isinstance(c.get("shape"), list)]
    if not usable or not students:
        return ""
    shape = max((tuple(c["shape"]) for c in usable), key=lambda s: sum(tuple(x["shape"]) == s for x in usable))
    counts = np.zeros(shape)
    for cells in usable:
        if tuple(cells["shape"]) == shape:
            for index in cells["cells"]:
                counts[tuple(index)] += 1
    share = counts / students
    tables = share if share.ndim == 3 else share[None]
    say = LABELS[lang]
    parts = [f'<div class="ag-maps"><style>{STYLE}</style><div class="ag-row">']
    for t, table in enumerate(tables):
        svg = _svg(table, usable[0]["words"], usable[0]["columns"], None, (0.0, 1.0), False, say, "class",
                   number=lambda v: f"{100 * v:.0f}%")
        title = say["table"].format(n=t + 1) if len(tables) > 1 else ""
        parts.append(_figure(title, svg))
    return "".join(parts) + "</div></div>"


def html_page(body: str, lang: str = "ko", title: str = "") -> str:
    """A self-contained page around `body` (for `autograder check --html`)."""
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="color-scheme" content="light dark"><title>{html.escape(title)}</title>'
            f"<style>{PAGE_STYLE}</style></head><body>{body}</body></html>\n")
