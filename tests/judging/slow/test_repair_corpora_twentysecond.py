"""The eighteenth blind set (tests/corpora/corpus_blind22), checked as test_repair_corpora.py checks the
earlier ones, in a module of its own so that the workers share the blind sets."""
from test_repair_corpora import blind_set_tests

SETS = ("corpus_blind22",)
plans, test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named = blind_set_tests(SETS)
