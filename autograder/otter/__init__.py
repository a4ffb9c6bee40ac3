"""Otter-grader integration: the student half (public checks) and the LMS autograder zip.

`autograder build --out DIR` (see build.py) writes both halves; plugin.py grades inside the zip
with this package's own sandboxed engine; kit/ holds the modules of the public check package
that ships with the student half.
"""
