"""TagReader: detected hangtags in, one TagReading per tag out.

Per tag: find which way is up (the bars of its barcode give the angle, the decoded code which end
is the top), warp the tag upright once, decode the barcodes there, detect text lines on a
downscaled copy, recognize the lines the barcodes do not already carry in a few batched calls,
then extract fields and let the barcodes confirm or supply the EAN and the style number.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

import cv2
import numpy as np

from inference.detections import Detections, centre_inside
from inference.reading import barcodes as bc
from inference.reading.fields import extract_fields
from inference.reading.evidence import gather
from inference.reading.expected import spot_fields, spot_printed_ean, vocabulary
from inference.reading.lines import (
    SymbolZone,
    group_rows,
    merge_overlapping,
    split_print_sizes,
    split_tall,
    symbol_zone,
    trim_to_neighbours,
    union,
)
from inference.reading.ocr.detector import DbParams, TextDetector
from inference.reading.normalize import code_key
from inference.reading.ocr.models import OcrModels, find_ocr_models
from inference.reading.matching import Found
from inference.reading.ocr.recognizer import Recognized, TextRecognizer
from inference.reading.recipe import Recipe
from inference.reading.rectify import (
    Upright,
    bars_down_angle,
    crop_box,
    make_upright,
    residual_skew,
    text_down_angle,
    turn_from_down_angle,
)
from inference.reading.spotting import Posteriors
from inference.reading.summary import merge_barcodes, summarize
from inference.reading.types import BarcodeReading, OcrLine, TagReading

Box = tuple[float, float, float, float]

# Bars this strong (share of gradient energy across them; noise gives ~0.1) set the angle.
MIN_BAR_STRENGTH = 0.3
# The second read of lines a field is in doubt on: unsqueezed, so repeated digits keep their steps.
REREAD_SQUEEZE = 1.0
# A taught region is read with this margin (share of its size) and enlarged towards this height.
REGION_MARGIN = 0.25
REGION_TEXT_HEIGHT = 96
# A printed line this close to the crop's edge (share of its size) runs into it; the tag box then
# grows by this share of the crop that way, once.
EDGE_SHARE = 0.01
GROW_SHARE = 0.35
# A line of the first read within this share of the crop's side from its edge ran into it: the
# grown read's line is taken instead.
MERGE_EDGE_SHARE = 0.02
# Two reads of a tag levelled further apart than this are not merged line by line.
MERGE_MAX_TURN_DEG = 2.0
# Room left at each end of a line crop, as a share of the line's height.
LINE_END_PAD = 0.3  # 0.1 cost 4 points of OK on 60 independent tags
# Lines shorter than this (pixels) are enlarged 2x for the second read.
REREAD_MIN_HEIGHT = 32
# Lines lower than this (pixels) are resampled from the frame at this height for the first read.
SMALL_PRINT_PX = 32
# Bars stand at most this share of their width above and below the rows zxing scanned (an EAN-13
# with its digits is 0.7 of its width tall).
BARS_HALF_HEIGHT = 0.45
# A detector box is a tag when it holds a barcode or this many lines read this surely.
MIN_TAG_LINES = 2
TAG_LINE_CONFIDENCE = 0.6
MIN_BLURRED_TAG_LINES = 4
# Printed lines still tilted this much after the barcode's angle (perspective, a loose box), and
# clearly sharper level, are levelled before text detection.
MIN_SKEW_DEG = 1.0
MIN_SKEW_GAIN = 1.05
# A tag no barcode orients is read both ways on this many of its longest lines to tell which way is up.
ORIENTATION_LINES = 6
# Focus is measured with the patch's longer side at most this many pixels.
FOCUS_SIDE = 256


def _ms(start_ns: int) -> float:
    return (time.perf_counter_ns() - start_ns) / 1e6


class TagReader:
    """Owns the OCR engines. Not thread-safe: one reader per worker thread."""

    def __init__(self, detector: TextDetector, recognizer: TextRecognizer, *, read_printed_ean: bool = False, models: str = "") -> None:
        self.detector = detector
        self.recognizer = recognizer
        self.read_printed_ean = read_printed_ean
        self.models = models

    @classmethod
    def open(
        cls,
        backend: str = "onnxruntime-cpu",
        threads: int | None = None,
        *,
        precision: str = "auto",
        charset: str = "gb2312",
        models: OcrModels | None = None,
        det_limit: int = 448,
        squeeze: float = 0.7,
        read_printed_ean: bool = False,
    ) -> TagReader:
        """`precision`: "fp32", "int8-det", "int8" (Q/DQ copies built once by ocr/quantize.py) or
        "auto"; `charset`: "gb2312" (recognizer head cut to mainland tag characters) or "full"."""
        models = models or find_ocr_models(precision, charset)
        detector = TextDetector.open(models.det, backend, threads, DbParams(limit_side=det_limit))
        try:
            recognizer = TextRecognizer.open(models.rec, backend, threads, squeeze=squeeze)
        except BaseException:
            detector.close()  # a remote backend holds a connection for it
            raise
        return cls(detector, recognizer, read_printed_ean=read_printed_ean, models=models.describe())

    def close(self) -> None:
        self.detector.close()
        self.recognizer.close()

    def __enter__(self) -> TagReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- per frame -----------------------------------------------------------------------------
    def read(self, image_bgr: np.ndarray, detections: Detections | None = None,
             should_stop: Callable[[], bool] | None = None, recipe: Recipe | None = None) -> tuple[TagReading, ...]:
        """Every hangtag in the frame; with no hangtag boxes the whole image is read as one tag.

        With a `recipe` each tag is verified against it: lines that leave a field in doubt are read
        again another way before anyone judges. A detector box with no text and no barcode in it
        comes back marked `rejected` (it is not a tag: a coin, a lamp).

        `should_stop` is asked before each tag; when it says yes the tags read so far are returned
        (the caller, which asked, knows the frame is incomplete)."""
        h, w = image_bgr.shape[:2]
        detections = detections if detections is not None else Detections.empty()
        boxes: dict[str, list[Box]] = {"hangtag": [], "barcode": [], "qr_code": []}
        for box, label in zip(detections.xyxy, detections.labels):
            if label in boxes:
                boxes[label].append(tuple(float(v) for v in box))
        detected = bool(boxes["hangtag"])
        tag_boxes = boxes["hangtag"] or [(0.0, 0.0, float(w), float(h))]
        readings = []
        for index, tag_box in enumerate(tag_boxes):
            if should_stop is not None and should_stop():
                break
            reading = self.read_tag(image_bgr, tag_box, [b for b in boxes["barcode"] if centre_inside(b, tag_box)],
                                    [b for b in boxes["qr_code"] if centre_inside(b, tag_box)], index, recipe=recipe)
            symbols = [b for b in (*boxes["barcode"], *boxes["qr_code"]) if centre_inside(b, tag_box)]
            if not detected:
                reading = replace(reading, whole_frame=True)
            elif not symbols and not looks_like_a_tag(reading):  # a box holding a symbol box is a tag, legible or not
                reading = replace(reading, rejected="no text and no barcode in the box: not a hangtag",
                                  notes=reading.notes + ("box dropped: nothing tag-like in it",))
            readings.append(reading)
        return tuple(readings)

    def read_tag(
        self,
        image_bgr: np.ndarray,
        tag_box: Box,
        barcode_boxes: Sequence[Box] = (),
        qr_boxes: Sequence[Box] = (),
        tag_index: int = 0,
        recipe: Recipe | None = None,
        grown: bool = False,
        first: _FirstRead | None = None,
    ) -> TagReading:
        """One tag; boxes in original image pixels. Linear barcode boxes set the angle.

        Printed lines running into the crop's edge mean the detector's box cut the tag (a wide tag's
        price column, a long tag's foot): the tag is read once more from a box grown past them."""
        timings: dict[str, float] = {}
        notes: list[str] = []
        start = time.perf_counter_ns()

        t = time.perf_counter_ns()
        wants_qr = recipe is not None and any(c.class_name == "qr_code" and c.min >= 1 for c in recipe.counts)
        symbols = read_symbols(image_bgr, tag_box, barcode_boxes, qr_boxes, notes, matrix_search=(1.0, 1.5) if wants_qr else (1.0,))
        gray, (ox, oy), turn, sure, codes = symbols.gray, symbols.offset, symbols.turn, symbols.sure, list(symbols.codes)
        timings["barcode"] = _ms(t)

        t = time.perf_counter_ns()
        upright = make_upright(image_bgr, tag_box, turn)
        if not codes:
            found = bc.decode(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY))
            codes = [_map_code(c, upright) for c in found]
            flip = _upside_down(found)
            if flip is not None:
                sure = True
                if flip:
                    upright = upright.flipped()
        skew, gain = residual_skew(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY))
        if abs(skew) >= MIN_SKEW_DEG and gain >= MIN_SKEW_GAIN:
            upright = make_upright(image_bgr, tag_box, upright.angle_deg + skew)
        timings["rectify"] = _ms(t)

        vocab = vocabulary(recipe) if recipe is not None else ""
        read, det_ms, rec_ms, upright = self._ocr(upright, _zones(codes, upright, barcode_boxes),
                                                  ambiguous=not sure, vocabulary=vocab)
        if first is not None:
            read = first.merged_into(read, upright)
        lines, crops = _join_rows(read.boxes, read.recognized), _LineCrops(read.boxes, read.crops)
        if not grown:
            bigger = _grown(tag_box, upright, crops.boxes, image_bgr.shape[:2])
            if bigger is not None:
                again = self.read_tag(image_bgr, bigger, barcode_boxes, qr_boxes, tag_index, recipe, grown=True,
                                      first=_FirstRead(upright, read))
                waste = {"ocr_det": det_ms, "ocr_rec": rec_ms, "total": _ms(start)}
                timings = {k: v + waste.get(k, 0.0) for k, v in again.timings_ms.items()}
                return replace(again, timings_ms=timings, notes=again.notes + ("tag box grown: printed lines ran into its edge",))
        timings["ocr_det"] = det_ms
        timings["ocr_rec"] = rec_ms
        focus = focus_of(gray, [_shift(b, -ox, -oy) for b in barcode_boxes])
        bars = None
        if barcode_boxes and not any(c.is_linear for c in codes):
            largest = max(barcode_boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
            bars = bc.measure_bars(gray, _shift(largest, -ox, -oy), turn)

        t = time.perf_counter_ns()
        fields = extract_fields(lines)
        lines = [replace(line, box=upright.to_image_box(line.box)) for line in lines]
        readings = tuple(BarcodeReading(c.format, c.text, c.valid_checksum, c.xyxy) for c in codes)
        fields, merge_notes = merge_barcodes(fields, readings)
        notes.extend(merge_notes)
        timings["fields"] = _ms(t)
        tag = TagReading(
            tag_index=tag_index,
            xyxy=tag_box,
            fields=fields,
            barcodes=readings,
            ocr_lines=tuple(lines),
            summary=summarize(fields, readings),
            timings_ms=timings,
            notes=tuple(notes),
            rotation=upright.angle_deg,
            focus=focus,
            bars=bars,
            symbol_boxes=tuple(barcode_boxes),
        )
        if recipe is not None:
            tag = self._verify(tag, recipe, crops, upright, timings, vocab)
        timings["total"] = _ms(start)
        return replace(tag, timings_ms=timings)

    def _verify(self, tag: TagReading, recipe: Recipe, crops: _LineCrops, upright: Upright,
                timings: dict[str, float], vocab: str) -> TagReading:
        """Fields in doubt after the first read are looked for in the lines' own posteriors
        (spotting.py); those still in doubt get a second read of every line another way (no
        squeeze: a narrowed '399' loses a 9), spotted again; the tag then shows what the evidence
        says. The posteriors are dropped when done: they serve verification only."""
        t = time.perf_counter_ns()
        evidence = gather(recipe, tag)
        doubtful = [rule for rule in recipe.fields if evidence[rule.name].found is not Found.MATCH]
        if not any(b.format == "EAN-13" for b in tag.barcodes):
            tag = replace(tag, spotted=spot_printed_ean(recipe, tag.ocr_lines))
        if doubtful:
            tag = replace(tag, spotted=tag.spotted + spot_fields(doubtful, tag.ocr_lines))
            evidence = gather(recipe, tag)
            doubtful = [rule for rule in doubtful if evidence[rule.name].found is not Found.MATCH]
        if doubtful:
            reread: list[OcrLine] = []
            if crops.crops:  # every line: rereading only the unsure or numeric ones cost 4 points of OK on 60 tags
                again = self.recognizer.recognize([_enlarged(c) for c in crops.crops], squeeze=REREAD_SQUEEZE, vocabulary=vocab)
                reread.extend(_join_rows(crops.boxes, again))
            reread.extend(self._read_regions(upright, [rule.region for rule in doubtful if rule.region is not None], vocab))
            # a value printed in units (a composition over three lines) may show each unit in either read
            more = spot_fields(doubtful, [*tag.ocr_lines, *reread])
            tag = replace(tag, reread_lines=tuple(replace(line, box=upright.to_image_box(line.box)) for line in reread),
                          spotted=tag.spotted + more)
            evidence = gather(recipe, tag)
        tag = replace(tag, ocr_lines=_without_posteriors(tag.ocr_lines), reread_lines=_without_posteriors(tag.reread_lines))
        fields = dict(tag.fields)
        for name, found in evidence.items():
            reading = found.reading()
            if reading is not None:
                fields[name] = reading
        timings["verify"] = _ms(t)
        return replace(tag, fields=fields, summary=summarize(fields, tag.barcodes))

    def upright_crop(self, image_bgr: np.ndarray, tag: TagReading) -> np.ndarray:
        """The tag as the reader saw it, for the VLM and for the text panel's thumbnail."""
        return make_upright(image_bgr, tag.xyxy, tag.rotation).image

    # -- steps ---------------------------------------------------------------------------------
    def _ocr(self, upright: Upright, zones: Sequence[SymbolZone], ambiguous: bool, vocabulary: str = ""
             ) -> tuple[_Pieces, float, float, Upright]:
        t = time.perf_counter_ns()
        found = self.detector.detect(upright.image)
        boxes = trim_to_neighbours(merge_overlapping([box for box, _score in found]))
        gray = cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY)
        pieces = split_print_sizes(split_tall(boxes, gray), gray)
        det_ms = _ms(t)

        t = time.perf_counter_ns()
        image = upright.image
        boxes = [_widened(line, image.shape[1]) for line, _crop in pieces]
        crop_boxes = [_widened(crop, image.shape[1]) for _line, crop in pieces]
        crops = [upright.line_crop(b, SMALL_PRINT_PX) for b in crop_boxes]
        keep = [i for i, c in enumerate(crops) if c.shape[0] >= 4 and c.shape[1] >= 4]
        boxes = [boxes[i] for i in keep]
        crops = [crops[i] for i in keep]
        in_zone = [self._zone_of(box, zones) for box in boxes]
        if ambiguous and crops:
            # which way up, from the longest lines read both ways; then the rest, that way only
            turned = [np.ascontiguousarray(c[::-1, ::-1]) for c in crops]
            probe = sorted(range(len(crops)), key=lambda i: -crops[i].shape[1])[:ORIENTATION_LINES]
            both = self.recognizer.recognize([crops[i] for i in probe] + [turned[i] for i in probe], vocabulary=vocabulary)
            as_is, upside_down = both[: len(probe)], both[len(probe) :]
            flip = _mean_conf(upside_down) > _mean_conf(as_is)
            if flip:
                hh, ww = image.shape[:2]
                upright = upright.flipped()
                boxes = [(ww - b[2], hh - b[3], ww - b[0], hh - b[1]) for b in boxes]
                crops = turned
            done = dict(zip(probe, upside_down if flip else as_is))
            rest = [i for i in range(len(crops)) if i not in done]
            done.update(zip(rest, self.recognizer.recognize([crops[i] for i in rest], vocabulary=vocabulary)))
            recognized = [done[i] for i in range(len(crops))]
        else:
            recognized = self.recognizer.recognize(crops, vocabulary=vocabulary)
        # what a decoded symbol already carries (its digits, a Code128 caption) is not read twice; a
        # price or a name above the bars, inside a loose symbol box, is kept
        kept = [i for i, rec in enumerate(recognized) if in_zone[i] is None or not _carried(rec.text, in_zone[i])]
        pieces = _Pieces(tuple(boxes[i] for i in kept), tuple(crops[i] for i in kept), tuple(recognized[i] for i in kept))
        return pieces, det_ms, _ms(t), upright

    def _read_regions(self, upright: Upright, regions: Sequence[tuple[float, float, float, float]], vocabulary: str = "") -> list[OcrLine]:
        """Read where a taught field is printed: its region of the upright tag (with a margin for
        a tag framed a little differently), enlarged, detected and recognized on its own."""
        image = upright.image
        h, w = image.shape[:2]
        lines: list[OcrLine] = []
        for x1, y1, x2, y2 in regions:
            mx, my = REGION_MARGIN * (x2 - x1) + 0.02, REGION_MARGIN * (y2 - y1) + 0.02
            left, top = int(max(0.0, x1 - mx) * w), int(max(0.0, y1 - my) * h)
            right, bottom = int(np.ceil(min(1.0, x2 + mx) * w)), int(np.ceil(min(1.0, y2 + my) * h))
            if right - left < 8 or bottom - top < 8:
                continue
            patch = image[top:bottom, left:right]
            scale = min(3.0, max(1.0, REGION_TEXT_HEIGHT / max(1, bottom - top)))
            big = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC) if scale > 1 else patch
            boxes = [b for b, _score in self.detector.detect(big)]
            crops = [big[int(b[1]) : int(np.ceil(b[3])), int(b[0]) : int(np.ceil(b[2]))] for b in boxes]
            keep = [i for i, c in enumerate(crops) if c.shape[0] >= 4 and c.shape[1] >= 4]
            if not keep:
                continue
            recognized = self.recognizer.recognize([crops[i] for i in keep], squeeze=REREAD_SQUEEZE, vocabulary=vocabulary)
            back = [(left + b[0] / scale, top + b[1] / scale, left + b[2] / scale, top + b[3] / scale) for b in (boxes[i] for i in keep)]
            lines.extend(_join_rows(back, recognized))
        return lines

    def _zone_of(self, box: Box, zones: Sequence[SymbolZone]) -> SymbolZone | None:
        """The decoded symbol whose bars or caption band a line sits in (an EAN's caption is
        read too when the reader is asked to)."""
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for zone in zones:
            for area in (zone.bars, zone.text):
                if area is not None and area[0] <= cx <= area[2] and area[1] <= cy <= area[3]:
                    return None if (zone.kind == "ean" and self.read_printed_ean) else zone
        return None


