"""Recipes: what one job's hangtags must say, in a TOML file an operator can edit.

A recipe is refused at load, never half-applied: every error names the file, the line and the key,
so a typo cannot silently turn a check off.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inference.errors import ConfigError
from inference.reading.normalize import ean13_check_ok, normalize_ean, normalize_field
from inference.reading.patterns import PatternError, SafePattern, compile_pattern
from inference.reading.types import FIELD_LABELS_ZH, FIELD_NAMES

KNOWN_CLASSES = ("hangtag", "barcode", "qr_code")
MISSING_FIELD_VERDICTS = ("review", "ng")
DEFAULT_MIN_FIELD_CONFIDENCE = 0.80

_SECTION_KEYS: dict[str, tuple[str, ...]] = {
    "recipe": ("name", "description"),
    "counts": KNOWN_CLASSES,
    "confidence": ("field", "detection"),
    "fields": FIELD_NAMES,
    "barcode": ("expected", "format", "match_printed", "match_style_number", "required"),
    "verdict": ("missing_field",),
}
_FIELD_RULE_KEYS = ("expected", "pattern", "required", "min_confidence", "region")


CODE_DIGITS = {"EAN-13": 13, "EAN-8": 8}  # how many digits an expected code of each format has


class RecipeError(ConfigError):
    """A recipe file is missing, unreadable TOML, or says something the station cannot check."""


@dataclass(frozen=True)
class FieldRule:
    """`expected` is normalized like the reader's values; `pattern` is matched whole, in linear time (`matcher`)."""

    name: str
    expected: str | None = None
    pattern: str | None = None
    required: bool = True
    min_confidence: float = DEFAULT_MIN_FIELD_CONFIDENCE
    # where the field is printed, taught from a golden tag: (x1, y1, x2, y2) as fractions of the
    # upright tag; None where the recipe was written by hand (the field is then searched for)
    region: tuple[float, float, float, float] | None = None

    @property
    def matcher(self) -> SafePattern | None:
        return compile_pattern(self.pattern) if self.pattern is not None else None


@dataclass(frozen=True)
class CountRule:
    class_name: str
    min: int
    max: int

    def describe(self) -> str:
        if self.min == self.max:
            return f"{self.min}"
        if self.max >= 1_000_000:
            return f"at least {self.min}"
        return f"{self.min}–{self.max}"


@dataclass(frozen=True)
class BarcodeRule:
    """`match_printed`: the decoded EAN must equal the digits printed under the bars."""

    expected: str | None = None
    format: str | None = None
    match_printed: bool = False
    match_style_number: bool = False
    required: bool = True


@dataclass(frozen=True)
class Recipe:
    name: str
    path: str = ""
    description: str = ""
    fields: tuple[FieldRule, ...] = ()
    counts: tuple[CountRule, ...] = ()
    barcode: BarcodeRule = BarcodeRule(required=False)
    min_detection_confidence: float = 0.0
    missing_field: str = "review"

    def field(self, name: str) -> FieldRule | None:
        return next((rule for rule in self.fields if rule.name == name), None)

    @property
    def wanted_fields(self) -> tuple[str, ...]:
        """Fields the reader must look for; the barcode rule may add the printed EAN and 货号."""
        names = [rule.name for rule in self.fields]
        if self.barcode.match_printed and "ean13" not in names:
            names.append("ean13")
        if self.barcode.match_style_number and "style_number" not in names:
            names.append("style_number")
        return tuple(names)


def load_recipe(path: str | Path) -> Recipe:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecipeError(
            f"Recipe {path} cannot be read",
            expected="a readable UTF-8 TOML file",
            found=f"{type(exc).__name__}: {exc.strerror or exc}",
            hint="check the path in the job settings",
        ) from exc
    except UnicodeDecodeError as exc:
        raise RecipeError(
            f"Recipe {path} is not UTF-8 text",
            expected="a UTF-8 TOML file",
            found=f"undecodable byte at offset {exc.start}",
            hint="save the file as UTF-8",
        ) from exc
    return parse_recipe(text, str(path))


def parse_recipe(text: str, source: str = "<recipe>") -> Recipe:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _toml_position(str(exc))
        raise RecipeError(
            f"Recipe {source}{where} is not valid TOML",
            expected="TOML: key = value lines under [section] headers",
            found=str(exc),
            hint=_toml_hint(str(exc)),
        ) from exc
    return _Builder(text, source).build(data)


