"""A table of the public answers (the students' kit ships them) that fails every other input in
whichever way the fitting rule did not count: returns None, ends its process, loops forever,
raises numpy's words for a declared mistake, returns another type. Each step must earn nothing."""
import pathlib

from common import ROOT, check_json

FACE = "autograder check"
PROMISE = "points come from values: a file that computes nothing earns nothing, whatever it does elsewhere"

TABLE = (ROOT / "tests" / "corpora" / "attacks2" / "02_public_answer_lookup.py").read_text("utf-8")
SIGNATURES = {"make_qkv": "X, W_Q, W_K, W_V", "scores": "Q, K", "softmax": "x", "mix": "weights, V",
              "self_attention": "X, W_Q, W_K, W_V", "most_attended": "weights, words"}
SEVERAL = {"make_qkv", "self_attention"}  # steps that return a tuple of outputs
ELSEWHERE = {
    "returns None": "return None",
    "ends its process": "import os\n    os._exit(0)",
    "loops forever": "while True:\n        pass",
    "raises numpy's words": 'raise ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, '
                            'with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)")',
    "returns another type": 'return "tables only"',
}


def lookup_file(elsewhere):
    """The kit's public answers looked up; `elsewhere` on any other input."""
    functions = []
    for step, params in SIGNATURES.items():
        answer = "tuple(found)" if step in SEVERAL else "found[0]"
        functions.append(f"def {step}({params}):\n    found = _answer({step!r}, {params})\n"
                         f"    if found is not None:\n        return {answer}\n    {elsewhere}\n")
    return TABLE + "\n\n" + "\n\n".join(functions)


def attack(work):
    kept = []
    for label, elsewhere in ELSEWHERE.items():
        path = pathlib.Path(work) / f"{label.replace(' ', '_').replace(chr(39), '')}.py"
        path.write_text(lookup_file(elsewhere), "utf-8")
        data, done = check_json(path, "--timeout", "2")
        earned = {s["name"]: s["score"] for s in data["steps"] if s["score"] > 0}
        if earned:
            kept.append(f"{label}: {data['score']:g}/{data['max_score']:g} {earned}")
    if kept:
        return False, "a table of the public answers still earns points: " + "; ".join(kept)
    return True, f"each of {len(ELSEWHERE)} ways of failing elsewhere earns 0 on every step"
