"""Static views of a CheckResult: `text/plain`, self-contained `text/html`, and the mimebundle.

The HTML needs no script and no network: colours are inline styles (they survive JupyterLab's
sanitiser for untrusted notebooks), hover details are `title` attributes (native tooltips take no
room in the layout, so an output never changes height on hover), the histogram and the legend are
inline SVG. `text/plain` holds no timings so that nbval compares it stably.

Every helper here takes plain values and returns strings; the live widget (views.py) reuses the
colour scale, the diff and the histogram so both views agree. The diff's rows are the result's
own (`CheckResult.diff_rows()`): this module only draws them.
"""
from __future__ import annotations

import html
import math

from ...core.result import CheckResult, DiffRow, TokenRecord, severity, severity_counts
from ..report import (
    cell_place,
    depth_summary,
    exits_early,
    finding_line,
    mean_exit_depth,
)

MIME_JSON = "application/vnd.jupyter-codecheck+json"

# -- colour scale -----------------------------------------------------------------------------------

# matplotlib's "magma" (perceptually uniform) sampled at 0, 0.1, ..., 1. Low probability is dark,
# so the few suspicious tokens stand out and the many plausible ones stay light and readable.
_MAGMA = ["#000004", "#140e36", "#3b0f70", "#641a80", "#8c2981", "#b73779", "#de4968", "#f7705c",
          "#fe9f6d", "#fecf92", "#fcfdbf"]
LOG10_FLOOR = -4.0         # p <= 1e-4 gets the darkest colour used
_T_MIN = 0.15              # the darkest end of magma is near black: start a little above it
UNSCORED = "#e4e4e4"       # tokens the model did not predict (deleted, resynchronised, not reached)


def _rgb(hexcolour: str) -> tuple[int, int, int]:
    return int(hexcolour[1:3], 16), int(hexcolour[3:5], 16), int(hexcolour[5:7], 16)


def scale_position(prob: float | None) -> float | None:
    """Where `prob` sits on the colour scale, 0 (p <= 1e-4) .. 1 (p = 1): log scale, because the
    difference between 1e-3 and 1e-2 matters as much as between 0.1 and 1."""
    if prob is None:
        return None
    if prob <= 0:
        return 0.0
    return min(1.0, max(0.0, (math.log10(prob) - LOG10_FLOOR) / -LOG10_FLOOR))


def prob_colour(prob: float | None) -> str:
    x = scale_position(prob)
    if x is None:
        return UNSCORED
    t = (_T_MIN + (1 - _T_MIN) * x) * (len(_MAGMA) - 1)
    i = min(int(t), len(_MAGMA) - 2)
    f = t - i
    a, b = _rgb(_MAGMA[i]), _rgb(_MAGMA[i + 1])
    return "#" + "".join(f"{round(p + (q - p) * f):02x}" for p, q in zip(a, b))


def ink_for(background: str) -> str:
    """Black or white text, whichever reads on `background` (relative luminance)."""
    r, g, b = (c / 255 for c in _rgb(background))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#111111" if lum > 0.45 else "#ffffff"


# -- text helpers -----------------------------------------------------------------------------------

def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def fmt_prob(prob: float | None) -> str:
    if prob is None:
        return "-"
    return f"{prob:.3f}" if prob >= 0.001 else f"{prob:.1e}"


def _show(text: str) -> str:
    """A token's text made visible in a one-line tooltip."""
    return repr(text)


def short_details(tok: TokenRecord, n_layer: int | None = None) -> str:
    """The stored heat map's hover text: one line, the model's first three choices."""
    parts = [f"{_show(tok.text)} {tok.decision}"]
    if tok.prob is not None:
        parts.append(f"p = {fmt_prob(tok.prob)} rank {tok.rank}")
        if tok.exit_layer is not None:
            last = " (the last)" if n_layer and tok.exit_layer == n_layer - 1 else ""
            parts.append(f"exit layer {tok.exit_layer}{last}")
    if tok.alternatives:
        parts.append("model: " + ", ".join(f"{_show(a.text)} {a.prob:.2f}" for a in tok.alternatives[:3]))
    return " \u00b7 ".join(parts)


