"""A forged submission_metadata.json whose kept step record is a list or a string, not a mapping."""
from common import CORRECT, gradescope

FACE = "Gradescope entry point (autograder.otter.gradescope)"
PROMISE = "a forged or malformed metadata file never crashes the run or changes a grade"


def attack(work):
    broken = []
    for label, kept in [("public is a list", {"all": {}, "public": ["softmax"]}),
                        ("all is a string", {"all": "passed"}),
                        ("all is a list of steps", {"all": [{"softmax": {"status": "failed"}}]})]:
        metadata = {"previous_submissions": [{"submission_time": "2024-03-01T10:00:00+09:00", "score": 0,
                                              "results": {"extra_data": {"autograder_steps": kept}}}]}
        code, results, output = gradescope(work / label.replace(" ", "_"), {"self_attention_lab.py": CORRECT}, metadata)
        if code != 0 or results.get("score") != 10.0:
            last = [line for line in output.splitlines() if line.strip()][-1:]
            broken.append(f"{label}: exit {code}, score {results.get('score')}, tests "
                          f"{[t['name'] for t in results['tests']]}, {last}")
    return not broken, "; ".join(broken) or "every forged shape: exit 0, 10/10"
