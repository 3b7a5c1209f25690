#!/bin/bash
# A/B: the engine before (db1bc2c: ggml's Q8_0 head) and after (78a6828: the head packed), alternated
cd /work/main
run() {  # $1 label $2 lib $3 out
  echo "$1 $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  PYTHONPATH=/work/main JUPYTER_CODECHECK_NATIVE_LIB=$2 .venv/bin/python bench/failure_latency.py \
    bench/reports/failure-repairs-smollm2/mutants.jsonl --model smollm2-135m --limit 15 --min-lines 5 --out $3 2>/dev/null | tail -1
}
for r in 1 2 3; do
  for v in 78a6828 stats; do run "quiet round $r $v" $LIBS/libcodecheck-$v.so $OUT/quiet-$r-$v; done
done
echo done $(date +%T)
