"""The background jobs' helper: a job's thread steps back for the table's answers, and the kernel's thread does not."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from cut_tutor.widgets.jobs import BACKGROUND_NICE, Jobs


def _priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(sys.platform != "linux", reason="Linux schedules each thread at a priority of its own")
def test_a_job_runs_at_a_lower_priority_than_the_thread_that_started_it() -> None:
    before = _priority()
    seen: list[int] = []
    jobs = Jobs("test job")
    job = jobs.start("key", lambda stop: seen.append(_priority()))
    assert job is not None
    jobs.wait(job=job)
    assert seen == [max(before, BACKGROUND_NICE)] and seen[0] > 0
    assert _priority() == before  # the caller's own thread keeps its priority


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
