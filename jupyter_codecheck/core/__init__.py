"""The checker: `check()` / `check_iter()`, the options contract, and what they rest on (masking,
sources, long sources in pieces, shipped calibrations, the engine adapter, the verification step).

Views (`jupyter_codecheck.views`) use only `check`, `check_iter`, `options` and `result` from here,
plus the source readers; nothing here imports a view. See ARCHITECTURE.md.
"""
