"""How much a child may use, and whether the sandbox confines it at all."""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

AUTO = "auto"
MB = 1024 * 1024
# Set to "off" to run children as the grader's own user, unconfined (debugging only).
SANDBOX_SWITCH = "AUTOGRADER_SANDBOX"


@dataclass(frozen=True)
class Limits:
    """What a child may use and who it runs as; the one place their defaults are set."""

    step_seconds: float = 10.0
    load_seconds: float = 10.0
    memory_bytes: int = 1024 * MB
    file_bytes: int = 16 * MB  # largest file a submission may write
    disk_bytes: int = 64 * MB  # all it may write (as root: its own tmpfs)
    processes: int = 64
    # Who the child runs as when the grader is root: AUTO (an unprivileged user id of the
    # zygote's own), (uid, gid), or None (stay root: debugging only).
    user: str | tuple[int, int] | None = AUTO
    confine: bool = True  # Landlock: read only Python's files, write only the working directory

    @classmethod
    def from_options(cls, seconds: float | None = None, memory_mb: float | None = None, processes: int | None = None,
                     disk_mb: float | None = None, isolated: bool = True) -> Limits:
        """Limits from a command's or a platform's options, in their units; None keeps the default.

        `seconds` bounds loading the submission and each step alike. `isolated=False` runs
        children as the grader's own user, unconfined (debugging only).
        """
        options: dict[str, Any] = {}
        if seconds is not None:
            options["step_seconds"] = options["load_seconds"] = float(seconds)
        if memory_mb is not None:
            options["memory_bytes"] = int(memory_mb) * MB
        if processes is not None:
            options["processes"] = int(processes)
        if disk_mb is not None:
            options["disk_bytes"] = int(disk_mb) * MB
        if not isolated:
            options.update(user=None, confine=False)
        return cls(**options)

    def submission_seconds(self, steps: int) -> float:
        """The most wall-clock time one submission may take, however it behaves: four loads' worth
        (a run's children each load the cells), and per step its own time (its tests share one
        step_seconds: driver.Clock) and one more load's worth (the child started after it hung or
        crashed). What has not run by then is not run (see driver.run's `until`)."""
        return (4 + steps) * self.load_seconds + steps * self.step_seconds

    def as_data(self) -> dict[str, Any]:
        """Every field, as plain data, plus whether the sandbox is on: all of it can change what a
        submission earns, so all of it is part of a student's fingerprint (a field added later is
        included without a word here)."""
        data = {f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v) for f in fields(self)}
        return {**data, "sandbox": sandbox_enabled()}

    def for_child(self) -> dict[str, int]:
        budget = int(self.load_seconds + 6 * self.step_seconds) + 5
        return {"memory_bytes": self.memory_bytes, "cpu_seconds": budget,
                "file_bytes": self.file_bytes, "disk_bytes": self.disk_bytes,
                "processes": self.processes}


def sandbox_enabled() -> bool:
    return os.environ.get(SANDBOX_SWITCH, "on").strip().lower() not in ("off", "0", "no", "false")
