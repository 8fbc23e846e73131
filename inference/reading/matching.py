"""Is a value printed on the tag? Confusion-aware search and comparison of recognized text.

Verification asks a narrower question than extraction: not "what does this line say" but "does the
tag carry 170/92A". The recognizer's known slips are forgiven where they cannot hide a different
value: look-alike characters (0/O/D, 1/I/l, 8/B, 5/S, 类/米 …), spacing, width forms, dashes and
colons, and punctuation dropped or added. Two slips are never forgiven silently: a character the
network merged with its repeated neighbour ("399" read "39") and a character whose runner-up is the
expected one; they make a match *near*, which the reader re-reads and the verdict sends to REVIEW.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from inference.reading.types import OcrLine

# Characters a text-line recognizer confuses with one another, each group folded onto its first.
CONFUSABLE_GROUPS: tuple[str, ...] = (
    "0OoDQ",
    "1Il|i!",
    "8B",
    "5Ss",
    "2Zz",
    "6G",
    "9g",
    "类米美突頬",
    "号弓",
    "码玛",
    "锦能",
    "纶伦轮",
    "棉帛",
    "涤条",
    "衫杉",
    "裤库",
    "绒狨",
    "氨胺",
    "腈睛",
    "粘黏",
)
_DASHES = "‐‑‒–—―−﹣－ー一_~"
_PUNCT = frozenset(".,:;'\"`·-/()[]+*#&")
_UNWEIGHED = _PUNCT | {"%", "¥"}
_FOLD: dict[str, str] = {}
for _group in CONFUSABLE_GROUPS:
    for _ch in _group:
        _FOLD[_ch] = _group[0]
for _ch in _DASHES:
    _FOLD[_ch] = "-"
_FOLD.update({"：": ":", "；": ":", ";": ":", "，": ",", "、": ",", "。": ".", "￥": "¥", "Y": "Y", "（": "(", "）": ")", "【": "[", "】": "]"})

# Costs of one edit between expected text and what was read.
PUNCT_EDIT = 0.1
SOFT_EDIT = 0.5  # a repeated character merged away, or the expected one as the recognizer's runner-up
HARD_EDIT = 1.0
# A found value counts when its weakest character was read at least this sure; an exact
# multi-character match below it is still evidence, but only for REVIEW.
MATCH_FLOOR = 0.5


@functools.lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character in the form comparisons use: '' for whitespace."""
    if ch.isspace():
        return ""
    norm = unicodedata.normalize("NFKC", ch)
    if len(norm) == 1:
        ch = norm
    if ch in _FOLD:
        return _FOLD[ch]
    if ch.isascii():
        ch = ch.upper()
    return _FOLD.get(ch, ch)


def fold(text: str) -> str:
    return "".join(fold_char(ch) for ch in text)


def literal(ch: str) -> str:
    """One character as printed, only its width and case set aside (NFKC, upper): not folded with its look-alikes."""
    norm = unicodedata.normalize("NFKC", ch)
    return (norm if len(norm) == 1 else ch).upper()


