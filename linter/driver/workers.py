"""Work spread over worker processes: batches of neighbouring files, results in order, Ctrl-C
honoured at once."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_PARALLEL_THRESHOLD = 4  # below this many files a process pool costs more than it saves
_BATCHES_PER_WORKER = 16  # enough that the last ones are short; few enough that sending them costs little


def parallel_map(function: Callable, work: list, jobs: int | None, cost: Callable | None = None) -> Iterator:
    """``map(function, work)`` over worker processes, results in ``work``'s order as they come.

    With ``cost`` (an estimate per item), items go in batches of similar cost, each a run of
    neighbours in ``work`` (files of one package, in the order the tree is walked), sent in that
    order: a file's analysis reads the modules its package imports, which a worker keeps parsed
    (``promolint.engine.walker.top_level``), so a worker that goes through a package in order reads
    them once, where one handed files scattered over the tree, largest first, read them again
    and again (a third more time on the benchmark's corpus).

    Ctrl-C reaches the workers too (the terminal signals the whole process group): they ignore
    it from their start, and the caller, interrupted, ends them at once instead of waiting for
    their batches."""
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(work) < _PARALLEL_THRESHOLD:
        yield from map(function, work)
        return
    import multiprocessing  # here: a run served from the cache, or of one file, starts no pool
    from concurrent.futures import ProcessPoolExecutor

    batches = _batches([cost(item) for item in work] if cost else [1] * len(work), workers * _BATCHES_PER_WORKER)
    # Workers start from a clean server process, never a fork of the caller: forking a process
    # that has imported JAX (the pytest plugin, the runtime shim) can deadlock.
    context = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                          else "spawn")  # fmt: skip
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts) as pool:
        # Futures, not pool.map: its results cancel the batches left when interrupted, and Python
        # 3.11's pool then fails on the cancelled ones as its workers end, and hangs the exit.
        tasks = [(function, [work[i] for i in batch]) for batch in batches]
        try:
            with _interrupts_held():  # the first submissions start the processes, which inherit it
                futures = [pool.submit(_apply, task) for task in tasks[:workers]]
            futures += [pool.submit(_apply, task) for task in tasks[workers:]]
            for future in futures:
                yield from future.result()
        except BaseException:  # an interrupt, or a caller that stops early: no batch is waited for
            _terminate(pool)
            raise


def _apply(batch: tuple[Callable, list]) -> list:
    function, items = batch
    return [function(item) for item in items]


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT held back meanwhile, and delivered when it ends: processes started now inherit the
    block, so they never see a Ctrl-C, where the pool's initializer would leave them open to it
    while they import; the caller loses none."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: the initializer alone
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _terminate(pool) -> None:
    """End ``pool``'s workers now (``ProcessPoolExecutor.terminate_workers`` from Python 3.14),
    and wait for the pool's manager thread to see them gone: one still closing its pipe when the
    interpreter exits races the executor's exit hook, which then prints an OSError traceback."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False)  # not cancel_futures: see parallel_map
    for process in processes:
        process.terminate()
    if manager is not None:
        manager.join(timeout=_MANAGER_EXIT_S)


_MANAGER_EXIT_S = 10  # a backstop: the manager ends as soon as it sees its workers gone


def _batches(costs: list[float], count: int) -> list[list[int]]:
    """Indices of the items in about ``count`` batches of similar total cost, each a run of
    neighbours: an item that alone exceeds a batch's share ends its batch."""
    share = sum(costs) / count or 1  # all free (empty files): one batch
    batches, current, filled = [], [], 0.0
    for index, item_cost in enumerate(costs):
        current.append(index)
        filled += item_cost
        if filled >= share:
            batches.append(current)
            current, filled = [], 0.0
    return batches + [current] if current else batches