def _attr(text: str) -> str:
    """Escaped for a double-quoted attribute (quotes other than '"' stay as they are: shorter)."""
    return html.escape(text, quote=False).replace('"', "&quot;")


# -- text/plain ------------------------------------------------------------------------------------

# -- severity ----------------------------------------------------------------------------------------

# error: Python's own checks (syntax, undefined names); warning: an edit the model verified
SEVERITY_COLOUR = {"error": "#d1242f", "warning": "#9a6700"}     # red; amber dark enough for white text


def headline(result: CheckResult) -> str:
    n = result.stats.get("tokens", len(result.tokens))
    if result.stats.get("cancelled"):
        head = f"cancelled after {len(result.tokens)} of {n} tokens (partial result)"
    elif result.clean:
        head = f"no findings ({n} tokens)"
    else:
        k = len(result.findings)
        head = f"{k} finding{'s' if k != 1 else ''}: {severity_counts(result.findings)} ({n} tokens)"
    return "codecheck: " + head


def unified_diff(result: CheckResult) -> str:
    """`source` against `corrected` as a unified diff ('' when they are equal)."""
    if not result.edits or result.corrected == result.source:
        return ""
    lines = result.diff_lines("cell", "corrected", no_newline="\\ No newline at end of cell")
    return "".join(line + "\n" for line in lines)


def finding_lines(result: CheckResult) -> list[str]:
    """One line per finding, fix or not: `line 2:5: error[undefined-name]: name 'x' is not defined`."""
    return [finding_line(f, cell_place(f)) for f in result.findings]


def text_plain(result: CheckResult) -> str:
    # the plain text has no stats line: what was silenced is said after the headline
    silenced = result.stats.get("silenced")
    parts = [headline(result) + (f", {silenced} silenced" if silenced else "")]
    diff = unified_diff(result)
    if diff:
        parts.append(diff.rstrip("\n"))
    parts.extend(finding_lines(result))
    return "\n".join(parts)


# -- diff (HTML) -----------------------------------------------------------------------------------

_MARK_STYLE = {
    "del": "background:#ffb3ba;text-decoration:line-through;text-decoration-color:#a0001a",
    "ins": "background:#9be9a8;font-weight:600",
}
# a row kind's sign, its `data-sign`, its style, and how its marked characters are shown
_ROW_LOOK = {
    "same": (" ", "ctx", "", None),
    "gap": ("\u2026", "gap", "color:#888;font-style:italic", None),
    "removed": ("-", "del", "background:#ffebe9", "del"),
    "added": ("+", "ins", "background:#e6ffec", "ins"),
}
_KIND_STYLE = ("display:inline-block;margin-left:1em;padding:0 .45em;border-radius:.7em;"
               "font:600 10px/1.6 sans-serif;color:#fff;background:#6f42c1;vertical-align:1px")


def _row_html(row: DiffRow) -> str:
    """A diff row's text as HTML: its marked characters in del/ins spans, then its edit kinds."""
    if row.kind == "gap":
        return f"{row.lines} unchanged lines"
    mark = _ROW_LOOK[row.kind][3]
    out, pos = [], 0
    for start, end in row.spans:
        out.append(_esc(row.text[pos:start]))
        out.append(f'<span class="cc-{mark}" style="{_MARK_STYLE[mark]}">{_esc(row.text[start:end])}</span>')
        pos = end
    out.append(_esc(row.text[pos:]))
    out.extend(f'<span class="cc-kind" style="{_KIND_STYLE}">{_esc(k)}</span>' for k in row.edit_kinds)
    return "".join(out)


