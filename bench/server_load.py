"""The server under load (issue 27): many clients at once against one real jupyter server.

    python bench/server_load.py DATA [--requests 200] [--clients 20] [--queue-size 4] [--seed 0]

DATA: cells to send: a .jsonl of notebook cells (`cell`, `earlier_cells`, as
/work/shared/benchmarks/notebook_clean.jsonl), a notebook, a .py file or a folder of them; the
short cells are used, each with the cell before it as context.

The server runs as its own process on 127.0.0.1 with a token and the default model. First each
distinct cell is checked once, one request at a time: the serial reference. Then `--clients`
threads send `--requests` requests between them, mixing `check`, `stream` and a stream cancelled
(DELETE) once queued or started; a refused request (429/503) is sent again after its
Retry-After. Counted: results; refusals, and those without a Retry-After; 5xx; lost (no result
and no proper refusal: a dropped connection, a stream without its result); cross-talk (a result
for another text than the request's); mismatches (the same cell, but findings, edits, tokens or
decisions not the serial run's; numbers within 0.01 or 5 % (result_compare.py); timings,
effort counts and each token's runners-up aside; a cancelled result must be the start of the serial one). Probes: a request while the queue is full (429 and Retry-After) and one over
max_request_bytes (413, naming the limit). The server's RSS before and after the load, and its
peak. The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jupyter_server_process import JupyterServer, peak_rss_mb, rss_mb  # noqa: E402
from notebook_cells import Cell, load_cells  # noqa: E402
from result_compare import compare  # noqa: E402
from requirements import require  # noqa: E402

KINDS = {"check": 0.4, "stream": 0.35, "cancel": 0.25}
# a cell long enough to keep the worker busy while the queue is filled (it is cancelled then)
BLOCKER = "".join(f"def f{i}(a, b):\n    return a * {i} + b\n\n" for i in range(200))


# -- one request, as a client sends it ----------------------------------------------------------------

@dataclass
class Outcome:
    kind: str
    cell: Cell
    status: int | None = None        # the last response's
    result: dict | None = None
    cancelled: bool = False
    refusals: list[tuple[int, str | None]] = field(default_factory=list)   # (status, Retry-After)
    lost: str | None = None          # why no result and no proper refusal


def _retry_after(headers: dict) -> str | None:
    return {k.lower(): v for k, v in headers.items()}.get("retry-after")


def send_check(server: JupyterServer, conn, cell: Cell, out: Outcome):
    status, headers, body = server.request("POST", "check", cell.body(), conn=conn)
    out.status = status
    if status == 200:
        out.result = json.loads(body)
        out.cancelled = bool(out.result["stats"].get("cancelled"))
    return status, headers


def send_stream(server: JupyterServer, conn, cell: Cell, out: Outcome, *, cancel_on: str | None = None,
                check_id: str | None = None):
    """A streamed check; with `cancel_on` ("queued" or "started"), a DELETE once that event came."""
    conn.request("POST", "/codecheck/stream", body=cell.body(**({"id": check_id} if check_id else {})),
                 headers=server.headers())
    resp = conn.getresponse()
    out.status = resp.status
    if resp.status != 200:
        resp.read()
        return resp.status, dict(resp.getheaders())
    job_id = resp.getheader("X-Codecheck-Id")
    streamed = []
    while True:
        line = resp.readline()
        if not line:
            out.lost = "the stream ended without a result"
            break
        event = json.loads(line)
        if event.get("id") not in (None, job_id):
            out.lost = f"an event of check {event['id']} in the stream of {job_id}"
        if event["type"] == cancel_on:
            status = server.request("DELETE", f"check/{job_id}")[0]
            if status not in (202, 404):      # 404: it finished before the DELETE arrived
                out.lost = f"DELETE answered {status}"
        if event["type"] == "token":
            streamed.append(event["token"]["index"])
        elif event["type"] == "result":
            out.result = event["result"]
            out.cancelled = bool(out.result["stats"].get("cancelled"))
            if sorted(streamed) != sorted(t["index"] for t in out.result["tokens"]):
                out.lost = "the streamed tokens are not the result's"
            break
        elif event["type"] == "error":
            out.status = event["status"]
            break
    resp.read()
    return out.status, dict(resp.getheaders())


def run_request(server: JupyterServer, kind: str, cell: Cell, check_id: str, rng: random.Random,
                deadline: float) -> Outcome:
    """One request, sent again after each refusal's Retry-After until `deadline`."""
    out = Outcome(kind, cell)
    conn = server.connection()
    try:
        for attempt in range(1000):
            if kind == "check":
                status, headers = send_check(server, conn, cell, out)
            else:
                cancel_on = rng.choice(["queued", "started"]) if kind == "cancel" else None
                status, headers = send_stream(server, conn, cell, out, cancel_on=cancel_on,
                                              check_id=f"{check_id}-{attempt}")
            if status not in (429, 503):
                break
            wait = _retry_after(headers)
            out.refusals.append((status, wait))
            if wait is None:
                out.lost = f"{status} without Retry-After"
                break
            if time.monotonic() + float(wait) > deadline:
                break           # refused to the end: a proper refusal, not a loss
            time.sleep(float(wait))
    except Exception as e:  # noqa: BLE001 - a dropped connection is what this counts
        out.lost = f"{type(e).__name__}: {e}"
    finally:
        conn.close()
    if out.lost is None and out.result is None and out.status not in (429, 503):
        out.lost = f"status {out.status} and no result"
    return out


