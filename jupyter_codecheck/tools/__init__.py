"""Tools around the checker, not needed to check code: `calibrate` (choose thresholds and the
evidence margin for a model) and `line_scores` (rank finding lines, for the benchmarks)."""
