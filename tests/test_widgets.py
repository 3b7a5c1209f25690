"""The views of a CheckResult: static text/plain and text/html, the vendor JSON, and the live
CheckView's state, asserted against one real check (plus hand-built results for edge cases)."""
from __future__ import annotations

import copy
import difflib
import html as html_module
import json
import re
import time
from collections import Counter
from html.parser import HTMLParser

import pytest

from jupyter_codecheck import CheckResult, Edit, Finding, TokenRecord, check
from jupyter_codecheck.core.result import Alternative
from jupyter_codecheck.views.widgets import MIME_JSON, CheckView, mimebundle
from jupyter_codecheck.views.widgets import render

BUGGY = "x = [1, 2, 3]\npritn(x)\n"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def result(model_path):
    r = check(BUGGY)
    # the views are tested on this check's outcome; make sure it is the interesting one
    assert r.edits and r.findings and r.corrected != BUGGY
    return r


class _Tags(HTMLParser):
    """Collects start tags with their attributes and checks that tags are balanced."""
    VOID = {"br", "img", "hr", "meta", "input", "rect", "line"}

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}>, open: {self.stack[-3:]}"
        self.stack.pop()

    def with_class(self, cls):
        return [(t, a) for t, a in self.tags if cls in (a.get("class") or "").split()]


def parse(html: str) -> _Tags:
    p = _Tags()
    p.feed(html)
    p.close()
    assert not p.stack, f"unclosed tags: {p.stack}"
    return p


# -- static views of the real check ---------------------------------------------------------------

def test_plain_text_is_the_diff_and_the_findings(result):
    text = mimebundle(result)["text/plain"]
    expected_diff = "".join(difflib.unified_diff(BUGGY.splitlines(True), result.corrected.splitlines(True),
                                                 "cell", "corrected"))
    assert expected_diff.rstrip("\n") in text
    assert "-pritn(x)" in text
    assert f"+{result.corrected.splitlines()[1]}" in text
    for f in result.findings:
        assert f"line {f.line}:{f.column + 1}: {f.severity}[{f.kind}]: {f.message}" in text
    assert text.startswith(f"codecheck: {len(result.findings)} finding")


def test_plain_text_holds_no_timings(result):
    slower = copy.deepcopy(result)
    slower.stats["time_s"] = result.stats["time_s"] * 3 + 1
    slower.stats["tokens_per_s"] = 0.123
    assert mimebundle(slower)["text/plain"] == mimebundle(result)["text/plain"]
    assert not re.search(r"\d+\.\d+ ?s\b|tokens/s", mimebundle(result)["text/plain"])


def test_json_is_the_result_without_its_token_records_under_a_vendor_type(result):
    bundle = mimebundle(result)
    assert "application/json" not in bundle
    expected = result.to_dict()
    del expected["tokens"], expected["evidence"]
    assert bundle[MIME_JSON] == expected
    back = CheckResult.from_dict(bundle[MIME_JSON])
    assert back.corrected == result.corrected and back.findings == result.findings


def test_html_heat_map_has_every_token_and_details_where_they_matter(result):
    html = mimebundle(result)["text/html"]
    heat = html[html.index('class="cc-heat"'):]
    heat = heat[:heat.index("</div>")]
    # the cell's text, whole, in its layout
    assert html_module.unescape(re.sub("<[^>]+>", "", heat[heat.index(">") + 1:])) == BUGGY
    tags = parse(html)
    spans = tags.with_class("cc-tok")
    notable = [t for t in result.tokens if not render._plain(t)]
    assert len(spans) == len(notable) >= 1
    for (_, attrs), tok in zip(spans, notable):
        assert f"background:{render.prob_colour(tok.prob)}" in attrs["style"]
        assert attrs["data-decision"] == tok.decision
        title = attrs["title"]
        assert tok.decision in title
        if tok.prob is not None:
            assert f"p = {render.fmt_prob(tok.prob)} rank {tok.rank}" in title
            assert f"exit layer {tok.exit_layer}" in title
            for alt in tok.alternatives[:3]:
                assert repr(alt.text) in title
    # the changed token carries the change decision
    assert any(a["data-decision"] == "change" for _, a in spans)


