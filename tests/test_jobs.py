"""The background jobs' helper: a job's thread steps back for the table's answers, and the kernel's thread does not."""

from __future__ import annotations

import os
import sys
import threading

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
