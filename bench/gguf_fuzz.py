"""GGUF fuzzing (issue 27): the libFuzzer harness native/fuzz/gguf_fuzz.cpp over the GGUF reader,
the model load's checks and one token through a loaded model, under AddressSanitizer,
LeakSanitizer and UBSan. `make fuzz` builds the harness and runs this (`make fuzz-short`: the
few-thousand-input run of `make test`).

    python bench/gguf_fuzz.py --binary build/fuzz/native/fuzz/gguf_fuzz --runs 1000000 --seed 1

It starts from native/fuzz/corpus (real headers: the default model's, the tiny test models) and
native/fuzz/regressions (earlier findings, replayed first), with native/fuzz/gguf.dict. Counted:
inputs tried (libFuzzer's executed units), crashes, hangs (over --timeout seconds) and leaks
(libFuzzer's artifacts; a run stops at the first, an input that fails the harness's refusal check
counts as a crash), the refusals by kind (the harness's GGUF_FUZZ_STATS: code and message with
names and numbers masked) and the inputs that loaded and computed, coverage (cov: edges, ft:
features) and exec/s. The last line is one JSON object with the figures; exit 1 on any finding.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FUZZ = REPO / "native" / "fuzz"
CODES = {-2: "empty", -3: "bad magic", -4: "version", -5: "truncated", -6: "metadata", -7: "tensor info",
         -8: "tensor offset", -9: "unsupported arch", -10: "missing tensor", -11: "tensor shape", -12: "tensor type"}
ARTIFACTS = {"crash-": "crashes", "timeout-": "hangs", "leak-": "leaks", "oom-": "ooms"}


def _stat(log: str, name: str) -> int:
    m = re.search(rf"stat::{name}:\s+(\d+)", log)
    return int(m.group(1)) if m else 0


def _coverage(log: str) -> tuple[int, int]:
    found = re.findall(r"^#\d+\s+\w+\s+cov: (\d+) ft: (\d+)", log, re.M)
    return tuple(map(int, found[-1])) if found else (0, 0)


def _outcomes(path: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            n, _, kind = line.partition("\t")
            out[kind] = int(n)
    return out


def run(args) -> dict:
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)
    (work / "corpus").mkdir(parents=True)
    (work / "artifacts").mkdir()
    stats = work / "outcomes.tsv"
    cmd = [str(args.binary), f"-runs={args.runs}", f"-seed={args.seed}", f"-timeout={args.timeout}",
           f"-max_total_time={args.max_seconds}", "-detect_leaks=1", "-print_final_stats=1",
           f"-dict={FUZZ / 'gguf.dict'}", f"-artifact_prefix={work / 'artifacts'}/",
           str(work / "corpus"), str(FUZZ / "regressions"), str(FUZZ / "corpus")]
    print("$", " ".join(cmd), flush=True)
    t0 = time.time()
    with tempfile.TemporaryFile("w+") as log_file:
        proc = subprocess.run(cmd, stdout=log_file, stderr=subprocess.STDOUT, env={"GGUF_FUZZ_STATS": str(stats),
                              "PATH": "/usr/bin:/bin"}, check=False)
        log_file.seek(0)
        log = log_file.read()
    seconds = time.time() - t0
    (work / "libfuzzer.log").write_text(log)
    found = {name: sorted(p.name for p in (work / "artifacts").glob(prefix + "*")) for prefix, name in ARTIFACTS.items()}
    outcomes = _outcomes(stats)
    loaded = outcomes.pop("loaded", 0)
    by_code: dict[str, int] = {}
    for kind, n in outcomes.items():
        code = int(kind.split(" ", 1)[0])
        by_code[CODES.get(code, str(code))] = by_code.get(CODES.get(code, str(code)), 0) + n
    cov, ft = _coverage(log)

    print(f"\n{'inputs':>9}  refusal (code, message with names '*' and numbers # masked)")
    for kind, n in sorted(outcomes.items(), key=lambda kv: -kv[1]):
        print(f"{n:9d}  {kind}")
    print(f"{loaded:9d}  loaded and computed one token")
    findings = {name: len(files) for name, files in found.items()}
    if not sum(findings.values()) and proc.returncode != 0:
        findings["crashes"] = 1  # a death libFuzzer left no artifact for
    for files in found.values():
        for f in files:
            print(f"FOUND {f.split('-')[0]}: {work / 'artifacts' / f}")
    if sum(findings.values()):
        print("\n".join(log.splitlines()[-40:]))
    inputs = _stat(log, "number_of_executed_units")
    print(f"\n{inputs} inputs in {seconds:.0f} s ({_stat(log, 'average_exec_per_sec')} exec/s): "
          f"{findings['crashes']} crashes, {findings['hangs']} hangs, {findings['leaks']} leaks, "
          f"{findings['ooms']} out-of-memory; {sum(outcomes.values())} refused in {len(outcomes)} kinds, "
          f"{loaded} loaded; coverage {cov} edges, {ft} features, corpus +{_stat(log, 'new_units_added')} units")
    return {"bench": "gguf_fuzz", "runs": args.runs, "seed": args.seed, "inputs": inputs, **findings,
            "refused": sum(outcomes.values()), "loaded": loaded, "refusal_kinds": len(outcomes),
            "refused_by_code": by_code, "cov_edges": cov, "features": ft,
            "exec_per_s": _stat(log, "average_exec_per_sec"), "new_units": _stat(log, "new_units_added"),
            "peak_rss_mb": _stat(log, "peak_rss_mb"), "seconds": round(seconds, 1), "exit_code": proc.returncode}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=str(REPO / "build" / "fuzz" / "native" / "fuzz" / "gguf_fuzz"))
    ap.add_argument("--runs", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=10, help="seconds one input may take before it is a hang")
    ap.add_argument("--max-seconds", type=int, default=3600, help="stop after this long, whatever --runs says")
    ap.add_argument("--work", default=str(REPO / "build" / "fuzz" / "run"), help="emptied first: corpus, artifacts, log")
    figures = run(ap.parse_args(argv))
    print(json.dumps(figures))
    return 1 if figures["crashes"] + figures["hangs"] + figures["leaks"] + figures["ooms"] else 0


if __name__ == "__main__":
    sys.exit(main())
