"""Background jobs: the coach's analysis and the hand review run in a thread each, so the table never waits for them.

A room keeps its jobs in one :class:`Jobs`: one runs at a time, each for a key (the position or the hand it works
on), told to stop by its own flag, which it reads between rounds. Before the process exits every running job is
told to stop and waited for, and none starts any more: a thread torn down by the interpreter's exit in the middle of
the compiled core's rollouts would abort the process (a kernel shut down, a script's end).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass

#: Every room's jobs in this process, whose running job is stopped before the process exits.
_ALL: weakref.WeakSet[Jobs] = weakref.WeakSet()
#: Set as the process exits: no job starts any more.
_EXITING = threading.Event()
#: How much a job's thread steps back for the table's answers (a nice value): in a class on one server the learners'
#: clicks come first, and the background analyses and reviews use the CPU the clicks leave.
BACKGROUND_NICE = 10


def _in_background(work: Callable[[threading.Event], None], stop: threading.Event) -> None:
    """Run ``work(stop)`` at a lower priority than the kernel's own thread (Linux schedules each thread on its own;
    elsewhere the job runs as it is)."""
    if sys.platform == "linux":
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, max(os.getpriority(os.PRIO_PROCESS, tid), BACKGROUND_NICE))
        except OSError:  # a sandbox that refuses it: the job still runs
            pass
    work(stop)


@atexit.register
def _stop_all() -> None:
    """Stop every running job after its round and wait for it (at most 10 seconds each)."""
    _EXITING.set()
    running = [jobs.job for jobs in list(_ALL)]
    for job in running:
        if job is not None:
            job.stop.set()
    for job in running:
        if job is not None:
            job.thread.join(timeout=10)


@dataclass(frozen=True)
class Job:
    """One job: what it works on, its thread, and the flag that tells it to stop."""

    key: str
    thread: threading.Thread
    stop: threading.Event


class Jobs:
    """A room's background jobs, one at a time; ``name`` names their threads."""

    def __init__(self, name: str) -> None:
        self.name = name
        #: The job started last (running or not).
        self.job: Job | None = None
        self._starting = threading.Lock()  # two callers (a click, the tutor's check) start one job, not two
        _ALL.add(self)

    def start(self, key: str, work: Callable[[threading.Event], None], replace: bool = False) -> Job | None:
        """Run ``work(stop)`` in the background for ``key``: not while a job runs (unless ``replace``: that one is
        told to stop and gives way), nor once the process exits. The job started, if one was."""
        with self._starting:
            running = self.running()
            if (running is not None and not replace) or _EXITING.is_set():
                return None
            if running is not None:
                running.stop.set()
            stop = threading.Event()
            thread = threading.Thread(target=_in_background, args=(work, stop), name=self.name, daemon=True)
            job = self.job = Job(key, thread, stop)
            job.thread.start()
            return job

    def running(self) -> Job | None:
        """The job running now; not once its own thread asks, as it draws its result as the last thing it does."""
        job = self.job
        alive = job is not None and job.thread.is_alive() and job.thread is not threading.current_thread()
        return job if alive else None

    def cancel(self) -> None:
        """Tell the job started last to stop after its current round."""
        job = self.job
        if job is not None:
            job.stop.set()

    def wait(self, until: Callable[[], bool] | None = None, job: Job | None = None) -> None:
        """Wait until ``job`` (by default the one running now) ends, or until ``until()`` is true."""
        job = job or self.running()
        while job is not None and job.thread.is_alive() and not (until is not None and until()):
            job.thread.join(None if until is None else 0.02)
