"""TagReader: detected hangtags in, one TagReading per tag out.

A tag's reading is one straight chain of stages, each its own module with a small typed result:
symbols (which way is up, what the barcodes decode to) → levelling (the tag warped upright once
and levelled; where its symbols sit) → text lines (detected and recognized, boxes joined into
lines; a box that cut the tag is grown, see tag_extent) → fields (extracted, confirmed or supplied
by the barcodes) → verify (held against the recipe, read again where a field is in doubt).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from inference.detections import Detections, centre_inside, intersection
from inference.reading.barcodes import DecodedCode, module_width
from inference.reading.evidence import cents_run_on, gather
from inference.reading.expected import vocabulary
from inference.reading.fields import extract_fields
from inference.reading.levelling import level_tag
from inference.reading.lines import text_height
from inference.reading.matching import Found
from inference.reading.normalize import edit_distance, field_key
from inference.reading.ocr.detector import DbParams, TextDetector
from inference.reading.ocr.models import OcrModels, find_ocr_models
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.overlap import DEFAULT_PARTS, overlap_threads_for
from inference.reading.recipe import Recipe
from inference.reading.rectify import Upright, make_upright
from inference.reading.ruling import vertical_rules
from inference.reading.summary import merge_barcodes, summarize
from inference.reading.symbols import flipped_turn, focus_of, read_symbols  # noqa: F401 (focus_of: still imported from here by callers)
from inference.reading.tag_extent import FirstRead, cut_sides, grown_box, paper_sides
from inference.reading.text_lines import LineCrops, join_rows, read_lines
from inference.reading.types import GROWN_NOTE, BarcodeReading, FieldReading, OcrLine, TagReading
from inference.reading.verdict import Check, Verdict, compared_code, judge_tag
from inference.reading.verify import verify

Box = tuple[float, float, float, float]

# The second read that confirms a difference: the tag box grown this many pixels on each side. An odd
# total shifts the upright crop's pixel grid by half a pixel, so the lines are resampled afresh.
CONFIRM_GROW_PX = 3.5
# A tag the detector missed is read this many times its symbols' extent beyond them on every side.
ANCHOR_SPAN = 1.0
# A tag box cut short grows at most this many times (each a read of the tag; a tag twice its box's size needs two,
# a box round a third of the tag three). Beside another tag's box, at most twice: two boxes of one tag, each grown
# over the whole of it, would read as two tags with the same rows. The third growth runs towards one side only: a
# wide card boxed at one end runs on one way (p20's punched_size, three times 'left'), while print running out on
# two sides after two growths is what lies round the tag (s6001 000004, a tag boxed right on a sheet of receipts,
# lost its colour and grade to a third growth both ways over the receipts' rows).
MAX_GROWTHS = 3
MAX_GROWTHS_BESIDE_ANOTHER = 2
# A tag box with this share of its area inside another tag box is that tag's own panel, not a second tag.
NESTED_SHARE = 0.85
# A box with this share of its area over another tag's box, reading none of the job's values (nothing as expected,
# nothing surely else, no symbol) where that tag reads them, is a piece of that tag's paper boxed apart.
PIECE_SHARE = 0.25


def differing_print(recipe: Recipe, tag: TagReading) -> dict[str, str]:
    """The recipe's fields judged NG on what was read on the tag, with the value read."""
    names = {rule.name for rule in recipe.fields}
    return {c.subject: c.read for c in judge_tag(recipe, tag).checks
            if c.verdict is Verdict.NG and c.subject in names and c.source == "ocr"}


def unconfirmed_fields(recipe: Recipe, differing: dict[str, str], again: TagReading) -> tuple[str, ...]:
    """Of the first read's `differing` fields (differing_print), those the second read does not bear out."""
    second = {c.subject: c for c in judge_tag(recipe, again).checks}
    expected = {rule.name: rule.expected for rule in recipe.fields}
    return tuple(name for name, read in differing.items()
                 if name not in second or not _bears_out(name, read, second[name], expected.get(name)))


