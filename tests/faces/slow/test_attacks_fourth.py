"""The fourth round of attacks (tests/corpora/attacks4), written from the grader's code and docs alone: each must hold."""
import pytest

from attack_rounds import names_of, replay

# tests/corpora/attacks4: the one guard between a submission and the grader's own work (texts, names,
# pictures, fingerprints, the LMS's files) and points that come from values.


@pytest.mark.parametrize("name", names_of("attacks4"))
def test_fourth_round_attack_holds(name, tmp_path, monkeypatch):
    replay("attacks4", name, tmp_path, monkeypatch)