# -- the probes ---------------------------------------------------------------------------------------

def probe_full_queue(server: JupyterServer, queue_size: int, filler: Cell) -> tuple[dict, list[Outcome]]:
    """A request while one check runs and `queue_size` wait: refused at once, with Retry-After.
    The running one is a long cell, cancelled afterwards; the waiting ones are returned."""
    conn = server.connection()
    conn.request("POST", "/codecheck/stream", body=Cell(BLOCKER).body(id="blocker"), headers=server.headers())
    resp = conn.getresponse()
    if resp.status != 200:
        raise RuntimeError(f"the long cell was refused ({resp.status}): {resp.read()[:300]!r}")
    while True:             # until the blocker runs: its first token
        line = resp.readline()
        if not line or json.loads(line)["type"] == "token":
            break
    fillers = [Outcome("check", filler) for _ in range(queue_size)]
    threads = [threading.Thread(target=send_check, args=(server, None, filler, o)) for o in fillers]
    for t in threads:
        t.start()
    for _ in range(600):        # until the server has queued them all (bounded: a minute)
        if server.status()["waiting"] >= queue_size:
            break
        time.sleep(0.1)
    status, headers, body = server.request("POST", "check", filler.body())
    busy = server.status()
    server.request("DELETE", "check/blocker")
    resp.read()
    conn.close()
    for t in threads:
        t.join()
    probe = {"status": status, "retry_after": _retry_after(headers),
             "message": json.loads(body).get("message") if status != 200 else None,
             "queue_while_refused": {"running": busy["running"], "waiting": busy["waiting"]}}
    return probe, fillers


def probe_oversize(server: JupyterServer, max_bytes: int) -> dict:
    body = json.dumps({"source": "x = 1\n", "context": ["#" * max_bytes]}).encode()
    status, _, answer = server.request("POST", "check", body)
    message = json.loads(answer).get("message", "")
    return {"bytes": len(body), "status": status, "names_the_limit": str(max_bytes) in message,
            "message": message}


# -- the run ------------------------------------------------------------------------------------------

def plan(cells: list[Cell], requests: int, seed: int) -> list[tuple[str, Cell]]:
    rng = random.Random(seed)
    kinds, weights = zip(*KINDS.items())
    return [(rng.choices(kinds, weights)[0], rng.choice(cells)) for _ in range(requests)]


def serial_references(server: JupyterServer, cells) -> dict[Cell, dict]:
    refs = {}
    for cell in dict.fromkeys(cells):
        status, _, body = server.request("POST", "check", cell.body())
        if status != 200:
            raise RuntimeError(f"the serial check of {cell.source[:60]!r} answered {status}: {body[:300]!r}")
        refs[cell] = json.loads(body)
    return refs


def load(server: JupyterServer, requests: list[tuple[str, Cell]], clients: int, seed: int,
         limit_s: float) -> list[Outcome]:
    """`requests` sent by `clients` threads at once, each its share in turn."""
    deadline = time.monotonic() + limit_s
    outcomes: list[Outcome | None] = [None] * len(requests)
    barrier = threading.Barrier(clients)

    def client(k: int):
        rng = random.Random(seed * 1000 + k)
        barrier.wait()
        for i in range(k, len(requests), clients):
            kind, cell = requests[i]
            outcomes[i] = run_request(server, kind, cell, f"c{k}-r{i}", rng, deadline)

    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(1.0, deadline - time.monotonic() + 60))
    return [o if o is not None else Outcome(k, c, lost="its client did not finish in time")
            for o, (k, c) in zip(outcomes, requests)]