def _bears_out(name: str, read: str, again: Check, expected: str | None) -> bool:
    """A difference stands when the second read judges it NG too, reads the same different value (less surely),
    or reads, less surely, a value one character from the first read's and at least two from the expected one (and
    no nearer it than the first read was): the two reads agree on what is printed and that it is not the expected
    value ('卡其' then '卡具' where '燕麦色' was expected; '170/100B' then '170/1008' for '165/96B'). A second read one
    character from the expected value ('XL' after 'XXL' for '3XL'), of the expected value, or of nothing, leaves
    the difference in doubt."""
    if again.verdict is Verdict.NG or again.read == read:
        return True
    if again.verdict is Verdict.OK or not again.read or expected is None:
        return False
    if name == "price" and cents_run_on(again.read, read):
        return True  # '¥32900.00' after '¥329.00': the same price, its small raised cents read into the yuan
    first, second, wanted = (field_key(name, value) for value in (read, again.read, expected))
    return edit_distance(second, first) <= 1 and edit_distance(second, wanted) >= max(2, edit_distance(first, wanted))


def pieces_of_other_tags(readings: Sequence[TagReading], recipe: Recipe | None) -> tuple[TagReading, ...]:
    """A detector box that overlaps a read tag by PIECE_SHARE of its own area and reads nothing of the job there
    (no field as expected or surely as another value, no symbol) while that tag reads the job's values, is a
    piece of that tag the detector boxed apart (a wide tag's label column, read sideways as garble), not a second
    tag: it is dropped and said. A second tag, of this job or another, reads its own values or carries a code."""
    tags = [tag for tag in readings if tag.is_tag and not tag.whole_frame]
    if recipe is None or len(tags) < 2:  # one tag (the common frame, every read of the live line): nothing to ask
        return tuple(readings)
    legible: dict[int, tuple[int, int]] = {}

    def reads_the_job(tag: TagReading) -> tuple[int, int]:  # asked only of tags that overlap, once each
        if id(tag) not in legible:
            legible[id(tag)] = _reads_the_job(recipe, tag)
        return legible[id(tag)]

    out = []
    for tag in readings:
        host = None
        if any(tag is t for t in tags) and not tag.barcodes:
            overlapped = [other for other in tags if other is not tag and overlap_share(tag.xyxy, other.xyxy) >= PIECE_SHARE]
            if overlapped and reads_the_job(tag) == (0, 0):
                host = next((other for other in overlapped if reads_the_job(other)[0] > 0), None)
        if host is not None:
            tag = replace(tag, rejected=f"over tag {host.tag_index + 1}'s box, reading none of the job's values: part of that tag, not a second one",
                          notes=tag.notes + (f"box dropped: it overlaps tag {host.tag_index + 1} and reads nothing of the job",))
        out.append(tag)
    return tuple(out)


def _reads_the_job(recipe: Recipe, tag: TagReading) -> tuple[int, int]:
    """(fields read as expected, fields read surely as something else) on a tag. A rule that asks only for
    something to be printed (a brand 'present') says nothing of whose tag it is: any word passes it."""
    judged = {rule.name for rule in recipe.fields if rule.expected is not None or rule.pattern is not None}
    found = [evidence.found for name, evidence in gather(recipe, tag).items() if name in judged]
    return sum(f is Found.MATCH for f in found), sum(f is Found.DIFFERENT for f in found)


def overlap_share(box: Box, other: Box) -> float:
    """The share of `box`'s area that lies inside `other`."""
    area = max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
    return intersection(box, other) / area if area > 0 else 0.0


def moved_box(box: Box, grow: float = CONFIRM_GROW_PX) -> Box:
    return (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow)


def nested_in(box: Box, other: Box, share: float = NESTED_SHARE) -> bool:
    """Whether `box` lies mostly inside the larger `other`."""
    area = max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
    other_area = max(0.0, other[2] - other[0]) * max(0.0, other[3] - other[1])
    return 0 < area < other_area and overlap_share(box, other) >= share

# A detector box is a tag when it holds a barcode or this many lines read this surely.
MIN_TAG_LINES = 2
TAG_LINE_CONFIDENCE = 0.6
MIN_BLURRED_TAG_LINES = 4


def _ms(start_ns: int) -> float:
    return (time.perf_counter_ns() - start_ns) / 1e6