def test_stored_views_are_compact():
    """A stored output is a small multiple of its cell: likely tokens of one colour share a span,
    and the JSON leaves the token records out."""
    source = "".join(f"v{k} = [{k}, {k + 1}]\n" for k in range(12))
    toks, pos = [], 0
    for i, piece in enumerate(re.findall(r"\w+|\s+|[^\w\s]", source)):
        toks.append(_tok(i, piece, pos, source.count("\n", 0, len(source[:pos].encode())) + 1, 0, prob=0.9))
        pos += len(piece.encode())
    r = CheckResult(source=source, tokens=toks, corrected=source, stats={"n_layer": 4, "tokens": len(toks)})
    bundle = mimebundle(r)
    heat = bundle["text/html"][bundle["text/html"].index('class="cc-heat"'):]
    assert heat.count("<span") <= 3
    assert len(json.dumps(bundle[MIME_JSON])) < 4 * len(source)


def test_html_diff_marks_the_change_and_labels_its_kind(result):
    html = mimebundle(result)["text/html"]
    tags = parse(html)
    rows = [a["data-sign"] for _, a in tags.with_class("cc-row")]
    assert rows == ["ctx", "del", "ins"]
    assert re.search(r'class="cc-del"[^>]*>pritn</span>', html)
    assert re.search(r'class="cc-ins"[^>]*>print</span>', html)
    kinds = {e.kind for e in result.edits}
    assert {re.sub("<[^>]+>", "", m) for m in re.findall(r'class="cc-kind"[^>]*>([^<]*)<', html)} == kinds


def test_html_early_exit_says_what_it_saved(result):
    html = mimebundle(result)["text/html"]
    tags = parse(html)
    n_layer = result.stats["n_layer"]
    counts = Counter(t.exit_layer for t in result.tokens if t.exit_layer is not None)
    # the default policy tests at the last layer only: one bar would tell nothing, so no chart
    assert set(counts) == {n_layer - 1}
    assert not tags.with_class("cc-bar")
    rows, heads = result.stats["rows_scored"], result.stats["full_heads"]
    assert f"every token ran all {n_layer} layers" in html
    assert (f"the cheap exit test settled {rows - heads} of {rows} rows "
            f"({100 * (rows - heads) / rows:.0f}%) without the full {result.stats['n_vocab']:,}-token "
            "output head") in html
    # the stats line names the model and the policy as a user does
    assert result.stats["model"] in html and "exit policy head" in html
    assert result.stats["exit_policy"] not in html


def test_html_histogram_counts_tokens_per_exit_layer_when_tokens_exit_early():
    toks = [_tok(i, "x", i, 1, i, exit_layer=layer) for i, layer in enumerate([1, 1, 3, 2, 3])]
    r = CheckResult(source="xxxxx", tokens=toks, corrected="xxxxx",
                    stats={"n_layer": 4, "tokens": 5, "layers_possible": 20, "layers_computed": 15})
    html = mimebundle(r)["text/html"]
    bars = parse(html).with_class("cc-bar")
    assert [(int(a["data-layer"]), int(a["data-count"])) for _, a in bars] == [(1, 2), (2, 1), (3, 2)]
    assert parse(html).with_class("cc-mean")
    mean = (2 * 2 + 3 + 4 * 2) / 5
    assert f"tokens left the model after {mean:.1f} of 4 layers on average" in html
    assert "25% of the layer computations skipped" in html


# -- the live widget -------------------------------------------------------------------------------

