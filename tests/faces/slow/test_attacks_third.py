"""The third round of attacks (tests/corpora/attacks3), written from the grader's code and docs alone: each must hold."""
import pytest

from attack_rounds import names_of, replay

# tests/corpora/attacks3: the TA's after-grading files, the look-alike signal, the course history, the step
# graph's stand-ins and the grader version.


@pytest.mark.parametrize("name", names_of("attacks3"))
def test_third_round_attack_holds(name, tmp_path, monkeypatch):
    replay("attacks3", name, tmp_path, monkeypatch)