class TagReader:
    """Owns the OCR engines. Not thread-safe: one reader per worker thread.

    `tag_threads` > 1 reads the tags of one frame side by side (the GPU reader's sessions take one call at a
    time under a lock, while barcodes, levelling and the CPU halves of OCR of other tags go on); each tag reads
    exactly as it would alone. 1 (the default) reads them one after another.

    `overlap_threads` > 0 runs some of a tag's work on that many threads while its barcodes are decoded
    (overlap.py): the tag warped upright, and by default (`overlap_parts`) the GPU reader's text detector started
    in that crop, where most tags are read; on request its symbol boxes decoded together, the whole-crop QR search
    begun at once, the warp the other way up. The same reading. 0 (the default) unless HANGTAG_READ_OVERLAP asks
    for a GPU reader: on the H200 it bought no reliable time (BENCHMARKS.md, 2026-12-03)."""

    def __init__(self, detector: TextDetector, recognizer: TextRecognizer, *, read_printed_ean: bool = False, models: str = "",
                 tag_threads: int = 1, overlap_threads: int = 0, rereader: TextRecognizer | None = None) -> None:
        self.detector = detector
        self.recognizer = recognizer
        # the second read's recognizer (fields in doubt after the first): the small-print fine-tune where shipped
        self.rereader = rereader
        self.read_printed_ean = read_printed_ean
        self.models = models
        self.tag_threads = tag_threads
        self.overlap_threads = overlap_threads
        self.overlap_parts = DEFAULT_PARTS
        self._tag_pool: ThreadPoolExecutor | None = None
        self._overlap_pool: ThreadPoolExecutor | None = None
        self._overlap_lock = threading.Lock()  # tag threads may ask for the pool at once

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
        opened: list = [detector]
        try:
            recognizer = TextRecognizer.open(models.rec, backend, threads, squeeze=squeeze)
            opened.append(recognizer)
            # a Triton server holds the station's own pair only: there the second read is the first recognizer's
            rereader = None if models.reread is None or backend == "triton" else \
                TextRecognizer.open(models.reread, backend, threads, squeeze=squeeze)
        except BaseException:
            for engine in opened:
                engine.close()  # a remote backend holds a connection for it
            raise
        return cls(detector, recognizer, read_printed_ean=read_printed_ean, models=models.describe(),
                   overlap_threads=overlap_threads_for(backend), rereader=rereader)

    def use_recognizer(self, model_path: Path) -> None:
        """Read with another PP-OCR recognizer ONNX (same input and 'character' metadata contract), on the
        backend and squeeze of the one it replaces: to compare recognizers on the same frames."""
        old = self.recognizer
        backend = getattr(getattr(old, "engine", None), "backend_name", "onnxruntime-cpu")
        self.recognizer = TextRecognizer.open(model_path, backend, squeeze=old.squeeze)
        old.close()
        self.models = f"{self.models.split(' / rec')[0]} / rec {model_path.name}" if self.models else model_path.name

    def use_rereader(self, model_path: Path) -> None:
        """Give fields still in doubt their last read with another small-print recognizer ONNX (same contract as the
        shipped one), on the first recognizer's backend and squeeze: to judge a candidate without replacing the file."""
        old = self.rereader
        backend = getattr(getattr(self.recognizer, "engine", None), "backend_name", "onnxruntime-cpu")
        self.rereader = TextRecognizer.open(model_path, backend, squeeze=self.recognizer.squeeze)
        if old is not None:
            old.close()
        self.models = f"{self.models.split('; second read: ')[0]}; second read: {model_path.name}"

    def close(self) -> None:
        for pool in (self._tag_pool, self._overlap_pool):
            if pool is not None:
                pool.shutdown(wait=True)
        self._tag_pool = self._overlap_pool = None
        self.detector.close()
        self.recognizer.close()
        if self.rereader is not None:
            self.rereader.close()

    def __enter__(self) -> TagReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _overlap(self) -> ThreadPoolExecutor | None:
        """The threads a tag's CPU stages share (`overlap_threads`), or None when they run one after another."""
        if self.overlap_threads <= 0:
            return None
        with self._overlap_lock:
            if self._overlap_pool is None:
                self._overlap_pool = ThreadPoolExecutor(self.overlap_threads, thread_name_prefix="tag-overlap")
            return self._overlap_pool

    # -- per frame -----------------------------------------------------------------------------
    def read(self, image_bgr: np.ndarray, detections: Detections | None = None,
             should_stop: Callable[[], bool] | None = None, recipe: Recipe | None = None,
             neighbours: Sequence[Box] = ()) -> tuple[TagReading, ...]:
        """Every hangtag in the frame; with no hangtag boxes one tag is read around the symbols in view (every
        tag carries one), or the whole image where there are none.

        With a `recipe` each tag is verified against it: lines that leave a field in doubt are read
        again another way before anyone judges. A detector box with no text and no barcode in it
        comes back marked `rejected` (it is not a tag: a coin, a lamp).

        `should_stop` is asked before each tag; when it says yes the tags read so far are returned
        (the caller, which asked, knows the frame is incomplete). `neighbours`: other tags' boxes in the frame
        that are not read here (the live line reads one tag of a frame), which no tag box grows into."""
        h, w = image_bgr.shape[:2]
        detections = detections if detections is not None else Detections.empty()
        boxes: dict[str, list[Box]] = {"hangtag": [], "barcode": [], "qr_code": []}
        for box, label in zip(detections.xyxy, detections.labels):
            if label in boxes:
                boxes[label].append(tuple(float(v) for v in box))
        detected = bool(boxes["hangtag"])
        tag_boxes = boxes["hangtag"] or [around_symbols(boxes["barcode"] + boxes["qr_code"], (h, w))]

        def read_one(index: int, tag_box: Box) -> TagReading:
            host = next((other for other in tag_boxes if other is not tag_box and nested_in(tag_box, other)), None)
            if detected and host is not None:  # a box over a tag's own panel is not a second tag
                return TagReading(index, tag_box, rejected="inside another tag's box: part of that tag, not a second one",
                                  notes=("box dropped: it lies inside another tag box",))
            tag_barcodes = [b for b in boxes["barcode"] if centre_inside(b, tag_box)]
            tag_qr = [b for b in boxes["qr_code"] if centre_inside(b, tag_box)]
            others = (*(other for other in tag_boxes if other is not tag_box), *neighbours) if detected else ()
            reading = self.read_tag(image_bgr, tag_box, tag_barcodes, tag_qr, index, recipe=recipe, neighbours=others)
            if not detected:
                reading = replace(reading, whole_frame=True)
            elif not tag_barcodes and not tag_qr and not looks_like_a_tag(reading):  # a box holding a symbol box is a tag, legible or not
                reading = replace(reading, rejected="no text and no barcode in the box: not a hangtag",
                                  notes=reading.notes + ("box dropped: nothing tag-like in it",))
            if recipe is not None and reading.is_tag:
                reading = self._confirm_differences(image_bgr, tag_box, tag_barcodes, tag_qr, index, recipe, reading, others)
            return reading

        if self.tag_threads > 1 and len(tag_boxes) > 1:
            if self._tag_pool is None:
                self._tag_pool = ThreadPoolExecutor(self.tag_threads, thread_name_prefix="tag-read")
            futures = []
            for index, tag_box in enumerate(tag_boxes):  # asked before each tag is started
                if should_stop is not None and should_stop():
                    break
                futures.append(self._tag_pool.submit(read_one, index, tag_box))
            return pieces_of_other_tags([f.result() for f in futures], recipe)
        readings = []
        for index, tag_box in enumerate(tag_boxes):
            if should_stop is not None and should_stop():
                break
            readings.append(read_one(index, tag_box))
        return pieces_of_other_tags(readings, recipe)

    def _confirm_differences(self, image_bgr: np.ndarray, tag_box: Box, barcode_boxes: Sequence[Box], qr_boxes: Sequence[Box],
                             tag_index: int, recipe: Recipe, reading: TagReading, neighbours: Sequence[Box] = ()) -> TagReading:
        """A field read as a different value is NG only when a second read of the tag, from its box
        moved a few pixels, shows the difference too: a read that flips with the crop (a size M read
        N, a price gaining a digit when the box moves a pixel) is the recognizer's doubt, not the tag's
        fault. Costs a read only on a tag about to be judged NG on its print."""
        differing = differing_print(recipe, reading)
        if not differing:
            return reading
        start = time.perf_counter_ns()
        again = self.read_tag(image_bgr, moved_box(tag_box), barcode_boxes, qr_boxes, tag_index, recipe=recipe, neighbours=neighbours)
        unconfirmed = unconfirmed_fields(recipe, differing, again)
        timings = {**reading.timings_ms, "confirm": _ms(start)}
        timings["total"] = timings.get("total", 0.0) + timings["confirm"]
        note = (f"a second read from a moved box did not show: {', '.join(unconfirmed)}" if unconfirmed
                else "a second read from a moved box showed the same difference")
        return replace(reading, unconfirmed=unconfirmed, timings_ms=timings, notes=reading.notes + (note,))
    def read_tag(
        self,
        image_bgr: np.ndarray,
        tag_box: Box,
        barcode_boxes: Sequence[Box] = (),
        qr_boxes: Sequence[Box] = (),
        tag_index: int = 0,
        recipe: Recipe | None = None,
        grown: int = 0,
        first: FirstRead | None = None,
        neighbours: Sequence[Box] = (),
    ) -> TagReading:
        """One tag; boxes in original image pixels. Linear barcode boxes set the angle.

        Printed lines running into the crop's edge mean the detector's box cut the tag (a wide tag's
        price column, a long tag's foot): the tag is read once more from a box grown past them, and once more
        if that box still cuts it (`grown`: how many times the box has grown already), never into the
        detector's other tag boxes (`neighbours`); never where the tag's paper outline shows (its crop holds the
        whole paper already)."""
        timings: dict[str, float] = {}
        notes: list[str] = []
        start = time.perf_counter_ns()

        t = time.perf_counter_ns()
        wants_qr = recipe is not None and any(c.class_name == "qr_code" and c.min >= 1 for c in recipe.counts)
        pool, warps, parts = self._overlap(), {}, self.overlap_parts
        detect_ahead = getattr(self.detector, "detect_ahead", None) if "ahead" in parts else None  # the GPU reader's (ocr/gpu.py)

        def warp(turn: float, look_ahead: bool) -> Upright:
            upright = make_upright(image_bgr, tag_box, turn)
            if look_ahead and detect_ahead is not None:  # most tags' lines are found in this very crop
                detect_ahead(upright.image, pool)
            return upright

        def warp_both_ways(turn: float) -> None:  # the tag's turn is one of these once its codes say which way is up
            warps[turn] = pool.submit(warp, turn, True)
            if "flipped" in parts:
                warps[flipped_turn(turn)] = pool.submit(warp, flipped_turn(turn), False)

        symbols = read_symbols(image_bgr, tag_box, barcode_boxes, qr_boxes, notes, matrix_search=(1.0, 1.5) if wants_qr else (1.0,),
                               on_turn=warp_both_ways if pool is not None else None, pool=pool if "decode" in parts else None)
        timings["barcode"] = _ms(t)

        t = time.perf_counter_ns()
        warped = warps.get(symbols.turn)
        level = level_tag(image_bgr, tag_box, symbols, barcode_boxes, qr_boxes, upright=warped.result() if warped is not None else None,
                          tag_ground=first.tag_ground() if first is not None else None)
        timings["rectify"] = _ms(t)

        vocab = vocabulary(recipe) if recipe is not None else ""
        read = read_lines(self.detector, self.recognizer, level.upright, level.zones, ambiguous=not level.sure,
                          vocabulary=vocab, read_printed_ean=self.read_printed_ean,
                          needed=first.lines_used if first is not None else None,  # a grown read only adds to the first
                          paper=level.outline, small_print=self.rereader)
        upright, pieces = read.upright, read.pieces
        if read.stood:
            notes.append("printed lines stood on end in the crop (a code up the tag's side, or a tag turned by its "
                         "outline): read a quarter turned")
        if first is not None:
            pieces = first.merged_into(pieces, upright)
        walls = vertical_rules(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY), pieces.boxes)
        lines, crops = join_rows(pieces.boxes, pieces.recognized, walls), LineCrops(pieces.boxes, pieces.crops, walls)
        t = time.perf_counter_ns()
        readings = tuple(BarcodeReading(c.format, c.text, c.valid_checksum, c.xyxy, module_width(c)) for c in level.codes)
        fields, merge_notes = merge_barcodes(extract_fields(lines), readings)
        fields_ms = _ms(t)
        growths = MAX_GROWTHS_BESIDE_ANOTHER if neighbours else MAX_GROWTHS
        if grown < growths and level.outline is None and not verified_whole(recipe, lines, fields, readings):
            # (a tag whose paper outline shows is read from a crop that holds all of it: past its edges lies only what is round it)
            cut = cut_sides(upright, crops.boxes, pieces.recognized)
            sides = cut | paper_sides(upright.image, crops.boxes)
            if grown >= MAX_GROWTHS_BESIDE_ANOTHER and len(sides) > 1:
                sides = set()  # a third growth runs one way only: a tag boxed at one end (see MAX_GROWTHS)
            bigger = grown_box(tag_box, upright, sides, image_bgr.shape[:2], neighbours)
            if bigger is not None:
                first_ms = _ms(start)  # this read's own time: the grown read's is in its own total
                again = self.read_tag(image_bgr, bigger, barcode_boxes, qr_boxes, tag_index, recipe, grown=grown + 1,
                                      first=FirstRead(upright, pieces, frozenset(cut), first.tag_ground() if first is not None else None),
                                      neighbours=neighbours)
                waste = {"ocr_det": read.det_ms, "ocr_rec": read.rec_ms, "total": first_ms}
                timings = {k: v + waste.get(k, 0.0) for k, v in again.timings_ms.items()}
                why = "printed lines ran into its edge" if cut else "the tag's paper ran on past it"
                return replace(again, timings_ms=timings, notes=again.notes + (f"{GROWN_NOTE}: {why}",))
        timings["ocr_det"] = read.det_ms
        timings["ocr_rec"] = read.rec_ms
        focus, bars = symbols.focus(barcode_boxes), symbols.bars(barcode_boxes, level.codes)
        differing = _differing_code(recipe, level.codes)
        decoded_bars = symbols.decoded_bars(barcode_boxes, level.codes, differing) if differing else None

        t = time.perf_counter_ns()
        lines = [replace(line, box=upright.to_image_box(line.box)) for line in lines]
        notes.extend(merge_notes)
        timings["fields"] = fields_ms + _ms(t)
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
            text_px=text_height(crops.boxes),
            bars=bars,
            decoded_bars=decoded_bars,
            symbol_boxes=tuple(barcode_boxes),
            paper=() if level.outline is None else tuple(map(tuple, level.outline.corners.tolist())),
        )
        if recipe is not None:
            t = time.perf_counter_ns()
            tag = verify(tag, recipe, crops, upright, self.detector, self.recognizer, vocab, rereader=self.rereader,
                         stood=read.stood)
            timings["verify"] = _ms(t)
        timings["total"] = _ms(start)
        return replace(tag, timings_ms=timings)

    def upright_crop(self, image_bgr: np.ndarray, tag: TagReading) -> np.ndarray:
        """The tag as the reader saw it, for the VLM and for the text panel's thumbnail."""
        return make_upright(image_bgr, tag.xyxy, tag.rotation).image


