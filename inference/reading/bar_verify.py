"""The recipe's barcode verified against bars too blurred to decode: is this the expected code's print?

A decoder must find the code among all codes, from edges it can still place; under blur the thin bars
melt into grey and it gives up. A verifier asks less: the recipe names the code, so its bars are drawn
(bar_patterns.py: zxing's own writer, guards and quiet zones included), blurred by a Gaussian and
fitted to the bars' averaged profile (symbol_views.bar_profiles) over the symbol's start, module width,
a slow stretch along it (perspective), the blur and the print's bar gain, with the grey levels solved
by least squares. A good fit alone is not proof: a code one digit off fits all but one character as
well. So each symbol character must be *told apart*: with everything else held at the fit, the expected
character's bars must explain its part of the profile better than every other bar pattern of that
width and element count could (a superset of the symbology's characters), by a margin counted in the
fit's own residual noise. Only then are the bars the expected code's; else nothing is said (the
verdict stays "unreadable"). Nothing here knows a tag design; sizes are in modules and samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from inference.reading.bar_patterns import Symbol, alternatives, expected_format, slot_bars, symbol_for
from inference.reading.symbol_views import PROFILE_SCALE

# Modules of quiet zone fitted on each side (every symbology asks for more; print may follow beyond).
QUIET_MODULES = 5
# A character is told apart when every other bar pattern leaves this much more residual in its part of
# the profile, in units of the fit's residual variance per sample (a z of about sqrt of it).
MIN_MARGIN = 25.0
# The fitted bars must explain this share of the profile's variance over the symbol.
MIN_EXPLAINED = 0.8
# Beyond this blur (sigma, modules) neighbouring characters' bars are averaged together: not attempted.
MAX_BLUR_MODULES = 2.5
# Module width growing or shrinking along the symbol (perspective, a curled tag), tried before the fit refines it:
# +-0.05 is a module 10 % wider at one end than at the other.
STRETCHES = (-0.05, 0.0, 0.05)


@dataclass(frozen=True)
class BarVerification:
    """What fitting the expected code's bars to the profile showed. `verified` only when every character
    was told apart from every other pattern (`weakest` >= MIN_MARGIN) and the fit explains the bars."""

    verified: bool
    blur_px: float
    module_px: float
    weakest: float  # the least margin over the characters (residual variances)
    explained: float  # share of the profile's variance the fit explains
    why: str = ""

    @property
    def blur_modules(self) -> float:
        return self.blur_px / self.module_px if self.module_px > 0 else float("inf")


# -- rendering --------------------------------------------------------------------------------------


def _position(u: np.ndarray, geom: np.ndarray, modules: int) -> np.ndarray:
    """Module coordinate -> profile sample: start, module width and a slow quadratic stretch."""
    x0, w, c = geom[0], geom[1], geom[2]
    return x0 + w * u + c * w * u * (u - modules) / modules


def _coverage(left: np.ndarray, right: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """How much of each sample (xs: consecutive integers, each one sample wide) the bars cover; rows of
    `left` / `right` (bars in order, not overlapping) are separate drawings."""
    if left.ndim == 1:  # one drawing: the bars' cumulative length, piecewise linear between their edges
        knots = np.stack([left, right], axis=1).ravel()
        lengths = np.maximum(right - left, 0.0)
        ends = np.cumsum(lengths)
        values = np.stack([ends - lengths, ends], axis=1).ravel()
        cum = np.interp(np.append(xs - 0.5, xs[-1] + 0.5), knots, values)
        return np.diff(cum)
    lo, hi = xs - 0.5, xs + 0.5
    a = np.maximum(lo[None, None, :], left[..., :, None])
    b = np.minimum(hi[None, None, :], right[..., :, None])
    return np.clip(b - a, 0.0, None).sum(axis=-2)


def _kernel(sigma: float) -> np.ndarray:
    half = max(1, int(np.ceil(4.0 * sigma)))
    k = np.exp(-0.5 * (np.arange(-half, half + 1) / max(sigma, 1e-3)) ** 2)
    return k / k.sum()


def _blurred(cover: np.ndarray, sigma: float) -> np.ndarray:
    """Coverage blurred by the Gaussian (edges taken as they are: the drawing spans the quiet zones)."""
    k = _kernel(sigma)
    half = len(k) // 2
    if cover.ndim == 1:
        padded = np.concatenate([np.full(half, cover[0]), cover, np.full(half, cover[-1])])
        return np.convolve(padded, k, mode="valid")
    padded = np.pad(cover, ((0, 0), (half, half)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, len(k), axis=1)
    return windows @ k


def _render(bars: np.ndarray, geom: np.ndarray, modules: int, xs: np.ndarray) -> np.ndarray:
    """The bars (1) on a space (0) sampled at xs, their edges spread by the print gain, blurred by the Gaussian."""
    gain = geom[4]
    left = _position(bars[..., 0] - gain / 2, geom, modules)
    right = _position(bars[..., 1] + gain / 2, geom, modules)
    return _blurred(_coverage(left, right, xs), geom[3])


def _solve(profile: np.ndarray, xs: np.ndarray, model: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grey levels by least squares (paper, a slow slope, the bars' contrast); (coefficients, residual)."""
    t = (xs - xs.mean()) / max(1.0, float(np.ptp(xs)))
    design = np.stack([np.ones_like(xs), t, model], axis=1)
    gram = design.T @ design + np.eye(3) * 1e-9
    coef = np.linalg.solve(gram, design.T @ profile)
    return coef, profile - design @ coef


