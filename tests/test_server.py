"""The server extension over HTTP (pytest-jupyter's jp_fetch), with the real default model.

Only two tests run the model: the happy path on a two-line cell, and one busy-worker scenario
(stream, queue full, cancel) whose long cell is cancelled as soon as the worker is seen busy.
"""
from __future__ import annotations

import asyncio
import json

import pytest

from jupyter_codecheck import CheckResult

pytest_plugins = ["pytest_jupyter.jupyter_server"]

LONG = 300  # seconds: a check on a loaded 2-core machine can be slow; jp_fetch's default is 20


@pytest.fixture
def jp_server_config():
    return {
        "ServerApp": {"jpserver_extensions": {"jupyter_codecheck": True}},
        # one check may wait while one runs: the third is refused
        "CodecheckServer": {"queue_size": 1, "max_request_bytes": 4096},
    }


@pytest.fixture
def checker(jp_serverapp):
    checker = jp_serverapp.web_app.settings["codecheck"]
    yield checker
    checker.shutdown()


def post(jp_fetch, body, path="check", **kwargs):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return jp_fetch("codecheck", path, method="POST", body=data, raise_error=False,
                    request_timeout=LONG, **kwargs)


def message(response) -> str:
    return json.loads(response.body)["message"]


async def test_routes_require_authentication(jp_fetch, checker):
    # Given no token: every route answers 403, none runs anything
    no_auth = {"Authorization": ""}
    for method, path, body in [("GET", "status", None), ("POST", "check", '{"source": "x = 1\\n"}'),
                               ("POST", "stream", '{"source": "x = 1\\n"}'), ("DELETE", "check/abc", None)]:
        r = await jp_fetch("codecheck", *path.split("/"), method=method, body=body, headers=no_auth,
                           raise_error=False, allow_nonstandard_methods=True)
        assert r.code == 403, (method, path, r.code)
        # what is missing is said, not the XSRF check that fails first
        assert "authentication" in message(r) and "_xsrf" not in message(r), (method, path, r.body)
    assert checker.status()["running"] is None and checker.status()["waiting"] == 0


async def test_status(jp_fetch, checker):
    r = await jp_fetch("codecheck", "status")
    status = json.loads(r.body)
    assert status["queue_size"] == 1 and status["waiting"] == 0 and status["running"] is None


@pytest.mark.parametrize("body, status, says", [
    (b'{"source": "x = 1\\n",', 400, "malformed JSON at line 1"),
    (b"[1, 2]", 400, "must be a JSON object"),
    (b'{"context": []}', 400, '"source"'),
    (b'{"source": "x", "context": "y = 1"}', 400, '"context" must be a list of strings'),
    (b'{"source": "x", "earlier": [1]}', 400, '"earlier" must be a list of strings'),
    (b'{"source": "x", "options": {"nope": 1}}', 400, "unknown option 'nope'"),
    (b'{"source": "x", "options": {"accept_prob": "high"}}', 400, "accept_prob: 'high' is not a probability"),
    (b'{"source": "x", "options": {"mode": "fast"}}', 400, "mode: 'fast' is not one of 'batched', 'sequential'"),
    # values check() would refuse only once the worker runs it
    (b'{"source": "x", "options": {"accept_prob": 7}}', 400, r"accept_prob: 7 is not a probability in (0, 1]"),
    (b'{"source": "x", "options": {"top_p": 0}}', 400, "bad options"),
    (b'{"source": "x", "options": {"exit_policy": "ref-top9000:x"}}', 400, "exit test"),
    (b'{"source": "x", "options": {"n_threads": 64}}', 400, "set by the server"),
    (b'{"source": "x", "options": {"model": "/elsewhere.gguf"}}', 400, "c.CodecheckServer.model"),
    (b'{"source": "x", "id": "a/b"}', 400, '"id" must be'),
    (b'{"source": "x", "facts": [{"kind": "key"}]}', 400, "bad kernel fields: facts"),
    (b'{"source": "x", "later": "y = 1"}', 400, "bad kernel fields: later"),
    # a JSON escape that is no character: a bad request, not the check's UnicodeEncodeError (a 500)
    (b'{"source": "x = \'\\ud800\'"}', 400, '"source" holds a lone surrogate'),
    (b'{"source": "x", "context": ["\\udc80"]}', 400, '"context" holds a lone surrogate'),
    (b'{"source": "' + b"x" * 5000 + b'"}', 413, "at most 4096"),
    (b'{"cells": ["x = 1"], "index": 1}', 400, '"index" must be the checked cell'),
    (b'{"cells": "x = 1", "index": 0}', 400, '"cells" must be a list of strings'),
    (b'{"cells": ["x = 1"], "index": 0, "context": ["y"]}', 400, "exclude each other"),
    (b'{"cells": ["x = 1"], "index": 0, "source": "y = 2"}', 400, "differs from cells[index]"),
    (b'{"cells": ["x = 1"], "index": 0, "context_start": -1}', 400, '"context_start" must be'),
])
async def test_bad_requests_say_why(jp_fetch, checker, body, status, says):
    for path in ("check", "stream"):
        r = await post(jp_fetch, body, path)
        assert r.code == status, (path, r.body)
        assert says in message(r)
    assert checker.status()["running"] is None and checker.status()["waiting"] == 0