@dataclass(frozen=True)
class TagSymbols:
    """A tag's barcode stage: the grey crop its symbols were read from (the tag box joined with the
    symbol boxes: a tag box short of its barcode's end cuts the bars) and where it sits in the frame,
    the tag's turn and whether top and bottom are known, and the codes decoded (frame pixels)."""

    gray: np.ndarray
    offset: tuple[int, int]
    turn: float
    sure: bool
    codes: tuple[bc.DecodedCode, ...]


def read_symbols(image_bgr: np.ndarray, tag_box: Box, barcode_boxes: Sequence[Box] = (), qr_boxes: Sequence[Box] = (),
                 notes: list[str] | None = None, matrix_search: tuple[float, ...] = (1.0,)) -> TagSymbols:
    """Turn the tag by its bars (else a whole-crop zxing read, else its text lines) and decode every
    symbol box on it; a linear code's orientation then says which way is up."""
    crop, (ox, oy) = crop_box(image_bgr, union([tag_box, *barcode_boxes, *qr_boxes]))
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    turn, sure, codes = _orientation(gray, [_shift(b, -ox, -oy) for b in barcode_boxes], notes if notes is not None else [])
    if barcode_boxes or qr_boxes:
        codes = bc.decode_symbols(gray, [_shift(b, -ox, -oy) for b in (*barcode_boxes, *qr_boxes)], turn, matrix_search=matrix_search)
    flip = _upside_down(codes)
    if flip is not None:
        sure = True
        if flip:
            turn = (turn + 360.0) % 360.0 - 180.0
    return TagSymbols(gray, (ox, oy), turn, sure, tuple(_shift_code(c, ox, oy) for c in codes))


