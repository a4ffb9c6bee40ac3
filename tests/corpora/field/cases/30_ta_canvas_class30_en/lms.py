"""A class of 30 as four LMSs download it (shared by cases 30..). Written from what each LMS writes:

  canvas(out)      submissions.zip (lastfirst[_LATE]_userid_attachmentid_original, re-uploads -1) and the
                   gradebook export (UTF-8 BOM, 'Manual Posting' and 'Points Possible' rows, calculated columns)
  moodle(out, ko)  'Download all submissions' (Full Name_123456_assignsubmission_file_/...) and the grading
                   worksheet, English or Korean interface
  blackboard(out)  'Download Assignment' zip (Lab 1_user_attempt_stamp_file + receipts) and Grade Center .xls/.csv
  gradescope(out)  'Export Submissions' zip (assignment_N_export/submission_M/ + submission_metadata.yml)
                   and the 'Download Grades' CSV

KIND -> expected total (lab 1, out of 10) is EXPECT; the oracle is `autograder check` on the same bytes.
python lms.py SUBS OUT canvas|moodle-en|moodle-ko|blackboard|gradescope
"""
import io, os, sys, zipfile

FAMILY = ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim"]
GIVEN = ["Minsu", "Jiwon", "Seoyeon", "Junho", "Harin", "Dohyun", "Yuna", "Jimin"]
HANGUL_FAMILY = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"]
HANGUL_GIVEN = ["민수", "지원", "서연", "준호", "하린", "도현", "유나", "지민"]
KINDS = ["correct.py", "correct.ipynb", "wrong_softmax.py", "correct.py", "stub.ipynb", "syntax.py",
         "wrong_softmax.ipynb", "correct.ipynb", "correct.py", "syntax.ipynb"]
EXPECT = {"correct": "10.0", "wrong_softmax": "8.94", "stub": "0.0", "syntax": "9.0", "docx": "0.0"}


