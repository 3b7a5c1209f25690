#!/bin/bash
# twenty-first session's AVX2 EPYC runs, again on the engine of main (a041455): quiet, then one core busy
cd /work/main
OUT=/tmp/runs/avx2
PY=.venv/bin/python
lat() {  # $1 label $2 model $3 out
  echo "== $1 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $PY bench/failure_latency.py bench/reports/failure-repairs-smollm2/mutants.jsonl ../shared/benchmarks/notebook_clean.jsonl \
    --model $2 --limit 15 --min-lines 5 --out $3 2>/dev/null | tail -1
}
for r in 1 2; do
  lat "smollm2 round $r" smollm2-135m $OUT/smollm2-$r
  lat "qwen round $r" qwen2.5-coder-1.5b $OUT/qwen-$r
done
echo "== model_latency $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
$PY bench/model_latency.py --model smollm2-135m --model qwen2.5-coder-1.5b --out $OUT/model-latency 2>/dev/null | tail -1
echo "== check.py $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p $OUT/check; $PY bench/check.py --limit 20 > $OUT/check/output.txt 2>&1; tail -1 $OUT/check/output.txt
# one core held by a Python loop, as the Xeon's busy rounds
$PY -c "while True: pass" & BUSY=$!
sleep 5
for r in 1 2; do lat "busy smollm2 round $r" smollm2-135m $OUT/busy-smollm2-$r; done
lat "busy qwen round 1" qwen2.5-coder-1.5b $OUT/busy-qwen-1
kill $BUSY
echo "== done $(date +%T)"