def diff_html(result: CheckResult) -> str:
    """The inline diff (or a note that there is none), then every finding, with a fix or not."""
    out = []
    if not result.edits:
        msg = ("cancelled before any change was proposed" if result.stats.get("cancelled") else
               "no fix proposed" if result.findings else "the model proposes no change")
        out.append(f'<div class="cc-diff cc-nodiff" style="color:#555;font-style:italic">{msg}</div>')
    else:
        out.append(diff_table_html(result.diff_rows()))
    out.extend(finding_html(f) for f in result.findings)
    return "\n".join(out)


def diff_table_html(rows: list[DiffRow]) -> str:
    """Diff rows (core/diff.py) as the table every HTML view draws: a check's edits or a repair."""
    out = ['<table class="cc-diff" style="border-collapse:collapse;'
           'font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,13px);width:100%">']
    for row in rows:
        sign, name, style, _ = _ROW_LOOK[row.kind]
        # the source's line number; an added row has none there
        num = row.old_line if row.kind in ("same", "removed") else ""
        out.append(
            f'<tr class="cc-row" data-sign="{name}" style="{style}">'
            f'<td style="color:#888;text-align:right;padding:0 .5em;user-select:none;width:2.5em">{num}</td>'
            f'<td style="color:#888;padding:0 .4em;user-select:none;width:1em">{sign}</td>'
            f'<td style="white-space:pre;padding:0 .3em">{_row_html(row)}</td></tr>')
    out.append("</table>")
    return "\n".join(out)


def finding_html(f) -> str:
    """One finding: its severity as a coloured badge (error red, warning amber; a warning's gain on
    hover), where, its kind and its message."""
    sev = severity(f)
    gain = getattr(f, "gain", None)
    title = (f"gain {gain:.2f} nats: the rest of the cell is that much more likely with the edit"
             if isinstance(gain, (int, float)) else
             "Python's own check" if sev == "error" else "the model's verified edit")
    badge = (f'<span class="cc-severity" title="{_esc(title)}" style="display:inline-block;padding:0 .45em;'
             f'border-radius:.7em;font:600 10px/1.6 sans-serif;color:#fff;background:{SEVERITY_COLOUR[sev]};'
             f'vertical-align:1px">{sev}</span>')
    return (f'<div class="cc-finding" data-severity="{sev}" style="margin:.2em 0 0 .3em;font-size:12px">'
            f'{badge} <b>line {f.line}:{f.column + 1}</b> '
            f'<span style="color:{SEVERITY_COLOUR[sev]}">[{_esc(f.kind)}]</span> {_esc(f.message)}</div>')


# -- heat map ---------------------------------------------------------------------------------------

_DECISION_STYLE = {
    "accept": "",
    "masked": "font-style:italic",
    "change": "outline:2px solid #d1242f;outline-offset:-1px",
    "delete": "text-decoration:line-through;text-decoration-color:#d1242f;text-decoration-thickness:2px",
    "flag": "text-decoration:underline wavy #bf8700;text-underline-offset:3px",
}


def n_layer_of(result: CheckResult) -> int:
    n = result.stats.get("n_layer")
    if n:
        return int(n)
    layers = [t.exit_layer for t in result.tokens if t.exit_layer is not None]
    return max(layers) + 1 if layers else 0


# tokens the model found this likely and kept need no hover details in the stored view (the
# default acceptance probability)
PLAIN_PROB = 0.2
_STEPS = 20                 # the stored heat map's colours: the scale in 20 steps (runs merge)


def _plain(tok: TokenRecord) -> bool:
    return tok.decision in ("accept", "masked") and (tok.prob is None or tok.prob >= PLAIN_PROB)


def _stepped_colour(prob: float | None) -> str:
    x = scale_position(prob)
    if x is None:
        return UNSCORED
    return prob_colour(10 ** (LOG10_FLOOR * (1 - round(x * _STEPS) / _STEPS)))


