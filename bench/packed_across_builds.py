"""Is a difference between our packed product and ggml's float rounding, an 8-bit rounding step,
or a defect? The same layer computed in two processes, one on the installed ggml (built for this
CPU) and one on ggml built for another instruction set (`native/isa/build_ggml.sh`, loaded with
LD_LIBRARY_PATH: llama.cpp's and ours alike), each with ggml's products and with ours.

If ggml's own results move between its builds as much as ours differ from ggml's, while ours stay
put, the difference is ggml's rounding crossing an 8-bit step, not our kernel.

Usage: python bench/packed_across_builds.py GGML_LIB_DIR [--out DIR]
(GGML_LIB_DIR: e.g. the output of `native/isa/build_ggml.sh avx2 build/isa`)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from requirements import require

ROOT = Path(__file__).resolve().parents[1]
CHUNKS = (1, 8)


def states(out: Path, model: Path) -> None:
    """In this process: layer 0's output of every token, fed `chunk` at a time, per product."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_packed import _states  # the tests' own reading of a layer

    from jupyter_codecheck.engine import Model
    m = Model(model)
    np.savez(out, **{f"{packed}-{chunk}": _states(m, packed, chunk, stop_after=0)
                     for packed in (False, True) for chunk in CHUNKS})
    m.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ggml_lib", help="directory of another build's libggml*.so")
    ap.add_argument("--out", help="folder for output.txt")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        states(Path(args.child[0]), Path(args.child[1]))
        return
    require("packed_across_builds", packages=("numpy", "llama_cpp"), paths=(args.ggml_lib,))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # one model file for both processes: llama.cpp's Q4_K_M of the tests' small random model
        sys.path.insert(0, str(ROOT / "native" / "isa"))
        from make_models import main as make_models
        make_models(tmp / "models")
        model = tmp / "models" / "tiny-qwen2-q4_k_m.gguf"
        runs = {}
        for name, env in (("this CPU's ggml", {}), ("other build", {"LD_LIBRARY_PATH": args.ggml_lib})):
            out = tmp / f"{len(runs)}.npz"
            subprocess.run([sys.executable, __file__, args.ggml_lib, "--child", str(out), str(model)],
                           env={**os.environ, **env}, check=True, capture_output=True)
            runs[name] = np.load(out)
        lines, figures = [], {"ggml_lib": args.ggml_lib}
        a, b = runs.values()
        for chunk in CHUNKS:
            scale = float(np.abs(a[f"False-{chunk}"]).max())

            def worst(x, y):
                return float(np.abs(x - y).max() / scale)

            def rows(x, y):
                return int((np.abs(x - y).max(axis=1) > 1e-5 * scale).sum())
            f = {"ggml_between_builds": worst(a[f"False-{chunk}"], b[f"False-{chunk}"]),
                 "ggml_rows_moved": rows(a[f"False-{chunk}"], b[f"False-{chunk}"]),
                 "ours_between_builds": worst(a[f"True-{chunk}"], b[f"True-{chunk}"]),
                 "ours_vs_ggml_this_build": worst(a[f"True-{chunk}"], a[f"False-{chunk}"]),
                 "ours_vs_ggml_other_build": worst(b[f"True-{chunk}"], b[f"False-{chunk}"]),
                 "rows": int(a[f"False-{chunk}"].shape[0])}
            figures[f"chunk_{chunk}"] = f
            lines.append(f"batches of {chunk}: ggml's own products between its builds differ by {f['ggml_between_builds']:.2g} "
                         f"of the largest value ({f['ggml_rows_moved']} of {f['rows']} rows beyond float rounding); "
                         f"ours between the builds {f['ours_between_builds']:.2g}; ours against ggml's: "
                         f"{f['ours_vs_ggml_this_build']:.2g} on this build, {f['ours_vs_ggml_other_build']:.2g} on the other")
    for line in lines:
        print(line)
    print(json.dumps(figures))
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "output.txt").write_text("\n".join(lines + [json.dumps(figures)]) + "\n")


if __name__ == "__main__":
    main()
