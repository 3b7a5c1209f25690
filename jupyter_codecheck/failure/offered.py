"""The names a failure itself offers: the word the exception says is wrong, and the names that the
object or function it names does take, nearest first by Python's own "Did you mean" rule.

    'Figure' object has no attribute 'colorbas'              exc.obj's attributes       -> colorbar
    Legend.__init__() got an unexpected keyword argument 'locc'   that function's parameters -> loc
    Rectangle.set() got an unexpected keyword argument 'bnis'     the artist's set_<name>
                                                                  properties and the parameters
                                                                  of the library frames on the
                                                                  way (Axes.hist's)          -> bins
    Axes.annotate() missing 1 required positional argument: 'xy'   the keyword written near it
                                                                  takes that name            -> xy

Before the cell ran, the facts could not know these objects (the cell made them); its exception
holds them now, and its traceback the library frames the call went through. They are read, never
run: an object's attributes statically (facts.attribute_names), a function's parameters from its
code object, a frame's `self` by its type. Python 3.10+ sets `name` and `obj` on an
AttributeError from attribute lookup; a library that raises its own (matplotlib's `Artist.set`)
sets `name`. From a traceback's text alone the only offer is Python's own "Did you mean: 'x'?".
"""
from __future__ import annotations

import re
import traceback
import types
from dataclasses import dataclass

KINDS = ("attribute", "keyword", "missing", "value")
# CPython's suggestion rule (Lib/traceback.py): an insertion, a deletion or a substitution costs
# 2, a change of case alone 1; a name is near when within (len(a) + len(b) + 3) * 2 // 6
_MOVE_COST = 2
_CASE_COST = 1
_MAX_NAME = 40
_MAX_OFFERED = 3
# the most names one search reads (a module's namespace, a class with its bases)
_MAX_NAMES = 20_000
_UNEXPECTED = re.compile(r"^(?:([\w.<>]+)\(\) )?got an unexpected keyword argument '(\w+)'")
_MISSING = re.compile(r"^([\w.<>]+)\(\) missing \d+ required (?:positional|keyword-only) arguments?: (.+)$")
_PROPERTY = re.compile(r"^(?:(\w+)\.set\(\) got an unexpected keyword argument|'(\w+)' object has no property) '(\w+)'")
_DID_YOU_MEAN = re.compile(r"Did you mean:? '([A-Za-z_]\w*)'\?")
_NO_ATTRIBUTE = re.compile(r"has no attribute '([A-Za-z_]\w*)'")
_LOOKUPS = ("__getattr__", "__getattribute__")
_QUOTED = re.compile(r"'([^'\n]{1,60})'|\"([^\"\n]{1,60})\"")
_MESSAGE_READ = 4000
_MAX_QUOTED = 60
_MAX_WRAPS = 8
_DOC_READ = 100_000
_NOT_RECOGNIZED = re.compile(r"\b(?:keyword|argument|parameter|property|option) ([A-Za-z_]\w*) (?:is|was) not (?:recognized|valid|known|supported)")
_ONLY_REFUSED = ("KeyError", "IndexError")


@dataclass(frozen=True)
class Offer:
    """`kind` "attribute": `wrong` is an attribute written after a dot; "keyword": a keyword
    argument written; "missing": `wrong` is the parameter the call lacks, and a keyword written
    near it was meant for it. `names`: what may replace the written word, nearest first."""
    kind: str
    wrong: str
    names: tuple[str, ...]
    taken: tuple[str, ...] = ()     # "missing": the keywords the function does take (not slips)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "wrong": self.wrong, "names": list(self.names), "taken": list(self.taken)}

    @classmethod
    def from_dict(cls, d: dict) -> "Offer":
        kind = str(d["kind"])
        if kind not in KINDS:
            raise ValueError(f"offer kind: one of {', '.join(KINDS)}, not {kind!r}")
        return cls(kind, str(d["wrong"]), tuple(str(n) for n in d.get("names", ())),
                   tuple(str(n) for n in d.get("taken", ())))


