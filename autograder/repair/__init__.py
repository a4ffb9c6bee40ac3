"""Diagnosis by the smallest repair of the student's own function (see search.py)."""
from .cases import repair_cases
from .edits import Edit, single_edits
from .search import Found, RepairCache, Target, search, target_of

__all__ = ["Edit", "Found", "RepairCache", "Target", "repair_cases", "search",
           "single_edits", "target_of"]