# -- fitting ----------------------------------------------------------------------------------------


def _spans(profile: np.ndarray) -> list[tuple[float, float]]:
    """Where the symbol may run (first and last edge, samples): the longest run of edges with no gap as long
    as a quiet zone (four times their median spacing), and the first to the last strong edge of all (the
    quiet zones may end in print or the tag's edge, whose edges are as strong as the bars')."""
    slope = np.abs(np.gradient(profile))
    peak = (slope[1:-1] >= slope[:-2]) & (slope[1:-1] > slope[2:]) & (slope[1:-1] > 0.2 * slope.max())
    edges = np.flatnonzero(peak) + 1
    if len(edges) < 4:
        return []
    out = [(float(edges[0]), float(edges[-1]))]
    gaps = np.diff(edges)
    breaks = np.flatnonzero(gaps > 4.0 * float(np.median(gaps)))
    bounds = np.concatenate([[0], breaks + 1, [len(edges)]])
    runs = [(edges[a], edges[b - 1], b - a) for a, b in zip(bounds[:-1], bounds[1:])]
    first, last, count = max(runs, key=lambda r: (r[1] - r[0], r[2]))
    if count >= 4 and (first, last) != (edges[0], edges[-1]):
        out.append((float(first), float(last)))
    return out


def _correlate(profile: np.ndarray, symbol: Symbol, geom: np.ndarray, shifts: np.ndarray) -> tuple[float, int]:
    """Normalised correlation (either sign) of the drawn symbol, quiet zones included, with the profile at
    each start in `shifts`: (best score, its start)."""
    m, w = symbol.modules, geom[1]
    q = int(QUIET_MODULES * w)
    xs = np.arange(-q, int(m * w * (1 + abs(geom[2]))) + q + 1, dtype=np.float64)
    template = _render(symbol.bars, geom, m, xs)
    template = template - template.mean()
    idx = np.clip(np.arange(shifts[0] - q, shifts[-1] + xs[-1] + 1).astype(int), 0, len(profile) - 1)
    segs = np.lib.stride_tricks.sliding_window_view(profile[idx], len(xs))[: len(shifts)]
    segs = segs - segs.mean(axis=1, keepdims=True)
    denom = np.sqrt((segs**2).sum(axis=1)) * float(np.sqrt((template**2).sum()))
    score = np.abs(segs @ template) / np.maximum(denom, 1e-9)
    k = int(np.argmax(score))
    return float(score[k]), int(shifts[k])


