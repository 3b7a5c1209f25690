#!/bin/bash
# A/B, alternated in separate processes: the engine of 44e6a01 (main before; its own tree, so its
# Python matches its library) and the engine with the Q8_K quantizer and the prefetch ("pf2" in
# ab.txt, this folder's "prefetch"). OLD_TREE: a worktree of 44e6a01 with its built libcodecheck.so
# in $LIBS/old (beside its libggml*); $LIBS/pf2: this commit's.
cd /work/main
run() {  # $1 label $2 tree $3 lib $4 model $5 out
  echo "== $1 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  JUPYTER_CODECHECK_NATIVE_LIB=$3 .venv/bin/python $2/bench/failure_latency.py \
    bench/reports/failure-repairs-smollm2/mutants.jsonl ../shared/benchmarks/notebook_clean.jsonl \
    --model $4 --limit 15 --min-lines 5 --out $5 2>/dev/null | tail -1
}
for r in 1 2 3; do
  run "old round $r" $OLD_TREE $LIBS/old/libcodecheck.so qwen2.5-coder-1.5b $OUT/qwen-44e6a01-$r
  run "pf2 round $r" /work/main $LIBS/pf2/libcodecheck.so qwen2.5-coder-1.5b $OUT/qwen-prefetch-$r
done
for r in 1 2; do
  run "smollm2 old round $r" $OLD_TREE $LIBS/old/libcodecheck.so smollm2-135m $OUT/smollm2-44e6a01-$r
  run "smollm2 pf2 round $r" /work/main $LIBS/pf2/libcodecheck.so smollm2-135m $OUT/smollm2-prefetch-$r
done
