"""Independent jobs on two cores, when the machine and the process allow it.

Why: rendering the pages is most of the atlas's own build time, and it is
single-threaded Python, while the machines people build on have two cores or
more and MkDocs uses one. ``run_jobs`` runs a list of jobs that each return a
dict (paths to pages) in this process and one forked child at once; each
takes the next job not yet taken (this process from the front of the list,
the child from the back), so the two finish together whatever the jobs
cost. The child starts with this process's memory (the atlas, its indexes
and caches), so nothing is sent to it; only its results come back, pickled
through a pipe. Jobs are pure, so who ran which job never shows in the result:
the merged dict is the one running them in order gives.

When not (the jobs then run here, in order):
- no ``fork`` (Windows), or macOS, where a forked child that does not exec is
  unsafe with the system's frameworks;
- another thread is running (``mkdocs serve``'s server): fork copies only the
  calling thread, and a lock another thread holds is never released in the
  child;
- one core available, or a single job.

If the child dies without an answer, its jobs run here: a build is never lost
to the second core. An error a job raises in the child is raised here.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

Job = Callable[[], dict]


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                       # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a forked child is safe and useful here (see the module's docstring)."""
    return (hasattr(os, "fork") and sys.platform != "darwin" and cores() >= 2
            and threading.active_count() == 1)


def run_jobs(jobs: list[Job], parallel: bool | None = None) -> dict:
    """The union of every job's dict, as running them in order gives it.

    ``parallel``: None decides by ``can_fork``; False runs here in order; True
    forks when fork exists at all (tests use it to compare both ways)."""
    if parallel is None:
        parallel = len(jobs) > 1 and can_fork()
    if not parallel or not hasattr(os, "fork"):
        return _merge({i: job() for i, job in enumerate(jobs)})
    context = multiprocessing.get_context("fork")
    # The jobs not yet taken are jobs[front:back]: this process takes from the
    # front, the child from the back, so each runs a run of neighbouring jobs
    # (pages of one kind, which share the caches one process fills).
    ends = context.Array("i", [0, len(jobs)])
    reader, writer = context.Pipe(duplex=False)

    def take(from_back: bool):
        with ends.get_lock():
            if ends[0] >= ends[1]:
                return None
            if from_back:
                ends[1] -= 1
                return ends[1]
            ends[0] += 1
            return ends[0] - 1

    def work(from_back: bool) -> dict[int, dict]:
        done = {}
        while (index := take(from_back)) is not None:
            done[index] = jobs[index]()
        return done

    def child() -> None:
        reader.close()
        _answer(writer, lambda: work(True))

    process = context.Process(target=child, name="atlas-jobs", daemon=True)
    process.start()
    writer.close()
    try:
        results = work(False)
        try:
            status, value = reader.recv()
        except EOFError:                         # the child died: its jobs are done here
            status, value = "done", {}
    finally:
        reader.close()
        process.join()
    if status == "error":
        raise value
    results.update(value)
    for index in range(len(jobs)):              # jobs the child took and never reported
        if index not in results:
            results[index] = jobs[index]()
    return _merge(results)


def _answer(writer, compute: Callable[[], object]) -> None:
    """In a forked child: send ``("done", compute())`` to the parent, or ``("error", what it raised)``."""
    try:
        answer = ("done", compute())
    except BaseException as err:                 # noqa: BLE001 - handed to the parent as it is
        answer = ("error", err)
    try:
        writer.send(answer)
    except Exception:                            # noqa: BLE001 - an exception that does not pickle
        writer.send(("error", RuntimeError(repr(answer[1]))))
    writer.close()


def _merge(results: dict[int, dict]) -> dict:
    merged = {}
    for index in sorted(results):
        merged.update(results[index])
    return merged


class Background:
    """Jobs run in a forked child while this process goes on, their files written
    under ``folder`` (a dict's keys are paths in it, its values text or bytes).

    For files nothing in this process needs (the site's data files, while MkDocs
    writes the pages): ``wait`` joins the child and raises an error a job
    raised; ``cancel`` stops it. Start one only where ``can_fork()`` holds.
    """

    def __init__(self, jobs: list[Job], folder: Path):
        context = multiprocessing.get_context("fork")
        self._reader, writer = context.Pipe(duplex=False)

        def child() -> None:
            self._reader.close()
            _answer(writer, lambda: write_files(_merge({i: job() for i, job in enumerate(jobs)}), folder))

        self._process = context.Process(target=child, name="atlas-files", daemon=True)
        self._process.start()
        writer.close()

    def wait(self) -> int:
        """Files written; raises what a job raised, or ``RuntimeError`` if the child died."""
        try:
            status, value = self._reader.recv()
        except EOFError:
            status, value = "error", RuntimeError("the process writing the site's data files died")
        finally:
            self._reader.close()
            self._process.join()
        if status == "error":
            raise value
        return value

    def cancel(self) -> None:
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._reader.close()


def write_files(files: dict, folder: Path) -> int:
    """Write ``{path: text or bytes}`` under ``folder``; text as UTF-8."""
    for path, content in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(str(content), encoding="utf-8")
    return len(files)