async def test_check_a_cell(jp_fetch, checker):
    r = await post(jp_fetch, {"source": "x = [1, 2, 3]\npritn(x)\n", "context": ["import os"]})
    assert r.code == 200, r.body
    result = CheckResult.from_json(r.body.decode())
    assert result.source == "x = [1, 2, 3]\npritn(x)\n"
    assert result.tokens and not result.stats["cancelled"]
    assert [f.line for f in result.findings] == [2]
    assert "print(x)" in result.corrected
    assert r.headers["X-Codecheck-Id"]
    # the panel shows each finding's severity: the JSON carries it (and a warning's gain)
    (finding,) = json.loads(r.body)["findings"]
    assert finding["severity"] in ("error", "warning") and "gain" in finding
    # the panel draws the diff rows it receives
    assert [row["kind"] for row in json.loads(r.body)["diff_rows"]] == ["same", "removed", "added"]


async def test_cells_before_the_context_define_names(jp_fetch, checker):
    # the panel sends the cells its context window leaves out as "earlier": what they define is
    # no undefined-name error, though the model does not read them
    body = {"source": "print(helper(2))\n", "context": ["y = 2"]}
    r = await post(jp_fetch, body)
    assert [f.kind for f in CheckResult.from_json(r.body.decode()).findings] == ["undefined-name"]
    r = await post(jp_fetch, {**body, "earlier": ["def helper(n):\n    return n\n"]})
    assert r.code == 200 and CheckResult.from_json(r.body.decode()).findings == []


async def test_the_server_picks_a_cells_context_from_the_notebooks_cells(jp_fetch, checker):
    # the panel sends the notebook's code cells and which one to check; the server chooses the
    # context, the cells before it and the cells after it as every view does (cell_check)
    cells = ["def helper(n):\n    return n\n", "%%bash\necho hi\n", "y = 2\n", "print(helper(y) + total)\n",
             "total = 3\n"]
    r = await post(jp_fetch, {"cells": cells, "index": 3, "context_chars": 10})
    assert r.code == 200, r.body
    result = CheckResult.from_json(r.body.decode())
    (finding,) = result.findings         # helper: in a cell before the window; total: only later
    assert finding.kind == "undefined-name" and "only the next code cell defines it" in finding.message
    assert result.stats["context_start"] == 1         # the window holds "y = 2" only


async def test_the_kernels_facts_and_later_cells_reach_a_server_check(jp_fetch, checker):
    # the server has no kernel: the panel asks the notebook's kernel for the cell's facts
    # (facts.kernel_facts there) and sends them; the server's check reports them, and the
    # model picks the fix among their exact alternatives
    from jupyter_codecheck.facts import KernelFact
    source = 'm = df["pirce"].mean()\nprint(m)\n'
    fact = KernelFact("key", 1, 7, 14, "DataFrame has no column 'pirce'", ['"price"', '"prize"'])
    r = await post(jp_fetch, {"source": source, "names": ["df"], "facts": [fact.to_dict()]})
    assert r.code == 200, r.body
    result = CheckResult.from_json(r.body.decode())
    # the finding spans the whole quoted key, as the fact names it (the panel underlines that)
    assert [(f.kind, f.severity, f.column, f.end_column) for f in result.findings] == [("key", "error", 7, 14)]
    assert result.corrected.startswith('m = df["price"]')
    r = await post(jp_fetch, {"source": "print(total)\n", "later": ["total = 3\n"]})
    (finding,) = CheckResult.from_json(r.body.decode()).findings
    assert "only the next code cell defines it" in finding.message


