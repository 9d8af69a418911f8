"""The Activity page's chart: calls per UTC day for the last 14 days, one stacked bar
a day split by integration, failed calls hatched. Server-rendered SVG (the CSP allows
no inline script or style: geometry and colours are SVG presentation attributes).

This module turns `DayCount` rows into geometry; `activity_chart.html` draws it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from skillgate.executions.repository import DayCount

DAYS = 14
WIDTH, HEIGHT = 720, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 12, 34  # plot margins, in viewBox units
# Colour-blind-friendly hues (Okabe-Ito, then Tableau); integrations take them in order.
PALETTE = (
    "#0072b2",
    "#e69f00",
    "#009e73",
    "#cc79a7",
    "#56b4e9",
    "#d55e00",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#8c564b",
)


@dataclass(frozen=True)
class Segment:
    integration: str
    name: str
    ok: bool
    count: int
    y: float
    height: float
    fill: str

    @property
    def outcome(self) -> str:
        return "success" if self.ok else "error"


@dataclass
class DayBar:
    day: date
    x: float
    width: float
    total: int = 0
    failed: int = 0
    segments: list[Segment] = field(default_factory=list)

    @property
    def iso(self) -> str:
        return self.day.isoformat()

    @property
    def label(self) -> str:
        return f"{self.day.day} {self.day:%b}"

    @property
    def long_label(self) -> str:
        return f"{self.day:%a} {self.day.day} {self.day:%b}"

    @property
    def label_x(self) -> float:
        return self.x + self.width / 2


@dataclass(frozen=True)
class LegendItem:
    integration: str
    name: str
    fill: str
    total: int
    failed: int


@dataclass(frozen=True)
class Tick:
    value: int
    y: float


@dataclass
class Chart:
    bars: list[DayBar]
    legend: list[LegendItem]
    ticks: list[Tick]
    total: int
    failed: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    baseline: float = HEIGHT - BOTTOM

    @property
    def busiest(self) -> DayBar | None:
        best = max(self.bars, key=lambda b: (b.total, b.day), default=None)
        return best if best is not None and best.total else None

    @property
    def first_day(self) -> date:
        return self.bars[0].day

    @property
    def last_day(self) -> date:
        return self.bars[-1].day


def window_start(today: date, days: int = DAYS) -> datetime:
    """Midnight UTC of the first day shown (today is the last)."""
    return datetime.combine(today - timedelta(days=days - 1), time(0), tzinfo=UTC)


def _nice_max(value: int) -> int:
    """The axis top: 1, 2 or 5 times a power of ten, at least `value` (and 1)."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10


def build_chart(
    counts: Iterable[DayCount], names: Mapping[str, str], today: date, days: int = DAYS
) -> Chart:
    """The chart of `counts` for the `days` days ending `today` (UTC)."""
    per_day: dict[str, dict[tuple[str, bool], int]] = defaultdict(dict)
    for row in counts:
        per_day[row.day][(row.integration, row.ok)] = row.count
    seen = sorted({i for cells in per_day.values() for i, _ in cells})
    fills = {slug: PALETTE[n % len(PALETTE)] for n, slug in enumerate(seen)}
    plot_h = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / days
    bars = [
        DayBar(today - timedelta(days=days - 1 - n), LEFT + n * slot + slot * 0.15, slot * 0.7)
        for n in range(days)
    ]
    top = _nice_max(max((sum(per_day[b.iso].values()) for b in bars), default=0))
    scale = plot_h / top
    for bar in bars:
        y = float(HEIGHT - BOTTOM)
        cells = per_day.get(bar.iso, {})
        for slug in seen:  # bottom up: each integration's successes, then its failures
            for ok in (True, False):
                n = cells.get((slug, ok), 0)
                if not n:
                    continue
                y -= n * scale
                name = names.get(slug, slug)
                bar.segments.append(Segment(slug, name, ok, n, y, n * scale, fills[slug]))
                bar.total += n
                bar.failed += 0 if ok else n
    legend = [
        LegendItem(
            slug,
            names.get(slug, slug),
            fills[slug],
            sum(s.count for b in bars for s in b.segments if s.integration == slug),
            sum(s.count for b in bars for s in b.segments if s.integration == slug and not s.ok),
        )
        for slug in seen
    ]
    ticks = [Tick(v, HEIGHT - BOTTOM - v * scale) for v in (0, top // 2, top) if v or top]
    return Chart(
        bars,
        legend,
        sorted(set(ticks), key=lambda t: t.value),
        sum(b.total for b in bars),
        sum(b.failed for b in bars),
    )
