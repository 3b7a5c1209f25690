"""Exit lens: a learned affine map per layer from that layer's output to the last layer's output.

Through the plain output head an intermediate layer predicts poorly (for SmolLM2-135M the next
token is top-1 for ~2 % of code tokens up to layer 12). Mapping the layer's hidden state first,

    h_last ~= h_k @ A[k] + b[k]        (a "tuned lens"; the last layer's map is the identity)

makes the early layers' guesses usable for the reference-token exit test:

    lens = default_lens(model)                       # cached on disk, or fitted once
    def hook(step):
        rows = step.active
        mapped = lens.apply(step.layer, step.hidden(rows))
        r = session.head_states(mapped, refs[rows], top_k=1, shortlist=True)
        ...

Fitting is ordinary least squares with a small ridge term, from normal equations accumulated in
float64 over chunks of the Python standard library's own sources (present on every machine); the
hidden states of one chunk at a time are held, never the whole corpus.

Position 0 of a sequence is left out of the fit: it is the attention sink, with a hidden state
10-100x the norm of the others at the middle layers, which would dominate the squared error. The
lens is not meaningful there; an exit policy should keep position 0 at full depth.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import os
import sys
import time
from pathlib import Path
from typing import Callable, Iterator, Sequence

import numpy as np

from .paths import default_cache_dir
from .session import checker_settings

FORMAT_VERSION = 1
CHUNK_TOKENS = 512          # tokens per forward pass while fitting (truncate(0) between chunks)
# Fit size: the fit runs once per model on the user's machine, and doubling it buys little
# held-out accuracy (bench/reports/constants.md).
DEFAULT_MAX_TOKENS = 6144
# Relative ridge (see NormalEquations.solve), chosen on VALIDATION_MODULES: accuracy is flat up to
# a few 1e-2, and a small fit is better with some ridge than with none (bench/reports/constants.md).
DEFAULT_RIDGE = 1e-2
SKIP_FIRST = 1              # rows at the start of each chunk left out of the fit (attention sink)
CHUNK_SEED = 0              # fixed order in which the training chunks are taken

# Training text: these modules' sources, cut into CHUNK_TOKENS-token chunks taken in a fixed
# pseudo-random order (so that a small max_tokens still sees many modules and not only their
# opening docstrings). It overlaps shortlist.CORPUS_MODULES on purpose; the two held-out lists
# below share no module with it nor with CORPUS_MODULES.
TRAINING_MODULES = (
    "argparse", "ast", "collections", "csv", "dataclasses", "difflib", "email.message",
    "functools", "heapq", "inspect", "json.decoder", "json.encoder", "logging", "pathlib",
    "random", "shutil", "statistics", "string", "textwrap", "typing", "unittest.case", "zipfile",
    "enum", "configparser", "subprocess", "threading", "tarfile", "pickle", "http.client",
    "urllib.parse", "optparse", "datetime", "traceback", "uuid", "base64", "asyncio.tasks",
    "concurrent.futures._base", "multiprocessing.pool", "html.parser", "xml.dom.minidom",
    "mailbox", "socket", "ftplib", "codecs", "dis", "pdb", "trace", "weakref", "warnings",
)
# Rows for choosing the ridge term (never trained on).
VALIDATION_MODULES = ("queue", "contextlib", "copy", "operator", "gettext", "selectors", "shlex")
# Rows for the final measurements in bench/lens.py and the tests (never trained on, never used
# to choose anything).
HELDOUT_MODULES = ("calendar", "fractions", "pprint", "tokenize", "smtplib", "tempfile")


def module_sources(names: Sequence[str]) -> list[str]:
    """`inspect.getsource` of each importable module in `names` (a trimmed install skips some)."""
    out = []
    for name in names:
        try:
            out.append(inspect.getsource(importlib.import_module(name)))
        except (ImportError, OSError, TypeError):
            continue
    return out


def training_sources() -> list[str]:
    """The text the default lens is fitted on: TRAINING_MODULES' sources."""
    return module_sources(TRAINING_MODULES)


# characters of Python source per token with this tokenizer (bench/reports/constants.md)
CHARS_PER_TOKEN = 4


