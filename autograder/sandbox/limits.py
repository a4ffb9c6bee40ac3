"""How much a child may use, and whether the sandbox confines it at all."""
import os
from dataclasses import dataclass

AUTO = "auto"
# Set to "off" to run children as the grader's own user, unconfined (debugging only).
SANDBOX_SWITCH = "AUTOGRADER_SANDBOX"


@dataclass(frozen=True)
class Limits:
    step_seconds: float = 10.0
    load_seconds: float = 10.0
    memory_bytes: int = 1024 * 1024 * 1024
    file_bytes: int = 16 * 1024 * 1024  # largest file a submission may write
    disk_bytes: int = 64 * 1024 * 1024  # all it may write (as root: its own tmpfs)
    processes: int = 64
    # Who the child runs as when the grader is root: AUTO (an unprivileged user id of the
    # zygote's own), (uid, gid), or None (stay root: debugging only).
    user: object = AUTO
    confine: bool = True  # Landlock: read only Python's files, write only the working directory

    def for_child(self):
        budget = int(self.load_seconds + 6 * self.step_seconds) + 5
        return {"memory_bytes": self.memory_bytes, "cpu_seconds": budget,
                "file_bytes": self.file_bytes, "disk_bytes": self.disk_bytes,
                "processes": self.processes}


def sandbox_enabled():
    return os.environ.get(SANDBOX_SWITCH, "on").strip().lower() not in ("off", "0", "no", "false")
