"""The session report as one HTML file: header, counts and yield, Pareto of reasons, latency, memory,
and every NG/REVIEW tag with its thumbnail, reasons and read-vs-expected fields.

Text read off a tag (OCR, barcode, VLM) is untrusted: every value goes through `e()`, and a
Content-Security-Policy forbids scripts outright, so even a missed escape could not run one.
Two flavors share the content: "browser" (inline SVG, CSS grid) and "qt" (the subset QTextDocument
renders: tables, charts as <img> resources the PDF renderer supplies).
"""

from __future__ import annotations

from html import escape
from pathlib import PurePosixPath

from inference.records.report import FlaggedFrame, ReportData, expected_label, local_time, subject_label
from inference.records.sign_off import sign_off
from inference.records.svg import FONT, line_chart_svg, pareto_svg

CSP = ("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; font-src 'self'; "
       "script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'")
FONT_FILE = "fonts/NotoSansSC-Regular-GB2312.otf"
CHART_WIDTH = 760
QT_CHART_WIDTH = 640  # px at 96 dpi: 169 mm, inside A4's printable width
QT_ROW_THUMB_WIDTH = 96  # the PDF's NG list: one compact row per frame
QT_ROW_CHECKS = 4  # failed checks named in a row; the rest are counted (all of them are in the HTML and CSV)
PAGE_BREAK = ' style="page-break-before: always"'
_QT_GRID = '<table border="1" cellspacing="0" cellpadding="3" style="border-color: #c8ced4" class="grid'
# verdict words on white, 5:1 or more (REVIEW #e67700 was 3.0:1 and OK #2f9e44 3.5:1, in 9-pt print)
VERDICT_COLORS = {"OK": "#137333", "NG": "#c92a2a", "REVIEW": "#9c5700", "ERROR": "#495057", "NOT JUDGED": "#616e7c"}


def e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def charts(report: ReportData) -> dict[str, str]:
    """Chart name → SVG text; the exporter also writes each to charts/<name>.svg."""
    unit = report.time_unit
    out = {
        "pareto": pareto_svg(report.pareto, width=CHART_WIDTH, unit=report.unit),
        "latency": line_chart_svg(report.latency_series, title="Latency over time", x_label=f"time since start ({unit})",
                                  y_label="ms", width=CHART_WIDTH, x_unit=unit, gap_label="no frames"),
        "rss": line_chart_svg([report.rss_series], title="Host memory (RSS)", x_label=f"time since start ({unit})",
                              y_label="MiB", width=CHART_WIDTH, y_floor_zero=False, x_unit=unit, gap_label="no frames"),
    }
    if report.vram_series is not None:
        out["vram"] = line_chart_svg([report.vram_series], title="GPU memory (VRAM, this process)",
                                     x_label=f"time since start ({unit})", y_label="MiB", width=CHART_WIDTH,
                                     y_floor_zero=False, x_unit=unit, gap_label="no frames")
    return out


def render_html(report: ReportData, *, flavor: str = "browser", chart_svgs: dict[str, str] | None = None) -> str:
    if flavor not in ("browser", "qt"):
        raise ValueError(f"flavor must be 'browser' or 'qt', not {flavor!r}")
    svgs = chart_svgs if chart_svgs is not None else charts(report)
    s = report.session
    title = f"Hangtag inspection report — session {s.id}"
    chart = (lambda name: f'<div class="chart">{svgs[name]}</div>') if flavor == "browser" else \
            (lambda name: f'<p><img src="charts/{name}.svg" width="{QT_CHART_WIDTH}"></p>')
    if flavor == "qt":
        return _qt_document(report, title, svgs, chart).replace('<table class="grid', _QT_GRID)
    parts = [
        "<!DOCTYPE html>", '<html lang="zh-CN">', "<head>", '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">' if flavor == "browser" else "",
        '<meta name="viewport" content="width=device-width, initial-scale=1">', f"<title>{e(title)}</title>",
        f"<style>{_css(flavor)}</style>", "</head>", "<body>",
        f"<h1>{e(title)}</h1>", _header_table(report), _summary(report, flavor),
        "<h2>NG and REVIEW reasons</h2>", chart("pareto"), _pareto_table(report),
        "<h2>Latency</h2>", _latency_table(report), chart("latency"),
        "<h2>Memory</h2>", chart("rss"),
        chart("vram") if "vram" in svgs else '<p class="muted">VRAM: not measured in this session (no NVIDIA GPU / NVML).</p>',
        *_flagged_section(report, "", _flagged),
        _errors(report) if report.errors else "",
        _footer(report), sign_off(report), "</body>", "</html>",
    ]
    text = "\n".join(p for p in parts if p) + "\n"
    return text.replace('<table class="grid', _QT_GRID) if flavor == "qt" else text


