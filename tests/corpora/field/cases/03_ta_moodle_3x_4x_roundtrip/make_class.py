"""Moodle downloads: 4.x 'Download all submissions' in folders (Full Name_123456_assignsubmission_file_/),
with online text and a Korean name; 3.x flat names. Grading worksheets of both versions as Moodle's PHP
writes them (every cell with a space quoted)."""
import os, sys, zipfile
subs, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
r = lambda f: open(os.path.join(subs, f), "rb").read()
with zipfile.ZipFile(os.path.join(out, "TP101-Lab1-4x.zip"), "w") as z:
    z.writestr("Kim Minsu_123456_assignsubmission_file_/self_attention_lab.ipynb", r("l1_correct.ipynb"))
    z.writestr("Lee Jiwon_123457_assignsubmission_file_/attention.py", r("l1_wrong_softmax.py"))
    z.writestr("박서연_123458_assignsubmission_file_/self_attention_lab.ipynb", r("l1_stub.ipynb"))
    z.writestr("최준호_123459_assignsubmission_file_/self_attention_lab.py", r("l1_syntax.py"))
    z.writestr("Jung Harin_123460_assignsubmission_onlinetext_/onlinetext.html", "<p>제출합니다</p>")
    z.writestr("O'Brien Sean_123461_assignsubmission_file_/lab.py", r("l1_correct.py"))
with zipfile.ZipFile(os.path.join(out, "TP101-Lab1-3x.zip"), "w") as z:
    z.writestr("Kim Minsu_123456_assignsubmission_file_attention.py", r("l1_correct.py"))
    z.writestr("이지원_123457_assignsubmission_file_self_attention_lab.ipynb", r("l1_wrong_softmax.ipynb"))
    z.writestr("Park Seoyeon_123458_assignsubmission_file_lab.py", r("l1_stub.py"))
w4 = ('Identifier,"Full name","Email address",Status,Grade,"Maximum grade","Grade can be changed","Last modified (submission)","Last modified (grade)","Feedback comments"\n'
      '"Participant 123456","Kim Minsu",minsu@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 10:00 AM",-,\n'
      '"Participant 123457","Lee Jiwon",jiwon@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:00 AM",-,\n'
      '"Participant 123458",박서연,seoyeon@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:30 AM",-,\n'
      '"Participant 123459",최준호,junho@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:40 AM",-,\n'
      '"Participant 123460","Jung Harin",harin@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:50 AM",-,\n'
      '"Participant 123461","O\'Brien Sean",sean@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:55 AM",-,\n'
      '"Participant 123462","Han Mirae",mirae@example.ac.kr,"No submission",,10.00,Yes,-,-,\n')
open(os.path.join(out, "Grades-TP101-Lab 1-4x.csv"), "w", encoding="utf-8", newline="").write(w4)
w3 = ('Identifier,"Full name","Email address",Status,Grade,"Maximum Grade","Grade can be changed","Last modified (submission)","Online text","Last modified (grade)","Feedback comments"\r\n'
      '"Participant 123456","Kim Minsu",minsu@example.ac.kr,"Submitted for grading",,100.00,Yes,"Sunday, 1 March 2026, 10:00 AM",,-,\r\n'
      '"Participant 123457",이지원,jiwon@example.ac.kr,"Submitted for grading - Graded",50.00,100.00,Yes,"Sunday, 1 March 2026, 11:00 AM",,"Sunday, 1 March 2026, 12:00 PM",\r\n'
      '"Participant 123458","Park Seoyeon",seoyeon@example.ac.kr,"Submitted for grading",,100.00,Yes,"Sunday, 1 March 2026, 11:30 AM",,-,\r\n')
open(os.path.join(out, "Grades-TP101-Lab 1-3x.csv"), "w", encoding="utf-8", newline="").write(w3)