def test_view_state_after_streaming_equals_the_result(result):
    view = CheckView(source=result.source, title="cell 1")
    assert view.status == "ready"
    for tok in result.tokens:
        view.add(tok)
    for edit in result.edits:
        view.add(edit)
    assert view.status == "running"
    view.finish(result)
    assert view.status == "done" and view.result is result
    assert [t["prob"] for t in view.tokens] == [t.prob for t in result.tokens]
    assert [t["text"] for t in view.tokens] == [t.text for t in result.tokens]
    assert [t["color"] for t in view.tokens] == [render.prob_colour(t.prob) for t in result.tokens]
    assert [t["alternatives"] for t in view.tokens] == \
        [[{"text": a.text, "prob": a.prob} for a in t.alternatives] for t in result.tokens]
    counts = Counter(t.exit_layer for t in result.tokens if t.exit_layer is not None)
    assert view.n_layer == result.stats["n_layer"]
    assert view.exit_counts == [counts.get(k, 0) for k in range(view.n_layer)]
    assert view.edits == [vars(e) for e in result.edits]
    assert view.findings == [vars(f) for f in result.findings]
    assert view.corrected == result.corrected
    assert "-pritn(x)" in view.diff_text and view.diff_text == render.unified_diff(result)
    assert "pritn" in view.diff_html and "cc-kind" in view.diff_html
    assert "tokens/s" in view.stats_text and result.stats["model"] in view.stats_text


def test_view_bundle_has_the_widget_and_static_fallbacks(result):
    view = CheckView(source=result.source)
    data, _ = view._repr_mimebundle_()
    assert WIDGET_MIME in data and data["text/plain"] == "codecheck: not run yet"
    view.finish(result)
    data, _ = view._repr_mimebundle_()
    assert data[WIDGET_MIME]["model_id"] == view.model_id
    static = mimebundle(result)
    assert data["text/plain"] == static["text/plain"]
    assert data["text/html"] == static["text/html"]
    assert data[MIME_JSON] == static[MIME_JSON]


def test_view_run_streams_a_real_check(result):
    view = CheckView(source=BUGGY)
    seen_running = []
    view.observe(lambda ch: seen_running.append(len(ch["new"])), names="tokens")
    view.run(block=True)
    assert view.status == "done"
    assert view.result.corrected == result.corrected
    assert [t["text"] for t in view.tokens] == [t.text for t in result.tokens]
    assert [t["decision"] for t in view.tokens] == [t.decision for t in result.tokens]
    assert seen_running and seen_running[-1] == len(result.tokens)
    with pytest.raises(RuntimeError):
        view.run()


def test_cancel_message_stops_a_running_check(model_path):
    source = "\n".join(f"values_{k} = [{k}, {k + 1}]\nprint(sum(values_{k}))" for k in range(20)) + "\n"
    view = CheckView(source=source)
    view.run()
    deadline = time.monotonic() + 120
    while not (view.tokens or view._pending_tokens) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert view.running
    t0 = time.monotonic()
    view._on_front_end_msg(view, {"event": "cancel"}, [])     # what the Cancel button sends
    partial = view.wait(timeout=60)
    assert partial is not None and partial.stats["cancelled"]
    assert view.status == "cancelled"
    assert len(partial.tokens) < partial.stats["tokens"]
    assert time.monotonic() - t0 < 20
    assert mimebundle(partial)["text/plain"].startswith(
        f"codecheck: cancelled after {len(partial.tokens)} of {partial.stats['tokens']} tokens")


def test_run_reports_a_failing_check_in_the_view(model_path):
    view = CheckView(source="x = 1\n")
    view.run(block=True, mode="no-such-mode")
    assert view.status == "error" and "mode" in view.message
    assert view.result is None
    assert "error" in view._repr_mimebundle_()[0]["text/plain"]
    with pytest.raises(TypeError):
        CheckView(source="x\n").run(cancel=lambda: False)


def test_applied_report_from_the_front_end_is_kept():
    view = CheckView(source="x\n")
    view._on_front_end_msg(view, {"event": "applied", "ok": False, "how": "no-editor", "message": "m"}, [])
    assert view.applied == {"ok": False, "how": "no-editor", "message": "m"}


# -- hand-built results: edge cases ----------------------------------------------------------------

def _tok(i, text, start, line, col, prob=0.5, decision="accept", exit_layer=3):
    return TokenRecord(index=i, text=text, start=start, end=start + len(text.encode()), line=line,
                       column=col, prob=prob, rank=0 if prob and prob > 0.3 else 7,
                       alternatives=[Alternative("alt<", 0.3)], exit_layer=exit_layer, decision=decision)


