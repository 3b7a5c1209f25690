#!/bin/bash
# the same A/B with our kernels capped to AVX2 (ggml itself still this machine's AVX-512 build)
cd /work/main
for r in 1 2; do
  for v in db1bc2c 78a6828; do
    echo "avx2 round $r $v $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    CODECHECK_PACKED_ISA=avx2 PYTHONPATH=/work/main JUPYTER_CODECHECK_NATIVE_LIB=$LIBS/libcodecheck-$v.so .venv/bin/python bench/failure_latency.py \
      bench/reports/failure-repairs-smollm2/mutants.jsonl --model smollm2-135m --limit 15 --min-lines 5 --out $OUT/avx2-$r-$v 2>/dev/null | tail -1
  done
done
echo done $(date +%T)
