"""Is the expected text what the recognizer saw? Keyword spotting on the recognizer's own posteriors.

Comparing the recognizer's best string with the recipe throws away what it knew: that a glyph was
类 at 55 % and 米 at 40 %, that a frame between two 9s was nearly a blank. Verification asks a
narrower question — does the line support the expected text — and the CTC posteriors answer it for
any character the recognizer confuses, on any design, with no table of look-alikes.

For one line and one expected string, a Viterbi alignment places the string's characters (with
blanks between, as CTC writes them) on the line's time steps; steps before and after it are free.
Each step costs the log-ratio of the best class there to the class the alignment puts there, so a
line read exactly as expected costs 0, and every character the recognizer doubted costs what it
doubted. The string is *supported* when no character costs more than `MAX_CHAR_DEFICIT` and the
whole not more than `max_total_deficit(len)`; the evidence module then calls it printed as expected.

Only characters of a vocabulary (the recipe's expected values) are kept per step, so a line's
posteriors are a few kilobytes, not the 18 000-class matrix; they are dropped after verification.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from inference.reading.normalize import halfwidth

# Probability floor: a class the network gave (almost) nothing.
FLOOR = 1e-6
# A character the recognizer rated below this share of its best guess is not supported:
# log(5) — the expected character must have at least 20 % of the best class's probability.
MAX_CHAR_DEFICIT = math.log(5.0)
# Every placed character must have had at least this probability itself: weighed only against a field's
# alphabet, a step where the recognizer saw a CJK glyph (a 颜 at 0.99) leaves every letter there near
# nothing, and 'M' at 2e-6 "supported" a size M on a colour line (an escape on set 5151). A real second
# guess is thousands of times likelier: 腈 under a misread 膜 had 0.0075 (set 5150; at a 2 % floor that
# good tag went to REVIEW).
MIN_CHAR_PROBABILITY = 0.005
# The whole string: one doubted character, plus a little for each further one.
TOTAL_DEFICIT_BASE = math.log(5.0)
TOTAL_DEFICIT_PER_CHAR = 0.05
# Weighed against a field's alphabet, a letter or digit may still be placed under a guess of another script only
# where that guess (outside the alphabet: '米' where 8 is printed) is at most this much likelier: such a second
# guess is an eighth or a tenth of the first, a letter under a sure CJK glyph of a label a fortieth or less.
OUTSIDE_REACH = math.log(20.0)
# Against a closed vocabulary's other values (likeliest_of_its_kind): each character within log(50) of the best guess,
# the whole within 3 times what alone is supported, and every rival on the line log(20) more costly.
RIVAL_REACH = math.log(50.0)
RIVAL_TOTAL = 3.0
RIVAL_MARGIN = math.log(20.0)
# Kinds of what the recognizer emitted per step, for boundaries: a '399' inside '1399' is not 399.
BLANK, DIGIT, LATIN, OTHER = 0, 1, 2, 3
# a step whose best guess is a space: no character, as BLANK, but it parts what is printed either side of it
SPACE = 4


def max_total_deficit(length: int) -> float:
    return TOTAL_DEFICIT_BASE + TOTAL_DEFICIT_PER_CHAR * max(0, length - 1)


def char_kind(ch: str) -> int:
    if not ch or ch.isspace():
        return BLANK
    if ch.isdigit() and ch.isascii():
        return DIGIT
    if ch.isascii() and ch.isalpha():
        return LATIN
    return OTHER


@lru_cache(maxsize=4096)
def keyword(text: str) -> str:
    """The form a string is spotted in: half-width, no whitespace (spaces read as blanks); cached, as every
    expected value is spotted on every line of every frame."""
    return re.sub(r"\s+", "", halfwidth(text))


def vocabulary_of(texts: Iterable[str]) -> str:
    """The characters whose posteriors a read keeps: every character of the expected values."""
    seen: dict[str, None] = {}
    for text in texts:
        for ch in keyword(text):
            seen.setdefault(ch, None)
    return "".join(seen)


@dataclass(frozen=True, eq=False)
class Posteriors:
    """Per CTC step of one line: the best class's probability, blank (with space), the kind of the
    best class, and each vocabulary character's probability (its width/case forms summed)."""

    vocabulary: str
    probs: np.ndarray  # (T, V) float32
    blank: np.ndarray  # (T,) float32
    best: np.ndarray  # (T,) float32
    kinds: np.ndarray  # (T,) int8
    # per alphabet, the costs every expected string of a field spotted on this line shares (`_costs`)
    _costs: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict, init=False, repr=False)

    @property
    def steps(self) -> int:
        return int(self.best.shape[0])

    @staticmethod
    def concat(parts: Sequence[Posteriors]) -> Posteriors | None:
        """Row parts joined into one line, a certain blank step between them (the gap is a space)."""
        if not parts or any(p is None for p in parts):
            return None
        vocab = parts[0].vocabulary
        if any(p.vocabulary != vocab for p in parts):
            return None
        if len(parts) == 1:
            return parts[0]
        gap = (np.zeros((1, len(vocab)), np.float32), np.ones(1, np.float32), np.ones(1, np.float32),
               np.full(1, SPACE, np.int8))
        pieces = [gap if k % 2 else (p.probs, p.blank, p.best, p.kinds) for k, p in enumerate(_interleave(parts))]
        return Posteriors(vocab, *(np.concatenate([piece[i] for piece in pieces]) for i in range(4)))


