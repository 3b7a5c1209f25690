"""The command line's whole run on a folder of files against llama.cpp scoring the same files:
what a user waits for, process start and model load included on both sides.

    python bench/cli_folder.py DATA.jsonl [--model NAME] [--threads N] [--limit N] [--side buggy|fixed|both]
        [--out bench/reports/cli-folder]

DATA is a buggy/fixed pair set (`../shared/benchmarks/humanevalfix.jsonl`): the first --limit
pairs' files (buggy, fixed or both) are written into a fresh folder, then timed by wall clock:

  ours       `python -m jupyter_codecheck --model NAME --threads N --format json FOLDER`
  llama.cpp  a fresh Python process that loads the same GGUF with the same threads
             (llama-cpp-python, extra buffer types off) and scores each file's tokens in one
             batch with every position's logits: the least a model-based checker must do

The ratio is llama.cpp's time over ours (>= 1.0: ours is as fast). Each side runs --repeats
times alternately; the medians are compared. The last stdout line is one JSON object;
command.txt and output.json go to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from harness import load_jsonl  # noqa: E402
from instruction_sets import describe, instruction_sets  # noqa: E402
from requirements import require  # noqa: E402

LLAMA_SCORER = r'''
import sys
from pathlib import Path
from jupyter_codecheck.engine.llamacpp import LlamaCppModel
path, threads, folder = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
ref = LlamaCppModel(path, n_threads=threads, n_ctx=4096, n_batch=512)
tokens = 0
for f in sorted(folder.glob("*.py")):
    ids = ref.tokenize(f.read_text(encoding="utf-8"), add_bos=True)[:4096]
    ref.score(ids, all_logits=True)
    ref.clear()
    tokens += len(ids)
print(tokens)
'''


def timed(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - t0
    if p.returncode not in (0, 1):      # the command line exits 1 when it finds something
        raise SystemExit(f"{shlex.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return elapsed, p.stdout


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=15)
    ap.add_argument("--side", choices=("buggy", "fixed", "both"), default="both")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "cli-folder"))
    args = ap.parse_args(argv)
    require("bench/cli_folder.py", packages=("llama_cpp",), paths=[args.data])
    from jupyter_codecheck.engine.paths import resolve_model_path
    path = str(resolve_model_path(args.model))
    rows = load_jsonl(Path(args.data), args.limit)
    sides = ("buggy", "fixed") if args.side == "both" else (args.side,)
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i, r in enumerate(rows):
            for side in sides:
                (folder / f"{i:03d}_{side}.py").write_text(r[side], encoding="utf-8")
        n_files = len(list(folder.glob("*.py")))
        ours_cmd = [sys.executable, "-m", "jupyter_codecheck", "--model", args.model, "--threads", str(args.threads),
                    "--format", "json", str(folder)]
        llama_cmd = [sys.executable, "-c", LLAMA_SCORER, path, str(args.threads), str(folder)]
        ours, llama, tokens = [], [], None
        for k in range(args.repeats):
            print(f"[{k + 1}/{args.repeats}] the command line on {n_files} files…", file=sys.stderr, flush=True)
            ours.append(timed(ours_cmd)[0])
            print(f"[{k + 1}/{args.repeats}] llama.cpp scoring them…", file=sys.stderr, flush=True)
            t, out = timed(llama_cmd)
            llama.append(t)
            tokens = int(out.strip().splitlines()[-1])
            load.append(os.getloadavg()[0])
    sets = instruction_sets()
    summary = {"model": args.model, "files": n_files, "tokens": tokens, "threads": args.threads,
               "ours_s": round(statistics.median(ours), 2), "llamacpp_s": round(statistics.median(llama), 2),
               "ratio": round(statistics.median(llama) / statistics.median(ours), 3),
               "ours_runs_s": [round(x, 2) for x in ours], "llamacpp_runs_s": [round(x, 2) for x in llama],
               "loadavg_1min": [round(x, 2) for x in load], "instruction_sets": sets}
    print(f"ran on: {describe(sets)}", file=sys.stderr)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "command.txt").write_text(
        "python " + shlex.join(["bench/cli_folder.py", *(argv if argv is not None else sys.argv[1:])]) + "\n")
    (out / "output.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
