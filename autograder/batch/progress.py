"""Progress of a batch: a rich bar on a terminal, a few plain lines otherwise."""
from __future__ import annotations

import sys
import time
from typing import TextIO

from ..core.render.messages import Messages

PLAIN_EVERY_SECONDS = 5.0
PLAIN_EVERY_PERCENT = 10


class PlainProgress:
    def __init__(self, total: int, stream: TextIO, say: Messages | None = None) -> None:
        self.total, self.done, self.stream = total, 0, stream
        self.say = say or Messages("en")
        self._last_time = time.monotonic()
        self._last_percent = 0

    def advance(self, label: str) -> None:
        self.done += 1
        percent = 100 * self.done // max(self.total, 1)
        now = time.monotonic()
        if (percent >= self._last_percent + PLAIN_EVERY_PERCENT or now - self._last_time >= PLAIN_EVERY_SECONDS
                or self.done == self.total):
            self._last_time, self._last_percent = now, percent - percent % PLAIN_EVERY_PERCENT
            print(self.say("grade", "progress_line", done=self.done, total=self.total, percent=percent, label=label),
                  file=self.stream, flush=True)

    def close(self) -> None:
        pass


class RichProgress:
    """A bar without a refresh thread: worker processes are forked while it is shown."""

    def __init__(self, total: int, stream: TextIO, say: Messages | None = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        # The label is rich markup: the catalog's words are plain, so escaping changes nothing.
        self._progress = Progress(TextColumn((say or Messages("en"))("grade", "progress_bar")), BarColumn(), MofNCompleteColumn(),
                                  TimeRemainingColumn(), TextColumn("{task.fields[label]}"),
                                  console=Console(file=stream), auto_refresh=False, transient=False)
        self._task = self._progress.add_task("grading", total=total, label="")
        self._progress.start()
        self._last_refresh = 0.0

    def advance(self, label: str) -> None:
        self._progress.update(self._task, advance=1, label=label)
        now = time.monotonic()
        if now - self._last_refresh > 0.1:
            self._last_refresh = now
            self._progress.refresh()

    def close(self) -> None:
        self._progress.refresh()
        self._progress.stop()


def progress_for(total: int, stream: TextIO | None = None, say: Messages | None = None
                 ) -> RichProgress | PlainProgress:
    """A bar on a terminal, a few plain lines otherwise; in the TA's language (`say`, else English)."""
    stream = stream or sys.stderr
    return RichProgress(total, stream, say) if stream.isatty() else PlainProgress(total, stream, say)
