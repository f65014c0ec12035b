"""Background jobs: the coach's analysis and the hand review run in a thread each, so the table never waits for them.

A room keeps its jobs in one :class:`Jobs`: one runs at a time, each for a key (the position or the hand it works
on), told to stop by its own flag, which it reads between rounds. Before the process exits every running job is
told to stop and waited for, and none starts any more: a thread torn down by the interpreter's exit in the middle of
the compiled core's rollouts would abort the process (a kernel shut down, a script's end).

A job steps back for the table three times over: its thread runs at the lowest priority (Linux schedules each thread
on its own), so on a busy server the kernels' answers come before every kernel's analysis; while the kernel's own
thread answers the page (:func:`answering`), and just after, a job waits at its next round (:func:`between_rounds`)
rather than contend for the interpreter's lock; and the kernels of one server take turns for their rounds (at most
:data:`SLOTS` at once), so half the machine is always free for the learners' clicks. None changes what a job
computes: only when.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

#: Every room's jobs in this process, whose running job is stopped before the process exits.
_ALL: weakref.WeakSet[Jobs] = weakref.WeakSet()
#: Set as the process exits: no job starts any more.
_EXITING = threading.Event()
#: How much a job's thread steps back for the table's answers (a nice value, the lowest priority): in a class on one
#: server the learners' clicks come first, and the background analyses and reviews use the CPU the clicks leave.
#: With a dozen other kernels analysing, a click's answer took 4.6 to 8.1 ms at the median with jobs at nice 10, 4.1
#: to 6.2 ms at nice 19 and 3.1 to 4.0 ms under the idle scheduling policy, whose slowest answers were no faster
#: (95th percentile 22 to 44 ms, against 20 to 32 at nice 19): a thread of it that holds the interpreter's lock can
#: wait long for a core while the kernel's own threads wait for the lock
#: (``benchmarks/bench_answer_under_analysis.py``).
BACKGROUND_NICE = 19
#: The longest a job waits at a round for the kernel's thread to finish an answer, in seconds: a long twin run from
#: a notebook (a whole game played by code) does not hold the analysis it started back for good.
ANSWER_WAIT = 1.0
#: Seconds a job goes on waiting once an answer has ended: the kernel's messages are sent by a thread of their own
#: after the answer, and a job holding the interpreter's lock then would hold them back.
AFTER_ANSWER = 0.1
#: How many jobs of the kernels of one server run a round at once: half the machine's cores, at least one. The lowest
#: priority is not enough: 30 learners playing whole hands without pause, their hand reviews starting as hands end,
#: got a move back within 424 to 461 ms at the 95th percentile with every review at nice 19 (184 ms with no review,
#: 474 ms under the idle scheduling policy) and within 242 ms with one round at a time on 2 cores
#: (``benchmarks/load_classroom.py``, ``benchmarks/results/classroom.md``).
SLOTS = max(1, (os.cpu_count() or 2) // 2)
#: The longest a job keeps its turn while others may wait (seconds), and how long it then lets them take it.
TURN, TURN_GAP = 1.0, 0.03
#: How often a job waiting for its turn looks again (seconds).
TURN_POLL = 0.01
#: The name of a server's folder of turns, before its process id.
TURNS_PREFIX = "cut-tutor-turns-"
#: Set while the kernel's thread answers none of the page's messages.
_IDLE_TABLE = threading.Event()
_IDLE_TABLE.set()
_answers = [0]  # how many answers the kernel's thread is inside (one answer may run another's twin)
_answered = [0.0]  # when the last answer ended (time.monotonic), or 0 once the kernel's thread waits for a job
_answers_lock = threading.Lock()


@contextlib.contextmanager
def answering() -> Iterator[None]:
    """While the kernel's thread answers a message from the page, jobs wait at their next round."""
    _count(+1)
    try:
        yield
    finally:
        _count(-1)


def _count(step: int) -> None:
    """Count an answer begun (``+1``) or ended (``-1``); the jobs go on once none is left."""
    with _answers_lock:
        _answers[0] += step
        if step < 0:
            _answered[0] = time.monotonic()
        if _answers[0] > 0:
            _IDLE_TABLE.clear()
        else:
            _IDLE_TABLE.set()


