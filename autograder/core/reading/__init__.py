"""Reading a submission file into code cells the sandbox can run (pure text work, no execution).

Everything here reads what a student wrote, in the grader's own process. Two promises hold for
every input (docs/SECURITY.md, "Reading a submission"):

- the work is bounded by `budget.BUDGET`, each bound checked before the work it bounds;
- no exception escapes: every reading goes through `budget.untrusted`, which turns a failure or a
  passed bound into a problem with its reason ("unreadable", "too_large", ...).

The modules, from the ground up: `problems` (why a file cannot be read, as data), `budget` (what
reading may cost, and the one catch-all), `names` (which files are read, in which order), `files`
(regular files only), `zips`, `notebook`, `script` (a .py as cells), `definitions` (stubs and names
defined) and `submission` (the bytes of one file -> a `Submission`).
"""
