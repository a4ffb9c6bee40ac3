"""Attack 06 (lose a student / keep an old LMS grade): builds a Moodle class export in which one
student's only file is a text file whose first line is a Canvas gradebook header.

The grader tells LMS grade sheets "zipped or copied with the submissions" by their first line
alone, wherever the file is (autograder/batch/collect.py: lms_sheet_kind is asked of every file,
inside a student's unit too), and never gives such a file to a student. So the student who sent
it has no row at all in grades.csv: not graded, not "no file", simply absent; `export moodle` then
counts them as "in the sheet without a submission" and leaves their Grade cell as it was (here a
provisional 8.00 the TA had entered), where the same file without that first line gets a 0.

build(folder) -> {"attack": zip, "control": zip, "sheet": csv}
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from class_zips import zip_bytes  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
HONEST = open(os.path.join(HERE, "lib", "honest.py"), "rb").read()
HEADER = b"Student, ID, SIS User ID, SIS Login ID, Section\n"
ANSWERS = ("나는 이번 과제를 코드로 풀지 못해 답만 적어 냅니다.\n"
           "make_qkv: X @ W\nscores: Q @ K\nsoftmax: exp / sum\n").encode("utf-8")


def build(folder):
    os.makedirs(folder, exist_ok=True)
    paths = {}
    for kind, park in (("attack", HEADER + ANSWERS), ("control", ANSWERS)):
        members = {
            "Lab 1-submissions/Kim Minsu_10231_assignsubmission_file_/attention.py": HONEST,
            "Lab 1-submissions/Lee Jiwon_10232_assignsubmission_file_/self_attention_lab.py": HONEST,
            "Lab 1-submissions/Park Sora_10233_assignsubmission_file_/answers.txt": park,
        }
        path = os.path.join(folder, f"moodle_{kind}.zip")
        with open(path, "wb") as handle:
            handle.write(zip_bytes(members))
        paths[kind] = path
    sheet = os.path.join(folder, "Grades-Lab 1.csv")
    rows = [
        "Identifier,Full name,Email address,Status,Grade,Maximum grade,Grade can be changed,"
        "Last modified (submission),Last modified (grade),Feedback comments",
        "Participant 10231,Kim Minsu,kim@example.edu,Submitted for grading,,10.00,Yes,\"Friday, 1 March 2024, 12:00 PM\",-,",
        "Participant 10232,Lee Jiwon,lee@example.edu,Submitted for grading,,10.00,Yes,\"Friday, 1 March 2024, 12:00 PM\",-,",
        "Participant 10233,Park Sora,park@example.edu,Submitted for grading,8.00,10.00,Yes,\"Friday, 1 March 2024, 12:00 PM\",\"Friday, 1 March 2024, 1:00 PM\",provisional",
    ]
    with open(sheet, "w", encoding="utf-8", newline="") as handle:
        handle.write("\r\n".join(rows) + "\r\n")
    paths["sheet"] = sheet
    return paths


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "/tmp/attack06"))
