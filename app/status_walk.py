"""Every status-bar, banner and hold-bar string a moving line shows, photographed at the sizes a station runs at.

    QT_QPA_PLATFORM=offscreen python -m app.status_walk --out /tmp/walk [--size 1280x720 --size 1920x1080]

The real window (shipped detector, one verdict per tag, a job named in Chinese) shows each string in turn, in
operator and engineer mode; each is grabbed as a PNG and measured: `fits` says whether the whole string had room
where it is drawn (the status bar's message beside its permanent labels, the hold bar's and banner's text in their
width). A string that does not fit is cut on screen: what the operator needs must be in what is left.
Everything the window keeps goes to a temporary folder; `walk.json` lists each string with its room and width.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

JOB, LOT = "K2291 女士连衣裙 夏季新款", "LOT-2026-12-05-夜班"
REASON_ZH = "尺码 L ≠ 应为 M（货号 K2291-女士连衣裙）"


def status_strings() -> dict[str, str]:
    """The status bar's messages on a moving line, at their longest plausible (names, counts, paths)."""
    from app.line_link import paused_text, stopped_text
    from inference.reading.verdict import Verdict

    class Judged:
        def __init__(self, verdict):
            self.verdict = verdict

    mix = [Judged(Verdict.OK)] * 2 + [Judged(Verdict.NG), Judged(Verdict.REVIEW)]
    return {
        "stopped_judged": stopped_text(mix),
        "stopped_none": stopped_text([]),
        "paused": paused_text(3),
        "paused_one": paused_text(1),
        "finished": "Finished camera replay /data/line-recordings/2026-12-05/夜班/line-3 女士连衣裙.avi",
        "error_journal": "⚠ JOURNAL: tag #1234 (REVIEW) was NOT recorded: database or disk is full",
    }


def _settle(app) -> None:
    for _ in range(6):
        app.processEvents()
        time.sleep(0.02)


def measure_status(window) -> dict:
    """The status bar's message: its width in the bar's font against the room the permanent widgets leave it on
    screen (from the leftmost one shown), and which of them are shown."""
    from app.widgets.status_room import MESSAGE_MARGIN

    bar = window.statusBar()
    bar.layout().activate()  # the widgets' places lag a change of their text until laid out
    text = bar.currentMessage()
    shown = [w for w in [*window.status_labels.values(), window.report_opener.button] if w.isVisible()]
    room = (min(w.x() for w in shown) if shown else bar.width()) - MESSAGE_MARGIN
    width = bar.fontMetrics().horizontalAdvance(text)
    return {"text": text, "width": width, "room": room, "fits": width <= room,
            "labels": " ".join(w.text() for w in shown)}


def measure_label(label) -> dict:
    """A word-wrapped label fits when its wrapped height has room; a single-line one when its text's width has."""
    text = label.text()
    metrics = label.fontMetrics()
    if label.wordWrap():
        needed = label.heightForWidth(label.width())
        return {"text": text, "height": label.height(), "needed": needed, "fits": needed <= label.height()}
    return {"text": text, "width": metrics.horizontalAdvance(text), "room": label.width(),
            "fits": metrics.horizontalAdvance(text) <= label.width()}


def walk(out_dir: Path, sizes: list[tuple[int, int]], source: str | None) -> list[dict]:
    from app.screenshots import offscreen_station, save_png
    from inference.tracking.recent import RecentTag

    out_dir.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    with offscreen_station("hangtag-walk-", source, (JOB, LOT), sizes[0],
                           (("line/per_tag", "1"), ("line/hold", "NG+REVIEW"))) as (app, window, _tmp):
        link = window.line
        window._status_timer.stop()  # the counts as on a live line, held still for the photographs
        window._update_status()
        window.status_labels["frames"].setText("Frames: 12345 (dropped 4321)")
        window.status_labels["fps"].setText("9.7 fps")
        link._on_tag(RecentTag(41, "OK", ""))
        link._on_tag(RecentTag(42, "REVIEW", "tag left unread: the frame's edge cut it every time", missed=True))
        link._on_tag(RecentTag(43, "NG", REASON_ZH, reasons=(REASON_ZH, "价格 ¥1099.00 ≠ 应为 ¥79.00")))
        for size in sizes:
            for mode in ("operator", "engineer"):
                window.resize(*size)
                _settle(app)
                window.modes.set_mode(mode)
                window.resize(*size)
                _settle(app)
                for key, text in status_strings().items():
                    if key.startswith("error"):
                        window._on_error(text.removeprefix("⚠ "))
                    else:
                        window.statusBar().showMessage(text, 60000)
                    _settle(app)
                    name = f"{mode}_{key}_{size[0]}x{size[1]}.png"
                    save_png(window.grab().toImage(), out_dir / name)
                    rows.append({"size": f"{size[0]}x{size[1]}", "mode": mode, "where": "status bar", "string": key,
                                 "png": name, **measure_status(window)})
                for where, label in (("hold bar", link.hold.text), ("banner reasons", window.banner.reasons),
                                     ("banner verdict", window.banner.verdict)):
                    rows.append({"size": f"{size[0]}x{size[1]}", "mode": mode, "where": where, "string": where,
                                 "png": f"{mode}_finished_{size[0]}x{size[1]}.png", **measure_label(label)})
    (out_dir / "walk.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.status_walk", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", action="append", default=[], help="WxH (default: 1280x720 and 1920x1080)")
    parser.add_argument("--source", default=None, help="a source to open first (default: none)")
    args = parser.parse_args(argv)
    sizes = [tuple(int(v) for v in s.lower().split("x")) for s in args.size] or [(1280, 720), (1920, 1080)]
    for row in walk(args.out, sizes, args.source):
        room = row.get("room", row.get("height"))
        used = row.get("width", row.get("needed"))
        print(f"{row['size']:>9} {row['mode']:<8} {row['where']:<15} {row['string']:<15} "
              f"{'fits' if row['fits'] else 'CUT '} {used}/{room}  {row['text'][:70]}  [{row.get('labels', '')}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
