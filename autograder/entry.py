"""The `autograder` command's first lines: `check` starts the sandbox's zygote before anything else
loads (sandbox.launch.start_ahead), so that the zygote's import of numpy and pandas, the longest
part of a check, starts as early as it can; then the command line (cli) runs as usual."""
from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing's own would load typing: this module runs before anything else
if TYPE_CHECKING:
    from typing import NoReturn


def script() -> NoReturn:
    """The `autograder` command."""
    if sys.argv[1:2] == ["check"]:
        from .sandbox.launch import start_ahead

        start_ahead()
    from .cli import script as command_line

    command_line()
