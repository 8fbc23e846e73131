"""What the reader found on each tag: fields with confidence, barcodes, a summary; raw OCR lines
one click away. Shows "no reader" when reading is off."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QCheckBox, QTextBrowser, QVBoxLayout, QWidget

from app.theme import verdict_text_color
from inference.pipeline import FrameResult
from inference.reading.tag_parts import join
from inference.reading.verdict import BARS_MISREAD
from inference.tracking.station import TRACKED

LABELS = {"product_name": "品名 Product", "style_number": "货号 Style no.", "color": "颜色 Colour",
          "size": "尺码 Size", "composition": "成分 Composition", "standard": "执行标准 Standard",
          "safety_category": "安全类别 Safety cat.", "grade": "等级 Grade", "price": "价格 Price",
          "ean13": "条码 EAN-13", "brand": "品牌 Brand"}


class TextPanel(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.view = QTextBrowser()
        self.show_raw = QCheckBox("Show raw OCR lines")
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.show_raw)
        self.show_raw.toggled.connect(lambda _: self._show_again())
        self._result: FrameResult | None = None
        self._tag = None  # a moving line's finished tag shown (RecentTag), instead of a frame
        self._reader_on = True
        self.view.setHtml("<p>No tag read yet.</p>")

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Another theme: the reads are written again in its colours (the light theme's were unreadable on the dark)."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._show_again()

    def _show_again(self) -> None:
        if self._tag is not None:
            self.show_tag(self._tag)
        elif self._result is not None:
            self.show_result(self._result, self._reader_on)

    def show_tag(self, tag) -> None:
        """A moving line's finished tag (an inference.tracking.recent.RecentTag): its verdict, reasons and the read
        the verdict rests on. The dock said only 'One verdict per tag' all run long, beside a tag row clicked."""
        self._tag = tag
        e = html.escape
        color = verdict_text_color(tag.verdict).name()
        verdict = "REVIEW (passed unread)" if tag.missed else tag.verdict
        reasons = "".join(f"<li>{e(r)}</li>" for r in tag.reasons)
        head = (f"<h3>Tag {e(tag.label)}: <span style='color:{color}'>{e(verdict)}</span></h3>"
                + (f"<ul>{reasons}</ul>" if reasons else "<p>every check passed</p>"))
        if tag.reading is not None:
            frame = "" if tag.frame is None else f" at frame {tag.frame}"
            body = self._tag_html(tag.reading, tag.checks, heading=f"As read{frame}")
        elif tag.reads == 0:
            body = "<p>Never read: the line had no shot of it to read.</p>"
        else:
            body = "<p>Its read is in the journal: File → History… (Ctrl+H).</p>"  # an old row, its read let go
        self.view.setHtml(head + body)

    def show_result(self, result: FrameResult | None, reader_on: bool) -> None:
        unchanged_off = not reader_on and not self._reader_on and self._result is not None
        self._tag = None
        self._result, self._reader_on = result, reader_on
        if unchanged_off:
            return
        if not reader_on:
            self.view.setHtml("<h3>No reader</h3><p>Reading is off: only detection runs. "
                              "Turn it on in the Source bar to read the printed fields.</p>")
            return
        if result is None:
            self.view.setHtml("<p>No tag read yet.</p>")
            return
        if not result.ok:
            # wrapped: the expected / found / hint lines are the point, and ran past the dock's edge at 1280 px
            self.view.setHtml(f"<h3>Frame not inspected</h3><pre style='white-space: pre-wrap'>"
                              f"{html.escape(result.error or '')}</pre>")
            return
        if not result.readings and result.verdict == TRACKED:  # the boxes on screen are tags not yet read
            self.view.setHtml("<h3>One verdict per tag</h3><p>On a moving line frames are only tracked: each tag "
                              "is read once, at its best shot, and judged when it leaves the view. Its verdict "
                              "and reasons are on the banner and in the strip of last tags.</p>")
            return
        if not result.readings:
            self.view.setHtml("<p>No hangtag read on this frame.</p>")
            return
        checks = getattr(result.verdict, "checks", ()) if result.verdict is not None else ()
        self.view.setHtml("".join(self._tag_html(r, checks) for r in as_judged(result)))

    def _tag_html(self, reading, checks=(), heading: str = "") -> str:
        e = html.escape
        if not reading.is_tag:  # a box the detector drew round a coin or a lamp: shown, not judged
            grey = verdict_text_color("").name()
            return (f"<h3 style='color:{grey}'>Box {reading.tag_index + 1}: not a hangtag</h3>"
                    f"<p style='color:{grey}'>{e(reading.rejected)}; not counted and not judged.</p>")
        misread = _misread_codes(reading, checks)
        rows = []
        for name, label in LABELS.items():
            field = reading.fields.get(name)
            if field is None:
                rows.append(f"<tr><td>{e(label)}</td><td style='color:{verdict_text_color('').name()}'>not found</td>"
                            "<td></td><td></td></tr>")
                continue
            conf = field.confidence
            color = verdict_text_color("OK" if conf >= 0.9 else ("REVIEW" if conf >= 0.6 else "NG")).name()
            rows.append(f"<tr><td>{e(label)}</td><td><b>{e(field.value)}</b></td>"
                        f"<td style='color:{color}'>{conf:.0%}</td><td>{e(_source_of(name, field, reading))}"
                        f"{e(misread.get(field.value, ''))}</td></tr>")
        codes = "".join(f"<li>{e(b.format)}: <b>{e(b.text)}</b>"
                        f"{'' if b.valid_checksum is None else (' ✓ check digit' if b.valid_checksum else ' ✗ check digit')}"
                        f"{e(misread[b.text]) if b.text in misread else ''}</li>"
                        for b in reading.barcodes) or "<li>none decoded</li>"
        notes = "".join(f"<li>{e(n)}</li>" for n in shown_notes(reading.notes))
        raw = ""
        if self.show_raw.isChecked():
            raw = "<h4>Raw OCR lines</h4><pre>" + e("\n".join(
                f"{line.confidence:.2f}  {line.text}" for line in reading.ocr_lines)) + "</pre>"
            if reading.reread_lines:
                raw += "<h4>Read again (fields in doubt)</h4><pre>" + e("\n".join(
                    f"{line.confidence:.2f}  {line.text}" for line in reading.reread_lines)) + "</pre>"
            if reading.small_print_lines:
                raw += "<h4>Read by the small-print recognizer (fields still in doubt)</h4><pre>" + e("\n".join(
                    f"{line.confidence:.2f}  {line.text}" for line in reading.small_print_lines)) + "</pre>"
            if reading.confirm_only_lines:
                raw += "<h4>Found while verifying (can only confirm the expected value)</h4><pre>" + e("\n".join(
                    f"{line.confidence:.2f}  {line.text}" for line in reading.confirm_only_lines)) + "</pre>"
        # no tag box: the frame was read whole, around its symbols or all of it; "Tag 1" over a bare frame
        # (set s5150's missing-tag frame) named a tag nobody could see
        heading = heading or ("No hangtag found: the frame was read whole" if getattr(reading, "whole_frame", False)
                              else f"Tag {reading.tag_index + 1}")
        return (f"<h3>{heading}</h3><p>{e(reading.summary)}</p>"
                f"<table cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>"
                f"<tr><th>Field</th><th>Read</th><th>Conf.</th><th>From</th></tr>{''.join(rows)}</table>"
                f"<h4>Barcodes</h4><ul>{codes}</ul>{'<h4>Notes</h4><ul>' + notes + '</ul>' if notes else ''}{raw}")


def shown_notes(notes) -> list[str]:
    """Each note once, and notes on one thing as one line: 'tag box grown: the tag's paper ran on past it' and
    'tag box grown: printed lines ran into its edge' read as the same note listed twice."""
    heads: dict[str, list[str]] = {}
    for note in notes:
        head, colon, rest = note.partition(": ")
        key, tail = (head, rest) if colon else (note, "")
        if tail not in heads.setdefault(key, []):
            heads[key].append(tail)
    return [f"{head}: {'; '.join(tails)}" if any(tails) else head for head, tails in heads.items()]


def _source_of(name: str, field, reading) -> str:
    """Where a field came from, in the operator's words: a size taken from the entry a printed run of sizes
    marks says so (the tag prints every size; the mark picked this one); so does the expected value found within
    the recognizer's doubts (spotting.py), whose Conf. is then its least likely character's, not the line's."""
    marked = getattr(reading, "marked_size", None)
    if name == "size" and marked is not None and field.value == marked.value:
        return f"{field.source}, marked in a printed run of {marked.entries} sizes"
    if any(s.name == name and s.expected == field.value and s.line != field.value for s in getattr(reading, "spotted", ())):
        return f"{field.source}: the expected value, within the recognizer's doubts (Conf.: its least sure character)"
    return field.source


def _misread_codes(reading, checks) -> dict[str, str]:
    """Decoded codes the verdict found misread (the bars verify as the recipe's code, not as the decode): the
    note shown beside each, so a decode unlike the recipe's does not sit unexplained under an OK banner."""
    out = {}
    for check in checks:
        if check.subject == "barcode" and check.tag_index == reading.tag_index and check.source.startswith(BARS_MISREAD):
            decoded = next((b.text for b in reading.barcodes if b.text != check.expected), None)
            if decoded is not None:
                out[decoded] = f" — a misread: the bars verify as {check.expected}"
    return out


def as_judged(result: FrameResult) -> list:
    """The readings as the verdict judged them: two boxes of one tag boxed in two parts shown as that one tag
    (its fields from both parts, a note saying so), not as two tags each lacking the other's fields."""
    parts = getattr(result.verdict, "parts", ()) if result.verdict is not None else ()
    readings = list(result.readings)
    for pair in parts:
        members = [r for r in readings if r.tag_index in pair and r.is_tag]
        if len(members) == 2:
            joined = join(*members)
            readings = [joined if r is members[0] else r for r in readings if r is not members[1]]
    return readings
