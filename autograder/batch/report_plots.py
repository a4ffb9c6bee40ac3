"""report.html's plots: matplotlib with a font that draws Hangul, each figure an <img> in the page."""
from __future__ import annotations

import base64
import html
import io
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core.render.messages import Messages

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Fonts with Hangul, in the order the page asks for them (Linux, macOS, Windows), then the rest
# matplotlib may find. Any face of a Noto CJK collection has every Hangul syllable.
HANGUL_FONTS = ("Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", "NanumGothic",
                "NanumBarunGothic", "AppleGothic", "UnDotum", "Noto Sans CJK JP", "Noto Sans CJK SC",
                "Noto Sans CJK TC", "Noto Serif CJK KR", "Baekmuk Gulim", "Source Han Sans KR")
# A font file whose name says it may hold Hangul (matplotlib's cache does not know fonts
# installed after it was built).
HANGUL_FILE_HINT = re.compile(r"cjk|kr|korean|nanum|malgun|gothic|gulim|batang|dotum|hangul|unfonts|sourcehan", re.I)


@lru_cache(maxsize=None)
def _hangul_font() -> str | None:
    """The name of a font matplotlib can draw Hangul with, or None.

    matplotlib's font cache predates fonts installed after it was built, so font files whose
    names suggest Hangul are added to it first; a font counts only if it has the glyph.
    """
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    def names() -> set[str]:
        return {font.name for font in font_manager.fontManager.ttflist}

    if not names().intersection(HANGUL_FONTS):
        for path in font_manager.findSystemFonts():
            if HANGUL_FILE_HINT.search(os.path.basename(path)):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
    available = names()
    for name in HANGUL_FONTS:
        if name not in available:
            continue
        try:
            path = font_manager.findfont(font_manager.FontProperties(family=name), fallback_to_default=False)
            if FT2Font(path).get_char_index(ord("한")):
                return name
        except (OSError, RuntimeError, ValueError):
            continue
    return None


def _pyplot(lang: str) -> tuple[Any, str]:
    """matplotlib.pyplot (Agg, a Hangul font when one is found) and the language its labels can show."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    hangul = _hangul_font()
    if hangul:
        pyplot.rcParams["font.family"] = [hangul, "DejaVu Sans"]
    # Without a Hangul font Korean labels would show as boxes: the image then speaks English,
    # and the caption under it (HTML, in the run's language) says what the axes are.
    return pyplot, ("ko" if lang == "ko" and hangul else "en")


def _histogram(totals: pd.Series[float], lang: str, total_points: float) -> Figure:
    pyplot, axes_lang = _pyplot(lang)
    figure: Figure
    figure, axis = pyplot.subplots(figsize=(7, 3.2))
    # Bin k holds totals from k up to (not including) k + 1, so full marks stand alone.
    edges = list(range(int(total_points) + 2))
    axis.hist(totals.dropna(), bins=edges, color="#4c72b0", edgecolor="white")
    say = Messages(axes_lang)
    axis.set_xlabel(say("report", "axis_score"))
    axis.set_ylabel(say("report", "axis_students"))
    axis.set_xticks([k + 0.5 for k in edges[:-1]], [str(k) for k in edges[:-1]])
    axis.yaxis.get_major_locator().set_params(integer=True)
    return figure


def _pass_rate_plot(pass_rates: Mapping[str, float], lang: str) -> Figure:
    pyplot, axes_lang = _pyplot(lang)
    figure: Figure
    figure, axis = pyplot.subplots(figsize=(7, 3.2))
    names = list(pass_rates)
    values = [100 * pass_rates[n] for n in names]
    bars = axis.bar(names, values, color="#55a868")
    axis.bar_label(bars, labels=[f"{v:.0f}%" for v in values])
    axis.set_ylim(0, 110)
    axis.set_ylabel(Messages(axes_lang)("report", "axis_pass"))
    axis.tick_params(axis="x", labelrotation=15)
    return figure


def _figure(figure: Figure, alt: str, caption: str) -> str:
    from matplotlib import pyplot

    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    pyplot.close(figure)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f"<figure><img decoding=\"sync\" alt=\"{html.escape(alt)}\" width=\"700\" height=\"320\" "
            f"src=\"data:image/png;base64,{encoded}\"><figcaption>{caption}</figcaption></figure>")
