"""report.html written in a process started before grading, which loads matplotlib meanwhile."""
from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterable
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..sandbox import linux
from .grades import Listed, Records
from .report import write_report
from .report_plots import _pyplot

if TYPE_CHECKING:
    from ..core.lab import Lab

PREPARE = "prepare"


class ReportWriter:
    """Writes report.html in a process started before grading, which loads matplotlib meanwhile.

    Loading matplotlib and its fonts takes a few tenths of a second; done while the class is
    graded (once prepare() says grading is under way, so it does not slow the start), it is no
    longer part of the run's single-core end. If that process fails or is gone, the report is
    written here instead.
    """

    def __init__(self, lang: str) -> None:
        context = multiprocessing.get_context("fork")
        self._connection, theirs = context.Pipe()
        self._process = context.Process(target=_serve_one_report, args=(theirs, lang, os.getpid()),
                                        daemon=True, name="report-writer")
        self._process.start()
        theirs.close()
        self._prepared = False

    def prepare(self) -> None:
        """Load matplotlib now; once is enough."""
        if not self._prepared:
            self._prepared = True
            try:
                self._connection.send(PREPARE)
            except OSError:
                pass

    def write(self, path: str, table: pd.DataFrame, records: Records, lab: Lab, lang: str,
              counts: dict[str, int | str] | None = None, listed: Listed = (),
              similar: Iterable[dict[str, Any]] = (), times: tuple[str, str] | None = None) -> None:
        try:
            self._connection.send((path, table, records, lab.name, lang, counts, list(listed), list(similar), times))
            wait([self._connection, self._process.sentinel])
            if self._connection.poll() and self._connection.recv() is None:
                return
        except (OSError, EOFError):
            pass
        finally:
            self.close()
        write_report(path, table, records, lab, lang, counts, listed, similar, times)

    def close(self) -> None:
        """Stop the process (if still running); safe to call more than once."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._connection.close()


def _serve_one_report(connection: Connection, lang: str, parent: int) -> None:
    linux.die_with_parent(parent, 0)
    linux.name_process("report-writer")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the batch decides how an interrupt ends
    try:
        job = connection.recv()
        if job == PREPARE:
            _pyplot(lang)
            job = connection.recv()
    except (EOFError, OSError):
        return
    try:
        from ..registry import load

        path, table, records, lab_name, lang, counts, listed, similar, times = job
        write_report(path, table, records, load(lab_name), lang, counts, listed, similar, times)
    except Exception as error:  # the batch writes the report itself, and sees the error there
        connection.send(repr(error))
    else:
        connection.send(None)