def _toml_hint(message: str) -> str:
    """What to do about TOML's complaint: a key set twice was told to quote its text values, which it did."""
    if "overwrite" in message or "twice" in message:
        return "a key or [section] is given twice: keep one of them (this line is the second)"
    return "quote text values, e.g. size = \"L\""


def _close_match_hint(name: str, keys: tuple[str, ...]) -> str:
    """'did you mean [fields]?' for a misspelt name, the English name for a field named in Chinese, or where the
    name belongs when it is another section's key."""
    if len(keys) == 1:
        known, shown = tuple(_SECTION_KEYS), "[{}]"
    elif len(keys) == 2:
        known, shown = _SECTION_KEYS[keys[0]], "{}"
    else:
        known, shown = _FIELD_RULE_KEYS, "{}"
    if keys[0] == "fields" and len(keys) == 2:
        english = next((k for k, zh in FIELD_LABELS_ZH.items() if zh == name and k in known), None)
        if english:
            return f"field names are English: did you mean {english} ({name})?"
    close = difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.6)
    if close:
        return f"did you mean {shown.format(close[0])}?"
    homes = [section for section, names in _SECTION_KEYS.items() if name in names and section != keys[0]]
    if len(keys) == 2 and homes:
        return f"{name} belongs under [{homes[0]}]"
    if keys[0] == "fields" and len(keys) == 2:
        return "field names are English: style_number, size, price …"
    return "resources/recipes/example.toml explains every section and key"


def _toml_position(message: str) -> str:
    match = re.search(r"line (\d+), column (\d+)", message)
    return f", line {match.group(1)} column {match.group(2)}" if match else ""