@dataclass(frozen=True)
class Glyphs:
    """A recognized line folded for comparison, each character with its confidence and runners-up."""

    chars: str
    confidences: tuple[float, ...]
    alternatives: tuple[str, ...]
    source: OcrLine
    breaks: frozenset[int] = frozenset()  # positions a space stood before: word boundaries
    # each kept character as read, unfolded (`literal`): '5' and 'S' fold alike, a lone one is not the other
    literal: str = ""
    # each kept character as read, its case kept: a letter size printed in one case is not read in two ('xXL')
    cased: str = ""

    @classmethod
    def of(cls, line: OcrLine) -> Glyphs:
        confs = line.char_confidences if len(line.char_confidences) == len(line.text) else (line.confidence,) * len(line.text)
        alts = line.char_alternatives if len(line.char_alternatives) == len(line.text) else ("",) * len(line.text)
        chars, kept_conf, kept_alts, breaks, kept, cased = [], [], [], set(), [], []
        for ch, conf, alt in zip(line.text, confs, alts):
            folded = fold_char(ch)
            if folded:
                chars.append(folded)
                kept_conf.append(float(conf))
                kept_alts.append(fold(alt))
                kept.append(literal(ch))
                cased.append(ch)
            else:
                breaks.add(len(chars))
        return cls("".join(chars), tuple(kept_conf), tuple(kept_alts), line, frozenset(breaks), "".join(kept), "".join(cased))

    def joined(self, other: Glyphs) -> Glyphs:
        """This line and the next as one text: a value wrapped over two lines."""
        shift = len(self.chars)
        breaks = self.breaks | {shift} | {shift + b for b in other.breaks}
        return Glyphs(self.chars + other.chars, self.confidences + other.confidences, self.alternatives + other.alternatives,
                      self.source, frozenset(breaks), self.literal + other.literal, self.cased + other.cased)

    def weakest(self, start: int, end: int) -> float:
        weighed = [c for ch, c in zip(self.chars[start:end], self.confidences[start:end]) if ch not in _UNWEIGHED]
        return min(weighed) if weighed else (min(self.confidences[start:end]) if end > start else 0.0)

    def typical(self, start: int, end: int) -> float:
        """How surely a span was read as a whole: the mean of its characters. For text that reads
        exactly as expected this is the fair measure; one hesitant character among certain ones
        does not make the whole value doubtful."""
        weighed = [c for ch, c in zip(self.chars[start:end], self.confidences[start:end]) if ch not in _UNWEIGHED]
        return sum(weighed) / len(weighed) if weighed else 0.0


class Found(str, Enum):
    MATCH = "match"  # printed as expected
    NEAR = "near"  # close, but a slip the recognizer makes could hide a difference: re-read, else REVIEW
    DIFFERENT = "different"  # a confidently read value that is not the expected one
    ABSENT = "absent"  # nothing like it


@dataclass(frozen=True)
class Hit:
    """Where the expected text was found: the line, the span of its folded characters, the cost."""

    found: Found
    cost: float
    confidence: float
    line: OcrLine | None = None
    text: str = ""


NO_HIT = Hit(Found.ABSENT, float("inf"), 0.0)


def _sub_cost(want: str, got: str, alternatives: str) -> float:
    if want == got:
        return 0.0
    if want in alternatives:
        return SOFT_EDIT
    return HARD_EDIT


def _del_cost(pattern: str, i: int) -> float:
    """Cost of the expected character pattern[i] missing from the read text."""
    ch = pattern[i]
    if ch in _PUNCT or (ch == "%" and i > 0 and pattern[i - 1].isdigit()):
        return PUNCT_EDIT  # a share's '%' dropped after its digits ('棉 14' for '棉 14%') changes no value
    if i > 0 and pattern[i - 1] == ch:
        return SOFT_EDIT  # CTC merged a repeated character into its neighbour
    return HARD_EDIT


def _ins_cost(ch: str) -> float:
    return PUNCT_EDIT if ch in _PUNCT else HARD_EDIT


def align(pattern: str, glyphs: Glyphs, *, anywhere: bool) -> tuple[float, int, int]:
    """(cost, start, end) of the cheapest alignment of `pattern` with glyphs.chars: with `anywhere`,
    against any substring (semi-global); else against the whole text."""
    return _align(pattern, glyphs.chars, glyphs.alternatives, anywhere)