def _qt_document(report: ReportData, title: str, svgs: dict[str, str], chart) -> str:
    """The PDF's layout: a summary page (header, counts, Pareto), then one row per NG/REVIEW frame with its
    thumbnail, then the appendices (a 29-page PDF for 24 frames was issue 16's complaint). The PDF
    renderer moves a heading that would end a page to the next one (app.report_pdf)."""
    vram = chart("vram") if "vram" in svgs else \
        '<p class="muted">VRAM: not measured in this session (no NVIDIA GPU / NVML).</p>'
    parts = [
        "<!DOCTYPE html>", '<html lang="zh-CN">', "<head>", '<meta charset="utf-8">', f"<title>{e(title)}</title>",
        f"<style>{_css('qt')}</style>", "</head>", "<body>",
        f"<h1>{e(title)}</h1>", _header_table(report, pairs_per_row=2), _summary(report, "qt"),
        "<h2>NG and REVIEW reasons</h2>", chart("pareto"),
        *_flagged_section(report, PAGE_BREAK, _flagged_rows),
        f"<h2{PAGE_BREAK}>Appendix A · Reasons, latency</h2>", _pareto_table(report),
        "<h3>Latency</h3>", _latency_table(report), chart("latency"),
        "<h2>Appendix B · Memory</h2>", chart("rss"), vram,
        _errors(report) if report.errors else "", _footer(report), sign_off(report),
        "</body>", "</html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _flagged_section(report: ReportData, page_break: str, frame_rows) -> tuple[str, str]:
    """The NG/REVIEW list's heading and body, in the session's own unit. On a moving line the frames are only
    tracked: the list said "NG and REVIEW frames (0) · None: every judged tag passed" under 2 REVIEW tags, and
    a line manager had no way to see which tags failed, or why. A page of its own only when it lists something."""
    if report.unit == "tags":
        flagged = [t for t in report.tags if t.flagged]
        body = (_flagged_tag_rows(flagged, report.tag_thumbs) if flagged
                else '<p class="muted">None: every tag passed.</p>')
    else:
        flagged = list(report.flagged)
        body = frame_rows(report.flagged) if flagged else f'<p class="muted">{e(_none_flagged(report.counts))}</p>'
    return f"<h2{page_break if flagged else ''}>NG and REVIEW {report.unit} ({len(flagged)})</h2>", body


def _none_flagged(counts: dict) -> str:
    """No NG/REVIEW frame, said so that it cannot read as a pass when nothing was judged: a session inspected without a
    recipe said 'None: every judged tag passed'."""
    text = "None: every judged frame passed" if counts.get("OK") else "None, and none passed either"
    rest = [f"{n} {what}" for n, what in ((counts.get("NOT JUDGED", 0), "not judged (inspected without a recipe)"),
                                          (counts.get("ERROR", 0), "could not be inspected")) if n]
    return text + (f": {'; '.join(rest)}." if rest else ".")


def _flagged_tag_rows(tags, thumbs) -> str:
    """One row per NG/REVIEW tag of a moving line: its crop, its number, when it left, the frames it was seen in,
    and its reasons (the first QT_ROW_CHECKS; every one is in tags.csv)."""
    rows = []
    for t in tags:
        thumb, (w, h) = thumbs.get(t.id, ("", (0, 0)))
        if w > QT_ROW_THUMB_WIDTH:
            w, h = QT_ROW_THUMB_WIDTH, round(h * QT_ROW_THUMB_WIDTH / w)
        img = (f'<img src="{e(_rel(thumb))}" width="{w}" height="{h}">' if thumb
               else '<span class="muted">no crop archived</span>')
        seen = (f"frames {t.first_frame}–{t.last_frame}" if t.first_frame is not None else "")
        read = "passed unread" if t.missed else (f"read at frame {t.read_frame}" if t.read_frame is not None else "")
        # a triggered item by its trigger, as the station's strip and banner named it (T3): its tag id is its frame's
        # number, and the report headed the item the operator saw as T3 "#2"
        name = f"#{t.tag_id}" if not t.trigger_id else f"T{e(t.trigger_id)}"
        trigger = f"<br>trigger {e(t.trigger_id)}" if t.trigger_id else ""
        lines = list(t.reasons[:QT_ROW_CHECKS]) or ["(no reason recorded)"]
        if len(t.reasons) > QT_ROW_CHECKS:
            lines.append(f"and {len(t.reasons) - QT_ROW_CHECKS} more (see tags.csv)")
        rows.append(f'<tr><td width="{QT_ROW_THUMB_WIDTH + 6}">{img}</td><td><b>{name}</b>{trigger}<br>'
                    f'<span class="muted">{e(local_time(t.timestamp))}</span></td><td>{e(seen)}<br>{e(read)}</td>'
                    f'<td><span class="{e(t.verdict)}"><b>{e(t.verdict)}</b></span></td>'
                    f'<td>{"<br>".join(e(line) for line in lines)}</td></tr>')
    return ('<table class="grid" width="100%"><thead><tr><th>image</th><th>tag</th><th>seen</th><th>verdict</th>'
            f'<th>reasons</th></tr></thead>{"".join(rows)}</table>')


def _flagged_rows(frames: tuple[FlaggedFrame, ...]) -> str:
    rows = []
    for f in frames:
        r = f.record
        w, h = f.thumb_wh
        if w > QT_ROW_THUMB_WIDTH:
            w, h = QT_ROW_THUMB_WIDTH, round(h * QT_ROW_THUMB_WIDTH / w)
        size = f' width="{w}" height="{h}"' if w and h else ""
        img = f'<img src="{e(_rel(f.thumb))}"{size}>' if f.thumb else f'<span class="muted">no image: {e(f.note)}</span>'
        # an NG row names its NG checks first: 'print size … read 14 px' (a REVIEW) led rows NG for a wrong style number
        failed = sorted((c for c in r.checks if c.get("verdict") in ("NG", "REVIEW")), key=lambda c: c["verdict"] != "NG")
        lines = [f"{check_subject(c, r)}: expected {check_expected(c) or '—'}, {read_phrase(c)}"
                 for c in failed[:QT_ROW_CHECKS]]
        if not failed:
            lines = list(r.reasons[:QT_ROW_CHECKS]) or ["(no reason recorded)"]
        more = len(failed) - QT_ROW_CHECKS
        if more > 0:
            lines.append(f"and {more} more check(s) failed (see report.html)")
        rows.append(f'<tr><td width="{QT_ROW_THUMB_WIDTH + 6}">{img}</td>'
                    f'<td><b>{r.frame_index}</b><br>{e(r.source_name)}<br><span class="muted">'
                    f'{e(local_time(r.timestamp))}</span></td>'
                    f'<td><span class="{e(r.verdict)}"><b>{e(r.verdict)}</b></span></td>'
                    f'<td>{"<br>".join(e(line) for line in lines)}</td></tr>')
    return ('<table class="grid" width="100%"><thead><tr><th>image</th><th>frame</th><th>verdict</th>'
            f'<th>failed checks: expected / read</th></tr></thead>{"".join(rows)}</table>')


def check_subject(check: dict, record) -> str:
    """A check's field, and its tag where the frame had more than one: the PDF's rows said 'brand 品牌' for each of two
    tags, and only the HTML's table said which."""
    tag = check.get("tag_index")
    where = f" (tag {int(tag) + 1})" if isinstance(tag, int) and len(record.tags) > 1 else ""
    return subject_label(str(check.get("subject", ""))) + where


def check_expected(check: dict) -> str:
    return expected_label(str(check.get("subject", "")), str(check.get("expected") or ""))


def read_phrase(check: dict) -> str:
    """What a check read, as it follows 'expected …,': a count says what was found ('none found', '1 found, none
    readable'), so 'read' before it made "expected 1, read none found"."""
    read = str(check.get("read") or "").strip()
    if not str(check.get("subject", "")).startswith("count:"):
        return f"read {read or 'nothing'}"
    if read in ("", "0"):
        return "none found"
    return f"{read} found" if read.isdigit() else read


def _css(flavor: str) -> str:
    font = f"'Noto Sans SC', {FONT}"
    base = (f"body {{ font-family: {font}; color: #1f2933; font-size: 10pt; }}"
            "h1 { font-size: 18pt; margin: 0 0 6pt 0; } h2 { font-size: 13pt; margin: 14pt 0 4pt 0; }"
            "th, td { text-align: left; vertical-align: top; }"
            "th { background: #eef1f4; } .muted { color: #616e7c; } .num { text-align: right; }"
            + "".join(f".{v} {{ color: {VERDICT_COLORS[v]}; }} " for v in ("NG", "REVIEW", "OK")) +
            "td.fail { background: #fff0f0; }")
    if flavor == "qt":
        return base + "code { font-size: 7pt; } table.checks { font-size: 8pt; } h3 { font-size: 10pt; margin: 0 0 3pt 0; }"
    return base + f"""
@font-face {{ font-family: 'Noto Sans SC'; src: url('{FONT_FILE}') format('opentype'); }}
table {{ border-collapse: collapse; }} th, td {{ padding: 3px 8px; }}
body {{ max-width: 1100px; margin: 24px auto; padding: 0 16px; font-size: 14px; line-height: 1.4; }}
h1 {{ font-size: 24px; }} h2 {{ font-size: 18px; border-bottom: 1px solid #d9dee3; padding-bottom: 4px; margin-top: 28px; }}
table.grid td, table.grid th {{ border: 1px solid #d9dee3; }}
.tiles {{ display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0; }}
.tile {{ border: 1px solid #d9dee3; border-radius: 6px; padding: 8px 14px; min-width: 96px; }}
.tile .n {{ font-size: 26px; font-weight: 600; }} .tile .k {{ color: #616e7c; font-size: 12px; }}
.chart svg {{ max-width: 100%; height: auto; }}
.tags {{ display: grid; grid-template-columns: 1fr; gap: 12px; }}
.tag {{ display: flex; gap: 14px; border: 1px solid #d9dee3; border-radius: 6px; padding: 10px; break-inside: avoid; }}
.tag img {{ border: 1px solid #d9dee3; max-width: 320px; height: auto; }}
.tag h3 {{ margin: 0 0 6px 0; font-size: 15px; }} .tag ul {{ margin: 0 0 6px 18px; padding: 0; }}
.badge {{ color: #fff; border-radius: 4px; padding: 1px 6px; font-size: 12px; }}
.badge.NG {{ background: {VERDICT_COLORS["NG"]}; color: #fff; }} .badge.REVIEW {{ background: {VERDICT_COLORS["REVIEW"]}; color: #fff; }}
code {{ font-size: 12px; word-break: break-all; }}
@media print {{ .tag {{ page-break-inside: avoid; }} }}
"""


def _header_table(report: ReportData, pairs_per_row: int = 1) -> str:
    s = report.session
    span = f"{local_time(report.first_time)} → {local_time(report.last_time)}" if report.first_time else "no frames"
    rows = [("Lot", s.lot or "—"), ("Job", s.job or "—"), ("Recipe", s.recipe_name or "— (no recipe)"),
            ("Recipe file", s.recipe_path or "—"), ("Station", s.station_id), ("Source", s.source or "—"),
            ("Model hash", s.model_hash or "—"), ("Backend", s.backend or "—"), ("Precision", s.precision or "—"),
            ("Time span", span), ("Report generated", local_time(report.generated_at))]
    cells = [f"<th>{e(k)}</th><td>{'<code>' + e(v) + '</code>' if k == 'Model hash' else e(v)}</td>" for k, v in rows]
    body = "".join(f"<tr>{''.join(cells[i:i + pairs_per_row])}</tr>" for i in range(0, len(cells), pairs_per_row))
    return f'<table class="grid header">{body}</table>'


def _summary(report: ReportData, flavor: str) -> str:
    c = report.counts
    yield_text = f"{report.yield_:.2%}" if report.yield_ is not None else "—"
    items = [("frames", c["frames"], ""), ("OK", c["OK"], "OK"), ("NG", c["NG"], "NG"), ("REVIEW", c["REVIEW"], "REVIEW"),
             ("errors", c["ERROR"], ""), ("not judged", c["NOT JUDGED"], ""), ("yield", yield_text, "")]
    if report.unit == "tags":  # a moving line: one verdict per physical tag; frames are only how often it looked
        items = [("tags", c["tags"], ""), ("OK", c["OK"], "OK"), ("NG", c["NG"], "NG"), ("REVIEW", c["REVIEW"], "REVIEW"),
                 ("of them passed unread", c["missed"], ""), ("frames", c["frames"], ""), ("yield", yield_text, "")]
    if flavor == "qt":
        cells = "".join(f'<td class="num"><span style="font-size:16pt" class="{cls}"><b>{e(n)}</b></span><br>'
                        f'<span class="muted">{e(k)}</span></td>' for k, n, cls in items)
        return f'<h2>Counts and yield</h2><table class="grid"><tr>{cells}</tr></table>'
    tiles = "".join(f'<div class="tile"><div class="n {cls}">{e(n)}</div><div class="k">{e(k)}</div></div>'
                    for k, n, cls in items)
    note = ('<p class="muted">Yield = OK ÷ judged frames (OK + NG + REVIEW + errors); frames inspected without '
            "a recipe are not judged.</p>")
    if report.unit == "tags":
        note = ('<p class="muted">Yield = OK ÷ tags: one verdict per physical tag (a tag that passed unread is a '
                "REVIEW); the frames are every frame the line looked at.</p>")
    return f'<h2>Counts and yield</h2><div class="tiles">{tiles}</div>{note}'


def _pareto_table(report: ReportData) -> str:
    if not report.pareto:
        return ""
    rows = "".join(f"<tr><td class=\"num\">{i}</td><td>{e(b.label)}</td><td class=\"num\">{b.count}</td>"
                   f"<td class=\"num\">{b.share:.1%}</td><td class=\"num\">{b.cumulative:.1%}</td></tr>"
                   for i, b in enumerate(report.pareto, 1))
    return (f'<table class="grid"><tr><th>#</th><th>reason</th><th>{e(report.unit)}</th><th>share</th>'
            f"<th>cumulative</th></tr>{rows}</table>")


def _latency_table(report: ReportData) -> str:
    untimed = (f'<p class="muted">{report.untimed} frame(s) could not be inspected and have no timing: left out '
               "of these percentiles and the latency plot.</p>") if report.untimed else ""
    if not report.latency:
        return '<p class="muted">No timings recorded.</p>' + untimed
    rows = "".join(f"<tr><td>{e(s.stage)}</td><td class=\"num\">{s.p50:.2f}</td><td class=\"num\">{s.p95:.2f}</td>"
                   f"<td class=\"num\">{s.p99:.2f}</td><td class=\"num\">{s.max:.2f}</td><td class=\"num\">{s.n}</td></tr>"
                   for s in report.latency)
    return ('<table class="grid"><tr><th>stage</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th>'
            f"<th>frames</th></tr>{rows}</table>{untimed}")


def _checks_table(frame: FlaggedFrame) -> str:
    checks = frame.record.checks
    if not checks:
        return ""
    rows = []
    for c in checks:
        verdict = str(c.get("verdict", ""))
        conf = c.get("confidence")
        fail = verdict in ("NG", "REVIEW")
        cls = ' class="fail"' if fail else ""
        num = ' class="num fail"' if fail else ' class="num"'
        rows.append(f"<tr><td{cls}>{e(check_subject(c, frame.record))}</td><td{cls}>{e(check_expected(c))}</td>"
                    f"<td{cls}>{e(c.get('read'))}</td><td{num}>{'' if conf is None else f'{float(conf):.0%}'}</td>"
                    f"<td{cls}>{e(c.get('source'))}</td><td{cls}><span class=\"{e(verdict)}\">{e(verdict)}</span></td></tr>")
    return ('<table class="grid checks"><tr><th>field / check</th><th>expected</th><th>read</th><th>conf.</th>'
            f"<th>source</th><th>result</th></tr>{''.join(rows)}</table>")


def _frame_title(frame: FlaggedFrame) -> str:
    r = frame.record
    return (f'<span class="badge {e(r.verdict)}">{e(r.verdict)}</span> frame {r.frame_index} · {e(r.source_name)} · '
            f'<span class="muted">{e(local_time(r.timestamp))}</span>')


def _flagged(frames: tuple[FlaggedFrame, ...]) -> str:
    """The browser's NG/REVIEW cards, every check in full (the PDF has one compact row each: `_flagged_rows`)."""
    items = []
    for f in frames:
        r = f.record
        w, h = f.thumb_wh
        size = f' width="{w}" height="{h}"' if w and h else ""
        img = (f'<a href="{e(_rel(f.image))}"><img src="{e(_rel(f.thumb))}" alt="frame {r.frame_index}"{size}'
               ' loading="lazy"></a>') if f.thumb else f'<p class="muted">[no image: {e(f.note)}]</p>'
        reasons = "".join(f"<li>{e(reason)}</li>" for reason in r.reasons) or "<li>(no reason recorded)</li>"
        note = f'<p class="muted">{e(f.note)}</p>' if f.note and f.thumb else ""
        hash_line = f'<p class="muted">image <code>{e(r.image_hash or "not hashed")}</code></p>'
        details = f"<h3>{_frame_title(f)}</h3><ul>{reasons}</ul>{_checks_table(f)}{note}{hash_line}"
        items.append(f'<article class="tag" id="frame-{r.id}">{img}<div>{details}</div></article>')
    return f'<div class="tags">{"".join(items)}</div>'


def _errors(report: ReportData) -> str:
    rows = "".join(f"<tr><td class=\"num\">{r.frame_index}</td><td>{e(r.source_name)}</td>"
                   f"<td>{error_lines(r.error)}</td></tr>" for r in report.errors)
    return (f"<h2>Frames that could not be inspected ({len(report.errors)})</h2>"
            f'<table class="grid"><tr><th>frame</th><th>source</th><th>error</th></tr>{rows}</table>')


def error_lines(error: str) -> str:
    """An error's message, expected, found and hint on lines of their own, as the app shows them: HTML folds the
    newlines between them into spaces, and the PDF ran them together on one line."""
    return "<br>".join(e(line.strip()) for line in error.splitlines() if line.strip())


def _footer(report: ReportData) -> str:
    """Thresholds and files in a few lines, not a list a line each: the file list alone filled the PDF's last page.
    The sign-off follows it, so the report ends with what the shift signs."""
    thresholds = "; ".join(e(t) for t in report.thresholds_used) or "—"
    files = ", ".join(f"<code>{e(f)}</code>" for f in report.files)
    return ("<h2>About this report</h2>"
            f"<p>Detection thresholds used: {thresholds}.</p>"
            + (f"<p>Files in this export (hashes in manifest.json): {files}.</p>" if files else "")
            + '<p class="muted">Text read from tags is shown as read and escaped; this page runs no scripts. '
              "Font: Noto Sans SC (SIL Open Font License, see fonts/OFL.txt).</p>")


def _rel(path: str) -> str:
    return str(PurePosixPath(path)) if path else ""
