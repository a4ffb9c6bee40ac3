"""The fifth round of attacks (tests/corpora/attacks5), written from the grader's code and docs alone: each must hold."""
import pytest

from attack_rounds import names_of, replay

# tests/corpora/attacks5: the look-alike signal, the course history and its totals, the pytest face, the
# build's --out folder, the Gradescope entry point's choice of file, run folders inside a class, the
# kit's data and the saved results, written by people who had not seen the code they attack.


@pytest.mark.parametrize("name", names_of("attacks5"))
def test_fifth_round_attack_holds(name, tmp_path, monkeypatch):
    replay("attacks5", name, tmp_path, monkeypatch)
