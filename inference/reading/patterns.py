"""Recipe patterns matched in linear time, so no pattern and no misread value can freeze the station.

Python's `re` backtracks: `([A-Z0-9]+-?)+$` against a 32-character misread takes minutes. RE2 (google-re2)
guarantees time linear in the value's length; what it cannot do in linear time (back-references,
look-around, possessive or atomic groups) it refuses, and so does a recipe at load, with the reason.
Where google-re2 is not installed, patterns are refused unless they belong to a vetted subset with no
nested repetition, which `re` matches in polynomial time over the short values a tag carries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from inference.errors import ConfigError

MAX_PATTERN_CHARS = 500
MAX_VALUE_CHARS = 1000  # without RE2, longer OCR "values" (noise) match nothing
_RE2_MEMORY = 8 << 20  # RE2 refuses (at compile) patterns whose automaton would need more


class PatternError(ConfigError):
    """A recipe pattern that cannot be matched safely: not a regular expression, or not linear-time."""


@dataclass(frozen=True)
class SafePattern:
    """A compiled recipe pattern; `fullmatch` is what a field rule asks, `search` finds it inside text."""

    text: str
    engine: str  # "re2", or "re" for the vetted subset without google-re2
    _compiled: Any = field(repr=False, compare=False)

    def fullmatch(self, value: str) -> bool:
        if self.engine != "re2" and len(value) > MAX_VALUE_CHARS:
            return False  # the vetted subset is polynomial, not linear: no field on a tag is this long
        return self._compiled.fullmatch(value) is not None

    def search(self, value: str):
        if self.engine != "re2" and len(value) > MAX_VALUE_CHARS:
            return None
        return self._compiled.search(value)


def compile_pattern(text: str) -> SafePattern:
    if not isinstance(text, str):
        raise PatternError("a pattern must be text", expected="a quoted regular expression", found=repr(text))
    if len(text) > MAX_PATTERN_CHARS:
        raise PatternError("the pattern is too long", expected=f"at most {MAX_PATTERN_CHARS} characters",
                           found=f"{len(text)} characters", hint="split the check or use expected = \"…\"")
    try:
        re.compile(text)
    except re.error as exc:
        raise PatternError(f"not a valid regular expression ({exc.msg})", expected="a regular expression",
                           found=text, hint='e.g. "[A-Z]{2}\\d{4}-\\d{2}"') from exc
    re2 = _re2()
    if re2 is not None:
        return _compile_re2(re2, text)
    return _compile_vetted(text)


def _re2():
    try:
        import re2
    except ImportError:
        return None
    return re2


def _compile_re2(re2, text: str) -> SafePattern:
    options = re2.Options()
    options.log_errors = False  # the refusal is ours to report, not a line on stderr
    options.max_mem = _RE2_MEMORY
    try:
        compiled = re2.compile(text, options=options)
    except Exception as exc:  # re2.error: its message is bytes
        reason = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError("the pattern cannot be matched in guaranteed time", found=f"{text} ({reason})",
                           expected="a pattern without back-references (\\1), look-around ((?=…), (?!…), (?<=…)) "
                                    "or possessive/atomic groups",
                           hint="rewrite it without that construct; recipe patterns must stay fast on any "
                                "misread text") from None
    return SafePattern(text, "re2", compiled)


# A quantifier applied to a group that itself contains a quantifier: the shape of catastrophic backtracking.
_NESTED = re.compile(r"\((?:[^()\\]|\\.)*[*+?}](?:[^()\\]|\\.)*\)\s*[*+?{]")


def _compile_vetted(text: str) -> SafePattern:
    if re.search(r"\\\d|\(\?[=!<>]|\(\?P=", text) or _NESTED.search(text):
        raise PatternError("the pattern cannot be matched in guaranteed time", found=text,
                           expected="no repeated group that contains a repetition, no back-references or "
                                    "look-around (google-re2 is not installed, so only this safe subset is allowed)",
                           hint="install google-re2 (pip install google-re2) or simplify the pattern")
    return SafePattern(text, "re", re.compile(text))