def test_empty_result_renders():
    empty = CheckResult(source="")
    bundle = mimebundle(empty)
    assert bundle["text/plain"] == "codecheck: no findings (0 tokens)"
    tags = parse(bundle["text/html"])
    assert not tags.with_class("cc-tok") and not tags.with_class("cc-bar")
    assert "no layer data" in bundle["text/html"]
    view = CheckView(source="")
    view.finish(empty)
    assert view.status == "done" and view.exit_counts == [] and view.diff_text == ""


def test_multibyte_source_diff_and_heat_map():
    source = "s = 'h\u00e9\u2192'\nprnt(s)\n"        # é: 2 bytes, →: 3 bytes
    data = source.encode()
    p = data.index(b"prnt")
    arrow = data.index("\u2192".encode())
    toks = [_tok(0, "s = 'h\u00e9", 0, 1, 0), _tok(1, "\u2192'", arrow, 1, 7, prob=0.001),
            _tok(2, "\n", data.index(b"\n"), 1, 9), _tok(3, "prnt", p, 2, 0, prob=2e-5, decision="change"),
            _tok(4, "(s)\n", p + 4, 2, 4)]
    edits = [Edit("change", arrow, arrow + 3, 1, 7, "\u2192", "->"), Edit("replace", p, p + 4, 2, 0, "prnt", "print")]
    corrected = "s = 'h\u00e9->'\nprint(s)\n"
    r = CheckResult(source=source, tokens=toks, edits=edits, corrected=corrected,
                    findings=[Finding(2, 0, 9.9, "replace", "'prnt' looks wrong here", "print(s)")],
                    stats={"n_layer": 4, "tokens": 5})
    html = mimebundle(r)["text/html"]
    parse(html)
    assert re.search(r'class="cc-del"[^>]*>\u2192</span>', html)
    assert re.search(r'class="cc-ins"[^>]*>-&gt;</span>', html)
    assert re.search(r'class="cc-del"[^>]*>prnt</span>', html)
    assert [tag[1]["data-sign"] for tag in parse(html).with_class("cc-row")] == ["del", "ins", "del", "ins"]
    plain = mimebundle(r)["text/plain"]
    assert "-s = 'h\u00e9\u2192'" in plain and "+s = 'h\u00e9->'" in plain
    assert "+print(s)" in plain
    # a partial result: the undecided rest of the source is shown greyed, not lost
    partial = CheckResult(source=source, tokens=toks[:2], stats={"cancelled": True, "tokens": 5})
    html = mimebundle(partial)["text/html"]
    assert 'class="cc-pending"' in html and "prnt(s)" in html
    assert mimebundle(partial)["text/plain"] == "codecheck: cancelled after 2 of 5 tokens (partial result)"


def test_html_escapes_code_and_messages():
    source = "x = '<script>alert(1)</script>'\n"
    toks = [_tok(0, "x = '", 0, 1, 0), _tok(1, "<script>", 5, 1, 5, prob=1e-6, decision="flag"),
            _tok(2, "alert(1)</script>'\n", 13, 1, 13)]
    r = CheckResult(source=source, tokens=toks,
                    edits=[Edit("delete", 5, 13, 1, 5, "<script>", "")],
                    corrected="x = 'alert(1)</script>'\n",
                    findings=[Finding(1, 5, 13.0, "delete", "'<script>' \"seems\" superfluous & odd", None)],
                    stats={"n_layer": 4, "model": "<b>m</b>"})
    html = mimebundle(r)["text/html"]
    assert "<script" not in html and "</script" not in html and "<b>m</b>" not in html
    assert "&lt;script&gt;" in html and "&quot;seems&quot; superfluous &amp; odd" in html
    tags = parse(html)
    titles = [a["title"] for _, a in tags.with_class("cc-tok")]
    assert "'<script>'" in titles[0] and "alt<" in titles[0]     # unescaped by the parser: intact


