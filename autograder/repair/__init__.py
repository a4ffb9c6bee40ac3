"""Diagnosis by the smallest repair of the student's own function (see search.py)."""
from .cases import repair_cases
from .edits import Edit, single_edits
from .kinds import EDIT_KINDS, EditKind
from .search import Found, Repair, RepairCache, Target, search, target_of

__all__ = ["EDIT_KINDS", "Edit", "EditKind", "Found", "Repair", "RepairCache", "Target", "repair_cases", "search",
           "single_edits", "target_of"]
