"""Before/after: the three benchmarks' JSON lines, the time keys set aside (they measure the
machine, not the code), and the per-cell/per-case records compared where they say what was found."""
import json, sys
from pathlib import Path
B = Path("/tmp/house2-bench")
TIME = {"time_s", "tokens_per_s", "verification_over_walk"}
PATHS = {"report"}      # the --out directory, before/ or after/

def last_json(path):
    return json.loads([l for l in path.read_text().splitlines() if l.startswith("{")][-1])

def strip(d):
    return {k: v for k, v in d.items() if k not in TIME | PATHS}

ok = True
for name in ("kernel_precision", "notebook_crashes", "quality"):
    a, b = last_json(B / "before" / f"{name}.stdout"), last_json(B / "after" / f"{name}.stdout")
    same = strip(a) == strip(b)
    ok &= same
    print(f"{name}: JSON line {'identical' if a == b else 'identical but for ' + ', '.join(sorted(k for k in a if a.get(k) != b.get(k) and k not in PATHS)) if same else 'DIFFERENT'}")
    if not same:
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k) and k not in TIME | PATHS:
                print("   ", k, a.get(k), "->", b.get(k))

def records(path, keys):
    return [{k: r.get(k) for k in keys} for r in map(json.loads, path.read_text().splitlines())]

kp = [("kernel-precision/cells.jsonl", ("notebook", "index", "facts", "undefined", "error"))]
for rel, keys in kp:
    a, b = records(B / "before" / rel, keys), records(B / "after" / rel, keys)
    same = a == b
    ok &= same
    print(f"{rel}: {len(a)} records, {'identical' if same else 'DIFFERENT'} (facts, undefined names, errors)")
    if not same:
        ka = {(r['notebook'], r['index']): r for r in a}; kb = {(r['notebook'], r['index']): r for r in b}
        common = set(ka) & set(kb)
        diff = [k for k in common if ka[k]['facts'] != kb[k]['facts'] or ka[k]['undefined'] != kb[k]['undefined']]
        print(f"   cells in both runs: {len(common)}; facts or undefined names differ on {len(diff)}; only before {len(set(ka)-set(kb))}, only after {len(set(kb)-set(ka))}")
for rel in ("notebook-crashes/cases.jsonl", "quality/pairs.jsonl"):
    def clean(line):
        r = json.loads(line)
        def drop(x):
            if isinstance(x, dict):
                return {k: drop(v) for k, v in x.items() if k not in TIME and not k.endswith("_s") and k not in ("stats", "checker_fingerprint", "speed")}
            if isinstance(x, list):
                return [drop(v) for v in x]
            return x
        return drop(r)
    a = [clean(l) for l in (B / "before" / rel).read_text().splitlines()]
    b = [clean(l) for l in (B / "after" / rel).read_text().splitlines()]
    same = a == b
    ok &= same
    print(f"{rel}: {len(a)} records, {'identical' if same else 'DIFFERENT'} (timings and stats set aside)")
print("ALL SAME" if ok else "SOME DIFFER")
