"""The serving process's garbage-collector policy (``dudo.server.collector``): survivors of a
collection are frozen at once, objects without cycles are still freed when their last
reference goes, and a thaw reclaims the cycles that freezing kept.

Each check runs in a fresh interpreter: the policy changes the collector of the whole process,
which the test process must keep as it is."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run_isolated(body: str) -> None:
    script = textwrap.dedent(
        """
        import gc, weakref
        from dudo.server.collector import FreezeSurvivors, tune_garbage_collector

        class Node:
            def __init__(self):
                self.other = None

        hook = tune_garbage_collector(thaw_every=3600.0)
        """
    ) + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


def test_survivors_of_a_collection_are_frozen_and_the_older_generations_stay_empty() -> None:
    run_isolated(
        """
        frozen = gc.get_freeze_count()
        kept = [Node() for _ in range(1000)]
        gc.collect(0)
        assert gc.get_freeze_count() >= frozen + 1000, (frozen, gc.get_freeze_count())
        assert gc.get_count()[1:] == (0, 0), gc.get_count()
        assert len(gc.get_objects(generation=2)) == 0
        """
    )


def test_a_frozen_object_without_cycles_is_freed_with_its_last_reference() -> None:
    run_isolated(
        """
        node = Node()
        gone = weakref.ref(node)
        gc.collect(0)
        assert gc.get_freeze_count() > 0
        del node
        assert gone() is None
        """
    )


def test_a_cycle_that_dies_frozen_waits_for_the_thaw_and_no_longer() -> None:
    run_isolated(
        """
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect(0)  # the cycle survives (it is in use) and is frozen
        del a, b
        for generation in (0, 1, 2):
            gc.collect(generation)
        assert gone() is not None, "frozen: no collection walks it"
        hook.thaw()
        assert gone() is None
        assert hook.last_thaw_collected >= 2 and hook.thaws == 1
        assert gc.get_freeze_count() > 0, "the survivors of the thaw are frozen again"
        """
    )


def test_a_cycle_that_dies_young_is_collected_as_always() -> None:
    run_isolated(
        """
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect(0)
        assert gone() is None
        """
    )


def test_the_policy_is_installed_once() -> None:
    run_isolated(
        """
        assert tune_garbage_collector() is hook
        assert sum(isinstance(h, FreezeSurvivors) for h in gc.callbacks) == 1
        """
    )
