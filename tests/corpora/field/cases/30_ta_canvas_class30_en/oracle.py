"""The grade each graded row of grades.csv should have: `autograder check --json` (the staff's one-file
face) on the very bytes the row names, read from the class's zip or folder. Prints mismatches; exit 1 if any.

    python oracle.py AUTOGRADER GRADES_CSV SOURCE [--lab NAME]
"""
import csv, hashlib, json, os, subprocess, sys, tempfile, zipfile
ag, grades, source = sys.argv[1:4]
lab = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--lab" else None
def read(rel):
    if zipfile.is_zipfile(source):
        z = zipfile.ZipFile(source)
        for n in z.namelist():
            if n == rel or n.endswith("/" + rel) or rel.endswith(n):
                return z.read(n), n
        raise KeyError(rel)
    return open(os.path.join(source, rel), "rb").read(), rel
cache, bad, n = {}, 0, 0
for row in csv.DictReader(open(grades, encoding="utf-8-sig")):
    if row["status"] != "graded":
        continue
    data, name = read(row["file"])
    key = hashlib.sha256(data).hexdigest()
    if key not in cache:
        with tempfile.TemporaryDirectory() as t:
            p = os.path.join(t, os.path.basename(name))
            open(p, "wb").write(data)
            cmd = [ag, "check", p, "--json"] + (["--lab", lab] if lab else [])
            out = subprocess.run(cmd, capture_output=True, text=True).stdout
            cache[key] = json.loads(out)["score"]
    want = cache[key]
    total = float(row.get("automatic_total") or row["raw_total"])
    n += 1
    if abs(total - want) > 0.005:
        bad += 1
        print(f"  | MISMATCH {row['id']}: grades.csv {total}, autograder check {want} ({row['file']})")
print(f"  | oracle: {n} graded rows compared with `autograder check` on the same bytes ({len(cache)} distinct files); {bad} differ")
sys.exit(1 if bad else 0)