def _interleave(parts: Sequence[Posteriors]) -> list[Posteriors | None]:
    out: list[Posteriors | None] = []
    for k, part in enumerate(parts):
        if k:
            out.append(None)
        out.append(part)
    return out


class PosteriorTable:
    """Maps a recognizer's classes to a vocabulary once; `take` cuts one line's posteriors."""

    def __init__(self, charset: Sequence[str], vocabulary: str) -> None:
        index, kinds = _charset_tables(tuple(charset))
        columns: list[int] = []
        starts: list[int] = []
        for ch in vocabulary:
            ids = sorted({index[f] for f in _forms(ch) if f in index})
            starts.append(len(columns))
            columns.extend(ids or [0])  # a character the model cannot write: blank's column, zeroed below
        self.vocabulary = vocabulary
        self.columns = np.asarray(columns, np.intp)
        self.starts = np.asarray(starts, np.intp)
        self.missing = np.asarray([not any(f in index for f in _forms(ch)) for ch in vocabulary], bool)
        self.space = index.get(" ")
        self.kinds = kinds

    def take(self, step_probs: np.ndarray, best_ids: np.ndarray) -> Posteriors:
        """`step_probs`: (T, C) softmax of one line's valid steps; `best_ids`: its argmax per step."""
        if self.columns.size:
            probs = np.add.reduceat(step_probs[:, self.columns], self.starts, axis=1).astype(np.float32)
            probs[:, self.missing] = 0.0
        else:
            probs = np.zeros((step_probs.shape[0], 0), np.float32)
        blank = step_probs[:, 0].astype(np.float32)
        if self.space is not None:
            blank = blank + step_probs[:, self.space]
        best = step_probs[np.arange(step_probs.shape[0]), best_ids].astype(np.float32)
        kinds = self.kinds[np.minimum(best_ids, len(self.kinds) - 1)]
        return Posteriors(self.vocabulary, probs, blank, best, kinds)


@lru_cache(maxsize=4)
def _charset_tables(charset: tuple[str, ...]) -> tuple[dict[str, int], np.ndarray]:
    """A recognizer's classes by character, and each class's kind (read-only, shared): built once per charset,
    not for every recipe's vocabulary (a GB 2312 charset is thousands of classes)."""
    index = {ch: i for i, ch in enumerate(charset) if ch}
    kinds = np.array([char_kind(ch) for ch in charset], np.int8)
    kinds[0] = BLANK
    if " " in index:
        kinds[index[" "]] = SPACE
    kinds.flags.writeable = False
    return index, kinds


