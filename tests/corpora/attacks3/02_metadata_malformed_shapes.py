"""submission_metadata.json as it may be emulated or damaged: not JSON, not UTF-8, odd types everywhere."""
import json

from common import CORRECT, gradescope

FACE = "Gradescope entry point"
PROMISE = "malformed metadata never crashes the run or changes a grade"

SHAPES = {
    "not_json": b"{previous_submissions: [",
    "not_utf8": b'{"previous_submissions": "\xff\xfe"}',
    "top_list": b"[1, 2, 3]",
    "previous_dict": json.dumps({"previous_submissions": {"a": 1}}).encode(),
    "results_string": json.dumps({"previous_submissions": [{"results": "?"}]}).encode(),
    "tests_number": json.dumps({"previous_submissions": [{"results": {"tests": 5}}]}).encode(),
    "times_mixed": json.dumps({"previous_submissions": [
        {"submission_time": 5, "results": {"tests": [{"name": "softmax", "status": "failed", "score": "x"}]}},
        {"submission_time": None, "results": {"tests": [{"name": "mix", "status": "passed"}]}}]}).encode(),
    "nan_scores": b'{"previous_submissions": [{"submission_time": "z", "results": {"extra_data": {"autograder_steps": '
                  b'{"all": {"softmax": {"status": "passed", "score": NaN, "mistakes": [1, null]}, '
                  b'"mix": {"status": "failed", "score": Infinity, "mistakes": "x"}}}}}}]}',
    "braces_in_time": json.dumps({"previous_submissions": [{"submission_time": "{when}{0}%s", "results": {
        "extra_data": {"autograder_steps": {"all": {"softmax": {"status": "failed", "score": 0, "mistakes": []}}}}}}]}).encode(),
    "deep": b'{"previous_submissions": [' + b"[" * 50000 + b"]" * 50000 + b"]}",
}


def attack(work):
    broken = []
    for label, raw in SHAPES.items():
        code, results, output = gradescope(work / label, {"self_attention_lab.py": CORRECT}, raw_metadata=raw)
        if code != 0 or results.get("score") != 10.0:
            broken.append(f"{label}: exit {code}, score {results.get('score')}")
    return not broken, "; ".join(broken) or f"{len(SHAPES)} shapes: each exit 0, 10/10"