def _coarse(profile: np.ndarray, symbol: Symbol, span: tuple[float, float]) -> tuple[float, np.ndarray] | None:
    """The best start, module width, stretch and blur by normalised correlation of drawn templates along the
    profile: first the width (the span may hold print beyond the quiet zones: 0.6 to 1.1 of it) and start
    anywhere in the span, then stretch and blur near them."""
    first, last = span
    m = symbol.modules
    if last - first < m * 0.5:
        return None
    w0 = (last - first) / m
    best: tuple[float, np.ndarray] | None = None
    for w in w0 * np.linspace(0.6, 1.1, 15):
        shifts = np.arange(int(first - 3 * w), int(max(first, last - m * w) + 3 * w) + 1)
        score, start = _correlate(profile, symbol, np.array([0.0, w, 0.0, 0.7 * w, 0.0]), shifts)
        if best is None or score > best[0]:
            best = (score, np.array([float(start), w, 0.0, 0.7 * w, 0.0]))
    return best


def _detail(profile: np.ndarray, symbol: Symbol, found: tuple[float, np.ndarray]) -> tuple[float, np.ndarray]:
    """Stretch and blur (and the width again, finer) tried near a start and width `_coarse` found."""
    best = found
    x0, w1 = found[1][0], found[1][1]
    for w in w1 * np.linspace(0.97, 1.03, 5):
        for stretch in STRETCHES:
            for blur in (0.4, 1.0):
                geom = np.array([0.0, w, stretch, max(0.3, blur * w), 0.0])
                score, start = _correlate(profile, symbol, geom, np.arange(int(x0 - 3 * w1), int(x0 + 3 * w1) + 1))
                if score > best[0]:
                    best = (score, np.array([float(start), w, stretch, geom[3], 0.0]))
    return best


_LOWER = np.array([-np.inf, 0.0, -0.12, 0.2, -0.6])
_UPPER = np.array([np.inf, np.inf, 0.12, np.inf, 0.6])


def _refine(profile: np.ndarray, symbol: Symbol, geom: np.ndarray, xs: np.ndarray, iterations: int = 15) -> np.ndarray:
    """Levenberg-Marquardt over (start, module width, stretch, blur, gain), grey levels projected out."""
    m = symbol.modules
    upper = _UPPER.copy()
    upper[1], upper[3] = geom[1] * 1.15, MAX_BLUR_MODULES * 1.5 * geom[1] + 1
    lower = _LOWER.copy()
    lower[1] = geom[1] * 0.85
    samples = profile[np.clip(xs.astype(int), 0, len(profile) - 1)]

    def residual(g: np.ndarray) -> np.ndarray:
        return _solve(samples, xs, _render(symbol.bars, g, m, xs))[1]

    steps = np.array([0.05, 0.002 * geom[1] + 1e-4, 0.002, 0.02, 0.01])
    r = residual(geom)
    cost, damping = float(r @ r), 1e-2
    for _ in range(iterations):
        jac = np.stack([(residual(geom + np.eye(5)[k] * steps[k]) - r) / steps[k] for k in range(5)], axis=1)
        jtj, jtr = jac.T @ jac, jac.T @ r
        improved = False
        for _try in range(6):
            step = -np.linalg.solve(jtj + damping * np.diag(np.diag(jtj) + 1e-9), jtr)
            trial = np.clip(geom + step, lower, upper)
            r_trial = residual(trial)
            c_trial = float(r_trial @ r_trial)
            if c_trial < cost:
                geom, r, cost, damping, improved = trial, r_trial, c_trial, damping / 3, True
                break
            damping *= 4
        if not improved or cost <= 0:
            break
    return geom


def verify_profile(profile: np.ndarray, fmt: str, text: str) -> BarVerification | None:
    """Whether this profile (PROFILE_SCALE samples per frame pixel, either way round) shows the bars of
    `text` in `fmt`; None where the symbology is not verified here or no symbol-sized run of bars shows."""
    symbol = symbol_for(fmt, text)
    if symbol is None:
        return None
    profile = np.asarray(profile, np.float64)
    if len(profile) < symbol.modules:
        return None
    best = None
    for way in (profile, profile[::-1]):
        for span in _spans(way):
            found = _coarse(way, symbol, span)
            if found is not None and (best is None or found[0] > best[0][0]):
                best = (found, way)
    if best is None:
        return None
    way = best[1]
    geom = _detail(way, symbol, best[0])[1]
    m, w = symbol.modules, geom[1]
    q = QUIET_MODULES * w
    xs = np.arange(max(0.0, np.floor(geom[0] - q)), min(len(way) - 1.0, np.ceil(geom[0] + m * w + q)) + 1)
    geom = _refine(way, symbol, geom, xs)
    return _judge(way, symbol, geom, xs)