@functools.lru_cache(maxsize=4096)
def _align(pattern: str, text: str, alts: tuple[str, ...], anywhere: bool, limit: float | None = None
           ) -> tuple[float, int, int] | None:
    """The same expected value is looked for in the same lines at every gather of a tag (each
    re-read, the verdict); the answer depends on the strings alone, so it is kept.

    With a `limit`, None as soon as a whole row of the table costs more: every later cell adds
    non-negative costs to one of that row's, so the alignment could only cost more."""
    n = len(text)
    ins = [_ins_cost(ch) for ch in text]
    # prev[j]: cost of aligning pattern[:i] with text ending at j; start[j]: where that alignment began
    prev = [0.0] * (n + 1) if anywhere else [sum(ins[:j]) for j in range(n + 1)]
    prev_start = list(range(n + 1)) if anywhere else [0] * (n + 1)
    for i in range(len(pattern)):
        want = pattern[i]
        dele = _del_cost(pattern, i)
        subs = [0.0 if want == got else (SOFT_EDIT if want in alt else HARD_EDIT) for got, alt in zip(text, alts)]
        left, left_start = prev[0] + dele, prev_start[0]
        cur, cur_start = [left], [left_start]
        # each cell: substitution from the diagonal, else deletion from above, else insertion from the left
        for diag, up, diag_start, up_start, sub, ins_cost in zip(prev, prev[1:], prev_start, prev_start[1:], subs, ins):
            best, start = diag + sub, diag_start
            c = up + dele
            if c < best:
                best, start = c, up_start
            c = left + ins_cost
            if c < best:
                best, start = c, left_start
            cur.append(best)
            cur_start.append(start)
            left, left_start = best, start
        prev, prev_start = cur, cur_start
        if limit is not None and min(cur) > limit:
            return None
    if anywhere:
        end = min(range(n + 1), key=lambda j: (prev[j], -j))
    else:
        end = n
    return prev[end], prev_start[end], end


def _least_cost(pattern: str, glyphs: Glyphs) -> float:
    """A lower bound of align's cost: each expected character is either read as itself, read as
    something with it as the runner-up, or missing; which of these is possible needs no alignment."""
    read = set(glyphs.chars)
    runners_up = set("".join(glyphs.alternatives))
    bound = 0.0
    for i, ch in enumerate(pattern):
        if ch not in read:
            dele = _del_cost(pattern, i)
            bound += min(dele, SOFT_EDIT) if ch in runners_up else dele
    return bound


# align's float sums of tenths differ from the bound's by rounding only
_BOUND_SLACK = 1e-6


def tolerance(pattern: str) -> float:
    """How far a near match may be: one slip in a short value, one in five in a long one."""
    return max(1.0, 0.2 * len(pattern))


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _bounded(glyphs: Glyphs, start: int, end: int) -> bool:
    """A short code ('M', 'XL') must stand alone, not be a piece of 'GB/T' or a style number;
    a space, punctuation or a CJK character next to it is a boundary."""
    chars = glyphs.chars
    if _is_word_char(chars[start]) and start > 0 and start not in glyphs.breaks and _is_word_char(chars[start - 1]):
        return False
    if _is_word_char(chars[end - 1]) and end < len(chars) and end not in glyphs.breaks and _is_word_char(chars[end]):
        return False
    return not (_is_word_char(chars[start]) and _letter_spaced(glyphs, start - 1, -1)) \
        and not (_is_word_char(chars[end - 1]) and _letter_spaced(glyphs, end, 1))


def _letter_spaced(glyphs: Glyphs, at: int, step: int) -> bool:
    """Whether a letter or digit read surely stands alone one space from a short code (its side `step`, at `at`):
    the code is then one letter of a word printed letter-spaced or full-width ('Ｘ Ｓ' read 'X S' is XS, no S)."""
    chars, breaks = glyphs.chars, glyphs.breaks
    if not 0 <= at < len(chars) or (at + 1 if step < 0 else at) not in breaks:
        return False
    if not _is_word_char(chars[at]) or glyphs.confidences[at] < MATCH_FLOOR:
        return False
    beyond = at + step
    return not (0 <= beyond < len(chars)) or (at if step < 0 else beyond) in breaks or not _is_word_char(chars[beyond])


