"""Rendering on two cores (``build_graph/parallel.py``): the same pages as in one
process, errors that surface as they would in one process, and a child that
dies costing time, never pages."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from build_graph import parallel
from build_graph.errors import AtlasError
from build_graph.parallel import can_fork, run_jobs
from build_graph.render.site import render_site

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


@needs_fork
def test_two_processes_render_exactly_what_one_does(atlas):
    assert render_site(atlas, parallel=True) == render_site(atlas, parallel=False)


def _slow(value):
    """A job's result, after long enough that the child is up before the parent has taken them all."""
    time.sleep(0.005)
    return value


def _jobs(n: int):
    return [lambda i=i: _slow({f"page-{i}": os.getpid()}) for i in range(n)]


@needs_fork
def test_both_processes_take_jobs_and_every_job_lands_once():
    result = run_jobs(_jobs(400), parallel=True)
    assert sorted(result) == sorted(f"page-{i}" for i in range(400))
    assert os.getpid() in result.values() and len(set(result.values())) == 2


@needs_fork
def test_a_job_error_in_the_child_is_raised_here():
    parent = os.getpid()

    def fails_in_child():
        if os.getpid() != parent:
            raise AtlasError("bad listing", file="seeds/x.txt", line=3)
        return _slow({"x": 1})

    # Many jobs, so that the child surely takes some: each fails there.
    with pytest.raises(AtlasError, match="bad listing"):
        run_jobs([fails_in_child] * 200, parallel=True)


@needs_fork
def test_a_child_that_dies_costs_time_not_pages():
    parent = os.getpid()

    def dies_in_child(i):
        if os.getpid() != parent:
            os._exit(9)
        return _slow({i: i})

    jobs = [lambda i=i: dies_in_child(i) for i in range(50)]
    assert run_jobs(jobs, parallel=True) == {i: i for i in range(50)}


def test_one_process_runs_jobs_in_order_and_later_jobs_win():
    jobs = [lambda: {"a": 1, "b": 1}, lambda: {"b": 2}]
    assert run_jobs(jobs, parallel=False) == {"a": 1, "b": 2}


@needs_fork
def test_merged_result_does_not_depend_on_who_ran_what():
    jobs = [lambda: {"a": 1, "b": 1}, lambda: {"b": 2}] + [lambda: {}] * 30
    assert run_jobs(jobs, parallel=True) == {"a": 1, "b": 2}


def test_no_fork_while_another_thread_runs():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


@needs_fork
def test_tagging_on_two_cores_gives_every_paper_the_same_tags(monkeypatch):
    from build_graph import pipeline
    from build_graph.pipeline import build_atlas
    seeds = Path(__file__).resolve().parent.parent / "seeds"
    monkeypatch.setattr(pipeline, "TAG_JOB", 5)              # 51 papers: eleven jobs, not one
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    both = build_atlas(seeds)
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    one = build_atlas(seeds)
    assert [(p.slug, p.techniques) for p in both.corpus.papers] == [(p.slug, p.techniques) for p in one.corpus.papers]
    assert any(p.techniques for p in one.corpus.papers)


@needs_fork
def test_related_papers_on_two_cores_are_the_same(atlas, monkeypatch):
    from build_graph import related
    monkeypatch.setattr(related, "JOB", 7)                    # 51 papers: eight jobs
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    both = related.related_papers(atlas.corpus.papers)
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    one = related.related_papers(atlas.corpus.papers)
    assert both == one and list(both) == [p.slug for p in atlas.corpus.papers]
