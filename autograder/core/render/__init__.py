"""Turning verdict data into what people read: text per step in Korean or English, and JSON.

From the bottom up, each module importing only those before it (an import-linter contract in
pyproject.toml checks it): `text` (what no face prints raw, and layout: printable, json_text,
fit_to_width, without_paths), `messages` (the catalogs and `Messages`, which says a sentence with
its parameters shown safely; places, points, case names), `explained` (repair and explanation
sentences), then `step` (one step's feedback) and `notes` (what happened while loading the file),
then `feedback` (a submission's `Feedback` and its text and JSON faces). Nothing is imported here,
so `render.text` and `render.messages` load without the judge.
"""