async def test_busy_worker_streams_refuses_and_cancels(jp_fetch, checker):
    # Given a long cell streaming from the worker, and a second check waiting behind it
    long_cell = "".join(f"def f{i}(a, b):\n    return a * {i} + b\n\n" for i in range(80))
    lines: list[dict] = []
    first_token = asyncio.Event()
    buf = bytearray()

    def on_chunk(chunk: bytes):
        buf.extend(chunk)
        while b"\n" in buf:
            line, _, rest = bytes(buf).partition(b"\n")
            buf[:] = rest
            lines.append(json.loads(line))
            if lines[-1]["type"] == "token":
                first_token.set()

    streaming = asyncio.ensure_future(post(jp_fetch, {"source": long_cell, "id": "long"}, "stream",
                                           streaming_callback=on_chunk))
    await asyncio.wait_for(first_token.wait(), LONG)
    waiting = asyncio.ensure_future(post(jp_fetch, {"source": "y = 2\n", "id": "second"}))
    for _ in range(200):
        if checker.status()["waiting"] == 1:
            break
        await asyncio.sleep(0.05)
    assert checker.status() == {"model": None, "queue_size": 1, "waiting": 1, "running": "long"}

    # When a third check arrives, then the other two are cancelled
    refused = await post(jp_fetch, {"source": "z = 3\n"})
    same_id = await post(jp_fetch, {"source": "z = 3\n", "id": "second"})
    unknown = await jp_fetch("codecheck", "check", "nope", method="DELETE", raise_error=False)
    for check_id in ("second", "long"):
        r = await jp_fetch("codecheck", "check", check_id, method="DELETE")
        assert r.code == 202
    stream_response = await asyncio.wait_for(streaming, LONG)
    second = await asyncio.wait_for(waiting, LONG)

    # Then the third was refused at once, with what to do
    assert refused.code == 429 and "try again" in message(refused) and refused.headers["Retry-After"]
    assert same_id.code == 409
    assert unknown.code == 404
    # the stream sent the events in order and ended with the partial result
    assert stream_response.code == 200
    kinds = [e["type"] for e in lines]
    assert kinds[:3] == ["queued", "started", "token"] and kinds[-1] == "result"
    assert set(kinds[2:-1]) <= {"token", "edit"}
    partial = CheckResult.from_dict(lines[-1]["result"])
    assert partial.stats["cancelled"] and 0 < len(partial.tokens) < partial.stats["tokens"]
    assert sorted(e["token"]["index"] for e in lines if e["type"] == "token") == \
        sorted(t.index for t in partial.tokens)
    # the waiting check, cancelled before it started, returns the library's cancelled result
    assert second.code == 200
    assert CheckResult.from_json(second.body.decode()).stats["cancelled"]
    assert checker.status()["running"] is None and checker.status()["waiting"] == 0


async def test_too_long_is_413_and_a_long_cell_is_checked_in_pieces(jp_fetch, checker, monkeypatch):
    # Given a server that takes large requests, and pieces of a few lines
    checker.max_request_bytes = 1 << 20
    from jupyter_codecheck.core import long_sources
    monkeypatch.setattr(long_sources, "PIECE_CHARS", 40)
    # When one line is longer than the model's window: 413 with what to do, on both routes
    one_line = "x = [" + ", ".join(str(k) for k in range(4000)) + "]\n"
    r = await post(jp_fetch, {"source": one_line})
    assert r.code == 413 and "split it into smaller cells" in message(r), r.body
    r = await post(jp_fetch, {"source": one_line}, "stream")
    events = [json.loads(line) for line in r.body.splitlines()]
    assert events[-1]["type"] == "error" and events[-1]["status"] == 413
    # When a cell is longer than a piece: it is checked piece by piece, the stream says which
    source = "x = [1, 2, 3]\nprint(x)\n" + "y = len(x)\npritn(y)\n"
    r = await post(jp_fetch, {"source": source}, "stream")
    events = [json.loads(line) for line in r.body.splitlines()]
    starts = [source.count("\n", 0, offset) + 1 for offset, _ in long_sources.split_source(source, 40)]
    assert len(starts) == 2
    assert [e["piece"]["first_line"] for e in events if e["type"] == "piece"] == starts
    result = CheckResult.from_dict(events[-1]["result"])
    assert result.stats["pieces"] == 2 and [f.line for f in result.findings] == [4]
    assert "".join(t.text for t in result.tokens) == source


async def test_a_failing_check_is_a_500_with_the_reason(jp_fetch, checker, tmp_path):
    # Given a server that lets requests pick a model, and a model file that does not exist
    checker.allow_client_model = True
    missing = str(tmp_path / "missing.gguf")
    r = await post(jp_fetch, {"source": "x = 1\n", "options": {"model": missing}})
    assert r.code == 500 and "model file not found" in message(r)
    r = await post(jp_fetch, {"source": "x = 1\n", "options": {"model": missing}}, "stream")
    events = [json.loads(line) for line in r.body.splitlines()]
    assert [e["type"] for e in events] == ["queued", "started", "error"]
    assert events[-1]["status"] == 500 and "model file not found" in events[-1]["message"]


async def test_a_check_during_shutdown_is_503_with_retry_after(jp_fetch, checker):
    # the checker stops before the server's loop does: a request then was a 500 (RuntimeError)
    checker.shutdown()
    for path in ("check", "stream"):
        r = await post(jp_fetch, {"source": "x = 1\n"}, path)
        assert r.code == 503 and "shutting down" in message(r), r.body
        assert int(r.headers["Retry-After"]) > 0
