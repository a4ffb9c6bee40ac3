"""Children's working folders: made empty and private, removed off the grading path."""
from __future__ import annotations

import os
import queue
import shutil
import tempfile
import threading


def fresh_workdir(user: tuple[int, ...] | None) -> str:
    """An empty folder only the child's user can enter."""
    workdir = tempfile.mkdtemp(prefix="autograder-run-")
    if user is not None:
        os.chown(workdir, user[0], user[1])
    os.chmod(workdir, 0o700)
    return workdir


class Remover:
    """Deletes folders on a thread of its own, in order; finish() waits until all are gone."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="autograder-remover", daemon=True)
        self._thread.start()

    def remove(self, folder: str) -> None:
        self._queue.put(folder)

    def finish(self) -> None:
        self._queue.put(None)
        self._thread.join()

    def _work(self) -> None:
        while (folder := self._queue.get()) is not None:
            remove_tree(folder)


def remove_tree(folder: str) -> None:
    """Delete a child's working directory, whatever modes the child left on its contents."""
    for root, dirs, _ in os.walk(folder):
        for name in dirs:
            try:
                os.chmod(os.path.join(root, name), 0o700, follow_symlinks=False)
            except (OSError, NotImplementedError):
                pass
    shutil.rmtree(folder, ignore_errors=True)
