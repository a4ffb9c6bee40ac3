"""MkDocs hook: a page written in Korean (front matter `lang: ko`) says so to the browser.

The site is one site in English and Korean (no translation machinery: each page is written for its
reader, in that reader's language). A Korean page's <html lang="ko"> lets the browser choose a
Hangul font and break lines as Korean breaks them, and screen readers read it as Korean.
"""
import re

LANGS = ("ko", "en")


def on_post_page(output, page, config):
    lang = page.meta.get("lang")
    if lang is None:
        return output
    if lang not in LANGS:
        from mkdocs.exceptions import PluginError
        raise PluginError(f"{page.file.src_uri}: lang must be one of {', '.join(LANGS)}, not {lang!r}")
    return re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', output, count=1)
