"""Replaying one attack of the rounds kept as modules (tests/attacks3, attacks4, attacks5): each
module's attack(folder) says (held, evidence), with its FACE and the PROMISE it targets."""
import importlib.util

from conftest import ROOT

ATTACKS = ROOT / "tests"


def names_of(folder):
    """The attacks of tests/<folder>, by module name (NN_what)."""
    return sorted(p.stem for p in (ATTACKS / folder).glob("[0-9][0-9]_*.py"))


def replay(folder, name, tmp_path, monkeypatch):
    """Run one attack against the grader in `tmp_path`, its own and the third round's helpers
    importable; fails with the attack's evidence when the promise broke."""
    monkeypatch.syspath_prepend(str(ATTACKS / "attacks3"))
    monkeypatch.syspath_prepend(str(ATTACKS / folder))
    spec = importlib.util.spec_from_file_location(f"{folder}_{name}", ATTACKS / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    held, evidence = module.attack(tmp_path)
    assert held, f"{name} [{module.FACE}] {module.PROMISE}: {evidence}"