def between_rounds(stop: threading.Event | None = None) -> None:
    """Called by a job before each round of its work: wait while the kernel's thread answers the page and for
    :data:`AFTER_ANSWER` after (at most :data:`ANSWER_WAIT` in all), then for the job's turn among the server's
    kernels (:class:`_Turns`), unless ``stop`` is set first. The kernel's own thread never waits here."""
    if threading.current_thread() is threading.main_thread():
        return
    until = time.monotonic() + ANSWER_WAIT
    while _IDLE_TABLE.wait(max(0.0, until - time.monotonic())):
        rest = min(_answered[0] + AFTER_ANSWER, until) - time.monotonic()
        if rest <= 0:
            break
        time.sleep(rest)
    _turns.take(stop)


class _Turns:
    """The turns the jobs of one server's kernels take for their rounds: :data:`SLOTS` lock files in a folder of the
    server's own (its process id, which Jupyter gives each kernel it starts, names it), each held by at most one job
    thread; the lock goes with the thread's file, however the kernel ends. Outside a server's kernel (a script, a
    test) or without ``fcntl`` (Windows) jobs take no turns."""

    def __init__(self) -> None:
        self._held = threading.local()  # this thread's open slot files, the one it holds and since when

    def take(self, stop: threading.Event | None) -> None:
        """Hold a slot for this thread's next round: the one held still, unless its turn is over (then given up for
        :data:`TURN_GAP`, so a waiting job can take it); else the first free one, waiting until one is."""
        folder = _turns_folder()
        if folder is None:
            return
        held = self._held
        if getattr(held, "slot", None) is not None:
            if time.monotonic() - held.since < TURN:
                return
            self.give()
            time.sleep(TURN_GAP)
        if getattr(held, "files", None) is None:
            held.files = _slot_files(folder)
        if not held.files:
            return  # the slots cannot be opened: the job runs without turns
        import fcntl

        while stop is None or not stop.is_set():
            for slot, fd in enumerate(held.files):
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                held.slot, held.since = slot, time.monotonic()
                return
            time.sleep(TURN_POLL)

    def give(self) -> None:
        """Give up the slot this thread holds, if any."""
        held = self._held
        if getattr(held, "slot", None) is not None:
            import fcntl

            fcntl.flock(held.files[held.slot], fcntl.LOCK_UN)
            held.slot = None

    def done(self) -> None:
        """This thread's job has ended: its slot and files go."""
        self.give()
        for fd in getattr(self._held, "files", None) or []:
            os.close(fd)
        self._held.files = None


@functools.cache
def _turns_folder() -> Path | None:
    """The folder of the server's turns in Jupyter's runtime folder (this user's own), or ``None`` when there are
    none to take: no server started this kernel, or the platform has no ``fcntl``, or the folder cannot be made."""
    server = os.environ.get("JPY_PARENT_PID", "")
    if not server.isdigit() or sys.platform == "win32":
        return None
    try:
        from jupyter_core.paths import jupyter_runtime_dir

        folder = Path(jupyter_runtime_dir()) / f"{TURNS_PREFIX}{server}"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (ImportError, OSError):
        return None
    for other in folder.parent.glob(f"{TURNS_PREFIX}*"):  # the folders of servers that have stopped go
        pid = other.name.removeprefix(TURNS_PREFIX)
        if pid.isdigit() and other != folder and not _alive(int(pid)):
            shutil.rmtree(other, ignore_errors=True)
    return folder


def _slot_files(folder: Path) -> list[int]:
    """The :data:`SLOTS` lock files of a server's turns, opened; none when they cannot be (the folder gone)."""
    files: list[int] = []
    try:
        for slot in range(SLOTS):
            files.append(os.open(folder / f"slot-{slot}", os.O_RDWR | os.O_CREAT, 0o600))
    except OSError:
        for fd in files:
            os.close(fd)
        return []
    return files


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


_turns = _Turns()


def _in_background(work: Callable[[threading.Event], None], stop: threading.Event) -> None:
    """Run ``work(stop)`` at a lower priority than the kernel's own thread (Linux schedules each thread on its own;
    elsewhere the job runs as it is)."""
    if sys.platform == "linux":
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, max(os.getpriority(os.PRIO_PROCESS, tid), BACKGROUND_NICE))
        except OSError:  # a sandbox that refuses it: the job still runs
            pass
    try:
        work(stop)
    finally:
        _turns.done()


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
        if threading.current_thread() is threading.main_thread():
            _answered[0] = 0.0  # an answer that waits for a job is not one the job should wait for
            _IDLE_TABLE.set()
        try:
            while job is not None and job.thread.is_alive() and not (until is not None and until()):
                job.thread.join(None if until is None else 0.02)
        finally:
            _count(0)