def _judge(profile: np.ndarray, symbol: Symbol, geom: np.ndarray, xs: np.ndarray) -> BarVerification:
    m = symbol.modules
    samples = profile[xs.astype(int)]
    model = _render(symbol.bars, geom, m, xs)
    coef, resid = _solve(samples, xs, model)
    rss = float(resid @ resid)
    total = float(((samples - samples.mean()) ** 2).sum())
    explained = 1.0 - rss / total if total > 0 else 0.0
    noise = rss / max(1, len(xs) - 8)
    module_px, blur_px = geom[1] / PROFILE_SCALE, geom[3] / PROFILE_SCALE
    weakest = float("inf")
    sigma = geom[3]
    reach = 3.0 * sigma + geom[1]
    for slot in symbol.slots:
        here = slot_bars(slot.start, slot.widths, slot.bar_first)
        lo = _position(np.array([float(slot.start)]), geom, m)[0] - reach
        hi = _position(np.array([float(slot.start + sum(slot.widths))]), geom, m)[0] + reach
        near = (xs >= lo) & (xs <= hi)
        if near.sum() < 4:  # the character lies outside the profile
            return BarVerification(False, blur_px, module_px, float("-inf"), explained, "the symbol runs off the profile")
        x = xs[near]
        own = _render(np.array(here), geom, m, x)
        rest = model[near] - own
        t = (x - xs.mean()) / max(1.0, float(np.ptp(xs)))
        base = coef[0] + coef[1] * t
        alts = [a for a in alternatives(slot.kind) if a != slot.widths]
        drawn = _render(np.array([slot_bars(slot.start, a, slot.bar_first) for a in alts]), geom, m, x)
        fit_alt = base[None, :] + coef[2] * (rest[None, :] + drawn)
        rss_alt = ((samples[near][None, :] - fit_alt) ** 2).sum(axis=1)
        rss_own = float((resid[near] ** 2).sum())
        weakest = min(weakest, float((rss_alt.min() - rss_own) / max(noise, 1e-12)))
    blur_modules = sigma / geom[1]
    why = ""
    if explained < MIN_EXPLAINED:
        why = f"the expected bars explain {explained:.0%} of the profile (needs {MIN_EXPLAINED:.0%})"
    elif blur_modules > MAX_BLUR_MODULES:
        why = f"blurred over {blur_modules:.1f} modules (verifies up to {MAX_BLUR_MODULES})"
    elif weakest < MIN_MARGIN:
        why = f"a character is not told apart from another pattern (margin {weakest:.0f}, needs {MIN_MARGIN:.0f})"
    return BarVerification(not why, blur_px, module_px, weakest, explained, why)


# Halves of a box's run are tried where its whole run fitted the expected bars this well but did not tell every
# character apart: a long symbol bends more than the slant fit follows.
HALVES_FROM_EXPLAINED = 0.5


def verify_bars(boxes: tuple[tuple[np.ndarray, ...], ...], fmt: str | None, text: str) -> BarVerification | None:
    """The first profile that shows the expected code's bars; else the attempt that came closest; None where
    none could be tried (no profile, a symbology not verified here). `boxes`: per barcode box nothing decoded,
    largest first, its profiles as BarMeasure.profiles holds them (the whole run, then its halves)."""
    fmt = expected_format(fmt, text)
    if fmt is None or symbol_for(fmt, text) is None:
        return None
    best = None
    for profiles in boxes:
        for i, profile in enumerate(profiles):
            found = _verified(np.ascontiguousarray(profile, np.float32).tobytes(), fmt, text)
            if found is None:
                break
            if found.verified:
                return found
            if best is None or found.weakest > best.weakest:
                best = found
            if i == 0 and found.explained < HALVES_FROM_EXPLAINED:
                break
    return best


@lru_cache(maxsize=512)
def _verified(profile: bytes, fmt: str, text: str) -> BarVerification | None:
    """verify_profile, once per profile and code: the verdict is asked for the same tag several times
    (the reader's second look, the frame's verdict, the what-if counts)."""
    return verify_profile(np.frombuffer(profile, np.float32), fmt, text)