def _orientation(gray: np.ndarray, barcode_boxes: Sequence[Box], notes: list[str]) -> tuple[float, bool, list[bc.DecodedCode]]:
    """(turn in degrees, whether top and bottom are known, codes decoded on the way), all in
    the pixels of `gray`, the tag's crop."""
    best = None
    for x1, y1, x2, y2 in barcode_boxes:
        patch = gray[int(max(0, y1)) : int(y2) + 1, int(max(0, x1)) : int(x2) + 1]
        if patch.size < 64:
            continue
        down, strength = bars_down_angle(patch)
        if strength >= MIN_BAR_STRENGTH and (best is None or patch.size > best[1]):
            best = (down, patch.size)
    if best is not None:
        return turn_from_down_angle(best[0]), False, []
    codes = bc.decode(gray)
    linear = [c for c in codes if c.is_linear]
    anchor = next((c for c in linear if c.format == "EAN-13"), linear[0] if linear else None)
    if anchor is not None:
        # zxing's own frame: the code already reads upright after this turn
        return turn_from_down_angle(anchor.down_angle_deg()), True, []
    notes.append("no barcode to orient the tag; orientation from text lines")
    down, _strength = text_down_angle(gray)
    return turn_from_down_angle(down), False, []


@dataclass(frozen=True)
class _Pieces:
    """What one read of a tag found: text boxes (upright-crop pixels), their crops, their reads."""

    boxes: tuple[Box, ...]
    crops: tuple[np.ndarray, ...]
    recognized: tuple[Recognized, ...]


