"""A file name whose bytes are not UTF-8 (a Korean Windows zip's CP949, or a byte no encoding
reads): the name reaches the sandbox's command pipe as the .py's cell name. Graded as what it is
(the reference: full marks) on Gradescope and by `check`, its name shown readably."""
import os
import pathlib

from common import CORRECT, check_json, cli, gradescope

FACE = "the Gradescope entry point, autograder check"
PROMISE = "every file name from a submission is made safe where it is read"

NAMES = {"a byte no encoding reads": b"self_attention_lab\xff.py",
         "CP949 (Korean Windows)": "과제_self_attention.py".encode("cp949")}


def attack(work):
    work = pathlib.Path(work)
    problems = []
    for label, raw in NAMES.items():
        name = os.fsdecode(raw)  # as os.listdir gives it: the bytes as surrogates
        try:
            code, results, output = gradescope(work / label.replace(" ", "_"), {name: CORRECT})
        except UnicodeDecodeError as error:  # the entry point printed the name's raw bytes
            problems.append(f"Gradescope, {label}: its output is not UTF-8 ({error})")
            continue
        if code != 0 or results.get("score") != 10.0:
            problems.append(f"Gradescope, {label}: exit {code}, score {results.get('score')}, "
                            f"{results.get('output', '')[:80]!r}")
        path = work / label.replace(" ", "_") / os.fsdecode(raw)
        path.write_text(CORRECT, "utf-8")
        done = cli("check", path, "--lab", "self_attention", "--json")
        if done.returncode != 0:
            problems.append(f"check, {label}: exit {done.returncode} {done.stderr.strip().splitlines()[-1:]}")
        else:
            checked, _ = check_json(path)
            if checked["score"] != checked["max_score"] or "\udcff" in checked.get("submission", ""):
                problems.append(f"check, {label}: {checked['score']} for {checked.get('submission')!r}")
    return not problems, "; ".join(problems) or "full marks under readable names on Gradescope and check"
