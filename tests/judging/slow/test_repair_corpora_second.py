"""The blind sets tests/corpora/corpus_blind7 and 8, checked as test_repair_corpora.py checks
the earlier ones."""
from test_repair_corpora import blind_set_tests

SETS = ("corpus_blind7", "corpus_blind8")
plans, test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named = blind_set_tests(SETS)