@dataclass(frozen=True)
class _FirstRead:
    """The read of the detector's own box, kept when the box is grown past lines that ran into its
    edge. The grown crop takes in what lies around the tag (other papers, the belt) and shows the tag
    smaller to the text detector: it is trusted only for what the first crop could not see."""

    upright: Upright
    pieces: _Pieces

    def merged_into(self, grown: _Pieces, upright: Upright) -> _Pieces:
        """The first read's lines that did not run into its edge, and the grown read's lines none of
        them covers (what the first crop cut or missed), all in the grown crop's pixels. If the two reads turned the
        tag differently (opposite ways, or levelled a few degrees apart) one of them is wrong, and the
        grown read (more of the tag, more lines to level it by) is kept."""
        turn = (upright.angle_deg - self.upright.angle_deg + 180.0) % 360.0 - 180.0
        if abs(turn) > MERGE_MAX_TURN_DEG:
            return grown
        fh, fw = self.upright.image.shape[:2]
        to_grown = np.vstack([upright.matrix, [0.0, 0.0, 1.0]]) @ np.vstack([cv2.invertAffineTransform(self.upright.matrix), [0.0, 0.0, 1.0]])

        def mapped(box: Box) -> Box:
            x1, y1, x2, y2 = box
            pts = np.array([[x1, y1, 1.0], [x2, y1, 1.0], [x2, y2, 1.0], [x1, y2, 1.0]]) @ to_grown[:2].T
            return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

        band = MERGE_EDGE_SHARE * max(fw, fh)
        region = mapped((0.0, 0.0, float(fw), float(fh)))
        whole = [i for i, (x1, y1, x2, y2) in enumerate(self.pieces.boxes)
                 if x1 > band and y1 > band and x2 < fw - band and y2 < fh - band]
        first_boxes = {i: mapped(self.pieces.boxes[i]) for i in whole}

        def reaches_out(b: Box) -> bool:
            return b[0] < region[0] - band or b[1] < region[1] - band or b[2] > region[2] + band or b[3] > region[3] + band

        def replaces(g: Box, f: Box) -> bool:  # the same line, seen longer: not two lines glued into one box
            return reaches_out(g) and _overlap(f, g) > 0.3 and g[3] - g[1] <= 1.6 * (f[3] - f[1])

        # the first read's whole lines stand, unless the grown read found one reaching past the first crop
        # over them (a line the first crop cut without its ink touching the edge)
        kept_first = [i for i in whole if not any(replaces(g, first_boxes[i]) for g in grown.boxes)]
        kept_grown = [j for j, g in enumerate(grown.boxes) if not any(_overlap(first_boxes[i], g) > 0.3 for i in kept_first)]
        return _Pieces(
            tuple(first_boxes[i] for i in kept_first) + tuple(grown.boxes[j] for j in kept_grown),
            tuple(self.pieces.crops[i] for i in kept_first) + tuple(grown.crops[j] for j in kept_grown),
            tuple(self.pieces.recognized[i] for i in kept_first) + tuple(grown.recognized[j] for j in kept_grown),
        )


