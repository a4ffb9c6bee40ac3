"""pytest face of the grader: `pytest --submission PATH` gives one test per step."""