# Ways a printed character is written by the recognizer that are the same character on a tag.
_SAME = {"-": "－—–‐一", ":": "：", "/": "／", "(": "（", ")": "）", ",": "，", "%": "％"}


def _forms(ch: str) -> set[str]:
    return {ch, halfwidth(ch) or ch, ch.upper(), ch.lower(), _fullwidth(ch), *_SAME.get(ch, "")}


def _fullwidth(ch: str) -> str:
    code = ord(ch)
    if 0x21 <= code <= 0x7E:
        return chr(code + 0xFEE0)
    return "￥" if ch == "¥" else ch


@dataclass(frozen=True)
class Spot:
    """The best placement of an expected string on one line."""

    text: str
    total: float  # summed deficit (nats)
    worst: float  # the worst single character's deficit
    confidence: float  # the weakest character's own probability where it was placed
    line_index: int = -1
    char_probs: tuple[float, ...] = ()  # each character's own probability where it was placed

    @property
    def supported(self) -> bool:
        return (self.worst <= MAX_CHAR_DEFICIT and self.total <= max_total_deficit(len(self.text))
                and self.confidence >= MIN_CHAR_PROBABILITY)


_INF = 1e9


def spot(text: str, post: Posteriors, alphabet: str = "", reach: float = MAX_CHAR_DEFICIT) -> Spot | None:
    """The cheapest placement of `text` on the line, or None where it cannot be supported at all
    (a character outside the vocabulary, none placed anywhere near well enough).

    `alphabet`: what the field can be printed in (a standard's letters, digits and signs); the
    recognizer's guesses outside it (8 read '@', 类 read '米') are not what the tag printed, and a
    character is weighed against the best guess inside it (or a blank). Empty: any character."""
    kw = keyword(text)
    if not kw or post.steps == 0:
        return None
    cols = _columns(post.vocabulary, kw)
    if cols is None:
        return None
    best, log_best, blank_cost = _costs(post, alphabet)
    char_p = post.probs[:, cols]  # (T, L)
    ratio = char_p / best[:, None]
    if float(ratio.max(axis=0).min()) < math.exp(-reach):
        return None  # some character is nowhere near the recognizer's best guess
    char_cost = log_best[:, None] - np.log(np.maximum(char_p, FLOOR))
    np.maximum(char_cost, 0.0, out=char_cost)
    if alphabet:
        # a guess of another script outweighs the printed character by a look-alike's margin, not by any: where the
        # recognizer saw 颜 at 0.51 in a label, a size's 'M' at 0.013 is no second guess (set 9111 000036); a glyph
        # under another glyph (纤维 read 纤准 in small print) may be far behind and still be what was printed
        steps_kind = post.kinds[:, None]
        other_script = (steps_kind != _kinds_of(kw)[None, :]) & (steps_kind != BLANK) & (steps_kind != SPACE)
        char_cost[other_script & (char_p * math.exp(OUTSIDE_REACH) < post.best[:, None])] = _INF
    return _align(kw, char_cost, blank_cost, char_p, best, post.kinds)


