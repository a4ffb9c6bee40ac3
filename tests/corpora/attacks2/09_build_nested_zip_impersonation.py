"""Attack 09 (another student's row): in a Canvas export, Park hands in a zip made by hand whose
only .py sits at `submission/lee_10232_55002_attention.py` (a name Canvas would give Lee's upload),
newer than Lee's own file, and written to fail everything. The grader grades a hand-made zip as the
file inside it and shows that file as `<zip>/<inner name>`; this checks that the inner name gives
Lee no new row, no other graded file and no other score.

build(folder) -> {"class": zip}
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from class_zips import add, zip_bytes  # noqa: E402
import zipfile  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
HONEST = open(os.path.join(HERE, "lib", "honest.py"), "rb").read()
STUBS = open(os.path.join(HERE, "01_control_stubs.py"), "rb").read()


def build(folder):
    os.makedirs(folder, exist_ok=True)
    inner = zip_bytes({"submission/lee_10232_55002_attention.py": STUBS,
                       "__MACOSX/submission/._lee_10232_55002_attention.py": b"\0\5\26\7"})
    path = os.path.join(folder, "canvas_export.zip")
    with zipfile.ZipFile(path, "w") as archive:
        add(archive, "submissions/kimminsu_10231_55001_attention.py", HONEST, stamp=(2024, 3, 1, 10, 0, 0))
        add(archive, "submissions/leejiwon_10232_55002_attention.py", HONEST, stamp=(2024, 3, 1, 11, 0, 0))
        add(archive, "submissions/parksora_10233_55003_lee_10232_55002_attention.zip", inner,
            stamp=(2024, 3, 1, 23, 0, 0))
    return {"class": path}


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "/tmp/attack09"))