def heat_html(result: CheckResult) -> str:
    """The cell's tokens in their layout, coloured by the model's probability of each. Compact, as
    it is stored in the notebook: likely, kept tokens of one colour form one span without details;
    every other token has its own span with its details on hover."""
    n_layer = n_layer_of(result)
    out = ['<div class="cc-heat" style="white-space:pre;font-family:var(--jp-code-font-family,monospace);'
           'font-size:var(--jp-code-font-size,13px);line-height:1.55;padding:.3em;border:1px solid #ddd;'
           'overflow:auto;max-height:24em">']
    run: list[str] = []
    run_bg = None

    def flush():
        if run:
            out.append(f'<span style="background:{run_bg}">{"".join(run)}</span>')
            run.clear()

    for tok in sorted(result.tokens, key=lambda t: t.index):
        shown = _esc(tok.text)
        if _plain(tok):
            bg = _stepped_colour(tok.prob)
            if bg != run_bg:
                flush()
                run_bg = bg
            run.append(shown)
            continue
        flush()
        run_bg = None
        bg = prob_colour(tok.prob)
        ink = ink_for(bg)
        style = f"background:{bg}" + (f";color:{ink}" if ink != "#111111" else "") + \
            (";" + _DECISION_STYLE[tok.decision] if _DECISION_STYLE.get(tok.decision) else "")
        out.append(f'<span class="cc-tok" data-decision="{tok.decision}" '
                   f'title="{_attr(short_details(tok, n_layer))}" style="{style}">{shown}</span>')
    flush()
    rest = _pending_text(result)
    if rest:
        out.append(f'<span class="cc-pending" style="color:#999">{_esc(_clip_lines(rest))}</span>')
    out.append("</div>")
    return "".join(out)


PENDING_LINES = 40          # a cancelled check of a long cell: show where it stopped, not the rest


def _clip_lines(text: str, keep: int = PENDING_LINES) -> str:
    lines = text.split("\n")
    if len(lines) <= keep:
        return text
    return "\n".join(lines[:keep]) + f"\n\u2026 {len(lines) - keep} more lines not checked"


def _pending_text(result: CheckResult) -> str:
    """The source after the last token that has a record (a cancelled check, or a live one)."""
    data = result.source.encode("utf-8")
    end = max((t.end for t in result.tokens), default=0)
    return data[end:].decode("utf-8", "ignore") if end < len(data) else ""


def legend_svg(width: int = 260) -> str:
    """The colour scale with ticks at 1e-4 .. 1 (log scale)."""
    steps = 12
    pad = 18
    bar_w = width - 2 * pad
    rects = []
    for k in range(steps):
        x = k / (steps - 1)
        p = 10 ** (LOG10_FLOOR * (1 - x))
        rects.append(f'<rect x="{pad + k * bar_w / steps:.1f}" y="14" width="{bar_w / steps + 0.6:.1f}" '
                     f'height="10" fill="{prob_colour(p)}"/>')
    ticks = []
    for k, label in enumerate(["\u22641e-4", "0.001", "0.01", "0.1", "1"]):
        x = pad + bar_w * k / 4
        ticks.append(f'<line x1="{x:.1f}" y1="24" x2="{x:.1f}" y2="28" stroke="#666"/>'
                     f'<text x="{x:.1f}" y="38" font-size="9" text-anchor="middle" fill="#444">{label}</text>')
    return (f'<svg class="cc-legend" width="{width}" height="42" viewBox="0 0 {width} 42" '
            f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="probability colour scale">'
            f'<text x="{pad}" y="10" font-size="9" fill="#444">probability of the cell\'s token (log scale)</text>'
            + "".join(rects) + "".join(ticks) +
            f'<rect x="{width - 60}" y="0" width="9" height="9" fill="{UNSCORED}" stroke="#bbb"/>'
            f'<text x="{width - 48}" y="8" font-size="9" fill="#444">not scored</text></svg>')


# -- exit histogram ---------------------------------------------------------------------------------

