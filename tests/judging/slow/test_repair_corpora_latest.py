"""The latest blind sets (tests/corpora/corpus_blind12 to 15), checked as test_repair_corpora.py checks
the earlier ones."""
from test_repair_corpora import blind_set_tests

SETS = ("corpus_blind12", "corpus_blind13", "corpus_blind14", "corpus_blind15")
plans, test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named = blind_set_tests(SETS)
