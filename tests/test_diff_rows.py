"""CheckResult.diff_rows(): the one diff every view draws, built from the edits (hand-built
results; the rows of a real check are held in test_check.py)."""
from __future__ import annotations

import json

from jupyter_codecheck import CheckResult, Edit
from jupyter_codecheck.core.result import DiffRow, apply_edits


def _result(source: str, *edits: tuple[str, str, str]) -> CheckResult:
    """`source` with edits given as (original text, replacement, kind); an empty original is an
    insertion at the first '^' of the source, which is then removed."""
    at = source.find("^")
    source = source.replace("^", "")
    data = source.encode()
    out = []
    for original, replacement, kind in edits:
        start = data.index(original.encode()) if original else len(source[:at].encode())
        out.append(Edit(kind, start, start + len(original.encode()), 1, 0, original, replacement))
    return CheckResult(source=source, edits=out, corrected=apply_edits(data, out).decode())


def _rows(r: CheckResult) -> list[tuple]:
    return [(row.kind, row.old_line, row.new_line, row.text, row.spans, row.edit_kinds)
            for row in r.diff_rows()]


def test_a_changed_line_is_removed_then_added_with_its_characters_marked():
    r = _result("s = 'h\u00e9\u2192'\nprnt(s)\n", ("\u2192", "->", "change"), ("prnt", "print", "replace"))
    # spans count characters, not bytes: the arrow is the 8th character (and 3 bytes)
    assert _rows(r) == [
        ("removed", 1, None, "s = 'h\u00e9\u2192'", [(7, 8)], []),
        ("added", None, 1, "s = 'h\u00e9->'", [(7, 9)], ["change"]),
        ("removed", 2, None, "prnt(s)", [(0, 4)], []),
        ("added", None, 2, "print(s)", [(0, 5)], ["replace"])]


def test_no_edits_no_rows():
    assert CheckResult(source="x = 1\n").diff_rows() == []
    assert CheckResult(source="").diff_rows() == []


def test_whole_lines_inserted_or_deleted_shift_the_corrected_line_numbers():
    inserted = _result("a = 1\n^b = 2\nc = 3\n", ("", "z = 0\n", "insert"))
    assert _rows(inserted) == [
        ("same", 1, 1, "a = 1", [], []),
        ("added", None, 2, "z = 0", [(0, 5)], ["insert"]),
        ("same", 2, 3, "b = 2", [], []),
        ("same", 3, 4, "c = 3", [], [])]
    deleted = _result("a = 1\nb = 2\nc = 3\n", ("b = 2\n", "", "delete"))
    assert _rows(deleted) == [
        ("same", 1, 1, "a = 1", [], []),
        ("removed", 2, None, "b = 2", [(0, 5)], ["delete"]),
        ("same", 3, 2, "c = 3", [], [])]
    at_end = _result("a = 1^", ("", "\nprint(a)", "insert"))
    assert _rows(at_end) == [("same", 1, 1, "a = 1", [], []), ("added", None, 2, "print(a)", [(0, 8)], ["insert"])]


def test_a_removed_line_end_joins_the_next_line_into_the_change():
    source = "a = (1,\n2)\nb = 3\n"
    newline = source.index("\n")
    r = CheckResult(source=source, edits=[Edit("delete", newline, newline + 1, 1, 7, "\n", "")])
    assert _rows(r) == [
        ("removed", 1, None, "a = (1,", [], []),
        ("removed", 2, None, "2)", [], []),
        ("added", None, 1, "a = (1,2)", [], ["delete"]),
        ("same", 3, 2, "b = 3", [], [])]


def test_unchanged_lines_far_from_a_change_fold_into_gap_rows():
    source = "".join(f"value_{k} = {k}\n" for k in range(250))
    r = _result(source, ("value_119 =", "value_19 =", "replace"))
    rows = r.diff_rows()
    assert [(row.kind, row.old_line, row.new_line, row.lines) for row in rows] == [
        ("gap", 1, 1, 117), ("same", 118, 118, 1), ("same", 119, 119, 1), ("removed", 120, None, 1),
        ("added", None, 120, 1), ("same", 121, 121, 1), ("same", 122, 122, 1), ("gap", 123, 123, 128)]
    assert [row.kind for row in r.diff_rows(context=0)] == ["gap", "removed", "added", "gap"]
    # a single unchanged line between two changes is shown, not folded
    near = _result("a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\n", ("a = 1", "a = 0", "change"),
                   ("f = 6", "f = 0", "change"))
    assert "gap" not in [row.kind for row in near.diff_rows()]


def test_the_json_carries_the_rows():
    r = _result("x = [1, 2, 3]\npritn(x)\n", ("pritn", "print", "replace"))
    d = json.loads(r.to_json())
    assert d["diff_rows"] == [
        {"kind": "same", "old_line": 1, "new_line": 1, "text": "x = [1, 2, 3]", "spans": [], "lines": 1,
         "edit_kinds": []},
        {"kind": "removed", "old_line": 2, "new_line": None, "text": "pritn(x)", "spans": [[0, 5]], "lines": 1,
         "edit_kinds": []},
        {"kind": "added", "old_line": None, "new_line": 2, "text": "print(x)", "spans": [[0, 5]], "lines": 1,
         "edit_kinds": ["replace"]}]
    assert list(d["diff_rows"][0]) == list(vars(DiffRow("same", 1, 1, "")))
    # the rows follow from the edits: a result read back has the same ones
    assert CheckResult.from_json(r.to_json()).diff_rows() == r.diff_rows()