def summarise(outcomes: list[Outcome], refs: dict[Cell, dict]) -> dict:
    found = {"cross_talk": [], "mismatch": []}
    drift: list[float] = []
    for o in outcomes:
        if o.result is not None:
            problem = compare(o.result, refs[o.cell], o.cancelled, drift)
            if problem:
                found[problem[0]].append({"kind": o.kind, "cell": o.cell.source[:60], "why": problem[1]})
    refusals = [r for o in outcomes for r in o.refusals]
    return {
        "requests": len(outcomes),
        "by_kind": {k: sum(o.kind == k for o in outcomes) for k in KINDS},
        "ok": sum(o.result is not None for o in outcomes),
        "cancelled": sum(o.cancelled for o in outcomes),
        "refused_429": sum(s == 429 for s, _ in refusals),
        "refused_503": sum(s == 503 for s, _ in refusals),
        "refused_without_retry_after": sum(w is None for _, w in refusals),
        "refused_to_the_end": sum(o.result is None and o.status in (429, 503) for o in outcomes),
        "5xx": sum(o.status is not None and o.status >= 500 and o.status != 503 for o in outcomes),
        "other_status": sorted({o.status for o in outcomes if o.status not in (200, 429, 503, None)}),
        "lost": sum(o.lost is not None for o in outcomes),
        "lost_examples": [o.lost for o in outcomes if o.lost][:5],
        "cross_talk": len(found["cross_talk"]),
        "mismatch": len(found["mismatch"]),
        "number_drift_max": max(drift, default=0.0),
        "examples": (found["cross_talk"] + found["mismatch"])[:5],
    }


def run(data: Path, *, requests: int = 200, clients: int = 20, queue_size: int = 4, seed: int = 0,
        limit_s: float = 900.0, max_request_bytes: int = 1 << 20, log=print) -> dict:
    t0 = time.monotonic()
    cells = load_cells(data)
    if not cells:
        raise SystemExit(f"no short code cells in {data}")
    todo = plan(cells, requests, seed)
    with JupyterServer(queue_size=queue_size, max_request_bytes=max_request_bytes) as server:
        rss_start = rss_mb(server.pid)
        refs = serial_references(server, [c for _, c in todo])
        log(f"serial reference: {len(refs)} distinct cells, {time.monotonic() - t0:.0f} s")
        oversize = probe_oversize(server, max_request_bytes)
        full_queue, fillers = probe_full_queue(server, queue_size, next(iter(refs)))
        rss_before = rss_mb(server.pid)
        t_load = time.monotonic()
        outcomes = load(server, todo, clients, seed, limit_s)
        load_s = time.monotonic() - t_load
        log(f"load: {len(outcomes)} requests from {clients} clients, {load_s:.0f} s")
        rss_after = rss_mb(server.pid)
        peak = peak_rss_mb(server.pid)
        status = server.status()
    report = summarise(outcomes, refs)
    fill = summarise(fillers, refs)
    return {"data": str(data), "seed": seed, "clients": clients, "queue_size": queue_size,
            **report,
            "queue_full_probe": full_queue, "queue_fillers_ok": fill["ok"], "queue_fillers_differ": fill["cross_talk"] + fill["mismatch"],
            "oversize_probe": oversize,
            "idle_after": status["running"] is None and status["waiting"] == 0,
            "distinct_cells": len(refs),
            "rss_start_mb": round(rss_start, 1), "rss_before_mb": round(rss_before, 1),
            "rss_after_mb": round(rss_after, 1), "rss_peak_mb": round(peak, 1),
            "load_seconds": round(load_s, 1), "seconds": round(time.monotonic() - t0, 1)}


def passed(report: dict) -> bool:
    probe, big = report["queue_full_probe"], report["oversize_probe"]
    return (report["5xx"] == 0 and report["lost"] == 0 and report["cross_talk"] == 0 and report["mismatch"] == 0
            and report["queue_fillers_differ"] == 0            and not report["other_status"] and report["refused_without_retry_after"] == 0
            and probe["status"] == 429 and probe["retry_after"] is not None
            and big["status"] == 413 and big["names_the_limit"] and report["idle_after"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="cells: a .jsonl of notebook cells, a notebook, a .py, or a folder")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--queue-size", type=int, default=4, help="c.CodecheckServer.queue_size")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit-s", type=float, default=900.0, help="the load's time bound")
    args = ap.parse_args(argv)
    require("bench/server_load.py", paths=[args.data])
    report = run(args.data, requests=args.requests, clients=args.clients, queue_size=args.queue_size,
                 seed=args.seed, limit_s=args.limit_s, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(report, ensure_ascii=True))
    return 0 if passed(report) else 1


if __name__ == "__main__":
    sys.exit(main())
