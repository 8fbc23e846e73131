"""The report's last section: what the shift signs. The PDF ended on a page holding only the export's file list, a
page nobody at the line reads. It now ends with the session's result in one line, which NG/REVIEW tags were
acknowledged at the station and which never were (the ones to look for in the reject bin), and blank cells for
who checked it, when, and how many rejects the bin held.
"""

from __future__ import annotations

from html import escape

from inference.records.report import ReportData, local_time

NAMED_UNACKNOWLEDGED = 40  # tags named one by one; the rest counted (all are in tags.csv)
SIGNED_CELLS = ("checked by", "date and time", "rejects counted in the bin", "signature")


def e(value: object) -> str:
    return escape(str(value), quote=True)


def tag_label(tag) -> str:
    """As the station's strip and banner named it, and as the journal's acknowledgement names it."""
    return f"T{tag.trigger_id}" if tag.trigger_id else f"#{tag.tag_id}"


def result_line(report: ReportData) -> str:
    c = report.counts
    yield_text = f"yield {report.yield_:.2%}" if report.yield_ is not None else "no yield (nothing judged)"
    if report.unit == "tags":
        unread = f" ({c['missed']} passed unread)" if c.get("missed") else ""
        counted = f"{c['tags']} tags: {c['OK']} OK, {c['NG']} NG, {c['REVIEW']} REVIEW{unread}"
    else:
        rest = ", ".join(f"{c[k]} {w}" for k, w in (("ERROR", "could not be inspected"),
                                                      ("NOT JUDGED", "not judged")) if c.get(k))
        counted = f"{c['frames']} frames: {c['OK']} OK, {c['NG']} NG, {c['REVIEW']} REVIEW" + (f", {rest}" if rest else "")
    return f"{counted}; {yield_text}."


def acknowledgements(report: ReportData) -> str:
    """Which flagged tags someone acknowledged at the station (held on screen until then), and which not."""
    if report.unit != "tags":
        return ""
    flagged = [t for t in report.tags if t.flagged]
    if not flagged:
        return "<p>No NG or REVIEW tag: nothing to take off the line.</p>"
    seen = [t for t in flagged if tag_label(t) in report.acknowledged]
    unseen = [t for t in flagged if tag_label(t) not in report.acknowledged]
    said = []
    if seen:
        said.append(f"<p>Acknowledged at the station ({len(seen)}): " + ", ".join(
            f"{e(tag_label(t))} {e(t.verdict)} at {e(local_time(report.acknowledged[tag_label(t)]).split(' ')[1])}"
            for t in seen) + ".</p>")
    if unseen:
        named = ", ".join(f"{e(tag_label(t))} {e(t.verdict)}" for t in unseen[:NAMED_UNACKNOWLEDGED])
        more = f" and {len(unseen) - NAMED_UNACKNOWLEDGED} more (tags.csv)" if len(unseen) > NAMED_UNACKNOWLEDGED else ""
        said.append(f"<p><b>Never acknowledged ({len(unseen)})</b>: {named}{more}. Before signing, find each NG in "
                    "the reject bin and check each REVIEW by hand.</p>")
    return "".join(said)


def sign_off(report: ReportData) -> str:
    s = report.session
    what = " · ".join(e(v) for v in (s.recipe_name, s.job, s.lot) if v) or "no recipe"
    blanks = "".join(f'<tr><th width="30%">{e(cell)}</th><td>&nbsp;<br>&nbsp;</td></tr>' for cell in SIGNED_CELLS)
    return (f"<h2>Sign-off · session {e(s.id)}</h2>"
            f"<p><b>{what}</b>: {e(result_line(report))}</p>"
            + acknowledgements(report)
            + f'<table class="grid" width="100%">{blanks}</table>')
