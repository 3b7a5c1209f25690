#!/bin/bash
# thirty-fifth session, AMD EPYC with AVX-512: error-to-repair time on the recorded dev failures (offers), 5-20-line cells, with llama.cpp scoring as many rows beside each model-asked repair; quiet then one core busy
cd /work/main
OUT=${OUT:-bench/reports/failure-latency-baseline-avx512-epyc}
PY=.venv/bin/python
export PYTHONPATH=/work/main
lat() {  # $1 label $2 model $3 out
  echo "== $1 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $PY bench/failure_latency.py bench/reports/failure-repairs-offers-smollm2/mutants.jsonl ../shared/benchmarks/notebook_clean.jsonl \
    --model $2 --limit 15 --min-lines 5 --baseline --out $3 2>$3.err | tail -1
}
lat "smollm2" smollm2-135m $OUT/smollm2
lat "qwen" qwen2.5-coder-1.5b $OUT/qwen
$PY -c "while True: pass" & BUSY=$!
sleep 5
lat "busy smollm2" smollm2-135m $OUT/busy-smollm2
lat "busy qwen" qwen2.5-coder-1.5b $OUT/busy-qwen
kill $BUSY
echo "== done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