def _costs(post: Posteriors, alphabet: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(best guess per step, its log, a blank's cost per step) for strings in `alphabet` on the line: the same for
    every value of a field and every field of an alphabet, so computed once per line (read-only)."""
    found = post._costs.get(alphabet)
    if found is None:
        best = np.maximum(_best_within(post, alphabet) if alphabet else post.best, FLOOR)
        log_best = np.log(best)
        blank_cost = log_best - np.log(np.maximum(post.blank, FLOOR))
        np.maximum(blank_cost, 0.0, out=blank_cost)
        for array in (best, log_best, blank_cost):
            array.flags.writeable = False
        found = post._costs[alphabet] = (best, log_best, blank_cost)
    return found


def _best_within(post: Posteriors, alphabet: str) -> np.ndarray:
    """Per step, the likeliest of a blank and the alphabet's characters (those the vocabulary keeps;
    a vocabulary without the whole alphabet gives the unrestricted best)."""
    cols = _columns(post.vocabulary, "".join(dict.fromkeys(alphabet)))
    if cols is None:
        return post.best
    return np.maximum(post.blank, post.probs[:, cols].max(axis=1))


@lru_cache(maxsize=4096)
def _kinds_of(kw: str) -> np.ndarray:
    """Each character's kind (char_kind), read-only: a keyword is spotted on every line of a frame."""
    kinds = np.array([char_kind(ch) for ch in kw], np.int8)
    kinds.flags.writeable = False
    return kinds


@lru_cache(maxsize=4096)
def _columns(vocabulary: str, chars: str) -> list[int] | None:
    """Where each of `chars` is in `vocabulary`, or None where one is not (or there are none)."""
    cols = [vocabulary.find(ch) for ch in chars]
    return cols if min(cols, default=-1) >= 0 else None


def _align(kw: str, char_cost: np.ndarray, blank_cost: np.ndarray, char_p: np.ndarray, best: np.ndarray,
           kinds: np.ndarray) -> Spot | None:
    steps, length = char_cost.shape
    states = 2 * length + 1
    emit = np.empty((steps, states))
    emit[:, 0::2] = blank_cost[:, None]
    emit[:, 1::2] = char_cost
    skip_ok = np.zeros(states, bool)
    for s in range(3, states, 2):
        skip_ok[s] = kw[(s - 1) // 2] != kw[(s - 3) // 2]
    fresh = np.full(states, _INF)
    fresh[0] = fresh[1] = 0.0  # free prefix: the string may start at any step
    score = np.full(states, _INF)
    choice = np.zeros((steps, states), np.int8)
    cand = np.empty((4, states))
    end_score, end_step = _INF, -1
    last = states - 2
    for t in range(steps):
        cand[0] = score
        cand[1, 0] = _INF
        cand[1, 1:] = score[:-1]
        cand[2, :2] = _INF
        cand[2, 2:] = np.where(skip_ok[2:], score[:-2], _INF)
        cand[3] = fresh
        pick = cand.argmin(axis=0)
        score = cand[pick, np.arange(states)] + emit[t]
        choice[t] = pick
        if score[last] < end_score:
            end_score, end_step = float(score[last]), t
    if end_step < 0 or end_score >= _INF:
        return None
    # back through the alignment: each character's cost and probability, and where its first character starts
    per_char = np.zeros(length)
    char_best = np.zeros(length)
    t, s = end_step, last
    char_start = end_step  # the first step the first character holds (the placement may open on a blank)
    state_at = np.full(steps, -1, np.int64)  # each step's state on the path: 2j+1 while character j holds
    while True:
        state_at[t] = s
        if s == 1:
            char_start = t
        if s % 2:
            j = (s - 1) // 2
            per_char[j] += emit[t, s]
            char_best[j] = max(char_best[j], float(char_p[t, j]))
        k = int(choice[t, s])
        if k == 3:
            break
        s -= k
        t -= 1
        if t < 0:
            break
    # a glyph spans several steps: the string's first and last characters extend over their repeats, from the first
    # character's own first step (the placement may open on a blank after another glyph) and only over steps that
    # show a glyph (a blank best guess parts two glyphs: the XX of XXL)
    while char_start > 0 and _holds(char_start - 1, 0, kinds, char_p, best):
        char_start -= 1
    while end_step + 1 < steps and _holds(end_step + 1, length - 1, kinds, char_p, best):
        end_step += 1
    if not _bounded(kw, kinds, char_start, end_step) or _held_twice(length, state_at, char_p, best):
        return None
    return Spot(kw, end_score, float(per_char.max()), float(char_best.min()), char_probs=tuple(float(p) for p in char_best))


def _bounded(kw: str, kinds: np.ndarray, start: int, end: int) -> bool:
    """A code or number is not spotted inside a longer one: '399.00' in '1399.00', 'A12' in 'XA12'; nor a letter
    code right after a number glued to it, which makes another code: 'XL' in '3XL', 'A12' in '9A12'; nor one right
    before a number glued to it: 'S' in 'S1ZE' (a bracketed label read with a 1 for its I)."""
    first, last = char_kind(kw[0]), char_kind(kw[-1])
    if first in (DIGIT, LATIN):
        before = kinds[:start][::-1]
        if _emitted(before) == first:
            return False
        if first == LATIN and _emitted(before, spaces=True) == DIGIT:
            return False
    if last in (DIGIT, LATIN):
        after = _emitted(kinds[end + 1 :])
        if after == last:
            return False
        if last == LATIN and _emitted(kinds[end + 1 :], spaces=True) == DIGIT:
            return False
    return True


def _holds(step: int, j: int, kinds: np.ndarray, char_p: np.ndarray, best: np.ndarray) -> bool:
    """Whether the string's character `j` still holds at `step`: a glyph shows there, and it is near the best guess."""
    return kinds[step] not in (BLANK, SPACE) and char_p[step, j] >= 0.5 * best[step]


def _held_twice(length: int, state_at: np.ndarray, char_p: np.ndarray, best: np.ndarray) -> bool:
    """Whether one character of the string was placed over two separate runs of steps where the recognizer's best
    guess was that very character: 'XL' placed over 'XXL' (its X held over the first X, the blank between and the
    second X), '399.00' over '3999.00'. Each such run is a glyph printed; one character is one glyph."""
    for j in range(length):
        held = np.flatnonzero(state_at == 2 * j + 1)
        if held.size < 3:
            continue
        shows = char_p[held, j] >= 0.999 * best[held]
        if int(shows[0]) + int(np.count_nonzero(shows[1:] & ~shows[:-1])) > 1:
            return True
    return False


def _emitted(kinds: np.ndarray, spaces: bool = False) -> int:
    """The kind of the first step of a run that shows a character (BLANK if none); with `spaces`, a space
    counts (SPACE): what is glued to the run's start, not what is printed nearest across a space."""
    shown = (kinds != BLANK) if spaces else (kinds != BLANK) & (kinds != SPACE)
    nonblank = np.flatnonzero(shown)
    return int(kinds[nonblank[0]]) if nonblank.size else BLANK


def best_spot(text: str, lines: Sequence[Posteriors | None], alphabet: str = "", reach: float = MAX_CHAR_DEFICIT) -> Spot | None:
    """The cheapest placement of `text` over several lines (their index in `line_index`)."""
    found: Spot | None = None
    for index, post in enumerate(lines):
        if post is None:
            continue
        hit = spot(text, post, alphabet, reach)
        if hit is not None and (found is None or hit.total < found.total):
            found = Spot(hit.text, hit.total, hit.worst, hit.confidence, index, hit.char_probs)
    return found


def likeliest_of_its_kind(text: str, rivals: Sequence[str], lines: Sequence[Posteriors | None], alphabet: str = "") -> Spot | None:
    """`text` supported against the other values its field could print there, where it is not supported alone.

    A field printed in a closed vocabulary (a safety category's class, a fibre name and its share, a grade, a
    size of a series) asks which of its values the line shows, not whether the line shows this one perfectly:
    where every character of `text` was at least MIN_CHAR_PROBABILITY and within RIVAL_REACH of the likeliest
    guess there, and every rival placed on the same line costs RIVAL_MARGIN more, the line shows `text`. A rival
    the line shows as well as `text` (the printed value, on another lot's tag) keeps it unsupported."""
    found = best_spot(text, lines, alphabet, RIVAL_REACH)
    if (found is None or found.confidence < MIN_CHAR_PROBABILITY or found.worst > RIVAL_REACH
            or found.total > RIVAL_TOTAL * max_total_deficit(len(found.text))):
        return None
    line = lines[found.line_index]
    for rival in rivals:
        other = spot(rival, line, alphabet, RIVAL_REACH) if line is not None else None
        if other is not None and other.total - found.total < RIVAL_MARGIN:
            return None
    return found
