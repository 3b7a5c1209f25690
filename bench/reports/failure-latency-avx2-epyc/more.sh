#!/bin/bash
while pgrep -f '\./run\.sh' >/dev/null; do sleep 5; done
cd /work/main
OUT=/tmp/runs/avx2
lat() {
  echo "== $1 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  .venv/bin/python bench/failure_latency.py bench/reports/failure-repairs-smollm2/mutants.jsonl ../shared/benchmarks/notebook_clean.jsonl \
    --model $2 --limit 15 --min-lines 5 --out $3 2>/dev/null | tail -1
}
lat "smollm2 round 3" smollm2-135m $OUT/smollm2-3
lat "smollm2 round 4" smollm2-135m $OUT/smollm2-4
lat "qwen round 3" qwen2.5-coder-1.5b $OUT/qwen-3
echo "== done $(date +%T)"
touch $OUT/DONE
