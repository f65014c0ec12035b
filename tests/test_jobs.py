"""The background jobs' helper: a job's thread steps back for the table's answers, and the kernel's thread does not."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import cut_tutor.widgets.jobs as jobs_module
from cut_tutor.widgets.jobs import BACKGROUND_NICE, Jobs, answering, between_rounds


def jobs_idle() -> bool:
    return jobs_module._IDLE_TABLE.is_set()


def _priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(sys.platform != "linux", reason="Linux schedules each thread at a priority of its own")
def test_a_job_runs_at_the_lowest_priority_and_the_thread_that_started_it_does_not() -> None:
    before = _priority()
    seen: list[int] = []
    jobs = Jobs("test job")
    job = jobs.start("key", lambda stop: seen.append(_priority()))
    assert job is not None
    jobs.wait(job=job)
    assert seen == [max(before, BACKGROUND_NICE)] and seen[0] == 19
    assert _priority() == before  # the caller's own thread keeps its priority


def test_a_job_waits_between_rounds_while_the_table_answers_then_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "ANSWER_WAIT", 30.0)  # the wait ends with the answer, long before its limit
    rounds: list[int] = []
    inside, done = threading.Event(), threading.Event()

    def work(stop: threading.Event) -> None:
        for k in range(3):
            between_rounds()
            rounds.append(k)
            if k == 0:
                inside.set()
        done.set()

    jobs = Jobs("test job")
    with answering():
        assert jobs.start("key", lambda stop: None) is not None  # a job started while answering still starts
        job = jobs.start("rounds", work, replace=True)
        assert job is not None
        # its first round waits for the answer: nothing is done until the answer ends
        assert not inside.wait(0.3) and rounds == []
    assert done.wait(5) and rounds == [0, 1, 2]


def test_a_job_lets_the_answers_messages_go_out_before_its_next_round(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "AFTER_ANSWER", 3.0)  # a long while after the answer, for the test to see
    started, done = threading.Event(), threading.Event()

    def work(stop: threading.Event) -> None:
        started.set()
        between_rounds()
        done.set()

    jobs = Jobs("test job")
    with answering():
        pass  # an answer just ended
    assert jobs.start("key", work) is not None and started.wait(5)
    assert not done.wait(0.2)  # still waiting after the answer's end
    assert done.wait(10)  # then goes on


def test_an_answer_that_waits_for_a_job_lets_it_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "ANSWER_WAIT", 30.0)
    let_through: list[bool] = []

    def work(stop: threading.Event) -> None:
        for _ in range(3):
            between_rounds()
            let_through.append(jobs_idle())  # false only if it went on because the wait ran out

    jobs = Jobs("test job")
    with answering():
        job = jobs.start("key", work)
        assert job is not None
        jobs.wait(job=job)  # a twin that waits for its analysis, as Coach: Play in a script does
        assert let_through == [True, True, True]
        assert not jobs_idle()  # the answer itself goes on: later rounds wait again
    assert jobs_idle()


def test_a_second_job_waits_for_the_first_unless_it_replaces_it() -> None:
    jobs, release = Jobs("test job"), threading.Event()
    first = jobs.start("one", lambda stop: release.wait(5) and None)
    assert first is not None and jobs.start("two", lambda stop: None) is None
    second = jobs.start("two", lambda stop: None, replace=True)
    assert second is not None and first.stop.is_set()
    release.set()
    jobs.wait(job=first)
    jobs.wait(job=second)
    assert jobs.running() is None


@pytest.fixture
def one_slot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel of a server (the parent Jupyter names) whose kernels take turns for one slot."""
    monkeypatch.setenv("JPY_PARENT_PID", "4242")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setattr(jobs_module, "SLOTS", 1)
    jobs_module._turns_folder.cache_clear()
    yield
    jobs_module._turns_folder.cache_clear()


def _rounds(jobs: Jobs, count: int, took: list[str], name: str, hold: threading.Event | None = None) -> None:
    """A job of ``count`` rounds, each noted in ``took`` once it has its turn; the last waits for ``hold``."""

    def work(stop: threading.Event) -> None:
        for number in range(count):
            between_rounds(stop)
            took.append(f"{name}{number}")
        if hold is not None:
            hold.wait(30)

    jobs.start(name, work)


