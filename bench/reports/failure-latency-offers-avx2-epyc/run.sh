#!/bin/bash
# thirty-third session, AVX2 EPYC: error-to-repair time with the failure's offers recorded (failure-repairs-offers-smollm2) beside the same dev failures recorded before offers existed, quiet then one core busy; code of main
cd /work/main
OUT=bench/reports/failure-latency-offers-avx2-epyc
PY=.venv/bin/python
export PYTHONPATH=/work/main
lat() {  # $1 label $2 model $3 mutants $4 out
  echo "== $1 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $PY bench/failure_latency.py $3 ../shared/benchmarks/notebook_clean.jsonl \
    --model $2 --limit 15 --min-lines 5 --out $4 2>$4.err | tail -1
}
NEW=bench/reports/failure-repairs-offers-smollm2/mutants.jsonl
OLD=bench/reports/failure-repairs-smollm2/mutants.jsonl
for r in 1 2; do
  lat "smollm2 offers round $r" smollm2-135m $NEW $OUT/smollm2-offers-$r
  lat "smollm2 before round $r" smollm2-135m $OLD $OUT/smollm2-before-$r
done
lat "qwen offers" qwen2.5-coder-1.5b $NEW $OUT/qwen-offers-1
lat "qwen before" qwen2.5-coder-1.5b $OLD $OUT/qwen-before-1
$PY -c "while True: pass" & BUSY=$!
sleep 5
for r in 1 2; do
  lat "busy smollm2 offers round $r" smollm2-135m $NEW $OUT/busy-smollm2-offers-$r
  lat "busy smollm2 before round $r" smollm2-135m $OLD $OUT/busy-smollm2-before-$r
done
lat "busy qwen offers" qwen2.5-coder-1.5b $NEW $OUT/busy-qwen-offers-1
lat "busy qwen before" qwen2.5-coder-1.5b $OLD $OUT/busy-qwen-before-1
kill $BUSY
echo "== done $(date +%T)"