def _overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1e-9, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


@dataclass(frozen=True)
class _LineCrops:
    """The text boxes of one tag (upright-crop pixels) and their crops, kept for a second read."""

    boxes: tuple[Box, ...]
    crops: tuple[np.ndarray, ...]


def _grown(tag_box: Box, upright: Upright, line_boxes: Sequence[Box], image_hw: tuple[int, int]) -> Box | None:
    """The tag box grown towards every crop edge a printed line runs into, or None if none does."""
    h, w = upright.image.shape[:2]
    edge_x, edge_y = EDGE_SHARE * w, EDGE_SHARE * h
    sides = set()
    for x1, y1, x2, y2 in line_boxes:
        if x2 - x1 < 2 * (y2 - y1):
            continue  # a stray glyph at the edge (a punched hole, a string) is not a cut line
        if x1 <= edge_x:
            sides.add("left")
        if x2 >= w - edge_x:
            sides.add("right")
        if y1 <= edge_y:
            sides.add("top")
        if y2 >= h - edge_y:
            sides.add("bottom")
    if not sides:
        return None
    # the upright crop's +x and +y as directions in the frame
    inverse = cv2.invertAffineTransform(upright.matrix)
    right, down = inverse[:, 0], inverse[:, 1]
    x1, y1, x2, y2 = tag_box
    points = [np.array([x1, y1]), np.array([x2, y1]), np.array([x2, y2]), np.array([x1, y2])]
    grow_w, grow_h = GROW_SHARE * w, GROW_SHARE * h
    shift = {"left": -right * grow_w, "right": right * grow_w, "top": -down * grow_h, "bottom": down * grow_h}
    for side in sides:
        points = points + [p + shift[side] for p in points]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (max(0.0, min(xs)), max(0.0, min(ys)), min(float(image_hw[1]), max(xs)), min(float(image_hw[0]), max(ys)))