def exit_counts(tokens, n_layer: int) -> list[int]:
    """Tokens per exit layer (tokens without an exit layer were not scored)."""
    counts = [0] * n_layer
    for t in tokens:
        layer = t["exit_layer"] if isinstance(t, dict) else t.exit_layer
        if layer is not None and 0 <= layer < n_layer:
            counts[layer] += 1
    return counts


def histogram_svg(counts: list[int], *, width: int = 420, height: int = 100) -> str:
    """Tokens per exit layer; empty when every token ran all layers (one bar tells nothing: the
    words of depth_summary say what the exit test saved instead)."""
    n = len(counts)
    if n == 0:
        return '<div class="cc-hist" style="color:#555;font-style:italic">no layer data</div>'
    if not exits_early(counts):
        return ""
    top = max(max(counts), 1)
    left, right, bottom, head = 28, 6, 22, 8
    plot_w, plot_h = width - left - right, height - bottom - head
    bw = plot_w / n
    bars = []
    for k, c in enumerate(counts):
        if not c:
            continue
        h = plot_h * c / top
        bars.append(f'<rect class="cc-bar" data-layer="{k}" data-count="{c}" x="{left + k * bw + 0.5:.1f}" '
                    f'y="{head + plot_h - h:.1f}" width="{max(bw - 1, 1):.1f}" height="{h:.1f}" '
                    f'fill="{"#1f6feb" if k < n - 1 else "#8c959f"}"><title>layer {k}: {c} token'
                    f'{"s" if c != 1 else ""}</title></rect>')
    axis = [f'<line x1="{left}" y1="{head + plot_h}" x2="{width - right}" y2="{head + plot_h}" stroke="#888"/>',
            f'<text x="{left - 4}" y="{head + 8}" font-size="9" text-anchor="end" fill="#444">{top}</text>',
            f'<text x="{left - 4}" y="{head + plot_h}" font-size="9" text-anchor="end" fill="#444">0</text>']
    for k in range(0, n, 5 if n > 12 else 1):
        axis.append(f'<text x="{left + (k + 0.5) * bw:.1f}" y="{head + plot_h + 11}" font-size="9" '
                    f'text-anchor="middle" fill="#444">{k}</text>')
    axis.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 1}" font-size="9" text-anchor="middle" '
                f'fill="#444">exit layer (grey: the last)</text>')
    mean = mean_exit_depth(counts)
    if mean is not None:
        x = left + (mean - 0.5) * bw
        axis.append(f'<line class="cc-mean" x1="{x:.1f}" y1="{head - 4}" x2="{x:.1f}" y2="{head + plot_h}" '
                    f'stroke="#d1242f" stroke-dasharray="3,2"><title>mean depth {mean:.1f} layers</title></line>')
    return (f'<svg class="cc-hist" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="tokens per exit layer">'
            + "".join(axis) + "".join(bars) + "</svg>")


# -- stats line -------------------------------------------------------------------------------------

def policy_label(stats: dict) -> str:
    """The check's exit policy as a user names it ('head', 'lens', 'none (full depth)')."""
    from ...core.check import policy_name
    name = stats.get("exit_policy_name") or policy_name(stats.get("exit_policy"))
    return "none (full depth)" if name == "none" else name


def token_count(stats: dict, n_decided: int) -> str:
    """'85 tokens', or after a cancel '1,024 of 3,158 tokens decided'."""
    total = stats.get("tokens", n_decided)
    if stats.get("cancelled") and n_decided < total:
        return f"{n_decided:,} of {total:,} tokens decided"
    return f"{total:,} tokens"


def speed(stats: dict, n_decided: int) -> str | None:
    """'529.9 tokens/s, 1.93 s' over the tokens decided (a cancelled check decided fewer)."""
    if "time_s" not in stats:
        return None
    t = stats["time_s"]
    n = n_decided if stats.get("cancelled") else stats.get("tokens", n_decided)
    return f"{n / t if t > 0 else 0:.1f} tokens/s, {t:.2f} s"