@pytest.mark.skipif(sys.platform != "linux", reason="the turns are lock files (fcntl)")
@pytest.mark.usefixtures("one_slot")
def test_the_kernels_of_one_server_take_turns_for_their_rounds() -> None:
    first, second, took = Jobs("first"), Jobs("second"), []
    hold = threading.Event()
    _rounds(first, 2, took, "a", hold)  # two rounds in its turn, then it waits holding the slot
    while took != ["a0", "a1"]:
        threading.Event().wait(0.01)
    _rounds(second, 1, took, "b")
    threading.Event().wait(0.3)  # time for a round that did not wait
    assert took == ["a0", "a1"]  # the second job's round waits for the turn
    hold.set()
    first.wait()
    second.wait()
    assert took == ["a0", "a1", "b0"]


@pytest.mark.skipif(sys.platform != "linux", reason="the turns are lock files (fcntl)")
@pytest.mark.usefixtures("one_slot")
def test_a_turn_ends_and_a_waiting_job_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "TURN", 0.0)  # every round is a turn of its own
    first, second, took = Jobs("first"), Jobs("second"), []
    started = threading.Event()

    def work(stop: threading.Event) -> None:
        between_rounds(stop)
        took.append("a0")
        started.set()
        while "b0" not in took and len(took) < 500:  # its next turns come after the waiting job's
            between_rounds(stop)
            took.append("a")

    first.start("a", work)
    started.wait(10)
    _rounds(second, 1, took, "b")
    first.wait()
    second.wait()
    assert "b0" in took and took.index("b0") < 100


@pytest.mark.skipif(sys.platform != "linux", reason="the turns are lock files (fcntl)")
@pytest.mark.usefixtures("one_slot")
def test_a_job_told_to_stop_while_it_waits_for_its_turn_stops_waiting() -> None:
    first, second, took = Jobs("first"), Jobs("second"), []
    hold = threading.Event()
    _rounds(first, 1, took, "a", hold)
    while took != ["a0"]:
        threading.Event().wait(0.01)
    _rounds(second, 1, took, "b")
    second.cancel()
    deadline = time.monotonic() + 10
    second.wait(until=lambda: time.monotonic() > deadline)
    assert second.running() is None  # it stopped waiting while the first job still holds the turn
    hold.set()
    first.wait()


def test_outside_a_server_s_kernel_jobs_take_no_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JPY_PARENT_PID", raising=False)
    jobs_module._turns_folder.cache_clear()
    assert jobs_module._turns_folder() is None
    jobs_module._turns_folder.cache_clear()


@pytest.mark.skipif(sys.platform != "linux", reason="the turns are lock files (fcntl)")
def test_the_turns_of_a_server_that_has_stopped_are_swept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale, live = tmp_path / f"cut-tutor-turns-{gone.pid}", tmp_path / f"cut-tutor-turns-{os.getppid()}"
    for folder in (stale, live):
        folder.mkdir()
        (folder / "slot-0").touch()
    monkeypatch.setenv("JPY_PARENT_PID", str(os.getpid()))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    jobs_module._turns_folder.cache_clear()
    try:
        assert jobs_module._turns_folder() == tmp_path / f"cut-tutor-turns-{os.getpid()}"
    finally:
        jobs_module._turns_folder.cache_clear()
    assert not stale.exists() and live.exists()


@pytest.mark.skipif(sys.platform != "linux", reason="the turns are lock files (fcntl)")
@pytest.mark.usefixtures("one_slot")
def test_slots_that_cannot_be_opened_leave_the_job_to_run_without_turns() -> None:
    folder = jobs_module._turns_folder()
    assert folder is not None
    folder.rmdir()
    folder.write_text("not a folder")  # the slots cannot be opened under it
    jobs, took = Jobs("alone"), []
    _rounds(jobs, 3, took, "a")
    deadline = time.monotonic() + 10
    jobs.wait(until=lambda: time.monotonic() > deadline)
    assert took == ["a0", "a1", "a2"]
