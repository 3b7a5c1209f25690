"""Clean code of several kinds that no other benchmark here reads, as units a check sees: the
data of bench/clean_kinds.py.

    python bench/clean_corpus.py OUT.jsonl --library DIR [--library DIR ...]
        --tutorial GIT_DIR --contest GIT_DIR --notebook GIT_DIR [--notebook GIT_DIR ...]
        [--per-kind 60] [--seed 0]

Kinds, each unit one JSON line {id, kind, group, source, names | earlier_cells, meta}:
  library   top-level functions (6 to 40 lines) of the Python modules under each --library folder
            (the standard library, an installed project's package); `names` are the module's own
            top-level names, which the function may use (as a module's globals)
  tutorial  whole tutorial scripts (8 to 40 lines) of a git repository of tutorials (realpython/materials)
  contest   whole contest solutions (5 to 40 lines) of a git repository of accepted submissions
  notebook  the Python code cells of a git repository's notebooks, each with its earlier cells
`group` is what the calibration/report split goes by (the module, the tutorial, the contest, the
notebook by its file name: a repository's copies of a notebook stay together): one group's units stay on one side. Units are drawn in a hash order (--seed), at most
--per-kind of a kind and at most a few of a group. Git repositories are read as fetched (bare
directories: `git show`); their commit is in `meta`.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import subprocess
import sys
from pathlib import Path

PER_GROUP = {"library": 2, "tutorial": 2, "contest": 1, "notebook": 4}


def _order(key: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}|{key}".encode()).hexdigest()


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True, check=True).stdout


def _parses(src: str) -> bool:
    try:
        ast.parse(src)
        return True
    except (SyntaxError, ValueError):
        return False


def library_units(folders: list[Path]) -> list[dict]:
    out = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            if any(p in {"test", "tests", "idle_test", "__pycache__", "site-packages"} or p.startswith("_vendor")
                   for p in path.relative_to(folder).parts[:-1]):
                continue
            try:
                text = path.read_text(encoding="utf-8")
                tree = ast.parse(text)
            except (UnicodeDecodeError, SyntaxError, ValueError):
                continue
            lines = text.split("\n")
            names = set()
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    names.update((a.asname or a.name.split(".")[0]) for a in node.names if a.name != "*")
                else:
                    names.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                    if 6 <= node.end_lineno - start + 1 <= 40:
                        src = "\n".join(lines[start - 1:node.end_lineno]) + "\n"
                        group = str(path.relative_to(folder.parent))
                        out.append({"id": f"{group}:{node.name}", "kind": "library", "group": group, "source": src,
                                    "names": sorted(names - {node.name}), "meta": {"path": str(path)}})
    return out


def script_units(repo: Path, kind: str, low: int, high: int, group_of) -> list[dict]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    out = []
    for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
        if not path.endswith(".py") or "test" in Path(path).name.lower():
            continue
        try:
            src = _git(repo, "show", f"HEAD:{path}")
        except (subprocess.CalledProcessError, UnicodeDecodeError):
            continue
        src = src.replace("\r\n", "\n").lstrip("\n")
        if not src.endswith("\n"):
            src += "\n"
        if low <= src.count("\n") <= high and _parses(src):
            out.append({"id": f"{repo.parent.name}:{path}", "kind": kind, "group": f"{repo.parent.name}:{group_of(path)}",
                        "source": src, "meta": {"repo": repo.parent.name.replace("+", "/"), "path": path,
                                                "commit": commit}})
    return out


def notebook_units(repo: Path) -> list[dict]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    out = []
    for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
        if not path.endswith(".ipynb") or ".ipynb_checkpoints" in path:
            continue
        try:
            nb = json.loads(_git(repo, "show", f"HEAD:{path}"))
        except (subprocess.CalledProcessError, json.JSONDecodeError, UnicodeDecodeError):
            continue
        cells = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                 for c in nb.get("cells", []) if c.get("cell_type") == "code"]
        cells = [c for c in cells if c.strip()]
        for k, cell in enumerate(cells):
            if cell.lstrip().startswith(("%%", "!")) or cell.count("\n") < 1:
                continue
            out.append({"id": f"{repo.parent.name}:{path}:{k}", "kind": "notebook",
                        "group": f"{repo.parent.name}:{Path(path).name}", "source": cell, "earlier_cells": cells[:k],
                        "meta": {"repo": repo.parent.name.replace("+", "/"), "path": path, "commit": commit}})
    return out


def sample(units: list[dict], per_kind: int, seed: int) -> list[dict]:
    taken, per_group = [], {}
    for u in sorted(units, key=lambda u: _order(u["id"], seed)):
        if per_group.get(u["group"], 0) < PER_GROUP[u["kind"]] and len(taken) < per_kind:
            per_group[u["group"]] = per_group.get(u["group"], 0) + 1
            taken.append(u)
    return taken


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--library", action="append", default=[], help="a folder of Python modules")
    ap.add_argument("--tutorial", action="append", default=[], help="a git directory of tutorial scripts")
    ap.add_argument("--contest", action="append", default=[], help="a git directory of contest solutions")
    ap.add_argument("--notebook", action="append", default=[], help="a git directory of notebooks")
    ap.add_argument("--per-kind", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    kinds = {"library": library_units([Path(p) for p in args.library]),
             "tutorial": [u for r in args.tutorial for u in script_units(Path(r), "tutorial", 8, 40,
                                                                        lambda p: p.split("/")[0])],
             "contest": [u for r in args.contest for u in script_units(Path(r), "contest", 5, 40,
                                                                      lambda p: str(Path(p).parent))],
             "notebook": [u for r in args.notebook for u in notebook_units(Path(r))]}
    rows = [u for kind, units in kinds.items() for u in sample(units, args.per_kind, args.seed)]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    counts = {k: sum(r["kind"] == k for r in rows) for k in kinds}
    print(f"{len(rows)} units to {args.out}: " + ", ".join(f"{k} {n} (of {len(kinds[k])})" for k, n in counts.items()),
          file=sys.stderr)
    print(json.dumps({"out": args.out, "units": counts, "available": {k: len(v) for k, v in kinds.items()}}))


if __name__ == "__main__":
    main()
