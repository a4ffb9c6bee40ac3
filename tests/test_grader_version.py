"""The grader version hashes every source a grade or its feedback depends on, so a rerun after any
change to the engine, a lab or its reference regrades (none of it listed by hand, none forgotten)."""
import pytest

from autograder.batch.outputs import HASHED, _sources, grader_version
from autograder.registry import lab_names, load
from conftest import ROOT


def _on_disk(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.name.endswith(HASHED) and "__pycache__" not in p.parts)


def test_every_engine_source_is_hashed():
    assert sorted(relative for _, relative in _sources("autograder")) == _on_disk(ROOT / "autograder")
    assert "error_model.py" in _on_disk(ROOT / "autograder") and "rubric.py" in _on_disk(ROOT / "autograder")


@pytest.mark.parametrize("name", lab_names())
def test_every_file_of_a_lab_and_its_reference_is_hashed(name):
    lab = load(name)
    folder = ROOT.joinpath(*lab.catalog_package.split("."))
    assert sorted(relative for _, relative in _sources(lab.catalog_package)) == _on_disk(folder)
    assert grader_version(lab).startswith("0.") and len({grader_version(load(n)) for n in lab_names()}) == len(lab_names())


def test_a_changed_source_changes_the_version(monkeypatch):
    from autograder.batch import outputs

    lab = load("self_attention")
    before = grader_version(lab)
    real = outputs.resources.files

    class Changed:
        def __init__(self, inner):
            self.inner = inner

        def joinpath(self, relative):
            path = self.inner.joinpath(relative)
            return _Edited(path) if relative == "model.py" else path

        def __getattr__(self, name):
            return getattr(self.inner, name)

    monkeypatch.setattr(outputs.resources, "files", lambda owner: Changed(real(owner)))
    outputs._grader_version.cache_clear()
    try:
        assert grader_version(lab) != before
    finally:
        monkeypatch.undo()
        outputs._grader_version.cache_clear()


class _Edited:
    def __init__(self, path):
        self.path = path

    def is_file(self):
        return True

    def read_bytes(self):
        return self.path.read_bytes() + b"\n# edited\n"