class _Builder:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.data: dict[str, Any] = {}

    def fail(self, keys: tuple[str, ...], message: str, expected: str, found: Any, hint: str = "") -> RecipeError:
        line = locate_key(self.text, keys)
        where = f", line {line}" if line else ""
        return RecipeError(
            f"Recipe {self.source}{where}, key {'.'.join(keys)}: {message}",
            expected=expected,
            found=repr(found),
            hint=hint,
        )

    def unknown(self, keys: tuple[str, ...], known: tuple[str, ...]) -> RecipeError:
        """An unknown section or key, said like every other recipe error: the known ones, the unknown one on its
        line, and the name it was probably meant to be."""
        name = keys[-1]
        line = locate_key(self.text, keys)
        text = self.text.splitlines()[line - 1].strip() if line else ""
        found = f"{name!r} on line {line}: {text}" if name in text else repr(name)
        if len(keys) == 1 and not isinstance(self.data.get(name), dict):  # a key above the first [section]
            homes = [f"[{section}]" for section, names in _SECTION_KEYS.items() if name in names]
            return RecipeError(
                f"Recipe {self.source}{f', line {line}' if line else ''}, key {name}: outside any [section]",
                expected=f"keys under one of the sections {', '.join(f'[{k}]' for k in _SECTION_KEYS)}",
                found=found, hint=f"move it under {' or '.join(homes)}" if homes else _close_match_hint(name, keys),
            )
        what = "section" if len(keys) == 1 else "key"
        shown = tuple(f"[{k}]" for k in known) if what == "section" else known
        return RecipeError(
            f"Recipe {self.source}{f', line {line}' if line else ''}, key {'.'.join(keys)}: unknown {what}",
            expected=f"one of {', '.join(shown)}", found=found, hint=_close_match_hint(name, keys),
        )

    def build(self, data: dict[str, Any]) -> Recipe:
        self.data = data
        for section, value in data.items():
            if section not in _SECTION_KEYS:
                raise self.unknown((section,), tuple(_SECTION_KEYS))
            if not isinstance(value, dict):
                raise self.fail((section,), "must be a [section] table", "a table", value)
            for key in value:
                if key not in _SECTION_KEYS[section]:
                    raise self.unknown((section, key), _SECTION_KEYS[section])
        head = data.get("recipe", {})
        confidence = data.get("confidence", {})
        min_field = self.probability(("confidence", "field"), confidence.get("field", DEFAULT_MIN_FIELD_CONFIDENCE))
        verdict = data.get("verdict", {})
        missing = verdict.get("missing_field", "review")
        if missing not in MISSING_FIELD_VERDICTS:
            raise self.fail(("verdict", "missing_field"), "unknown verdict", '"review" or "ng"', missing)
        recipe = Recipe(
            name=self.string(("recipe", "name"), head.get("name", Path(self.source).stem)),
            path=self.source,
            description=self.string(("recipe", "description"), head.get("description", "")),
            fields=tuple(self.field_rule(name, value, min_field) for name, value in data.get("fields", {}).items()),
            counts=tuple(self.count_rule(name, value) for name, value in data.get("counts", {}).items()),
            barcode=self.barcode_rule(data.get("barcode")),
            min_detection_confidence=self.probability(("confidence", "detection"), confidence.get("detection", 0.0)),
            missing_field=missing,
        )
        if not (recipe.fields or recipe.counts or "barcode" in data):
            raise RecipeError(f"Recipe {self.source}: this recipe checks nothing", expected="at least one check: "
                              "[counts], [fields] or [barcode]", found=f"sections {', '.join(data) or 'none'}",
                              hint="an empty recipe would pass every frame, even one with no tag; see "
                                   "resources/recipes/example.toml")
        return recipe

    def string(self, keys: tuple[str, ...], value: Any) -> str:
        if not isinstance(value, str):
            raise self.fail(keys, "must be text", "a quoted string", value)
        return value

    def boolean(self, keys: tuple[str, ...], value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(keys, "must be true or false", "true or false (no quotes)", value)
        return value

    def probability(self, keys: tuple[str, ...], value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise self.fail(keys, "must be a number from 0 to 1", "0.0 … 1.0, e.g. 0.85", value)
        return float(value)

    def field_rule(self, name: str, value: Any, min_field: float) -> FieldRule:
        keys = ("fields", name)
        if isinstance(value, str):
            value = {"expected": value}
        if not isinstance(value, dict):
            raise self.fail(keys, "must be text or a table", '"L" or { expected = "L", min_confidence = 0.9 }', value)
        for key in value:
            if key not in _FIELD_RULE_KEYS:
                raise self.unknown(keys + (key,), _FIELD_RULE_KEYS)
        expected = value.get("expected")
        pattern = value.get("pattern")
        if expected is not None:
            raw = self.string(keys + ("expected",), expected)
            expected = normalize_field(name, raw)
            if not expected:
                raise self.fail(keys + ("expected",), f"is not a valid {name}", _EXAMPLES.get(name, "a value"), raw)
            if name == "ean13" and not ean13_check_ok(expected):
                raise self.fail(keys + ("expected",), "has a wrong check digit", "13 digits with a valid EAN check digit", raw)
        if pattern is not None:
            self.string(keys + ("pattern",), pattern)
            try:
                compile_pattern(pattern)
            except PatternError as exc:
                raise self.fail(keys + ("pattern",), exc.message, exc.expected, pattern, exc.hint) from None
        if expected is not None and pattern is not None:
            raise self.fail(keys, "has both expected and pattern", "one of expected or pattern", value)
        required = self.boolean(keys + ("required",), value.get("required", True))
        min_conf = self.probability(keys + ("min_confidence",), value.get("min_confidence", min_field))
        region = self.region(keys + ("region",), value["region"]) if "region" in value else None
        return FieldRule(name, expected, pattern, required, min_conf, region)

    def region(self, keys: tuple[str, ...], value: Any) -> tuple[float, float, float, float]:
        example = "[x1, y1, x2, y2] as fractions of the upright tag, e.g. [0.1, 0.30, 0.9, 0.38]"
        if (not isinstance(value, list) or len(value) != 4
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
            raise self.fail(keys, "must be four numbers", example, value)
        x1, y1, x2, y2 = (float(v) for v in value)
        if not (0.0 <= x1 < x2 <= 1.0 and 0.0 <= y1 < y2 <= 1.0):
            raise self.fail(keys, "is not a box inside the tag", example + " with x1 < x2, y1 < y2, all within 0 … 1", value,
                            hint="teach the job again (Teach job…) or delete the region to search the whole tag")
        return (x1, y1, x2, y2)

    def count_rule(self, name: str, value: Any) -> CountRule:
        keys = ("counts", name)
        if isinstance(value, bool):
            raise self.fail(keys, "must be a count", "a whole number, or { min = 1, max = 2 }", value)
        if isinstance(value, int):
            low = high = value
        elif isinstance(value, dict) and set(value) <= {"min", "max"} and value:
            low, high = value.get("min", 0), value.get("max", 1_000_000)
        else:
            raise self.fail(keys, "must be a count", "a whole number, or { min = 1, max = 2 }", value)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)) or not 0 <= low <= high:
            raise self.fail(keys, "has an impossible range", "0 <= min <= max, whole numbers", value)
        return CountRule(name, low, high)

    def barcode_rule(self, value: Any) -> BarcodeRule:
        if value is None:
            return BarcodeRule(required=False)
        keys = ("barcode",)
        expected = value.get("expected")
        if expected is not None:
            raw = self.string(keys + ("expected",), expected)
            expected = normalize_ean(raw) if raw.replace(" ", "").isdigit() else raw.strip()
            if len(expected) == 13 and expected.isdigit() and not ean13_check_ok(expected):
                raise self.fail(keys + ("expected",), "has a wrong check digit", "an EAN-13 whose last digit checks", raw)
        fmt = value.get("format")
        if fmt is not None:
            self.string(keys + ("format",), fmt)
            digits = CODE_DIGITS.get(fmt.strip().upper().replace("_", "-"))
            # 'expected = "12345"' with format EAN-13 was taken, and no tag could ever match it
            if digits and expected is not None and not (expected.isdigit() and len(expected) == digits):
                message, wanted, hint = code_of_another_length(fmt.strip(), digits, expected)
                raise self.fail(keys + ("expected",), message, wanted, raw, hint)
        return BarcodeRule(
            expected=expected,
            format=fmt,
            match_printed=self.boolean(keys + ("match_printed",), value.get("match_printed", False)),
            match_style_number=self.boolean(keys + ("match_style_number",), value.get("match_style_number", False)),
            required=self.boolean(keys + ("required",), value.get("required", True)),
        )


# what a code of digits only is by its length, as printed under its bars
LENGTH_FORMATS = {13: "EAN-13", 12: "UPC-A", 8: "EAN-8"}


def code_of_another_length(fmt: str, digits: int, expected: str) -> tuple[str, str, str]:
    """(message, expected, hint) for an expected code that cannot be of the recipe's format: 'cannot be an EAN-8,
    expected 8 digits, found 6901234567892' left the engineer to count the digits and guess which to change. The
    code's own length names the format it probably is, and the hint names both ways out."""
    if not expected.isdigit():
        return (f"cannot be an {fmt}", f"{digits} digits",
                f"type the {digits} digits printed under the tag's bars, or set format to the code's own symbology "
                f"(a Code128 or Code39 may hold letters)")
    other = LENGTH_FORMATS.get(len(expected))
    if other:
        article = "a" if other.startswith("U") else "an"  # a UPC-A, an EAN-13
        return (f"cannot be an {fmt}: its {len(expected)} digits are {article} {other}", f"{digits} digits (an {fmt})",
                f'if the job\'s tags carry this {len(expected)}-digit code, set format = "{other}"; if they carry an '
                f"{fmt}, type its {digits} digits in expected")
    return (f"cannot be an {fmt}", f"{digits} digits",
            f"type all {digits} digits printed under the tag's bars, check digit included (this has {len(expected)})")


_EXAMPLES = {
    "price": 'a price such as "¥259.00" or "259"',
    "ean13": '13 digits, e.g. "6901234567892"',
    "style_number": 'letters and digits, e.g. "AB2301-05"',
}

_BARE_KEY = re.compile(r"[A-Za-z0-9_\-\"'. ]+")  # one character class, matched whole: linear in the line


def _header(line: str) -> str | None:
    """'[fields.price]' or '[[x]]' (a comment may follow) → 'fields.price'; parsed by hand, since a regex with
    optional spaces on both sides of a lazy group backtracks cubically on a line of spaces."""
    text = line.strip()
    if not text.startswith("["):
        return None
    close = text.find("]")
    inner, rest = text[1:close].removeprefix("[").strip(), text[close:].lstrip("]").strip()
    if close < 0 or not inner or (rest and not rest.startswith("#")):
        return None
    return inner


def _assigned(line: str) -> str | None:
    key, eq, _ = line.partition("=")
    key = key.strip()
    return key if eq and key and _BARE_KEY.fullmatch(key) else None


def _split_key(key: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in key.split("."))


def locate_key(text: str, keys: tuple[str, ...]) -> int | None:
    """1-based line of the deepest TOML line that defines a prefix of `keys` (tomllib keeps no lines)."""
    best_line, best_depth = None, 0
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        header = _header(line)
        if header:
            table = _split_key(header)
            full = table
        else:
            assign = _assigned(line)
            if not assign:
                continue
            full = table + _split_key(assign)
        depth = 0
        for a, b in zip(full, keys):
            if a != b:
                break
            depth += 1
        if depth == len(full) and depth > best_depth:
            best_line, best_depth = number, depth
    return best_line
