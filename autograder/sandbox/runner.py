"""The grader's side of the sandbox, as the rest of the engine uses it.

The parts live in modules of their own: limits (Limits), protocol (calls, outcomes, the child's
events as plain data), child_pipes (one child's pipes), zygote_client (Zygote), processes and
user_pool (who runs, and killing what is left), workdirs, and driver (run).
"""
from .driver import MAX_RESTARTS, Clock, run
from .limits import AUTO, Limits, sandbox_enabled
from ..core.child.protocol import Call, CallOutcome, HelperRefused, RunOutcome
from .zygote_client import Zygote

__all__ = ["AUTO", "MAX_RESTARTS", "Call", "CallOutcome", "Clock", "HelperRefused", "Limits", "RunOutcome",
           "Zygote", "run", "sandbox_enabled"]
