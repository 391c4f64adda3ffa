"""The process settings of ``rules.machine``: the cores counted and the collector's schedule."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from rules.machine import COLLECTOR_THRESHOLDS, tune_collector, usable_cores


@pytest.fixture
def thresholds() -> Iterator[None]:
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


@pytest.mark.usefixtures("thresholds")
def test_tune_collector_runs_the_collector_less_often_than_python_does() -> None:
    gc.set_threshold(700, 10, 10)  # Python's default
    tune_collector()
    assert gc.get_threshold() == COLLECTOR_THRESHOLDS
    young, middle, oldest = COLLECTOR_THRESHOLDS
    assert young > 700 and young * middle * oldest > 700 * 10 * 10


def test_usable_cores_counts_at_least_one() -> None:
    assert usable_cores() >= 1


@pytest.mark.usefixtures("thresholds")
def test_the_app_runner_plays_with_the_tuned_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    from imperial_tui.app import local
    from imperial_tui.app.css_cache import ParsedCss

    seen: list[tuple[int, int, int]] = []

    class Stub:
        crash = None
        return_code = 0
        parsed_css = ParsedCss(None)

        def run(self) -> None:
            seen.append(gc.get_threshold())

    gc.set_threshold(700, 10, 10)
    local.run_app(Stub())  # type: ignore[arg-type]
    assert seen == [COLLECTOR_THRESHOLDS]