def _not_only_look_alikes(as_printed: str, glyphs: Glyphs, start: int, end: int) -> bool:
    """A short code read as itself in at least one character: a lone '5' (an order number's, a share's digit) is
    no size 'S', however alike they fold; 'ZXL' may be '2XL' read with a slip, its XL read as printed."""
    read = glyphs.literal[start:end]
    if len(read) != len(as_printed) or len(as_printed) != end - start:
        return True  # no literal form kept (a value compared alone): as before
    return any(a == b for a, b in zip(as_printed, read))


def mixed_case(text: str) -> bool:
    """Whether a short code's letters were read in both cases ('xXL', 'Xl'): a tag prints a size in one case, so a
    letter of the other case is a glyph the recognizer was unsure of (a lowercase x from a speck before XL), no
    evidence of the code it folds into."""
    letters = [ch for ch in text if ch.isascii() and ch.isalpha()]
    return any(ch.isupper() for ch in letters) and any(ch.islower() for ch in letters)


def _one_case(glyphs: Glyphs, start: int, end: int) -> bool:
    return len(glyphs.cased) != len(glyphs.chars) or not mixed_case(glyphs.cased[start:end])


def haystacks(lines: Sequence[OcrLine]) -> list[Glyphs]:
    """Every line, and every line joined with the next (a value wrapped or split by the detector)."""
    glyphs = [Glyphs.of(line) for line in lines]
    return glyphs + [a.joined(b) for a, b in zip(glyphs, glyphs[1:])]


def search(expected: str, texts: Iterable[Glyphs], floor: float = MATCH_FLOOR) -> Hit:
    """The best place `expected` is printed, forgiving the recognizer's harmless slips. A match
    whose weakest character was read below `floor` is only NEAR; exact reads of the same text in
    several places (a line and its re-read) count together."""
    pattern = fold(expected)
    if not pattern:
        return NO_HIT
    short = len(pattern) <= 3
    as_printed = "".join(literal(ch) for ch in expected if fold_char(ch))
    limit = tolerance(pattern)
    best = NO_HIT
    wanted = set(pattern)
    exact: list[Hit] = []
    for glyphs in texts:
        chars = glyphs.chars
        at = chars.find(pattern)
        while at >= 0:
            end = at + len(pattern)
            if not short or (_bounded(glyphs, at, end) and _not_only_look_alikes(as_printed, glyphs, at, end)
                             and _one_case(glyphs, at, end)):
                exact.append(Hit(Found.MATCH, 0.0, glyphs.typical(at, end), glyphs.source, chars[at:end]))
                break
            at = chars.find(pattern, at + 1)
        if short or len(wanted & set(chars)) < 0.5 * len(wanted):
            continue  # nothing like it here; a short code is only ever matched exactly
        if _least_cost(pattern, glyphs) > limit + _BOUND_SLACK:
            continue  # too many expected characters are not on this line at all
        aligned = _align(pattern, chars, glyphs.alternatives, True, limit)
        if aligned is None:
            continue  # costs more than the tolerance
        cost, start, end = aligned
        if cost > limit or cost == 0.0:
            continue
        conf = glyphs.weakest(start, end)
        found = Found.MATCH if cost < SOFT_EDIT and conf >= floor else Found.NEAR
        if _better(found, cost, conf, best):
            best = Hit(found, cost, conf, glyphs.source, chars[start:end])
    if exact:
        top = max(exact, key=lambda h: h.confidence)
        doubt = 1.0
        for hit in exact:
            doubt *= 1.0 - hit.confidence
        conf = max(top.confidence, 1.0 - doubt) if len(exact) > 1 else top.confidence
        hit = Hit(Found.MATCH if conf >= floor else Found.NEAR, 0.0, conf, top.line, top.text)
        if _better(hit.found, 0.0, conf, best):
            best = hit
    return best


