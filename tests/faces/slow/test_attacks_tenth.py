"""The tenth round of attacks (tests/corpora/attacks10), written from the grader's code and docs alone: each must hold."""
import pytest

from attack_rounds import names_of, replay

# tests/corpora/attacks10: links into the grader's own files through `check` and pytest, `check --html`
# over its own input or a run's outputs through a link, runs ended by a signal and what `export` reads
# after them, written by someone who had not seen the code they attack.


@pytest.mark.parametrize("name", names_of("attacks10"))
def test_tenth_round_attack_holds(name, tmp_path, monkeypatch):
    replay("attacks10", name, tmp_path, monkeypatch)
