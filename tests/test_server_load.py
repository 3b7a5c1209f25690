"""The server under load, short (issue 27; the full run is bench/server_load.py): a real jupyter
server process with a token and the real default model, 20 requests from 4 clients over the
examples' cells, a queue of one so that refusals happen."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench_modules import bench_module

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def report(model_path):
    return bench_module("server_load").run(REPO / "examples", requests=20, clients=4, queue_size=1, seed=27, limit_s=600,
                        max_request_bytes=16384, log=lambda m: None)


def test_every_request_gets_its_own_result_or_a_refusal_to_retry(report):
    assert report["requests"] == 20 and report["by_kind"]["cancel"] > 0 and report["by_kind"]["stream"] > 0
    assert (report["5xx"], report["other_status"], report["lost"]) == (0, [], 0), report["lost_examples"]
    assert report["refused_without_retry_after"] == 0
    # honouring Retry-After, every client got through in the end
    assert report["ok"] == 20 and report["refused_to_the_end"] == 0
    assert (report["cross_talk"], report["mismatch"]) == (0, 0), report["examples"]
    assert report["idle_after"]


def test_a_full_queue_refuses_at_once_with_retry_after(report):
    # while a long cell runs and one check waits (the queue holds one), the next is refused
    probe = report["queue_full_probe"]
    assert probe["queue_while_refused"] == {"running": "blocker", "waiting": 1}
    assert probe["status"] == 429 and int(probe["retry_after"]) >= 1
    assert "try again" in probe["message"] and "queue_size = 1" in probe["message"]
    # the check that waited meanwhile got its own result
    assert (report["queue_fillers_ok"], report["queue_fillers_differ"]) == (1, 0)


def test_over_max_request_bytes_is_413_naming_the_limit(report):
    probe = report["oversize_probe"]
    assert probe["status"] == 413 and probe["names_the_limit"], probe["message"]
    assert "max_request_bytes" in probe["message"]


def test_the_server_reports_its_memory(report):
    assert 0 < report["rss_start_mb"] <= report["rss_before_mb"] <= report["rss_peak_mb"]
    assert report["rss_after_mb"] <= report["rss_peak_mb"]
