"""A Canvas class as Canvas downloads it: submissions.zip (name_id_fileid_original, _LATE_, a re-upload
with -1) and the gradebook export (UTF-8 with BOM, Points Possible row, two assignment columns,
calculated columns, a Test Student)."""
import os, sys, zipfile
subs, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
files = [("kimminsu_12345_67890_attention.ipynb", "l1_correct.ipynb", (2026, 3, 1, 10, 0, 0)),
         ("leejiwon_LATE_12346_67891_attention.py", "l1_wrong_softmax.py", (2026, 3, 1, 10, 0, 0)),
         ("parkseoyeon_12347_67892_self_attention_lab.ipynb", "l1_stub.ipynb", (2026, 3, 1, 10, 0, 0)),
         ("choijunho_12348_67893_attention.py", "l1_syntax.py", (2026, 3, 1, 10, 0, 0)),
         ("jungharin_12349_67894_attention.py", "l1_wrong_softmax.py", (2026, 3, 1, 10, 0, 0)),
         ("jungharin_12349_67990_attention-1.py", "l1_correct.py", (2026, 3, 2, 10, 0, 0)),
         ("김철수_12350_67895_attention.py", "l1_correct.py", (2026, 3, 1, 10, 0, 0))]
with zipfile.ZipFile(os.path.join(out, "submissions.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for name, src, when in files:
        z.writestr(zipfile.ZipInfo(name, when), open(os.path.join(subs, src), "rb").read())
sheet = ("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501),Lab 0 (5500),Assignments Current Points,Assignments Final Points,Current Points,Final Points,Current Score,Unposted Current Score,Final Score,Unposted Final Score\n"
         "    Points Possible,,,,,10.00,5.00,(read only),(read only),(read only),(read only),(read only),(read only),(read only),(read only)\n"
         "\"Kim, Minsu\",12345,2024001,minsu,TP101 분반1,,5.00,5.00,5.00,5.00,5.00,100.00%,100.00%,33.33%,33.33%\n"
         "\"Lee, Jiwon\",12346,2024002,jiwon,TP101 분반1,,4.00,4.00,4.00,4.00,4.00,80.00%,80.00%,26.67%,26.67%\n"
         "\"Park, Seoyeon\",12347,2024003,seoyeon,TP101 분반1,,5.00,,,,,,,,\n"
         "\"Choi, Junho\",12348,2024004,junho,TP101 분반2,,,,,,,,,,\n"
         "\"Jung, Harin\",12349,2024005,harin,TP101 분반2,,,,,,,,,,\n"
         "김철수,12350,2024006,chulsoo,TP101 분반2,,,,,,,,,,\n"
         "\"Han, Mirae\",12351,2024007,mirae,TP101 분반2,,,,,,,,,,\n"
         "Test Student,99999,,0c1f7e8a,TP101 분반1,,,,,,,,,,\n")
open(os.path.join(out, "2026-03-05T0900_Grades-TP101.csv"), "wb").write(b"\xef\xbb\xbf" + sheet.encode("utf-8"))
