"""Live plots: stacked per-stage latency with the takt line, memory with a drift alarm, and the
host-side share against the 30 % line. Curves are created once; a 20 Hz timer calls setData on
fixed ring buffers — never one redraw per frame."""

from __future__ import annotations

import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QDoubleSpinBox, QGridLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from app.theme import PLAIN_TEXT, alarm_style
from inference.pipeline import FrameResult
from inference.records.svg import nice_ticks, tick_labels
from inference.telemetry import RollingStats, drift_per_1000

# In the order a frame passes them, so the stack reads bottom-up as the frame's journey. On the triton
# backend `infer` is the server's compute, beside its queue, the network and back-off waits.
STAGES = ("decode", "preprocess", "h2d", "network", "server_queue", "infer", "retry_wait", "d2h", "postprocess",
          "read")
STAGE_COLORS = {"decode": "#7f8c8d", "preprocess": "#2e86de", "h2d": "#16a085", "network": "#95a5a6",
                "server_queue": "#e84393", "infer": "#8e44ad", "retry_wait": "#d35400", "d2h": "#27ae60",
                "postprocess": "#f39c12", "read": "#c0392b"}
HOST_SHARE_LINE = 0.30
LONE_FRAME_SYMBOL = 7  # px: a curve of one frame (after one Step) is a dot, not an invisible line
LABEL_ROOM_PX = 28  # the memory axis's labels at least this far apart (pyqtgraph's own set them 13 px apart)
SHARE_LINE_KEY = "30 % line"
GPU_ONLY_STAGES = ("h2d", "d2h")  # host-to-device and back: only a GPU backend has them
REMOTE_ONLY_STAGES = ("network", "server_queue", "retry_wait")  # only the triton backend has them


def rate_text(fps: float) -> str:
    """The frame rate as a person reads it: below one frame a second, the seconds between frames ('0.0 fps' for a
    watched folder's frame every 23 s read as a stopped station); before two frames, no rate."""
    if fps <= 0:
        return "— fps"
    return f"{fps:.1f} fps" if fps >= 1 else f"{1 / fps:.1f} s/frame"


class Ring:
    """Fixed-size ring buffer of float rows; `ordered()` returns the last `n` rows oldest first."""

    def __init__(self, capacity: int, width: int) -> None:
        self.data = np.full((capacity, width), np.nan)
        self.capacity = capacity
        self.count = 0

    def push(self, row: list[float]) -> None:
        self.data[self.count % self.capacity] = row
        self.count += 1

    def ordered(self) -> np.ndarray:
        if self.count <= self.capacity:
            return self.data[: self.count]
        start = self.count % self.capacity
        return np.concatenate([self.data[start:], self.data[:start]])


def _settle(plot, current_top: float, bottom: float, needed: float) -> float:
    """Move the Y range only when the data leaves it or shrinks far inside it."""
    if needed > current_top or needed < current_top * 0.4:
        current_top = needed * 1.25
        plot.setYRange(bottom, current_top, padding=0)
    return current_top


DEFAULT_TAKT_MS = 250.0


