"""Attack 07 (bounded reading): one student's Moodle folder holds N small .zip files, each a zip of
one stored member of zeros, just under 1 MB (SMALL_MEMBER). The class zip deflates each to about
1 KB. Nested zips of at most 1 MB are decompressed whatever their ratio (collect._read_member), and
every .zip of the class is decompressed whole to tell whether it is an Otter export
(Source.export_problem), so the grader inflates about 1000 times what the student's files take in
the class zip, against docs/SECURITY.md's "plus decompressing each other .zip a student hands in
(at most 20 times its stored size)".

build(folder, n) -> {"attack": zip, "control": zip}
"""
import os
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from class_zips import add, zip_bytes  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
HONEST = open(os.path.join(HERE, "lib", "honest.py"), "rb").read()
INNER = zip_bytes({"data.bin": bytes(1_040_000)}, compress=zipfile.ZIP_STORED)  # < 1 MiB, all zeros
assert len(INNER) <= 1024 * 1024


def build(folder, n=2000):
    os.makedirs(folder, exist_ok=True)
    paths = {}
    for kind, count in (("attack", n), ("control", 0)):
        path = os.path.join(folder, f"moodle_{kind}.zip")
        with zipfile.ZipFile(path, "w") as archive:
            add(archive, "Lab 1-submissions/Kim Minsu_10231_assignsubmission_file_/attention.py", HONEST)
            add(archive, "Lab 1-submissions/Lee Jiwon_10232_assignsubmission_file_/attention.py", HONEST)
            for i in range(count):
                add(archive, f"Lab 1-submissions/Lee Jiwon_10232_assignsubmission_file_/data/part_{i:05d}.zip",
                    INNER, compress=zipfile.ZIP_DEFLATED)
        paths[kind] = path
    return paths


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "/tmp/attack07"))