def distance(a: str, b: str, limit: int) -> int:
    """CPython's suggestion distance between two names, with two neighbouring letters swapped
    counted as one move (the commonest slip: `bnis`), or more than `limit`."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) * _MOVE_COST > limit:
        return limit + 1
    before = None
    row = list(range(0, (len(b) + 1) * _MOVE_COST, _MOVE_COST))
    for i, ca in enumerate(a, 1):
        new = [i * _MOVE_COST] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else _CASE_COST if ca.lower() == cb.lower() else _MOVE_COST
            best = min(row[j] + _MOVE_COST, new[j - 1] + _MOVE_COST, row[j - 1] + cost)
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, before[j - 2] + _MOVE_COST)
            new[j] = best
        if min(new) > limit:
            return limit + 1
        before, row = row, new
    return row[-1]


def nearest(wrong: str, names, identifiers: bool = True) -> tuple[str, ...]:
    """The names Python's rule would suggest for `wrong`: all those at the least distance (a tie
    is for the model to weigh), at most a few; a private name only for a private one. With
    `identifiers` False, any words (a value's text: 'upper right')."""
    if not wrong or len(wrong) > _MAX_NAME:
        return ()
    scored = []
    for n in names:
        if type(n) is not str or n == wrong or len(n) > _MAX_NAME or (identifiers and not n.isidentifier()):
            continue
        if n.startswith("_") and not wrong.startswith("_"):
            continue
        limit = (len(n) + len(wrong) + 3) * _MOVE_COST // 6
        d = distance(wrong, n, limit)
        if d <= limit:
            scored.append((d, n))
    if not scored:
        return ()
    least = min(d for d, _ in scored)
    return tuple(sorted(n for d, n in scored if d == least))[:_MAX_OFFERED]


def offers_of(exc: BaseException, message: str) -> list[Offer]:
    """What a live exception offers (see the module); `message`: its text, as the failure read
    it. Nothing where it says nothing of the kind."""
    error = type(exc).__name__
    try:
        inner = _inner_frames(exc)
        if isinstance(exc, (AttributeError, TypeError)):
            found = _offers(exc, message.split("\n", 1)[0], inner)
            if found:
                return found
        return listed(message, error, _parameters(inner))
    except Exception:  # noqa: BLE001 - an object read in an unforeseen way: no offer, no claim
        return []


def _inner_frames(exc: BaseException) -> list[types.FrameType]:
    """The frames past the last of the user's code: the call it made, on its way in (the frames
    outside it, IPython's run_code, are no part of it)."""
    frames = [f for f, _ in traceback.walk_tb(exc.__traceback__)]
    user = [k for k, f in enumerate(frames) if not _is_library_file(f.f_code.co_filename)]
    return frames[user[-1] + 1:] if user else frames


def listed(message: str, error: str = "", keywords=()) -> list[Offer]:
    """The words an error message quotes, as alternatives to each other: a library that refuses
    a value or a keyword often quotes it beside the ones it takes ("'uper right' is not a valid
    value for loc; supported values are 'best', 'upper right', ..."; "must be a str among
    {'gini', 'entropy'}. Got 'ginni' instead"). Each quoted word with a near one among the
    others is a "value" offer; which of them the code wrote decides (repair.py finds the one
    written at the raising line). A KeyError or IndexError quotes only what was refused."""
    if error in _ONLY_REFUSED:
        return []
    words = list(dict.fromkeys(a or b for a, b in _QUOTED.findall(message[:_MESSAGE_READ])))[:_MAX_QUOTED]
    # a refused word the message names without quotes ("keyword whcih is not recognized; valid
    # keywords are [...]"): the quoted ones and the keywords of the library's functions on the
    # call's way in (`keywords`) are its alternatives
    bare = [w for w in _NOT_RECOGNIZED.findall(message[:_MESSAGE_READ]) if w not in words]
    out = []
    for w in bare:
        near = nearest(w, [*words, *keywords], identifiers=False)
        if near:
            out.append(Offer("value", w, near))
    if len(words) < 3:                  # the refused word and at least two it could have been
        return out
    for w in words:
        near = nearest(w, [o for o in words if o != w], identifiers=False)
        if near:
            out.append(Offer("value", w, near))
    return out


def offers_in_text(message: str, text: str = "", error: str = "") -> list[Offer]:
    """Python's own suggestion where a traceback's text carries it ("Did you mean: 'colorbar'?"
    after "has no attribute 'colorbas'"), on the last exception's own line (not an earlier one
    of a chain)."""
    wrong = _NO_ATTRIBUTE.search(message)
    lines = [x for x in text.splitlines() if x.strip()]
    meant = _DID_YOU_MEAN.search(message) or (_DID_YOU_MEAN.search(lines[-1]) if lines else None)
    if wrong and meant and wrong.group(1) != meant.group(1):
        return [Offer("attribute", wrong.group(1), (meant.group(1),))]
    return listed(message, error)


def _offers(exc: BaseException, message: str, inner: list[types.FrameType]) -> list[Offer]:
    frames = [f for f, _ in traceback.walk_tb(exc.__traceback__)]
    m = _PROPERTY.match(message)
    if m:
        owner, wrong = m.group(1) or m.group(2), m.group(3)
        names = set(_parameters(inner))
        for f in inner:
            this = f.f_locals.get("self")
            if this is not None and _class_name(type(this)) == owner:
                names |= _settable(type(this))
        return _offer("keyword", wrong, names)
    m = _UNEXPECTED.match(message)
    if m and isinstance(exc, TypeError):
        func = _named_function(m.group(1), frames) if m.group(1) else None
        names = set(_parameters(inner))
        if func is not None:
            names |= set(_code_parameters(func.__code__))
        return _offer("keyword", m.group(2), names)
    m = _MISSING.match(message)
    if m and isinstance(exc, TypeError):
        # the library function the message names: a keyword it takes is no slip for another
        func = _named_function(m.group(1), frames)
        missing = re.findall(r"'(\w+)'", m.group(2))
        if func is None or len(missing) != 1:
            return []
        return [Offer("missing", missing[0], (missing[0],), tuple(_code_parameters(func.__code__)))]
    # the lookup itself failed in the code that raised (not a library's own lookup further in,
    # which may have been of another object): past the last frame of the user's code, at most a
    # module's or a class's __getattr__
    if isinstance(exc, AttributeError) and all(f.f_code.co_name in _LOOKUPS for f in inner):
        name = _exception_slot(exc, "name")
        if type(name) is str and "has no attribute" in message:
            obj = _exception_slot(exc, "obj")
            if obj is not None and not _documented(obj, name):
                from ..facts import attribute_names
                names = attribute_names(obj)
                if len(names) <= _MAX_NAMES:
                    return _offer("attribute", name, names)
    return []


def _documented(obj, name: str) -> bool:
    """Does the object's class say it has `name` (a word of a class's docstring in its MRO)? Then
    the attribute is one such objects have at another time, not a slip: scikit-learn's
    `estimators_` before `fit` (its docstring's Attributes section), not `estimator`."""
    if type(obj) is types.ModuleType or issubclass(type(obj), type):
        return False
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    for klass in type.__dict__["__mro__"].__get__(type(obj), type):
        doc = _class_dict(klass).get("__doc__")
        if type(doc) is str and word.search(doc[:_DOC_READ]):
            return True
    return False


def _offer(kind: str, wrong: str, names) -> list[Offer]:
    near = nearest(wrong, names)
    return [Offer(kind, wrong, near)] if near else []


def _exception_slot(exc: BaseException, name: str):
    """AttributeError's own `name`/`obj` slot (its C member, not a subclass's property)."""
    slot = AttributeError.__dict__.get(name)
    return slot.__get__(exc, AttributeError) if slot is not None and isinstance(exc, AttributeError) else None


def _is_library_file(path: str) -> bool:
    from ..facts import is_library_path
    return bool(path) and not path.startswith("<") and is_library_path(path)


def _code_parameters(code: types.CodeType) -> list[str]:
    """A function's named parameters (not *args, **kwargs, nor self)."""
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return [n for n in names if n not in ("self", "cls")]


def _parameters(frames: list[types.FrameType]) -> list[str]:
    """The keywords the library's public functions on a call's way in take (the keyword may have
    been meant for any of them: `hist(bnis=3)` reaches Rectangle.set only because Axes.hist has
    no `bins`; `plt.figure(layoutt=...)` reaches it through Figure.__init__). A private function
    (`_process_plot_var_args.__call__(self, axes, ...)`) is the library's own business, and a
    parameter without a default is one the library passes itself."""
    out: list[str] = []
    for f in frames:
        func = _frame_function(f)
        if func is not None:
            out += _keywords(func)
    return out


def _frame_function(f: types.FrameType):
    """The library function a frame runs, found by its qualified name in its module and checked
    to be that very code; None for a private one, a nested one or one not found."""
    code = f.f_code
    qualname = getattr(code, "co_qualname", None)           # Python 3.11+
    if type(qualname) is not str:
        return None
    parts = qualname.split(".")
    if any(p.startswith("_") and p != "__init__" for p in parts):
        return None
    func = _by_qualname(f.f_globals, parts) if type(f.f_globals) is dict else None
    for _ in range(_MAX_WRAPS):         # a decorated method: the function functools.wraps wrapped
        if func is None or func.__code__ is code:
            return func
        wrapped = types.FunctionType.__dict__["__dict__"].__get__(func).get("__wrapped__")
        func = wrapped if type(wrapped) is types.FunctionType else None
    return None


def _keywords(func: types.FunctionType) -> list[str]:
    """The parameters a caller may name with a default to fall back on (keyword-only ones and
    positional ones with a default), not self."""
    code = func.__code__
    defaults = types.FunctionType.__dict__["__defaults__"].__get__(func) or ()
    positional = code.co_varnames[:code.co_argcount]
    named = list(positional[len(positional) - len(defaults):]) if defaults else []
    named += code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    return [n for n in named if n not in ("self", "cls")]


def _settable(cls: type) -> set[str]:
    """The properties `Artist.set` takes: each `set_<name>` method of the class."""
    from ..facts import attribute_names
    return {n[4:] for n in attribute_names(cls) if n.startswith("set_") and len(n) > 4}


def _named_function(qualname: str, frames: list[types.FrameType]):
    """The library's Python function a TypeError's message names ("Legend.__init__"), found by
    its qualified name from the frames' names (or a module they hold) outwards, read statically.
    A function of the user's is not looked for: the name may now be bound to another one (a
    class cell run again while an object of the old class lives)."""
    parts = qualname.split(".")
    if any(not p.isidentifier() for p in parts):
        return None
    for f in reversed(frames):
        for holder in (f.f_locals, f.f_globals):
            if type(holder) is not dict:
                continue
            found = _by_qualname(holder, parts)
            if found is not None:
                return found
    return None


def _by_qualname(holder: dict, parts: list[str]):
    head = holder.get(parts[0])
    heads = [head] if head is not None else []
    if not heads:
        for value in list(holder.values())[:_MAX_NAMES]:
            if type(value) is types.ModuleType:
                inner = types.ModuleType.__dict__["__dict__"].__get__(value).get(parts[0])
                if inner is not None:
                    heads.append(inner)
    for obj in heads:
        if _qualname(obj) != parts[0]:
            continue
        for part in parts[1:]:
            if not issubclass(type(obj), type):
                obj = None
                break
            obj = next((_class_dict(k)[part] for k in type.__dict__["__mro__"].__get__(obj, type)
                        if part in _class_dict(k)), None)
        if type(obj) is types.FunctionType and _is_library_file(obj.__code__.co_filename):
            return obj
    return None


def _class_dict(cls: type):
    return type.__dict__["__dict__"].__get__(cls, type)


def _class_name(cls: type) -> str:
    return type.__dict__["__name__"].__get__(cls, type)


def _qualname(obj) -> str | None:
    if issubclass(type(obj), type):
        return type.__dict__["__qualname__"].__get__(obj, type)
    if type(obj) is types.FunctionType:
        return types.FunctionType.__dict__["__qualname__"].__get__(obj)
    return None


__all__ = ["Offer", "offers_of", "offers_in_text", "listed", "nearest", "distance"]
