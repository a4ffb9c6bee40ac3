"""A Moodle 4.x download with the grading worksheet zipped in by the TA, once in English and once as
Moodle writes it when its interface is Korean (the worksheet the README's export section fills with
--id-column 식별자 --column 성적 ...)."""
import os, sys, zipfile
subs, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
r = lambda f: open(os.path.join(subs, f), "rb").read()
en = ('Identifier,"Full name","Email address",Status,Grade,"Maximum grade","Grade can be changed","Last modified (submission)","Last modified (grade)","Feedback comments"\n'
      '"Participant 123456","Kim Minsu",minsu@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 10:00 AM",-,\n'
      '"Participant 123457","Lee Jiwon",jiwon@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:00 AM",-,\n'
      '"Participant 123458",박서연,seoyeon@example.ac.kr,"Submitted for grading",,10.00,Yes,"Sunday, 1 March 2026, 11:30 AM",-,\n')
ko = ('식별자,성명,"이메일 주소",상태,성적,"최대 성적","성적 변경 가능","최종 수정 일시 (제출)","최종 수정 일시 (성적)","피드백 코멘트"\n'
      '"참가자 123456","Kim Minsu",minsu@example.ac.kr,"채점을 위해 제출됨",,10.00,예,"2026년 3월 1일 (일요일) 오전 10:00",-,\n'
      '"참가자 123457","Lee Jiwon",jiwon@example.ac.kr,"채점을 위해 제출됨",,10.00,예,"2026년 3월 1일 (일요일) 오전 11:00",-,\n'
      '"참가자 123458",박서연,seoyeon@example.ac.kr,"채점을 위해 제출됨",,10.00,예,"2026년 3월 1일 (일요일) 오전 11:30",-,\n')
for tag, sheet_name, sheet in (("en", "Grades-TP101-Lab 1-123.csv", en), ("ko", "성적-TP101-실습 1-123.csv", ko)):
    with zipfile.ZipFile(os.path.join(out, f"moodle-with-sheet-{tag}.zip"), "w") as z:
        z.writestr("Kim Minsu_123456_assignsubmission_file_/self_attention_lab.ipynb", r("l1_correct.ipynb"))
        z.writestr("Lee Jiwon_123457_assignsubmission_file_/attention.py", r("l1_wrong_softmax.py"))
        z.writestr("박서연_123458_assignsubmission_file_/self_attention_lab.ipynb", r("l1_stub.ipynb"))
        z.writestr(sheet_name, sheet)
    open(os.path.join(out, sheet_name), "w", encoding="utf-8").write(sheet)