def source_chunks(tokenizer, sources: Sequence[str], chunk_tokens: int = CHUNK_TOKENS,
                  seed: int | None = CHUNK_SEED, min_tokens: int = 16) -> Iterator[list[int]]:
    """Token chunks (<= chunk_tokens each) of the sources, in a fixed pseudo-random order
    (`seed=None`: source order), tokenized lazily: each source is cut at line starts into pieces
    of ~chunk_tokens * CHARS_PER_TOKEN characters and a piece is tokenized (and cut to
    chunk_tokens) only when it is reached, so a small fit does not pay for tokenizing megabytes.
    Pieces shorter than `min_tokens` are skipped."""
    width = chunk_tokens * CHARS_PER_TOKEN
    pieces = []
    for i, src in enumerate(sources):
        start = 0
        while start < len(src):
            end = src.find("\n", start + width)
            end = len(src) if end < 0 else end + 1
            pieces.append((i, start, end))
            start = end
    order = (np.random.default_rng(seed).permutation(len(pieces)) if seed is not None
             else np.arange(len(pieces)))
    for j in order:
        i, start, end = pieces[j]
        ids = tokenizer.encode(sources[i][start:end]).ids[:chunk_tokens]
        if len(ids) >= min_tokens:
            yield list(ids)


def middle_chunks(tokenizer, modules: Sequence[str], chunk_tokens: int = CHUNK_TOKENS
                  ) -> list[list[int]]:
    """One chunk from the middle of each module's source: evaluation text that is code, not the
    opening docstring and imports."""
    chunks = []
    for src in module_sources(modules):
        ids = tokenizer.encode(src).ids
        start = max(0, (len(ids) - chunk_tokens) // 2)
        chunks.append(list(ids[start:start + chunk_tokens]))
    return chunks


def layer_states(session, tokens: Sequence[int]) -> np.ndarray:
    """(n_layer, n, n_embd) float32: every layer's output for `tokens`, run from position 0."""
    n = len(tokens)
    out = np.empty((session.n_layer, n, session.n_embd), dtype=np.float32)
    rows = np.arange(n, dtype=np.int32)

    def hook(step):
        out[step.layer] = step.hidden(rows)

    session.truncate(0)
    session.forward(tokens, hook=hook)
    return out


class NormalEquations:
    """Per-layer sums for least squares of the last layer's output on each layer's output.

    For layer k: G[k] = [X 1]^T [X 1] (d+1, d+1) and R[k] = [X 1]^T Y (d+1, d), float64, with X the
    layer-k outputs and Y the last-layer outputs of the same rows. The last layer has no sums (its
    map is the identity).
    """

    def __init__(self, n_layer: int, n_embd: int):
        self.n_layer, self.n_embd = n_layer, n_embd
        d1 = n_embd + 1
        self.G = np.zeros((n_layer - 1, d1, d1), dtype=np.float64)
        self.R = np.zeros((n_layer - 1, d1, n_embd), dtype=np.float64)
        self.n_rows = 0

    def add(self, states: np.ndarray) -> None:
        """states: (n_layer, n, n_embd) outputs of every layer for n rows."""
        L, n, d = states.shape
        if L != self.n_layer or d != self.n_embd:
            raise ValueError(f"states have shape {states.shape}, expected ({self.n_layer}, n, "
                             f"{self.n_embd})")
        if n == 0:
            return
        y = states[-1].astype(np.float64)
        z = np.empty((n, 2 * d + 1), dtype=np.float64)   # [X 1 Y]: one product gives G and R
        z[:, d] = 1.0
        z[:, d + 1:] = y
        for k in range(L - 1):
            z[:, :d] = states[k]
            p = z[:, :d + 1].T @ z
            self.G[k] += p[:, :d + 1]
            self.R[k] += p[:, d + 1:]
        self.n_rows += n

    def solve(self, ridge: float = DEFAULT_RIDGE, meta: dict | None = None) -> "ExitLens":
        """Ridge least squares per layer, bias unpenalised.

        With centred covariances Cxx, Cxy: A = (Cxx + ridge * diag(Cxx))^-1 Cxy and
        b = mean(y) - mean(x) @ A. The penalty is relative to each input dimension's own variance
        (the hidden states have a few dimensions 10-100x larger than the rest, so a penalty
        relative to the mean variance would all but switch the small dimensions off).
        """
        if self.n_rows < 2:
            raise ValueError("no rows to fit the lens on")
        d, n = self.n_embd, float(self.n_rows)
        A = np.empty((self.n_layer, d, d), dtype=np.float32)
        b = np.empty((self.n_layer, d), dtype=np.float32)
        for k in range(self.n_layer - 1):
            G, R = self.G[k], self.R[k]
            mx = G[d, :d] / n
            my = R[d] / n
            cxx = G[:d, :d] / n - np.outer(mx, mx)
            cxy = R[:d] / n - np.outer(mx, my)
            diag = np.maximum(np.diag(cxx), 1e-12 * max(float(np.diag(cxx).max()), 1e-30))
            ak = np.linalg.solve(cxx + ridge * np.diag(diag), cxy)
            A[k] = ak
            b[k] = my - mx @ ak
        A[-1] = np.eye(d, dtype=np.float32)
        b[-1] = 0.0
        info = {"ridge": float(ridge), "n_rows": int(self.n_rows)}
        info.update(meta or {})
        return ExitLens(A, b, meta=info)


class ExitLens:
    """Per-layer affine maps to the last layer's output space: `h_last ~= h_k @ A[k] + b[k]`."""

    def __init__(self, A: np.ndarray, b: np.ndarray, meta: dict | None = None):
        A = np.ascontiguousarray(A, dtype=np.float32)
        b = np.ascontiguousarray(b, dtype=np.float32)
        if A.ndim != 3 or A.shape[1] != A.shape[2] or b.shape != A.shape[:2]:
            raise ValueError(f"A must be (n_layer, n_embd, n_embd) and b (n_layer, n_embd); got "
                             f"A {A.shape}, b {b.shape}")
        self.A, self.b = A, b
        self.meta = dict(meta or {})

    @property
    def n_layer(self) -> int:
        return self.A.shape[0]

    @property
    def n_embd(self) -> int:
        return self.A.shape[1]

    def apply(self, layer: int, states: np.ndarray) -> np.ndarray:
        """(n, n_embd) layer outputs -> (n, n_embd) float32 estimates of the last layer's output."""
        if not 0 <= layer < self.n_layer:
            raise ValueError(f"layer must be 0..{self.n_layer - 1}, got {layer}")
        x = np.asarray(states, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.n_embd:
            raise ValueError(f"states must have shape (n, {self.n_embd}), got {x.shape}")
        if layer == self.n_layer - 1:
            return x.copy()
        return x @ self.A[layer] + self.b[layer]

    # -- persistence ------------------------------------------------------------------------------

    def save(self, path: str | os.PathLike) -> None:
        """Writes an .npz (atomically: a temporary file renamed into place)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, A=self.A, b=self.b, format_version=np.int64(FORMAT_VERSION),
                     n_layer=np.int64(self.n_layer), n_embd=np.int64(self.n_embd),
                     meta=np.array(json.dumps(self.meta, sort_keys=True)))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike, model=None, *, n_layer: int | None = None,
             n_embd: int | None = None) -> "ExitLens":
        """Reads a lens written by `save`. With `model` (or n_layer / n_embd), its shape must match
        the model's; a mismatch, an unknown format version or an inconsistent file raises
        ValueError."""
        if model is not None:
            n_layer, n_embd = model.n_layer, model.n_embd
        try:
            with np.load(path, allow_pickle=False) as z:
                fields = {k: z[k] for k in z.files}
        except (OSError, ValueError, EOFError) as e:
            if isinstance(e, FileNotFoundError):
                raise
            raise ValueError(f"{path}: not a readable lens file ({e})") from e
        missing = {"A", "b", "format_version", "n_layer", "n_embd"} - set(fields)
        if missing:
            raise ValueError(f"{path}: not a lens file (missing {sorted(missing)})")
        version = int(fields["format_version"])
        if version != FORMAT_VERSION:
            raise ValueError(f"{path}: lens format version {version}, this code reads "
                             f"{FORMAT_VERSION}; refit the lens")
        f_layer, f_embd = int(fields["n_layer"]), int(fields["n_embd"])
        A, b = fields["A"], fields["b"]
        if A.shape != (f_layer, f_embd, f_embd) or b.shape != (f_layer, f_embd):
            raise ValueError(f"{path}: arrays A {A.shape}, b {b.shape} do not match the recorded "
                             f"n_layer={f_layer}, n_embd={f_embd}")
        if (n_layer is not None and f_layer != n_layer) or (n_embd is not None and f_embd != n_embd):
            raise ValueError(f"{path}: lens is for a model with n_layer={f_layer}, n_embd={f_embd}; "
                             f"this model has n_layer={n_layer}, n_embd={n_embd}")
        meta = json.loads(str(fields["meta"])) if "meta" in fields else {}
        return cls(A, b, meta=meta)

    # -- fitting ----------------------------------------------------------------------------------

    @classmethod
    def fit(cls, model, sources: Sequence[str], *, max_tokens: int = DEFAULT_MAX_TOKENS,
            ridge: float = DEFAULT_RIDGE, chunk_tokens: int = CHUNK_TOKENS,
            n_threads: int | None = None,
            progress: Callable[[int, int], None] | None = None) -> "ExitLens":
        """Fits the lens on up to `max_tokens` tokens of `sources` (chunks of <= chunk_tokens,
        taken in a fixed pseudo-random order, each run from position 0). `progress(done, total)`
        is called after every chunk."""
        if not 1 <= chunk_tokens <= 512:
            raise ValueError(f"chunk_tokens must be 1..512, got {chunk_tokens}")
        chunks = source_chunks(model.tokenizer, sources, chunk_tokens)
        eq = NormalEquations(model.n_layer, model.n_embd)
        # the checker's arithmetic, which also makes the fit faster than the defaults
        session = model.session(n_threads=n_threads, n_ctx=max(chunk_tokens, 64),
                                n_batch=chunk_tokens, **checker_settings(model.info.layer_type))
        t0 = time.perf_counter()
        done = n_chunks = 0
        try:
            for chunk in chunks:
                if done >= max_tokens:
                    break
                chunk = chunk[:max_tokens - done]
                if len(chunk) <= SKIP_FIRST + 1:
                    break
                states = layer_states(session, chunk)
                eq.add(states[:, SKIP_FIRST:])
                done += len(chunk)
                n_chunks += 1
                if progress is not None:
                    progress(done, max_tokens)
        finally:
            session.close()
        fit_seconds = time.perf_counter() - t0
        if done == 0:
            raise ValueError("no training tokens: sources are empty")
        return eq.solve(ridge, meta={"n_tokens": done, "n_chunks": n_chunks, "fit_seconds": round(fit_seconds, 2),
                                     "chunk_tokens": chunk_tokens})


# -- disk cache -------------------------------------------------------------------------------------

def _model_digest(path: str | os.PathLike) -> str:
    """sha256 of the file size and its first and last MiB (cheap, changes with any re-quant)."""
    mib = 1 << 20
    h = hashlib.sha256()
    size = os.path.getsize(path)
    h.update(str(size).encode())
    with open(path, "rb") as f:
        h.update(f.read(mib))
        f.seek(max(0, size - mib))
        h.update(f.read(mib))
    return h.hexdigest()


def cache_key(model, *, max_tokens: int, ridge: float) -> str:
    settings = {"format": FORMAT_VERSION, "max_tokens": int(max_tokens), "ridge": float(ridge),
                "chunk_tokens": CHUNK_TOKENS, "skip_first": SKIP_FIRST, "seed": CHUNK_SEED,
                "modules": list(TRAINING_MODULES), "python": list(sys.version_info[:2]),
                # the states it was fitted on: another arithmetic (packed or f16 products) fits again
                "arithmetic": checker_settings(model.info.layer_type)}
    h = hashlib.sha256(_model_digest(model.path).encode())
    h.update(json.dumps(settings, sort_keys=True).encode())
    return h.hexdigest()[:16]


def default_lens(model, *, cache_dir: str | os.PathLike | None = None,
                 max_tokens: int = DEFAULT_MAX_TOKENS, ridge: float = DEFAULT_RIDGE,
                 progress: Callable[[int, int], None] | None = None) -> ExitLens:
    """The model's lens from `cache_dir/lens-<key>.npz`, or fitted on `training_sources()` and
    saved there. The key hashes the model file (size, first and last MiB) and the fit settings;
    an unreadable or mismatched cache file is refitted and overwritten."""
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    path = folder / f"lens-{cache_key(model, max_tokens=max_tokens, ridge=ridge)}.npz"
    if path.is_file():
        try:
            return ExitLens.load(path, model)
        except ValueError:
            pass
    lens = ExitLens.fit(model, training_sources(), max_tokens=max_tokens, ridge=ridge,
                        progress=progress)
    try:
        lens.save(path)
    except OSError:
        pass  # a read-only home: the lens still works for this process
    return lens