def test_colour_scale_is_ordered_and_readable():
    probs = [1e-6, 1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0]
    lum = []
    for p in probs:
        r, g, b = (int(render.prob_colour(p)[k:k + 2], 16) / 255 for k in (1, 3, 5))
        lum.append(0.2126 * r + 0.7152 * g + 0.0722 * b)
    assert lum == sorted(lum) and lum[1] < lum[2] < lum[-1]
    assert render.prob_colour(None) == render.UNSCORED
    assert render.ink_for(render.prob_colour(1e-4)) == "#ffffff"
    assert render.ink_for(render.prob_colour(1.0)) == "#111111"


# -- severity: errors and warnings, with a fix or without -------------------------------------------

SEV_SOURCE = "import numpy as np\nprint(np.mean(valuez))\nfor v in [1]:\n    prnt(v)\n"
SEV_ERROR = Finding(2, 14, 100.0, "undefined-name", "name 'valuez' is not defined", None,
                    severity="error", gain=None)
SEV_WARNING = Finding(4, 4, 6.5, "replace", "'prnt' looks wrong here: the model expects 'print'",
                      "    print(v)", severity="warning", gain=6.5)


def _severity_result(findings, with_edit=True) -> CheckResult:
    p = SEV_SOURCE.encode().index(b"prnt")
    edits = [Edit("replace", p, p + 4, 4, 4, "prnt", "print")] if with_edit else []
    corrected = SEV_SOURCE.replace("prnt", "print") if with_edit else SEV_SOURCE
    return CheckResult(source=SEV_SOURCE, edits=edits, corrected=corrected, findings=findings,
                       stats={"n_layer": 4, "tokens": 30})


def _finding_divs(html: str):
    """(data-severity, badge colour, text) of each listed finding."""
    out = []
    for m in re.finditer(r'<div class="cc-finding" data-severity="(\w+)"[^>]*>(.*?)</div>', html):
        colour = re.search(r'class="cc-severity"[^>]*background:(#[0-9a-f]{6})', m.group(2)).group(1)
        out.append((m.group(1), colour, html_module.unescape(re.sub("<[^>]+>", "", m.group(2)))))
    return out


def test_errors_and_warnings_are_listed_with_their_severity():
    r = _severity_result([SEV_ERROR, SEV_WARNING])
    bundle = mimebundle(r)
    plain = bundle["text/plain"].split("\n")
    assert plain[0] == "codecheck: 2 findings: 1 error, 1 warning (30 tokens)"
    assert plain[-2:] == ["line 2:15: error[undefined-name]: name 'valuez' is not defined",
                          "line 4:5: warning[replace]: 'prnt' looks wrong here: the model expects 'print'"]
    assert "-    prnt(v)" in plain and "+    print(v)" in plain
    html = bundle["text/html"]
    parse(html)
    assert _finding_divs(html) == [
        ("error", render.SEVERITY_COLOUR["error"],
         "error line 2:15 [undefined-name] name 'valuez' is not defined"),
        ("warning", render.SEVERITY_COLOUR["warning"],
         "warning line 4:5 [replace] 'prnt' looks wrong here: the model expects 'print'")]
    assert render.SEVERITY_COLOUR == {"error": "#d1242f", "warning": "#9a6700"}
    assert 'title="gain 6.50 nats' in html
    # the headline: red with an error, amber with warnings only
    assert 'class="cc-headline" style="font-weight:600;color:#d1242f"' in html
    only_warning = mimebundle(_severity_result([SEV_WARNING]))
    assert only_warning["text/plain"].startswith("codecheck: 1 finding: 1 warning (30 tokens)")
    assert 'class="cc-headline" style="font-weight:600;color:#9a6700"' in only_warning["text/html"]


