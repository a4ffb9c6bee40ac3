"""Why `autograder build` stops: it cannot start (BuildRefused, exit 2) or does not go on (BuildError, exit 1)."""
from __future__ import annotations

from ..said import Refusal


class BuildError(Refusal):
    """The build does not go on, or its zip does not grade as it must: exit status 1."""

    status = 1
    program = "autograder build"


class BuildRefused(Refusal):
    """The build cannot start (which lab): exit status 2, nothing written."""

    program = "autograder build"