class PlotsPanel(QWidget):
    def __init__(self, capacity: int = 300, parent=None, *, takt_ms: float = DEFAULT_TAKT_MS) -> None:
        """`takt_ms`: the line's takt as the engineer last set it (the window keeps it in its settings)."""
        super().__init__(parent)
        pg.setConfigOptions(antialias=False, useOpenGL=False)  # the bundle carries no QtOpenGL (packaging/stubs)
        self.stats = RollingStats(window=500)
        self.latency = Ring(capacity, len(STAGES) + 1)  # stages..., frame number
        self.memory = Ring(capacity, 3)  # rss, vram, frame number
        self.share = Ring(capacity, 2)
        self.frames = 0
        self.takt_violations = 0
        self.takt_judged = 0  # the frames the violations are counted over: the newest `capacity`
        self._dirty = False
        self._stamps: list[float] = []

        self.takt = QDoubleSpinBox()
        self.takt.setRange(10, 5000)
        self.takt.setValue(takt_ms)
        self.takt.setSuffix(" ms")
        self.drift_window = QSpinBox()
        self.drift_window.setRange(20, 10000)
        self.drift_window.setValue(300)
        self.drift_window.setSuffix(" frames")
        self.drift_limit = QDoubleSpinBox()
        self.drift_limit.setRange(0.1, 1000)
        self.drift_limit.setValue(5.0)
        self.drift_limit.setSuffix(" MiB/1000 frames")

        self.graphs = pg.GraphicsLayoutWidget()
        self.lat_plot = self.graphs.addPlot(row=0, col=0)
        self.mem_plot = self.graphs.addPlot(row=1, col=0)
        self.share_plot = self.graphs.addPlot(row=2, col=0)
        # Short axis titles: the rotated text must fit the height of a plot in a short dock (the legends
        # inside each plot name the series).
        self.lat_plot.setLabel("left", "ms")
        self.mem_plot.setLabel("left", "MiB")
        self.share_plot.setLabel("left", "share")
        # one left axis width for the three, room for "10000" ms: each sized itself to its labels, so the plots'
        # left edges (and their shared time axis) stood apart, most when the memory plot had no labels yet
        digits = QFontMetrics(self.lat_plot.getAxis("left").font()).horizontalAdvance("10000")
        for plot in (self.lat_plot, self.mem_plot, self.share_plot):
            axis = plot.getAxis("left")
            axis.setWidth(round(digits + axis.style["tickTextOffset"][0] + max(0, axis.style["tickLength"])
                                + axis.label.boundingRect().height() * 0.8) + 1)
        # X is "frames ago" over a fixed window and Y ranges move only with hysteresis, so the axes
        # are not re-laid out on every refresh (axis painting dominated the cost).
        for plot in (self.lat_plot, self.mem_plot, self.share_plot):
            plot.setClipToView(True)
            plot.setDownsampling(mode="peak")
            plot.showGrid(x=True, y=True, alpha=0.2)
            plot.disableAutoRange()
            plot.setXRange(-capacity + 1, 0, padding=0)
        # One shared time axis, shown once at the bottom.
        for plot in (self.lat_plot, self.mem_plot):
            plot.setXLink(self.share_plot)
            plot.hideAxis("bottom")
        self.share_plot.setLabel("bottom", "frames ago")
        self._y_top = {"lat": 0.0, "mem": (0.0, 0.0)}
        self.capacity = capacity
        self._x_span = 0
        # Legends in a column of their own, right of the plots: never on top of the data.
        self.legends = {}
        for row, key in enumerate(("lat", "mem", "share")):
            legend = pg.LegendItem(labelTextSize="8pt", verSpacing=-6, colCount=2 if key == "lat" else 1)
            self.graphs.addItem(legend, row=row, col=1)
            self.legends[key] = legend
        self.graphs.ci.layout.setColumnStretchFactor(0, 5)
        self.graphs.ci.layout.setColumnStretchFactor(1, 1)
        # Stacked areas: each stage's cumulative curve filled down to zero, the later stages drawn
        # first so the earlier ones paint over them (cheaper than FillBetweenItem's path unions).
        self.stage_curves = {}
        for z, stage in enumerate(STAGES):
            curve = self.lat_plot.plot(pen=pg.mkPen(STAGE_COLORS[stage], width=1), name=stage, fillLevel=0,
                                       brush=pg.mkBrush(STAGE_COLORS[stage] + "c0"))
            curve.setZValue(len(STAGES) - z)
            self.stage_curves[stage] = curve
        dash = pg.QtCore.Qt.PenStyle.DashLine
        self.takt_line = pg.InfiniteLine(pos=self.takt.value(), angle=0, pen=pg.mkPen("#d93025", width=2, style=dash))
        self.lat_plot.addItem(self.takt_line)
        self.rss_curve = self.mem_plot.plot(pen=pg.mkPen("#2e86de", width=2), name="host RSS")
        self.vram_curve = self.mem_plot.plot(pen=pg.mkPen("#8e44ad", width=2), name="VRAM (this process)")
        self.share_curve = self.share_plot.plot(pen=pg.mkPen("#f39c12", width=2), name="host-side share")
        self.share_plot.setYRange(0, 1, padding=0)
        # before the first frame: ms up to the takt line, and no MiB at all (pyqtgraph's 0..1 wrote 0.2 0.4 0.6 0.8
        # ms and MiB, four labels on top of each other in a short plot)
        self._y_top["lat"] = _settle(self.lat_plot, 0.0, 0.0, self.takt.value())
        self.mem_plot.getAxis("left").setTicks([[], []])
        self._mem_ticks_key: tuple = ()
        self.mem_plot.getViewBox().sigResized.connect(lambda _box: self.memory.count and self._tick_memory_axis())
        self._lone_curves: dict = {}
        for curve in (*self.stage_curves.values(), self.rss_curve, self.vram_curve, self.share_curve):
            curve.setSymbolSize(LONE_FRAME_SYMBOL)
            curve.setSymbolPen(None)
            curve.setSymbolBrush(curve.opts["pen"].color())
        # one tick, at the line: in a 720-px window this plot is ~40 px tall and automatic ticks wrote 0.6 over
        # 0.4 (pyqtgraph leaves out labels at the plot's very ends, so 0 and 1 would show nothing)
        self.share_plot.getAxis("left").setTicks([[(HOST_SHARE_LINE, f"{HOST_SHARE_LINE:g}")], []])
        self.share_plot.addItem(pg.InfiniteLine(pos=HOST_SHARE_LINE, angle=0, pen=pg.mkPen("#d93025", style=dash)))
        # The lines' names go in the legends (a label on the line sat on the data).
        self._takt_key = pg.PlotDataItem(pen=pg.mkPen("#d93025", width=2, style=dash))
        self.legends["lat"].addItem(self._takt_key, f"takt {self.takt.value():.0f} ms")
        self.legends["mem"].addItem(self.rss_curve, "host RSS")
        self.legends["mem"].addItem(self.vram_curve, "VRAM (this process)")
        self.legends["share"].addItem(self.share_curve, "host-side share")
        # short: the legends share one column, and this entry's old sentence set its width, leaving the plots
        # a quarter of a 1280-px window's dock; the sentence is the plots' tooltip
        self.legends["share"].addItem(pg.PlotDataItem(pen=pg.mkPen("#d93025", style=dash)), SHARE_LINE_KEY)
        self.graphs.setToolTip(f"{SHARE_LINE_KEY}: above it, CPU-side work (decode, letterbox, NMS) "
                               "dominates the detection latency")
        self.shown_stages: tuple[str, ...] = ()
        self.set_stages("onnxruntime-cpu")

        self.summary = QLabel("no frames yet")
        self.summary.setWordWrap(True)
        # two lines in a 1280-px window's column: a wrapped label's second line is not in the panel's minimum
        # height, so the dock gave it 19 px too few and its tab bar hid the plots' time axis
        self.summary.setMinimumHeight(2 * self.summary.fontMetrics().lineSpacing())
        self.alarm = QLabel("")
        self.alarm.setWordWrap(True)
        # the same for the drift line: "memory drift: warming up (frame 16 of 100), then measured over 50 frames"
        # wraps there too, and its second line hid half the time axis's title
        self.alarm.setMinimumHeight(2 * self.alarm.fontMetrics().lineSpacing())
        controls = QGridLayout()  # two rows: the panel fits a right-hand column on a 1280-px screen
        for i, (text, widget) in enumerate((("Takt", self.takt), ("Drift window", self.drift_window),
                                            ("Alarm above", self.drift_limit))):
            controls.addWidget(QLabel(text), i // 2, 2 * (i % 2))
            controls.addWidget(widget, i // 2, 2 * (i % 2) + 1)
        controls.setColumnStretch(4, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addLayout(controls)
        layout.addWidget(self.summary)
        layout.addWidget(self.alarm)
        self.graphs.setMinimumHeight(240)
        layout.addWidget(self.graphs, 1)
        self.takt.valueChanged.connect(self._on_takt_changed)
        # the alarm line is judged again at once: stopped, a new limit or window changed nothing until the next frame
        self.drift_window.valueChanged.connect(self._redraw_soon)
        self.drift_limit.valueChanged.connect(self._redraw_soon)

        self.timer = QTimer(self)
        self.timer.setInterval(50)  # 20 Hz
        self.timer.timeout.connect(self.refresh)
        self.timer.start()

    def set_stages(self, backend: str) -> None:
        """Legend entries and curves only for the stages this backend has: no h2d/d2h on the CPU, the
        server's queue and the network only on triton."""
        gpu = any(name in backend for name in ("cuda", "tensorrt", "gpu"))
        remote = backend == "triton"
        stages = tuple(s for s in STAGES if (gpu or s not in GPU_ONLY_STAGES)
                       and (remote or s not in REMOTE_ONLY_STAGES))
        vram = "VRAM (this process)" if gpu else "VRAM (no GPU here)"  # a CPU or remote engine draws no VRAM curve
        if vram not in self.legend_labels("mem"):
            self.legends["mem"].removeItem(self.vram_curve)
            self.legends["mem"].addItem(self.vram_curve, vram)
        if stages == self.shown_stages:
            return
        legend = self.legends["lat"]
        for stage in self.shown_stages:
            legend.removeItem(self.stage_curves[stage])
        for stage in stages:
            legend.addItem(self.stage_curves[stage], stage)
        for stage, curve in self.stage_curves.items():
            curve.setVisible(stage in stages)
        self.shown_stages = stages

    def _redraw_soon(self, *_: object) -> None:
        self._dirty = True

    def legend_labels(self, key: str) -> list[str]:
        return [label.text for _, label in self.legends[key].items]

    def _on_takt_changed(self, value: float) -> None:
        self.takt_line.setValue(value)
        legend = self.legends["lat"]
        legend.removeItem(self._takt_key)
        legend.addItem(self._takt_key, f"takt {value:.0f} ms")
        self._count_violations()
        self._dirty = True

    def _count_violations(self) -> None:
        """Over the frames the plot holds, against the takt now: counted as frames came, a takt changed later was
        judged only over these while 'of N' went on counting every frame of the run."""
        rows = self.latency.ordered()
        totals = np.nansum(rows[:, : len(STAGES)], axis=1) if rows.size else np.zeros(0)
        self.takt_violations = int(np.sum(totals > self.takt.value()))
        self.takt_judged = int(totals.size)

    def add_result(self, result: FrameResult) -> None:
        if not result.ok:
            return
        self.frames += 1
        t = result.timings
        self.stats.add(t)
        self.latency.push([t.get(s) for s in STAGES] + [self.frames])
        if result.memory is not None:
            vram = result.memory.vram_mb if result.memory.vram_mb is not None else np.nan
            self.memory.push([result.memory.rss_mb, vram, self.frames])
        self.share.push([t.host_share, self.frames])
        self._stamps = (self._stamps + [time.perf_counter()])[-30:]
        self._dirty = True

    def run_started(self) -> None:
        """The frame rate is this run's: a Step minutes before Start counted in it, and a line at 0.2 fps read 0.0."""
        self._stamps = []

    @property
    def fps(self) -> float:
        if len(self._stamps) < 2:
            return 0.0
        span = self._stamps[-1] - self._stamps[0]
        return (len(self._stamps) - 1) / span if span > 0 else 0.0

    MIN_DRIFT_SAMPLES = 50  # fewer frames than this is too few to call a trend
    WARMUP_FRAMES = 100  # the first frames load caches and buffers: growth there is warm-up, not drift

    def _drift_rows(self) -> np.ndarray:
        rows = self.memory.ordered()
        return rows[rows[:, 2] > self.WARMUP_FRAMES][-self.drift_window.value():] if rows.size else rows

    def memory_drift(self) -> tuple[float, float | None]:
        rows = self._drift_rows()
        if rows.shape[0] < self.MIN_DRIFT_SAMPLES:
            return 0.0, None
        rss = drift_per_1000(rows[:, 0])
        vram = rows[:, 1]
        return rss, (drift_per_1000(vram) if np.all(np.isfinite(vram)) else None)

    def _show_lone(self, curve, points: int) -> None:
        lone = points == 1
        if self._lone_curves.get(curve) != lone:
            self._lone_curves[curve] = lone
            curve.setSymbol("o" if lone else None)

    def _tick_memory_axis(self) -> None:
        """Round MiB ticks, as many as the plot's height has room for, each written with the decimals its step
        needs: pyqtgraph's own put four labels in a 50-px plot, one on top of the next."""
        low, high = self._y_top["mem"]
        axis = self.mem_plot.getAxis("left")
        box = self.mem_plot.getViewBox().height()
        room = max(1, int(box // LABEL_ROOM_PX))
        key = (low, high, room, box)
        if key == self._mem_ticks_key:
            return
        self._mem_ticks_key = key
        # pyqtgraph draws no label that crosses the plot's top or bottom edge: in a 58-px plot of 900..2100 MiB the
        # ticks 1000 and 2000 were both too near an edge, and the axis showed no number at all
        label_px = QFontMetrics(axis.style.get("tickFont") or axis.font()).height()
        half_label = (label_px / 2 + 1) * (high - low) / max(box, 1.0)
        ticks: list[float] = []
        for count in (room, 2 * room, 4 * room, 8 * room):
            ticks = [t for t in nice_ticks(low, high, count) if low + half_label <= t <= high - half_label]
            if ticks:
                ticks = ticks[::-(-len(ticks) // room)]  # no more labels than the height has room for
                break
        axis.setTicks([list(zip(ticks, tick_labels(ticks))), []])

    def refresh(self) -> None:
        # A dock tabbed behind another (Tag text is in front by default) is still "visible" to Qt, with nothing
        # of it on screen: redrawing it there was most of the GUI thread's own work on a running line.
        if not self._dirty or not self.isVisible() or self.visibleRegion().isEmpty():
            return
        self._dirty = False
        self._draw()

    def _draw(self) -> None:
        self._count_violations()
        span = next((n for n in (50, 100, 200) if self.frames <= n), self.capacity)
        if span != self._x_span:  # widen the window in steps, not every frame, so the axis stays put
            self._x_span = span
            self.share_plot.setXRange(-span + 1, 1, padding=0)  # room right of 'now' for the newest frame's dot
        rows = self.latency.ordered()
        if rows.size:
            x = rows[:, -1] - self.frames
            stacked = np.nancumsum(np.nan_to_num(rows[:, : len(STAGES)]), axis=1)
            for i, stage in enumerate(STAGES):
                self.stage_curves[stage].setData(x, stacked[:, i], skipFiniteCheck=True)
                self._show_lone(self.stage_curves[stage], len(x))
            self._y_top["lat"] = _settle(self.lat_plot, self._y_top["lat"], 0.0,
                                         max(float(stacked[:, -1].max()), self.takt.value() * 1.05))
        mem = self.memory.ordered()
        if mem.size:
            x = mem[:, 2] - self.frames
            self.rss_curve.setData(x, mem[:, 0], skipFiniteCheck=True)
            self._show_lone(self.rss_curve, len(x))
            values = mem[:, 0]
            if np.any(np.isfinite(mem[:, 1])):
                self.vram_curve.setData(x, np.nan_to_num(mem[:, 1]), skipFiniteCheck=True)
                self._show_lone(self.vram_curve, len(x))
                values = np.concatenate([values, np.nan_to_num(mem[:, 1])])
            low, high = self._y_top["mem"]
            lo, hi = float(values.min()), float(values.max())
            if lo < low or hi > high or (high - low) > 4 * max(hi - lo, 1.0):
                pad = max(hi - lo, 10.0) * 0.5
                self._y_top["mem"] = (max(0.0, lo - pad), hi + pad)
                self.mem_plot.setYRange(*self._y_top["mem"], padding=0)
            self._tick_memory_axis()
        share = self.share.ordered()
        if share.size:
            self.share_curve.setData(share[:, 1] - self.frames, share[:, 0], skipFiniteCheck=True)
            self._show_lone(self.share_curve, len(share))
        total = self.stats.percentiles("total")
        host = self.stats.percentiles("host")
        infer = self.stats.percentiles("infer")
        detect_p50 = host.p50 + infer.p50
        share_p50 = host.p50 / detect_p50 if detect_p50 > 0 else 0.0
        self.summary.setText(
            f"total p50 {total.p50:.1f} · p95 {total.p95:.1f} · p99 {total.p99:.1f} ms   |   "
            f"{rate_text(self.fps)}   |   takt violations {self.takt_violations} of "
            f"{'the last ' if self.frames > self.takt_judged else ''}{self.takt_judged}   |   "
            f"host-side share (p50) {share_p50:.0%}")
        rss_drift, vram_drift = self.memory_drift()
        limit = self.drift_limit.value()
        alarms = []
        if rss_drift > limit:
            alarms.append(f"host RSS rising {rss_drift:.1f} MiB per 1000 frames")
        if vram_drift is not None and vram_drift > limit:
            alarms.append(f"VRAM rising {vram_drift:.1f} MiB per 1000 frames")
        samples = self._drift_rows().shape[0]
        if samples < self.MIN_DRIFT_SAMPLES:
            # "measuring after 100 warm-up frames (0 of 50 needed)" at frame 15 said neither where the run was
            # nor which count the 0 belonged to
            self.alarm.setText(f"memory drift: warming up (frame {self.frames} of {self.WARMUP_FRAMES}), then "
                               f"measured over {self.MIN_DRIFT_SAMPLES} frames" if self.frames <= self.WARMUP_FRAMES
                               else f"memory drift: measuring ({samples} of {self.MIN_DRIFT_SAMPLES} frames after "
                               "the warm-up)")
            self.alarm.setStyleSheet("")
            return
        vram_text = "VRAM: no NVIDIA GPU in use" if vram_drift is None else f"VRAM drift {vram_drift:+.2f}"
        self.alarm.setText(("⚠ DRIFT ALARM: " + "; ".join(alarms)) if alarms else
                           f"memory steady — RSS drift {rss_drift:+.2f} MiB/1000 frames; {vram_text}")
        self.alarm.setStyleSheet(alarm_style() if alarms else PLAIN_TEXT)