def test_findings_without_a_fix_are_listed_too():
    """A finding with no replacement (an undefined name) is listed even when
    the model proposes no change at all."""
    r = _severity_result([SEV_ERROR], with_edit=False)
    html = render.diff_html(r)
    assert "no fix proposed" in html and "the model proposes no change" not in html
    assert _finding_divs(html) == [("error", "#d1242f",
                                    "error line 2:15 [undefined-name] name 'valuez' is not defined")]
    plain = mimebundle(r)["text/plain"]
    assert plain == ("codecheck: 1 finding: 1 error (30 tokens)\n"
                     "line 2:15: error[undefined-name]: name 'valuez' is not defined")
    # a clean cell keeps its note and lists nothing
    clean = CheckResult(source="x = 1\n", stats={"tokens": 4})
    assert "the model proposes no change" in render.diff_html(clean)
    assert "cc-finding" not in render.diff_html(clean)


def test_view_state_carries_severity():
    r = _severity_result([SEV_ERROR, SEV_WARNING])
    view = CheckView(source=r.source)
    view.finish(r)
    assert [(f["severity"], f["gain"], f["kind"]) for f in view.findings] == [
        ("error", None, "undefined-name"), ("warning", 6.5, "replace")]
    assert [d[0] for d in _finding_divs(view.diff_html)] == ["error", "warning"]
    no_fix = _severity_result([SEV_ERROR], with_edit=False)
    view = CheckView(source=no_fix.source)
    view.finish(no_fix)
    assert view.edits == [] and "name &#x27;valuez&#x27; is not defined" in view.diff_html


def test_severity_of_findings_from_older_versions_is_warning():
    assert render.severity({"kind": "replace"}) == "warning"
    assert render.severity({"kind": "flag", "severity": None}) == "warning"
    assert render.severity({"severity": "error"}) == "error"
    assert render.severity_counts([{"severity": "error"}, {}, {}]) == "1 error, 2 warnings"
    assert render.severity_counts([]) == ""


def test_diff_of_a_long_cell_shows_the_change_with_a_few_lines_of_context():
    source = "".join(f"value_{k} = {k}\n" for k in range(250))
    start = len("".join(f"value_{k} = {k}\n" for k in range(119)))
    edit = Edit("replace", start, start + 9, 120, 0, "value_119", "value_19")
    r = CheckResult(source=source, edits=[edit], corrected=source.replace("value_119 =", "value_19 ="),
                    stats={"n_layer": 4})
    html = render.diff_html(r)
    rows = parse(html).with_class("cc-row")
    assert [a["data-sign"] for _, a in rows] == ["gap", "ctx", "ctx", "del", "ins", "ctx", "ctx", "gap"]
    cells = re.findall(r'<tr class="cc-row"[^>]*><td[^>]*>(\d*)</td><td[^>]*>[^<]*</td><td[^>]*>(.*?)</td></tr>', html)
    assert [num for num, _ in cells] == ["", "118", "119", "120", "", "121", "122", ""]
    assert cells[0][1] == "117 unchanged lines" and cells[-1][1] == "128 unchanged lines"


def test_a_cancelled_check_counts_the_tokens_it_decided():
    stats = {"tokens": 3158, "time_s": 2.0, "cancelled": True, "exit_policy": None, "model": "M"}
    text = " \u00b7 ".join(t for _, t in render.stats_parts(stats, 1024))
    assert text.startswith("1,024 of 3,158 tokens decided \u00b7 512.0 tokens/s, 2.00 s")
    assert "exit policy none (full depth)" in text and text.endswith("cancelled")
    done = dict(stats, cancelled=False)
    assert render.stats_parts(done, 3158)[:2] == [("tokens", "3,158 tokens"), ("timing", "1579.0 tokens/s, 2.00 s")]


def test_the_stats_line_and_the_text_say_how_many_findings_were_silenced():
    stats = {"tokens": 12, "time_s": 0.5, "model": "M", "silenced": 2}
    assert render.stats_parts(stats, 12)[-1] == ("silenced", "2 silenced")
    result = CheckResult(source="x = 1\n", stats=stats)
    assert render.text_plain(result).startswith("codecheck: no findings (12 tokens), 2 silenced")
    assert "silenced" not in " ".join(t for _, t in render.stats_parts(dict(stats, silenced=0), 12))