_CODE_TEXT = re.compile(r"^[0-9A-Za-z\-\s./*<>|:'\"]*$")


_PRICE_TEXT = re.compile(r"RMB|CNY|\d\.\d{2}\b", re.IGNORECASE)


def _code_like(text: str) -> bool:
    """Text a symbol carries (digits, a code, bar slivers read as letters), not words or a price."""
    return bool(_CODE_TEXT.match(text.strip())) and not _PRICE_TEXT.search(text)


_SLIVERS = re.compile(r"^[\sIl1|!i:;'\".,\-_()\[\]{}/\\]*$")


def _carried(text: str, zone: SymbolZone) -> bool:
    """Whether a line read over a decoded symbol is the symbol itself: bars read as slivers, or its
    caption (the digits or code it decoded to, misread a little). Anything on a QR code is. A
    symbol's box drawn loose around a turned tag takes in its neighbours: a size printed in a box
    beside the bars is not the symbol's, and stays."""
    if zone.kind == "matrix":
        return True
    if not _code_like(text):
        return False
    if _SLIVERS.match(text) or not zone.carries:
        return True
    key, carried = code_key(text), code_key(zone.carries)
    digits = "".join(ch for ch in key if ch.isdigit())
    if len(digits) >= 4 and digits in carried:
        return True
    return key in carried or SequenceMatcher(None, key, carried).find_longest_match().size >= max(3, 0.6 * len(key))