def roster(n=30):
    people = []
    for i in range(n):
        fam, giv = FAMILY[i % 10], GIVEN[(i // 10 + i) % 8]
        hfam, hgiv = HANGUL_FAMILY[i % 10], HANGUL_GIVEN[(i // 10 + i) % 8]
        korean_name = i % 3 == 0           # a third of the class typed their name in Hangul
        kind = KINDS[i % 10]
        if i == 29:
            kind = "docx"                  # sent a Word file
        people.append(dict(
            i=i, name=(hfam + hgiv) if korean_name else f"{giv} {fam}", last=hfam if korean_name else fam,
            first=hgiv if korean_name else giv, lastfirst=(hfam + hgiv) if korean_name else (fam + giv).lower(),
            canvas=str(20001 + i), sis=f"2026{i:04d}", login=f"{fam.lower()}{giv.lower()}{i}",
            moodle=str(310001 + i), bb=f"{fam.lower()}_{giv[:2].lower()}{i}", kind=kind))
    return people


def body(subs, kind):
    if kind == "docx":
        return b"PK\x03\x04 not really a docx: a Word file the student uploaded by mistake"
    stem, ext = kind.rsplit(".", 1)
    return open(os.path.join(subs, f"l1_{stem}.{ext}"), "rb").read()


def expect(kind):
    return EXPECT[kind.split(".")[0]]


def ext(kind):
    return "docx" if kind == "docx" else kind.rsplit(".", 1)[1]


def canvas(subs, out, people, late=(), resubmit=(), zipname="submissions.zip"):
    with zipfile.ZipFile(os.path.join(out, zipname), "w", zipfile.ZIP_DEFLATED) as z:
        for p in people:
            e = ext(p["kind"])
            orig = "self_attention_lab." + e if e != "docx" else "lab1_report.docx"
            tag = "_LATE" if p["i"] in late else ""
            name = f"{p['lastfirst']}{tag}_{p['canvas']}_{70000 + p['i']}_{orig}"
            z.writestr(zipfile.ZipInfo(name, (2026, 3, 1, 10, p["i"] % 60, 0)), body(subs, p["kind"]))
            if p["i"] in resubmit:   # an earlier upload, wrong, replaced by the one above ('-1' is the older)
                pass
    rows = ["Student,ID,SIS User ID,SIS Login ID,Section,Lab 0 (5500),Lab 1 (5501),Lab 2 (5502),"
            "Assignments Current Points,Assignments Final Points,Current Points,Final Points,Current Score,"
            "Unposted Current Score,Final Score,Unposted Final Score",
            "    Manual Posting,,,,,,Manual Posting,,,,,,,,,",
            "    Points Possible,,,,,5.00,10.00,10.00,(read only),(read only),(read only),(read only),(read only),"
            "(read only),(read only),(read only)"]
    for p in people:
        who = p["name"] if " " not in p["name"] else f"\"{p['last']}, {p['first']}\""
        sec = "TP101 분반1" if p["i"] % 2 == 0 else "TP101 분반2"
        rows.append(f"{who},{p['canvas']},{p['sis']},{p['login']},{sec},5.00,,,5.00,5.00,5.00,5.00,100.00%,100.00%,20.00%,20.00%")
    rows.append("Student, Test,99999,,3f0c1e2a9b,TP101 분반1,,,,,,,,,,,")
    sheet = "\n".join(rows) + "\n"
    name = "2026-03-05T0900_Grades-TP101.csv"
    open(os.path.join(out, name), "wb").write(b"\xef\xbb\xbf" + sheet.encode("utf-8"))
    return name


MOODLE_HEAD = {
    "en": ('Identifier,"Full name","Email address",Status,Grade,"Maximum grade","Grade can be changed",'
           '"Last modified (submission)","Last modified (grade)","Feedback comments"', "Participant",
           '"Submitted for grading"', "Yes", '"Sunday, 1 March 2026, 10:00 AM"'),
    "ko": ('식별자,성명,"이메일 주소",상태,성적,"최대 성적","성적 변경 가능","최종 수정 일시 (제출)",'
           '"최종 수정 일시 (성적)","피드백 코멘트"', "참가자", '"채점을 위해 제출됨"', "예",
           '"2026년 3월 1일 (일요일) 오전 10:00"'),
}


def moodle(subs, out, people, lang="en", zipname="TP101-Lab 1-4401.zip"):
    with zipfile.ZipFile(os.path.join(out, zipname), "w", zipfile.ZIP_DEFLATED) as z:
        for p in people:
            e = ext(p["kind"])
            orig = "self_attention_lab." + e if e != "docx" else "lab1_report.docx"
            z.writestr(f"{p['name']}_{p['moodle']}_assignsubmission_file_/{orig}", body(subs, p["kind"]))
    head, word, status, yes, when = MOODLE_HEAD[lang]
    rows = [head]
    for p in people:
        nm = f'"{p["name"]}"' if " " in p["name"] else p["name"]
        rows.append(f'"{word} {p["moodle"]}",{nm},{p["login"]}@example.ac.kr,{status},,10.00,{yes},{when},-,')
    rows.append(f'"{word} 319999","Han Mirae",mirae@example.ac.kr,{status.replace("채점을 위해 제출됨", "제출 안 함").replace("Submitted for grading", "No submission")},,10.00,{yes},-,-,')
    name = ("Grades-TP101-Lab 1-4401.csv" if lang == "en" else "성적-TP101-실습 1-4401.csv")
    open(os.path.join(out, name), "w", encoding="utf-8", newline="").write("\n".join(rows) + "\n")
    return name


def receipt(p, stamp, date, orig, fname, lang="en"):
    files = f"\tOriginal filename: {orig}\n\tFilename: {fname}\n"
    return (f"Name: {p['name']} ({p['bb']})\nAssignment: Lab 1\nDate Submitted: {date}\nCurrent Grade: Needs Grading\n\n"
            "Submission Field:\nThere is no student submission text data for this assignment.\n\n"
            "Comments:\nThere are no student comments for this assignment.\n\nFiles:\n" + files)


def blackboard(subs, out, people, zipname="gradebook_TP101_Lab201_2026-03-05-09-00-00.zip"):
    with zipfile.ZipFile(os.path.join(out, zipname), "w", zipfile.ZIP_DEFLATED) as z:
        for p in people:
            e = ext(p["kind"])
            orig = "self_attention_lab." + e if e != "docx" else "lab1_report.docx"
            hh = 10 + p["i"] % 8
            stamp = f"2026-03-01-{hh:02d}-{p['i'] % 60:02d}-00"
            ampm = f"{hh if hh <= 12 else hh - 12}:{p['i'] % 60:02d}:00 {'AM' if hh < 12 else 'PM'}"
            base = f"Lab 1_{p['bb']}_attempt_{stamp}"
            fname = f"{base}_{orig}"
            z.writestr(base + ".txt", receipt(p, stamp, f"Sunday, March 1, 2026 {ampm} KST", orig, fname))
            z.writestr(fname, body(subs, p["kind"]))
    rows = [["Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability",
             "Weighted Total [Total Pts: up to 0] |301", "Total [Total Pts: up to 10 Score] |302",
             "Lab 1 [Total Pts: 10 Score] |1234567"]]
    for p in people:
        rows.append([p["last"], p["first"], p["bb"], p["sis"], "2026-03-01 9:30:00 AM", "Available", "", "", ""])
    xls = "".join("\t".join('"%s"' % c for c in row) + "\r\n" for row in rows)
    open(os.path.join(out, "gc_TP101_fullgc_2026-03-05-09-00-00.xls"), "wb").write(b"\xff\xfe" + xls.encode("utf-16-le"))
    csv = "".join(",".join('"%s"' % c for c in row) + "\r\n" for row in rows)
    open(os.path.join(out, "gc_TP101_fullgc_2026-03-05-09-00-00.csv"), "wb").write(b"\xef\xbb\xbf" + csv.encode("utf-8"))


def gradescope(subs, out, people, zipname="assignment_4812345_export.zip"):
    meta = ["---"]
    with zipfile.ZipFile(os.path.join(out, zipname), "w", zipfile.ZIP_DEFLATED) as z:
        for p in people:
            e = ext(p["kind"])
            orig = "self_attention_lab." + e if e != "docx" else "lab1_report.docx"
            sub = f"submission_{9100000 + p['i']}"
            z.writestr(f"assignment_4812345_export/{sub}/{orig}", body(subs, p["kind"]))
            meta += [f"{sub}:", "  :submitters:", f"  - :name: {p['name']}", f"    :sid: '{p['sis']}'",
                     f"    :email: {p['login']}@example.ac.kr",
                     f"  :created_at: 2026-03-01 {10 + p['i'] % 8:02d}:{p['i'] % 60:02d}:00.123456000 +09:00",
                     "  :score: 0.0"]
        z.writestr("assignment_4812345_export/submission_metadata.yml", "\n".join(meta) + "\n")
    rows = ["First Name,Last Name,SID,Email,Sections,Total Score,Max Points,Status,Submission ID,Submission Time,"
            "Lateness (H:M:S),View Count,Submission Count,1: make_qkv (2.0 pts),2: scores (1.0 pts)"]
    for p in people:
        rows.append(f"{p['first']},{p['last']},{p['sis']},{p['login']}@example.ac.kr,,0.0,10.0,Graded,"
                    f"{9100000 + p['i']},2026-03-01 10:00:00 +0900,00:00:00,0,1,0.0,0.0")
    open(os.path.join(out, "Lab_1_scores.csv"), "w", encoding="utf-8").write("\n".join(rows) + "\n")


if __name__ == "__main__":
    subs, out, what = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    people = roster()
    if what == "canvas":
        canvas(subs, out, people)
    elif what.startswith("moodle"):
        moodle(subs, out, people, what.split("-")[1])
    elif what == "blackboard":
        blackboard(subs, out, people)
    elif what == "gradescope":
        gradescope(subs, out, people)