def _differing_code(recipe: Recipe | None, codes: Sequence[DecodedCode]) -> str:
    """The linear code decoded on the tag in place of the recipe's (none decoded as the recipe's): its bars are
    measured so the verdict can tell a decoder's misread from a wrong code. '' where there is none."""
    expected = recipe.barcode.expected if recipe is not None else None
    linear = [c for c in codes if c.is_linear]
    if not expected or not linear or any(c.text == expected for c in linear):
        return ""
    return compared_code(recipe.barcode, linear).text


def verified_whole(recipe: Recipe | None, lines: Sequence[OcrLine], fields: Mapping[str, FieldReading],
                   readings: Sequence[BarcodeReading]) -> bool:
    """Whether a read (its lines, the fields extracted from them and merged with its barcodes) already verifies
    every value the recipe asks for: growing its box could then only take in what lies around the tag. Without a
    recipe (or one with no fields) nothing is verified."""
    if recipe is None or not recipe.fields:
        return False
    tag = TagReading(0, (0.0, 0.0, 1.0, 1.0), fields, tuple(readings), tuple(lines))
    return all(e.found is Found.MATCH for e in gather(recipe, tag).values())


def around_symbols(symbols: Sequence[Box], image_hw: tuple[int, int]) -> Box:
    """Where a tag the detector missed lies: around the barcodes and QR codes in view, ANCHOR_SPAN times their
    extent's longer side on every side (a tag's print stands beside and above its symbols; the box grows further
    where the tag's paper runs on past it). The whole frame where no symbol is in view. Read whole at the text
    detector's size, a frame's print shrinks to a few pixels: nothing on it is read."""
    h, w = image_hw
    if not symbols:
        return (0.0, 0.0, float(w), float(h))
    x1, y1 = min(b[0] for b in symbols), min(b[1] for b in symbols)
    x2, y2 = max(b[2] for b in symbols), max(b[3] for b in symbols)
    span = ANCHOR_SPAN * max(x2 - x1, y2 - y1)
    return (max(0.0, x1 - span), max(0.0, y1 - span), min(float(w), x2 + span), min(float(h), y2 + span))


def looks_like_a_tag(tag: TagReading) -> bool:
    """A hangtag carries a barcode or printed lines; a coin or a lamp the detector took for one
    reads as nothing, or as a stray character or two."""
    if tag.barcodes:
        return True
    lines = [line for line in tag.ocr_lines if len(line.text.replace(" ", "")) >= 2]
    solid = [line for line in lines if line.confidence >= TAG_LINE_CONFIDENCE]
    # a blurred tag still shows rows of text, read unsurely; a coin or lamp shows a stray glyph or two
    return len(solid) >= MIN_TAG_LINES or len(lines) >= MIN_BLURRED_TAG_LINES