def stats_parts(stats: dict, n_decided: int) -> list[tuple[str, str]]:
    """The stats line as (class, text) parts; timings are the 'timing' part."""
    parts = [("tokens", token_count(stats, n_decided))]
    timing = speed(stats, n_decided)
    if timing:
        parts.append(("timing", timing))
    if stats.get("model"):
        parts.append(("model", str(stats["model"])))
    if stats.get("mode"):
        parts.append(("mode", f"mode {stats['mode']}"))
    if "exit_policy" in stats:
        parts.append(("policy", f"exit policy {policy_label(stats)}"))
    if stats.get("pieces", 1) > 1:
        parts.append(("pieces", f"{stats['pieces']} pieces"))
    if stats.get("silenced"):
        parts.append(("silenced", f"{stats['silenced']} silenced"))
    if stats.get("cancelled"):
        parts.append(("cancelled", "cancelled"))
    return parts


def stats_html(stats: dict, n_tokens: int) -> str:
    """Tokens, speed, time, model. Timings sit in `span.cc-timing` so a notebook test can blank them
    with one regular expression."""
    out = []
    for cls, text in stats_parts(stats, n_tokens):
        if cls == "timing":
            out.append(f'<span class="cc-timing">{_esc(text)}</span>')
        elif cls == "cancelled":
            out.append("<b>cancelled</b>")
        else:
            out.append(_esc(text))
    return " \u00b7 ".join(out)


# -- the whole page ---------------------------------------------------------------------------------

_H = 'style="font:600 12px sans-serif;margin:.8em 0 .3em;color:#333"'


def text_html(result: CheckResult, *, title: str | None = None) -> str:
    n_layer = n_layer_of(result)
    counts = exit_counts(result.tokens, n_layer)
    head = _esc(title + ": " if title else "") + _esc(headline(result).removeprefix("codecheck: "))
    if result.stats.get("cancelled"):
        colour = "#d1242f"
    elif result.clean:
        colour = "#1a7f37"
    else:
        colour = SEVERITY_COLOUR["error" if any(severity(f) == "error" for f in result.findings) else "warning"]
    return "".join([
        '<div class="jupyter-codecheck" style="font-family:var(--jp-ui-font-family,sans-serif);'
        'font-size:13px;color:#111;background:#fff;padding:.4em;max-width:100%">',
        f'<div class="cc-headline" style="font-weight:600;color:{colour}">codecheck \u2014 {head}</div>',
        f'<div {_H}>Diff</div>', diff_html(result),
        f'<div {_H}>Probability heat map <span style="font-weight:400;color:#666">'
        '(hover a token: probability, rank, top-5, exit layer, decision)</span></div>',
        heat_html(result), legend_svg(),
        f'<div {_H}>Early exit</div>', histogram_svg(counts),
        f'<div class="cc-depth" style="font-size:12px;color:#333">{_esc(depth_summary(counts, result.stats))}</div>',
        f'<div class="cc-stats" style="font-size:11px;color:#555;margin-top:.4em">'
        f'{stats_html(result.stats, len(result.tokens))}</div>',
        "</div>",
    ])


def compact_dict(result: CheckResult) -> dict:
    """The result as stored in a notebook: everything but the token records and the evidence
    (kept small: the heat map in text/html already shows the tokens)."""
    d = result.to_dict()
    d.pop("tokens")
    d.pop("evidence")
    return d


def mimebundle(result: CheckResult, *, title: str | None = None) -> dict:
    """`text/plain` (diff + findings, no timings), `text/html` (diff, heat map, histogram, stats;
    self-contained), and the result without its token records as JSON under a vendor MIME type."""
    return {
        "text/plain": text_plain(result),
        "text/html": text_html(result, title=title),
        MIME_JSON: compact_dict(result),
    }