def _widened(box: Box, width: int) -> Box:
    """A line box with room at both ends: DB's box can stop at the last stroke, and the
    recognizer drops a character that touches the crop's edge ('160/84Y' read '160/84')."""
    x1, y1, x2, y2 = box
    pad = LINE_END_PAD * (y2 - y1)
    return (max(0.0, x1 - pad), y1, min(float(width), x2 + pad), y2)


def _enlarged(crop: np.ndarray) -> np.ndarray:
    """A line crop for the second read: small print enlarged with a sharp kernel and its edges
    restored (the recognizer's own bilinear scaling smears 8-px strokes)."""
    if crop.shape[0] >= REREAD_MIN_HEIGHT:
        return crop
    big = cv2.resize(crop, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
    return cv2.addWeighted(big, 1.5, cv2.GaussianBlur(big, (0, 0), 1.6), -0.5, 0)


def looks_like_a_tag(tag: TagReading) -> bool:
    """A hangtag carries a barcode or printed lines; a coin or a lamp the detector took for one
    reads as nothing, or as a stray character or two."""
    if tag.barcodes:
        return True
    lines = [line for line in tag.ocr_lines if len(line.text.replace(" ", "")) >= 2]
    solid = [line for line in lines if line.confidence >= TAG_LINE_CONFIDENCE]
    # a blurred tag still shows rows of text, read unsurely; a coin or lamp shows a stray glyph or two
    return len(solid) >= MIN_TAG_LINES or len(lines) >= MIN_BLURRED_TAG_LINES


def focus_of(gray: np.ndarray, barcode_boxes: Sequence[Box]) -> float:
    """Sharpness where it matters most: the largest barcode box (else the whole tag), as the
    variance of the Laplacian at a fixed working size, so numbers compare across cameras."""
    patch = gray
    if barcode_boxes:
        x1, y1, x2, y2 = max(barcode_boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        cut = gray[int(max(0, y1)) : int(y2) + 1, int(max(0, x1)) : int(x2) + 1]
        if cut.size >= 64:
            patch = cut
    side = max(patch.shape[:2])
    if side > FOCUS_SIDE:
        scale = FOCUS_SIDE / side
        patch = cv2.resize(patch, (max(1, int(patch.shape[1] * scale)), max(1, int(patch.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(patch, cv2.CV_64F).var())


def _zones(codes: Sequence[bc.DecodedCode], upright: Upright, barcode_boxes: Sequence[Box] = ()) -> list[SymbolZone]:
    """Where decoded symbols sit in the upright crop. zxing's quad of a linear code spans only the
    rows it scanned, so a barcode box of the detector that holds the code gives the bars' height —
    within the bars' own columns and at most `BARS_HALF_HEIGHT` of their width above and below, as a
    detector box drawn around a turned code is loose and would take in the lines printed beside it.
    A matrix code's quad is its four corners already: no box is added to it."""
    boxes = [upright.to_upright_box(b) for b in barcode_boxes]
    zones = []
    for code in codes:
        pts = upright.to_upright_points(np.array(code.quad))
        area = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))
        if not code.is_linear:
            zones.append(symbol_zone(area, "matrix", carries=code.text))
            continue
        cx, cy = (area[0] + area[2]) / 2, (area[1] + area[3]) / 2
        reach = BARS_HALF_HEIGHT * (area[2] - area[0])
        for box in boxes:
            if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
                grown = union([area, box])
                area = (area[0], max(grown[1], cy - reach), area[2], min(grown[3], cy + reach))
                break
        kind = "ean" if code.format in ("EAN-13", "EAN-8", "UPC-A", "UPC-E") else "code"
        zones.append(symbol_zone(area, kind, carries=code.text))
    return zones


def _shift(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _shift_code(code: bc.DecodedCode, dx: float, dy: float) -> bc.DecodedCode:
    return bc.DecodedCode(code.format, code.text, code.valid_checksum, tuple((x + dx, y + dy) for x, y in code.quad), code.orientation)


def _map_code(code: bc.DecodedCode, upright: Upright) -> bc.DecodedCode:
    """A code decoded in the upright crop, with its quad in frame pixels."""
    inverse = cv2.invertAffineTransform(upright.matrix)
    pts = np.array(code.quad, np.float64) @ inverse[:, :2].T + inverse[:, 2]
    return bc.DecodedCode(code.format, code.text, code.valid_checksum, tuple((float(x), float(y)) for x, y in pts), code.orientation)


def _upside_down(codes: Sequence[bc.DecodedCode]) -> bool | None:
    """None when no linear code says; else whether the upright crop is really upside down."""
    linear = [c for c in codes if c.is_linear]
    if not linear:
        return None
    anchor = next((c for c in linear if c.format == "EAN-13"), linear[0])
    return abs(anchor.orientation) > 90


def _join_rows(boxes: Sequence[Box], recognized: Sequence[Recognized]) -> list[OcrLine]:
    """Boxes on one row become one line (the detector splits at wide gaps); upright-crop pixels."""
    lines = []
    for row in group_rows(boxes):
        parts = [recognized[i] for i in row if _worth_keeping(recognized[i])]
        if not parts:
            continue
        text = " ".join(p.text for p in parts)
        chars: list[float] = []
        alternatives: list[str] = []
        for k, p in enumerate(parts):
            if k:
                chars.append(1.0)
                alternatives.append("")
            chars.extend(p.char_confidences or [p.confidence] * len(p.text))
            alternatives.extend(p.alternatives or [""] * len(p.text))
        confidence = float(np.mean([p.confidence for p in parts]))
        lines.append(
            OcrLine(
                text,
                confidence,
                union([boxes[i] for i in row]),
                tuple(chars) if len(chars) == len(text) else (),
                tuple(alternatives) if len(alternatives) == len(text) else (),
                Posteriors.concat([p.posteriors for p in parts]),
            )
        )
    return lines


def _without_posteriors(lines: Sequence[OcrLine]) -> tuple[OcrLine, ...]:
    return tuple(replace(line, posteriors=None) if line.posteriors is not None else line for line in lines)


def _worth_keeping(rec: Recognized) -> bool:
    """A punched hole or a speck reads as 'o' or '.' at almost no confidence."""
    text = rec.text.strip()
    return bool(text) and not (len(text) <= 2 and rec.confidence < 0.5)


def _mean_conf(results: Sequence[Recognized]) -> float:
    total = sum(max(1, len(r.text)) for r in results)
    return sum(r.confidence * max(1, len(r.text)) for r in results) / total if total else 0.0
