#!/bin/bash
# Qwen2.5-Coder-1.5B: the engine of 78a6828 against head_stats (84f24ed), alternated, nothing else running
cd /work/main
for r in 1 2; do
  for v in 78a6828 stats; do
    echo "qwen round $r $v $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    PYTHONPATH=/work/main JUPYTER_CODECHECK_NATIVE_LIB=$LIBS/libcodecheck-$v.so .venv/bin/python bench/failure_latency.py \
      bench/reports/failure-repairs-smollm2/mutants.jsonl --model qwen2.5-coder-1.5b --limit 15 --min-lines 5 --out $OUT/qwen-$r-$v 2>/dev/null | tail -1
  done
done
echo done $(date +%T)
