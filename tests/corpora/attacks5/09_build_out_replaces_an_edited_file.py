"""An instructor builds the lab, then edits what the build wrote before handing it out: a course
note added to student/README.md, and the notebook run and saved in place (as VS Code and
`jupyter nbconvert --execute --inplace` save it: no .ipynb_checkpoints folder beside it). A second
`autograder build` into the same --out (a typo fixed in the lab) is admitted, because the stamp
lists the build's file names, not what they hold, and replaces both files without a word."""
import json
import pathlib

from helpers5 import cli

FACE = "autograder build --out"
PROMISE = ("a build never replaces what another run, or a person, left in --out: it writes into --out only when it "
           "holds this lab's earlier build and nothing else (a notebook you ran inside student/ is refused)")

NOTE = "\n\n## 제출 마감 (조교 추가)\n\n3월 15일 23:59까지 LMS에 올리십시오. 늦으면 하루에 10%씩 깎습니다.\n"


def attack(work):
    out = pathlib.Path(work) / "dist"
    first = cli("build", "--lab", "self_attention", "--out", out)
    if first.returncode != 0:
        return True, f"(setup: the first build failed, exit {first.returncode}: {first.stderr[-300:]})"
    readme = out / "student" / "README.md"
    notebook = out / "student" / "self_attention_lab.ipynb"
    readme.write_text(readme.read_text("utf-8") + NOTE, "utf-8")
    data = json.loads(notebook.read_text("utf-8"))
    code = next(cell for cell in data["cells"] if cell["cell_type"] == "code")
    code["execution_count"] = 1
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["실행해 본 학생 사본이 아니라 조교가 돌려 본 노트북\n"]}]
    notebook.write_text(json.dumps(data, ensure_ascii=False, indent=1), "utf-8")
    edited = {readme: readme.read_bytes(), notebook: notebook.read_bytes()}
    second = cli("build", "--lab", "self_attention", "--out", out)
    lost = [path.relative_to(out).as_posix() for path, data in edited.items()
            if not path.exists() or path.read_bytes() != data]
    if second.returncode == 0 and lost:
        return False, (f"the second build exited 0 and replaced the edited {', '.join(lost)} (README note "
                       f"{'kept' if NOTE.strip() in readme.read_text('utf-8') else 'gone'}); stderr: "
                       f"{' '.join(second.stderr.split())[:160]!r}")
    return True, f"second build exit {second.returncode}: {' '.join(second.stderr.split())[:200]}"