def _better(found: Found, cost: float, conf: float, best: Hit) -> bool:
    rank = {Found.MATCH: 0, Found.NEAR: 1, Found.DIFFERENT: 2, Found.ABSENT: 3}
    return (rank[found], cost, -conf) < (rank[best.found], best.cost, -best.confidence)


# In words (names, colours, fibres) a recognizer swaps one look-alike character for another at high
# confidence (夹/央, 锦/能); a word is different only where more than this share of it differs.
WORD_SHARE = 0.25
# A value one character away from the expected one is different only when every character was read this surely.
SURE_SINGLE = 0.95


def compare(expected: str, value: str, confidence: float, min_confidence: float, typical: float | None = None,
            *, words: bool = False) -> Found:
    """A located candidate (the text after a label, a size token) against the expected value.

    `confidence` is the candidate's weakest character, `typical` its mean (default: the same).
    The expected value read exactly passes on the typical character; DIFFERENT needs at least one
    full edit that no recognizer slip explains with every character read at the recipe's
    confidence; a candidate read less surely, or only a slip away, is NEAR."""
    typical = confidence if typical is None else typical
    pattern, read = fold(expected), fold(value)
    if not read:
        return Found.ABSENT
    glyphs = Glyphs(read, (confidence,) * len(read), ("",) * len(read), OcrLine(value, confidence, (0.0, 0.0, 0.0, 0.0)))
    cost, _start, _end = align(pattern, glyphs, anywhere=False)
    if cost < SOFT_EDIT:
        return Found.MATCH if typical >= min_confidence else Found.NEAR
    wrong = _wrong_characters(pattern, read)
    # one wrong character is the recognizer's commonest slip: it proves a difference only when read very surely
    sure = max(min_confidence, SURE_SINGLE) if wrong == 1 else min_confidence
    if confidence >= sure and cost >= HARD_EDIT and wrong > (WORD_SHARE * len(pattern) if words else 0):
        return Found.DIFFERENT
    return Found.NEAR


@functools.lru_cache(maxsize=1024)
def _wrong_characters(pattern: str, read: str) -> int:
    """How many characters the cheapest alignment reads that are not expected (substitutions and
    extra characters). Characters only missing from the read, merged repeats and punctuation are
    slips a recognizer makes; they never prove a difference."""
    n = len(read)
    ins = [_ins_cost(ch) for ch in read]
    ins_wrong = [1 if c >= HARD_EDIT else 0 for c in ins]
    # (cost, wrong characters read) per cell, the fewest wrong characters among equal costs
    prev_cost = [sum(ins[:j]) for j in range(n + 1)]
    prev_wrong = [sum(ins_wrong[:j]) for j in range(n + 1)]
    for i in range(len(pattern)):
        want = pattern[i]
        dele = _del_cost(pattern, i)
        left_cost, left_wrong = prev_cost[0] + dele, prev_wrong[0]
        cur_cost, cur_wrong = [left_cost], [left_wrong]
        for diag_cost, up_cost, diag_wrong, up_wrong, got, ins_cost, ins_bad in zip(
                prev_cost, prev_cost[1:], prev_wrong, prev_wrong[1:], read, ins, ins_wrong):
            # the least of (substitution, deletion, insertion), compared as (cost, wrong) pairs
            if want == got:
                best_cost, best_wrong = diag_cost + 0.0, diag_wrong
            else:
                best_cost, best_wrong = diag_cost + HARD_EDIT, diag_wrong + 1
            c = up_cost + dele
            if c < best_cost or (c == best_cost and up_wrong < best_wrong):
                best_cost, best_wrong = c, up_wrong
            c, w = left_cost + ins_cost, left_wrong + ins_bad
            if c < best_cost or (c == best_cost and w < best_wrong):
                best_cost, best_wrong = c, w
            cur_cost.append(best_cost)
            cur_wrong.append(best_wrong)
            left_cost, left_wrong = best_cost, best_wrong
        prev_cost, prev_wrong = cur_cost, cur_wrong
    return prev_wrong[n]
