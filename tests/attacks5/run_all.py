"""Run every attack of this folder (the fifth round: the look-alike signal, the course history, the
TA's overrides and numbers, the run folder, the pytest face, `build --out`, `check --html`, the
Gradescope file choice, the students' kit and one submission's neighbours in a class) through the
face it targets; print HELD or BROKE with evidence.

    .venv/bin/python tests/attacks5/run_all.py            # all
    .venv/bin/python tests/attacks5/run_all.py 01 15      # those whose file name starts so
"""
import importlib.util
import pathlib
import sys
import tempfile
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "attacks3")]  # this round's helpers5, the third round's simclass


def attacks(prefixes):
    for path in sorted(HERE.glob("[0-9][0-9]_*.py")):
        if prefixes and not any(path.name.startswith(p) for p in prefixes):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
        yield path.stem, module


def main(argv):
    broke = total = 0
    with tempfile.TemporaryDirectory(prefix="attacks5-") as work:
        work = pathlib.Path(work)
        for name, module in attacks(argv):
            total += 1
            started = time.monotonic()
            folder = work / name
            folder.mkdir()
            try:
                held, evidence = module.attack(folder)
                verdict = "HELD" if held else "BROKE"
            except Exception:  # the attack's own failure: shown, counted apart
                verdict, evidence = "ERROR", traceback.format_exc(limit=3).strip().splitlines()[-1]
            broke += verdict == "BROKE"
            print(f"{verdict:5} {name} [{module.FACE}] ({time.monotonic() - started:.0f} s)\n"
                  f"      promise: {module.PROMISE}\n      evidence: {evidence}", flush=True)
    print(f"\n{broke}/{total} broke")
    return 1 if broke else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
