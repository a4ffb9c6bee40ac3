"""Replaying the attack rounds kept as modules (tests/corpora/attacks3, attacks4, attacks5): each module's
attack(folder) says (held, evidence), with its FACE and the PROMISE it targets. One loader for both
ways of replaying them: a test per attack (test_attacks_third.py, ...) and each folder's run_all.py
by hand, which prints the evidence."""
import importlib.util
import pathlib
import sys
import tempfile
import time
import traceback

ATTACKS = pathlib.Path(__file__).resolve().parent / "corpora"


def names_of(folder):
    """The attacks of tests/corpora/<folder>, by module name (NN_what)."""
    return sorted(p.stem for p in (ATTACKS / folder).glob("[0-9][0-9]_*.py"))


def helper_folders(folder):
    """Where an attack of `folder` finds its helpers: its own folder, then the third round's
    (common, simclass)."""
    return [str(ATTACKS / folder), str(ATTACKS / "attacks3")]


def load(folder, name):
    """The attack module tests/corpora/<folder>/<name>.py, its helpers importable (see helper_folders)."""
    spec = importlib.util.spec_from_file_location(f"{folder}_{name}", ATTACKS / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def replay(folder, name, tmp_path, monkeypatch):
    """Run one attack against the grader in `tmp_path`; fails with the attack's evidence when the
    promise broke."""
    for path in reversed(helper_folders(folder)):
        monkeypatch.syspath_prepend(path)
    module = load(folder, name)
    held, evidence = module.attack(tmp_path)
    assert held, f"{name} [{module.FACE}] {module.PROMISE}: {evidence}"


def replay_by_hand(folder, prefixes):
    """Run every attack of `folder` whose name starts with one of `prefixes` (all without any),
    printing HELD, BROKE or ERROR (the attack's own failure) with the evidence; 1 when any broke."""
    sys.path[:0] = helper_folders(folder)
    broke = total = 0
    with tempfile.TemporaryDirectory(prefix=f"{folder}-") as work:
        work = pathlib.Path(work)
        for name in names_of(folder):
            if prefixes and not any(name.startswith(p) for p in prefixes):
                continue
            module = load(folder, name)
            total += 1
            started = time.monotonic()
            place = work / name
            place.mkdir()
            try:
                held, evidence = module.attack(place)
                verdict = "HELD" if held else "BROKE"
            except Exception:  # the attack's own failure: shown, counted apart
                verdict, evidence = "ERROR", traceback.format_exc(limit=3).strip().splitlines()[-1]
            broke += verdict == "BROKE"
            print(f"{verdict:5} {name} [{module.FACE}] ({time.monotonic() - started:.0f} s)\n"
                  f"      promise: {module.PROMISE}\n      evidence: {evidence}", flush=True)
    print(f"\n{broke}/{total} broke")
    return 1 if broke else 0
