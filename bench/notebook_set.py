"""Notebooks nobody here has read, as rows of notebook_clean.jsonl's shape: a held-out set for the
notebook benchmarks (bench/notebook_mutations.py, bench/kernel_precision.py), which group rows
by repository and path and run each notebook's cells in order.

    python bench/notebook_set.py OUT.jsonl [--git GIT_DIR ...] [--tree DIR ...] [--under PREFIX]
        [--sample N] [--skip K] [--seed 0]

--git    a bare git directory as `fetch` brings it (/work/.mirror/<owner>+<name>/repo): its .ipynb
         files at HEAD, the repository and commit in `meta`
--tree   a source folder (an unpacked sdist): its .ipynb files, and its sphinx-gallery scripts,
         cut into cells at their `# %%` lines as a notebook made of them would be (scikit-learn's
         and matplotlib's examples are written so); the folder's name stands for the repository
--markdown  also read .md files as notebooks exported to markdown (nbconvert, jupytext): each
         fenced ```python block is a code cell; outputs, indented under a block, are not
Each notebook is one row: `earlier_cells` all its code cells but the last, `cell` the last. Cells
that are only comments or shell commands are left out. --sample draws N notebooks in a hash order
of --seed (the same N for the same seed and sources); --skip K leaves out the first K of that order,
so `--skip 70 --sample 70` is a second set that shares no notebook with `--sample 70`.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
from pathlib import Path

CELL_MARK = re.compile(r"^# ?%%.*$", re.M)
PYTHON_FENCE = re.compile(r"^```(?:python|py|ipython3?)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def _code(cell: str) -> str:
    """The cell without its leading comment block (a gallery cell's text), or '' if nothing is left."""
    lines = cell.strip("\n").splitlines()
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("#")):
        lines.pop(0)
    code = "\n".join(lines).rstrip()
    return "" if code.lstrip().startswith("!") else code


def notebook_cells(text: str) -> list[str]:
    nb = json.loads(text)
    cells = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
             for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    return [c for c in cells if _code(c)]


def script_cells(text: str) -> list[str]:
    """A gallery script's cells: the text between `# %%` lines, the module docstring dropped."""
    if not CELL_MARK.search(text):
        return []
    cells = []
    for part in CELL_MARK.split(text):
        code = _code(re.sub(r'^\s*(?:"""|\'\'\').*?(?:"""|\'\'\')', "", part, count=1, flags=re.S))
        if code:
            cells.append(code)
    return cells


def markdown_cells(text: str) -> list[str]:
    """A notebook exported to markdown: its fenced Python blocks, in order."""
    return [cell.rstrip() for cell in PYTHON_FENCE.findall(text) if _code(cell)]


def _cells(path: str, text: str, markdown: bool) -> list[str]:
    if path.endswith(".ipynb"):
        return notebook_cells(text)
    if path.endswith(".md"):
        return markdown_cells(text) if markdown else []
    return script_cells(text) if path.endswith(".py") else []


def _row(repo: str, path: str, commit: str, cells: list[str]) -> dict:
    return {"id": f"heldout-{repo.replace('/', '__')}-{path.replace('/', '__')}-{len(cells) - 1}",
            "source": f"{repo}:{path}@{commit} (code cell #{len(cells) - 1})",
            "earlier_cells": cells[:-1], "cell": cells[-1],
            "meta": {"repo": repo, "path": path, "commit": commit}}


def from_git(git_dir: Path, under: str, markdown: bool = False) -> list[dict]:
    def git(*args: str) -> str:
        return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True,
                              text=True, check=True).stdout
    named = git_dir.parent if git_dir.name == ".git" else git_dir       # a snapshot with a work tree: repo/.git
    repo = named.parent.name.replace("+", "/") if named.name == "repo" else named.name
    commit = git("rev-parse", "HEAD").strip()
    rows = []
    for path in git("ls-tree", "-r", "--name-only", "HEAD").splitlines():
        if path.endswith((".ipynb", ".md") if markdown else ".ipynb") and path.startswith(under) \
                and ".ipynb_checkpoints" not in path:
            try:
                cells = _cells(path, git("show", f"HEAD:{path}"), markdown)
            except (subprocess.CalledProcessError, json.JSONDecodeError, UnicodeDecodeError):
                continue
            if len(cells) >= 2:
                rows.append(_row(repo, path, commit, cells))
    return rows


def from_tree(folder: Path, under: str, markdown: bool = False) -> list[dict]:
    rows = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if not rel.startswith(under) or ".ipynb_checkpoints" in rel:
            continue
        text = path.read_text(encoding="utf-8", errors="replace") if path.suffix in (".ipynb", ".py", ".md") else ""
        try:
            cells = _cells(rel, text, markdown) if text else []
        except json.JSONDecodeError:
            continue
        if len(cells) >= 2:
            rows.append(_row(folder.name, rel, "tree", cells))
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--git", action="append", default=[], help="a bare git directory")
    ap.add_argument("--tree", action="append", default=[], help="a source folder")
    ap.add_argument("--under", default="", help="only paths that begin so")
    ap.add_argument("--sample", type=int, default=0, help="N notebooks drawn in a hash order")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first K of the hash order")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--markdown", action="store_true", help="also .md files exported from notebooks")
    args = ap.parse_args(argv)
    missing = [p for p in [*args.git, *args.tree] if not Path(p).is_dir()]
    if missing or not (args.git or args.tree):
        ap.error(f"no such folder: {', '.join(missing)}" if missing else "give --git or --tree")
    rows = [r for g in args.git for r in from_git(Path(g), args.under, args.markdown)]
    rows += [r for t in args.tree for r in from_tree(Path(t), args.under, args.markdown)]
    if args.sample or args.skip:
        rows = sorted(rows, key=lambda r: hashlib.sha256(f"{args.seed}|{r['id']}".encode()).hexdigest())
        rows = rows[args.skip:args.skip + args.sample] if args.sample else rows[args.skip:]
    with open(args.out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(json.dumps({"notebooks": len(rows), "cells": sum(len(r["earlier_cells"]) + 1 for r in rows),
                      "out": args.out}))


if __name__ == "__main__":
    main()
