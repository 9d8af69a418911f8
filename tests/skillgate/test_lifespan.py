"""What the app changes in its process while it serves, and gives back at shutdown."""

from __future__ import annotations

import gc
from pathlib import Path

from skillgate.app import GC_GEN0_THRESHOLD, create_app
from skillgate.catalog.loader import Catalog, hand_over, take_over
from tests.conftest import make_settings


async def test_cycle_collector_runs_less_often_while_serving(
    sqlite_database: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    before = gc.get_threshold()
    app = create_app(make_settings(sqlite_database, tmp_path), catalog=test_catalog)
    async with app.router.lifespan_context(app):
        assert gc.get_threshold() == (GC_GEN0_THRESHOLD, before[1], before[2])
        # The collector still runs by itself, at most every GC_GEN0_THRESHOLD
        # allocations, and finds cyclic garbage.
        runs = gc.get_stats()[0]["collections"]
        found = gc.get_stats()[0]["collected"]
        for _ in range(GC_GEN0_THRESHOLD * 2):
            cycle: list[object] = []
            cycle.append(cycle)
        assert gc.get_stats()[0]["collections"] > runs
        assert gc.get_stats()[0]["collected"] - found >= GC_GEN0_THRESHOLD // 2

    assert gc.get_threshold() == before


async def test_collector_paused_for_the_start_is_back_on_while_serving(
    sqlite_database: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    """`skillgate serve` and `app_factory` start with the collector off (what a start
    builds lives on); the lifespan's one collection freezes it and turns it back on."""
    gc.disable()
    try:
        app = create_app(make_settings(sqlite_database, tmp_path), catalog=test_catalog)
        async with app.router.lifespan_context(app):
            assert gc.isenabled()
    finally:
        gc.enable()


def test_serve_hands_its_checked_catalog_to_its_one_worker(
    sqlite_database: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    """`skillgate serve` loads the catalog to refuse a bad one; its one worker (the same
    process) serves that object instead of loading the files again, once."""
    settings = make_settings(sqlite_database, tmp_path)
    paths = settings.catalog_paths()
    hand_over([*paths, str(tmp_path / "other")], test_catalog)
    assert take_over(paths) is None  # other files: loaded
    hand_over(paths, test_catalog)
    app = create_app(settings)
    assert app.state.gateway.catalog is test_catalog
    assert take_over(paths) is None  # handed once
