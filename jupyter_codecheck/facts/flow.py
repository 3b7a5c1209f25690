"""What a cell does to the kernel's objects before a use: then the use is not checked against
the object as it is now. Objects are followed by identity, not by name: `tmp = df` then
`tmp["c"] = 1` changes df, and so does `frames["tr"]["c"] = 1` when frames["tr"] is df.

    bound    names the cell (re)binds: `df = ...`, imports, `for x in`, `def f`, `del x`
    same     names the cell binds to one live object it can tell (`tmp = df`, `t = frames["tr"]`)
    held     the other names it binds: the live objects their value may be or hold (`frames =
             {"tr": train}`, `for d in combine`, a call's result), None when that cannot be told
    changed  live objects (by id) the cell may change: an attribute or item set on them or on
             what they hold, a method call that may mutate them (`model.fit(X)`, `df.drop(...,
             inplace=True)`) and what they hold (a pipeline's steps), passing them to the
             user's own function, and every global a called function of the user's reads
    keys_set live objects changed only by string items set on them (`df["new"] = 1`): other
             keys of theirs are still read as they are
    literals_set  live objects changed only by literals stored on their attributes (`lr.C = 0.5`):
             the attributes and values, for a rule that reads the object as it will be
             (an estimator's parameters at its fit); marked changed all the same
    names_added  pandas frames and series (live, or made by the cell) changed only in ways that
             can make these names attributes (`s.name = "x"`, `del df["c"]`, `df.index.name =
             "i"`): pandas answers `obj.name` from its members and labels, so the others stay
    shape_kept  live arrays of numpy's own class changed only in their values (`a[0] = 1`,
             `a.sort()`, `a.fill(0)`: numpy keeps an array's shape and dtype in those): read
             as their shape and dtype alone (an abstract value, which only the value rules read)
    touched  names whose object may change where the object itself is not known; "*": any
    stops    after a magic that may define anything (`%run`, `%store -r`), `exec`/`eval` or
             `globals()`: no fact after it
    user_code  the user's code may have run (a function of the user's called or given to a
             call, a call not known to be a library's): it may reach pyplot's current figure.
             The Figures and Axes pyplot made in the cell reach one another
             (`ax.figure.axes[1]`): a change to one, or the user's code run, changes each

Calls of a library do not change their arguments, but for an unbound method's receiver
(`pd.DataFrame.insert(df, ...)`), a known mutator's first argument (`operator.setitem`,
`random.shuffle`) and `out=`; pandas' methods do not change the object without `inplace=True`
(or one of the few that always do). A library's result may hold its arguments
(`make_pipeline(scaler, lr)`, `SimpleNamespace(df=df)`, `np.asarray(a)`), except pandas' own,
which make new objects. A method of an estimator leaves its arguments alone only where the
estimator holds plain data and scikit-learn's own estimators, none `copy=False` (that writes
into X; a function of the user's may do anything): the cell's, live, or returned by `fit` or
`set_params` (scikit-learn's estimators return themselves). A loop's variable over a list of a
library's functions or classes (no method: it would change its receiver), called in the body,
is a library call. An installed library's module (loaded or not: `import matplotlib.pyplot
as plt; plt.rc(...)`) holds nothing of the user's, and a store below it (`pd.options.display.
max_rows = 20`) leaves its names as they are. Anything else may change anything it can reach:
when unsure, no fact.
"""
from __future__ import annotations

import ast
import builtins
import operator
import sys
import types
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..pytext.pycheck import all_nodes
from .attributes import grouped_data
from .abstract_value import ARRAY_RESHAPING, PANDAS_MUTATING, Abstract, random_generator_draw, shaped
from .modules import _installed_library
from .held import _MAX_REACH, _global_names, _held_by, _is_data, _is_library, _is_pandas, _is_pandas_function, \
    _splits, _stored_globals
from .namespace import UNRESOLVED, Made, chain_root, resolve_step

# methods that change a numpy ndarray itself (others make a new array or a view, or read it)
ARRAY_MUTATING = frozenset({"sort", "partition", "resize", "fill", "put", "itemset", "setfield", "setflags",
                            "byteswap"})
_MUTATING = {dict: frozenset({"pop", "popitem", "update", "setdefault", "clear", "__setitem__",
                              "__delitem__"})}
# library functions that change their first argument (`operator.setitem(df, "z", 1)`)
_MUTATES_FIRST = {"_operator": {"setitem", "delitem", "iadd", "iconcat"}, "operator": {"setitem", "delitem"},
                  "random": {"shuffle"}, "numpy": {"copyto", "put", "place", "putmask", "fill_diagonal"},
                  "numpy.random": {"shuffle"}, "numpy.random._generator": {"shuffle"}, "_heapq": {"heappush", "heappop", "heapify", "heapreplace",
                                                          "heappushpop"},
                  "heapq": {"heappush", "heappop", "heapify", "heapreplace", "heappushpop"},
                  "_bisect": {"insort", "insort_left", "insort_right"},
                  "bisect": {"insort", "insort_left", "insort_right"}}
# magics that define no name and change no object the facts read
QUIET_MAGICS = frozenset({"matplotlib", "pip", "conda", "config", "load_ext", "reload_ext",
                           "autoreload", "aimport", "time", "timeit", "who", "whos", "pwd",
                           "precision", "pprint", "xmode", "env", "lsmagic", "history", "codecheck"})
_REACH_DEPTH = 4
_SCALARS = (type(None), bool, int, float, complex, str, bytes)
_OPAQUE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


@dataclass
class Effects:
    bound: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)
    rebinding: set[str] = field(default_factory=set)    # global names code of the user's that ran reads or binds
    stops: bool = False
    same: dict[str, object] = field(default_factory=dict)
    held: dict[str, list | None] = field(default_factory=dict)
    changed: set[int] = field(default_factory=set)
    keys_set: dict[int, set[str]] = field(default_factory=dict)
    literals_set: dict[int, dict[str, object]] = field(default_factory=dict)
    shape_kept: dict[int, object] = field(default_factory=dict)
    # arrays whose values the cell writes (live ones; None: one the cell made, a view of what is
    # not known): another array sharing their memory (`v = y[:]`) changes with them
    written: list = field(default_factory=list)
    holds: dict[int, list] = field(default_factory=dict)     # what the cell put into a live object
    names_added: dict[int, set[str]] = field(default_factory=dict)
    kept: dict[int, object] = field(default_factory=dict)   # what the ids stand for, kept alive
    # loop targets (their Name nodes' ids) the caller found bound to what the cell made at every
    # iteration (an Axes of an array of them): followed as that object through the loop's body
    loop_made: dict[int, Made] = field(default_factory=dict)
    # has the user's code (a function's, or a call the flow cannot tell is a library's) run yet
    user_code: bool = False
    # the loops whose bodies the caller is reading, a statement at a time, outermost first
    enclosing: list[ast.For] = field(default_factory=list)
    # the steps `live` took from a live object since the last statement's effects: the same
    # step is read once, and a fresh object (`df["a"]`) stays one object until then
    steps: dict[tuple, tuple] = field(default_factory=dict, repr=False)

    def apply(self, node: ast.AST, namespace: Mapping, cell_functions: Mapping[str, set[str]], *,
              top_level: bool = False) -> None:
        """What running `node` (a statement, or a whole loop) may bind or change; a binding at
        the cell's top level replaces the name's value, one inside a block may not run."""
        self.steps.clear()
        _Step(self, namespace, cell_functions).run(node, top_level)

    def live(self, chain: ast.AST, namespace: Mapping, *, changes_matter: bool = True,
             keys: bool = False):
        """The object a pure chain stands for as the cell will find it, or UNRESOLVED: the cell
        rebound its name or, if `changes_matter`, may have changed it or what leads to it. With
        `keys`, an object changed only by keys set on it is given (see `set_keys`)."""
        root, steps = _chain(chain)
        if not isinstance(root, ast.Name) or any(_open(s) for s in steps):
            return UNRESOLVED
        obj = self._name(root.id, namespace)
        if changes_matter and (root.id in self.touched or "*" in self.touched):
            return UNRESOLVED
        for s in steps:
            if obj is UNRESOLVED or (changes_matter and not self._readable(obj, s)):
                return UNRESOLVED
            obj = self._step(obj, s)
        if obj is not UNRESOLVED and changes_matter and self.shape_kept.get(id(obj)) is obj:
            return shaped(obj)          # its values changed, its shape and dtype did not
        if obj is not UNRESOLVED and changes_matter and self.written and _numpy_array(obj) and \
                id(obj) not in self.changed and self._shares_written(obj):
            return shaped(obj)          # written through a view of it: its values only
        if obj is UNRESOLVED or (changes_matter and (id(obj) in self.changed or
                                                     (id(obj) in self.keys_set and not keys))):
            return UNRESOLVED
        # a GroupBy answers from the frame it was made of: a change to that frame is its change
        data = grouped_data(obj) if changes_matter else None
        if data is not None and (id(data) in self.changed or id(data) in self.keys_set):
            return UNRESOLVED
        return obj

    def changed_within(self, obj) -> bool:
        """May the cell so far have changed `obj` or anything it holds, at any depth (`steps =
        pipe.steps` earlier, then `steps.append(...)`: the pipeline changed through its list)?
        True when that cannot be told (too much to follow, or a change of anything)."""
        if "*" in self.touched:
            return True
        seen: set[int] = set()
        todo = [(obj, 0)]
        while todo:
            o, depth = todo.pop()
            if id(o) in seen or issubclass(type(o), _SCALARS + _OPAQUE):
                continue
            if id(o) in self.changed or id(o) in self.keys_set or depth > 2 * _REACH_DEPTH or \
                    len(seen) >= _MAX_REACH:
                return True
            seen.add(id(o))
            todo += [(x, depth + 1) for x in [*self.holds.get(id(o), ()), *_held_by(o)]]
        return False

    def bind_made(self, name: str, made: Made) -> bool:
        """`name`, just bound at the cell's top level to a new value, is the object `made` stands
        for: followed by identity from here like a live object, holding what the value held."""
        objects = self.held.get(name)
        if name in self.same or objects is None:
            return False
        del self.held[name]
        self.same[name] = made
        self.kept[id(made)] = made
        if objects:
            self.holds.setdefault(id(made), []).extend(objects)
        return True

    def mark_changed(self, ids: set[int]) -> None:
        """The objects of `ids` may have changed in any way (their shape too). One Figure or Axes
        pyplot made reaches the others of the cell (`ax.figure.axes[1]`, `plt.gcf()`): a change
        to one may be a change to each."""
        if any(_figure_part(self.kept.get(i)) for i in ids) or \
                any(id(v) in ids and _figure_part(v) for v in self.same.values()):
            ids = ids | self.figure_parts()
        self.changed |= ids
        for i in ids:
            self.shape_kept.pop(i, None)
            self.names_added.pop(i, None)
            self.literals_set.pop(i, None)

    def figure_parts(self) -> set[int]:
        """The ids of the Figures, Axes and arrays of Axes the cell made so far."""
        made = [*self.same.values(), *self.kept.values(), *self.loop_made.values()]
        return {id(v) for v in made if _figure_part(v)}

    def user_code_may_run(self) -> None:
        """The user's code may run here: it may reach pyplot's current figure (`plt.gcf()`), and
        with it every Figure and Axes the cell made or the kernel holds."""
        self.user_code = True
        self.changed |= self.figure_parts()

    def names_changed(self, obj, names: set[str]) -> None:
        """A pandas frame or series changed in a way that makes at most `names` attributes of it
        (pandas' `__getattr__` answers its columns, or a series' index, beside its own members)."""
        before = self.names_added.get(id(obj), None if id(obj) in self.changed else self.set_keys(obj))
        self.mark_changed({id(obj)})
        if before is not None:
            self.names_added[id(obj)] = before | names
            self.kept[id(obj)] = obj

    def names_may_add(self, name: ast.AST, namespace: Mapping):
        """A plain name's pandas frame or series (live, or made by the cell) that the cell changed
        only by `names_changed` or string keys set on it: the object and the names it may have
        gained; else None."""
        if not isinstance(name, ast.Name) or name.id in self.touched or "*" in self.touched:
            return None
        obj = self._name(name.id, namespace)
        if not _pandas_frame(obj):
            return None
        if id(obj) in self.changed:
            added = self.names_added.get(id(obj))
            return None if added is None else (obj, added)
        return (obj, self.set_keys(obj)) if id(obj) in self.keys_set else None

    def values_changed(self, obj, was: bool) -> None:
        """A live array of numpy's own class changed only in its values, where `was` (it was
        not changed before, or only so): its shape and dtype stay."""
        self.mark_changed({id(obj)})
        self.written.append(obj)
        if was:
            self.shape_kept[id(obj)] = obj
            self.kept[id(obj)] = obj

    def _shares_written(self, obj) -> bool:
        """May `obj` share memory with an array whose values the cell wrote?"""
        import numpy as np
        return any(w is None or w is not obj and np.may_share_memory(w, obj) for w in self.written)

    def only_values_changed(self, obj) -> bool:
        """Was `obj` left as it was, or changed only in its values, so far?"""
        return id(obj) not in self.changed or self.shape_kept.get(id(obj)) is obj

    def set_keys(self, obj) -> set[str]:
        """The string keys the cell sets on a live object before this point."""
        return self.keys_set.get(id(obj), set())

    def _step(self, obj, step: ast.AST):
        key = _step_key(obj, step)
        if key is None:
            return resolve_step(obj, step)
        kept = self.steps.get(key)
        if kept is None or kept[0] is not obj:
            kept = self.steps[key] = (obj, resolve_step(obj, step))
        return kept[1]

    def _name(self, name: str, namespace: Mapping):
        if name in self.same:
            return self.same[name]
        if name in self.bound or name not in namespace:
            return UNRESOLVED
        return namespace[name]

    def _readable(self, obj, step: ast.AST) -> bool:
        """Does `step` from `obj` still reach what it reached before the cell? Not from an
        object the cell changed, nor through a key it set."""
        if id(obj) in self.changed:
            return False
        set_keys = self.keys_set.get(id(obj))
        if not set_keys:
            return True
        key = _string_key(step)
        return key is not None and key not in set_keys


_NO_LITERAL = object()


def _literal_value(node: ast.AST | None):
    """The value a literal written in the cell stands for (a fresh one each time), or _NO_LITERAL."""
    try:
        return ast.literal_eval(node) if node is not None else _NO_LITERAL
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO_LITERAL


def _figure_part(made) -> bool:
    """Is `made` a Figure, an Axes or an array of Axes the cell made (abstract_matplotlib.py)?"""
    return issubclass(type(made), Abstract) and (made.like in ("Figure", "Axes", "projection") or
                                                 made.holds in ("Axes", "projection"))


def _chain(node: ast.AST) -> tuple[ast.AST, list[ast.AST]]:
    """`a.b["c"].d` as its root (`a`) and its steps, outermost last."""
    steps = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        steps.append(node)
        node = node.value
    return node, steps[::-1]


def _step_key(obj, step: ast.AST) -> tuple | None:
    """`obj.attr` or `obj[<a constant>]`, as a key (the constant's type too: 1 == 1.0 == True)."""
    if isinstance(step, ast.Attribute):
        return id(obj), step.attr
    if isinstance(step, ast.Subscript) and isinstance(step.slice, ast.Constant):
        return id(obj), type(step.slice.value), step.slice.value
    return None


def _open(step: ast.AST) -> bool:
    """A step that is not a name or a literal (`x[i]`): which object it reaches is not known."""
    return isinstance(step, ast.Subscript) and chain_root(step) is None


def _string_key(step: ast.AST) -> str | None:
    if isinstance(step, ast.Subscript) and isinstance(step.slice, ast.Constant) and \
            isinstance(step.slice.value, str):
        return step.slice.value
    return None


class _Step:
    """One statement's effects on the cell's state."""

    def __init__(self, state: Effects, namespace: Mapping, cell_functions: Mapping[str, set[str]]):
        self.state, self.ns, self.functions = state, namespace, cell_functions
        self.loops: list[ast.For] = []

    def run(self, node: ast.AST, top_level: bool) -> None:
        nodes = all_nodes(node)
        self.loops = [*self.state.enclosing, *(n for n in nodes if isinstance(n, ast.For))]
        valued: set[int] = set()         # the names given a value below
        # loop variables first: a loop's body runs after its target is bound
        for n in nodes:
            if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                made = self.identity(n.iter)
                if isinstance(n.target, ast.Name) and issubclass(type(made), Made):
                    # `for ax in axes`: an element of what the cell made, never the value itself
                    valued.add(id(n.target))
                    parts = [made] if _holds_containers(made) else []   # `for c in centers: c.append(0)`
                    self.hold(n.target.id, list(self.state.holds.get(id(made), [])) + parts, replace=False)
                else:
                    self.bind(n.target, n.iter, replace=False, valued=valued)
                for t in ast.walk(n.target):
                    if isinstance(t, ast.Name) and id(t) in self.state.loop_made:
                        made = self.state.loop_made[id(t)]
                        self.state.held.pop(t.id, None)
                        self.state.same[t.id] = made
                        self.state.kept[id(made)] = made
        stored: dict[int, ast.AST] = {}  # an item or attribute target -> the value put there
        replace = top_level and isinstance(node, (ast.Assign, ast.AnnAssign))
        # an assignment's value runs before its targets are bound (`ax = ax.flatten()` calls the
        # method of the `ax` it had)
        valued_calls = {id(c) for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                        and n.value is not None for c in ast.walk(n.value) if isinstance(c, ast.Call)}
        for n in nodes:
            if id(n) in valued_calls:
                self.call(n)
        for n in nodes:
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    self.bind(t, n.value, replace=replace, valued=valued, stored=stored)
            elif isinstance(n, ast.AnnAssign) and n.value is not None:
                self.bind(n.target, n.value, replace=replace, valued=valued, stored=stored)
            elif isinstance(n, (ast.AugAssign, ast.NamedExpr)):
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                    self.augmented(n.target)
                self.bind(n.target, n.value, replace=False, valued=valued, stored=stored)
            elif isinstance(n, ast.withitem) and n.optional_vars is not None:
                self.bind(n.optional_vars, n.context_expr, replace=False, valued=valued, stored=stored)
            elif isinstance(n, ast.Match):
                for c in ast.walk(n):
                    if isinstance(c, (ast.MatchAs, ast.MatchStar)) and c.name:
                        self.hold(c.name, self.objects(n.subject), replace=False)
                        self.state.bound.add(c.name)
        st = self.state
        for n in nodes:
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                st.bound.add(n.id)
                if isinstance(n.ctx, ast.Del):
                    st.same.pop(n.id, None)
                    st.held[n.id] = []
                elif id(n) not in valued:
                    self.hold(n.id, None, replace=False)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                st.bound.add(n.name)
                self.hold(n.name, [], replace=False)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    if a.name == "*":
                        st.stops = True
                    name = a.asname or a.name.split(".")[0]
                    # an installed library's module, or a name taken from one, holds nothing of
                    # the user's (read before the name counts as bound: else its old value is
                    # unknown); a module of the user's may hold anything
                    module = a.name if isinstance(n, ast.Import) else None if n.level else n.module
                    library = module is not None and _installed_library(module)
                    self.hold(name, [] if library else None, replace=top_level and node is n and library)
                    st.bound.add(name)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                st.bound.add(n.name)
                self.hold(n.name, [], replace=False)
            elif isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
                # a sure store: a target of the top level's own assignment
                self.store(n, stored.get(id(n)), sure=replace and any(
                    t is n for t in (node.targets if isinstance(node, ast.Assign) else [node.target])))
            elif isinstance(n, ast.Call) and id(n) not in valued_calls:
                self.call(n)

    # -- names ---------------------------------------------------------------------------------

    def bind(self, target: ast.AST, value: ast.AST, *, replace: bool, valued: set[int],
             stored: dict[int, ast.AST] | None = None, item: bool = False) -> None:
        """`target = value`: a name gets the value's object (`same`) or what it may hold; with
        `item` (`a, b = pair`, no display on the right), one of the items the value holds, which
        one unknown: never the value itself."""
        if isinstance(target, ast.Name):
            valued.add(id(target))
            if isinstance(value, ast.Lambda) and isinstance(self.functions, dict):
                self.functions[target.id] = cell_function_names(value)     # called later: what it reads
            exact = self.identity(value) if not item else UNRESOLVED
            if replace and exact is not UNRESOLVED:
                self.state.held.pop(target.id, None)
                self.state.same[target.id] = exact
            else:
                self.hold(target.id, [exact] if exact is not UNRESOLVED else self.objects(value), replace)
        elif isinstance(target, (ast.Tuple, ast.List)):
            # item by item only where item_by_item holds; else each name may hold any item
            display = not item and item_by_item(target, value)
            for t, v in zip(target.elts, value.elts if display else [value] * len(target.elts)):
                self.bind(t, v, replace=replace, valued=valued, stored=stored, item=not display)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, value, replace=replace, valued=valued, stored=stored, item=item)
        elif isinstance(target, (ast.Attribute, ast.Subscript)) and stored is not None:
            stored[id(target)] = value

    def hold(self, name: str, objects: list | None, replace: bool) -> None:
        st = self.state
        if not replace:
            before = self.objects(ast.Name(name, ast.Load()))
            objects = None if before is None or objects is None else before + objects
        st.same.pop(name, None)
        st.held[name] = objects

    # -- what an expression's value may be or hold ---------------------------------------------

    def identity(self, node: ast.AST):
        """The live object a pure chain stands for as the cell has it so far, else UNRESOLVED."""
        root = chain_root(node)
        if root is None or root in self.state.touched or "*" in self.state.touched:
            return UNRESOLVED             # a function of the user's may have rebound the name
        root, steps = _chain(node)
        if not isinstance(root, ast.Name) or any(_open(s) for s in steps):
            return UNRESOLVED
        # not through an object the cell changed: its steps may reach another
        obj = self.state._name(root.id, self.ns)
        for s in steps:
            if obj is UNRESOLVED or not self.state._readable(obj, s):
                return UNRESOLVED
            obj = resolve_step(obj, s)
        return obj

    def objects(self, node: ast.AST | None) -> list | None:
        """Live objects the value of `node` may be or hold (each with what it reaches); None when
        that cannot be told."""
        if node is None:
            return []
        if isinstance(node, ast.Name):
            st = self.state
            if node.id in st.same:
                return [st.same[node.id]]
            if node.id in st.held:
                return st.held[node.id]
            if node.id in st.bound:
                return None
            return [self.ns[node.id]] if node.id in self.ns else []
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            exact = self.identity(node)
            if exact is not UNRESOLVED:
                return [exact]
            base = self.identity(node.value)
            if base is not UNRESOLVED and _is_data(base):
                return []                       # `df[mask]`, `df.T`: new data
            return _union([self.objects(node.value), self.objects(node.slice)
                           if isinstance(node, ast.Subscript) else []])
        if isinstance(node, ast.Call):
            return self.call_result(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
            # `[x] * 2`, `(x,) + ()`, `rows + [[4]]`: a new list or tuple of the operands' items, the same objects
            parts = [self.objects(node.left), self.objects(node.right)]
            if any(_sequence(o, p) for o, p in zip((node.left, node.right), parts)):
                return None if None in parts else _union(parts)
            return []
        if isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.UnaryOp, ast.Compare,
                             ast.Lambda, ast.FunctionDef, ast.ClassDef)):
            return []                           # a new value
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            local = {t.id for g in node.generators for t in ast.walk(g.target) if isinstance(t, ast.Name)}
            return _union([self.objects(n) for n in ast.walk(node)
                           if isinstance(n, ast.Name) and n.id not in local])
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom)):
            return None
        return _union([self.objects(c) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)])

    def call_result(self, call: ast.Call) -> list | None:
        func = call.func
        args = [*call.args, *(k.value for k in call.keywords)]
        if is_magic(call):
            return []
        target = self.callee(func)
        if target is UNRESOLVED and self._library_callees(func):
            return _union([self.objects(a) for a in args])     # a library's result: as below
        if target is UNRESOLVED:
            if not isinstance(func, (ast.Attribute, ast.Subscript)):
                return None                     # an unknown function (`f(x)(i)`): anything
            return _union([self.objects(func.value)] + [self.objects(a) for a in args])
        receiver = self.identity(func.value) if isinstance(func, ast.Attribute) else UNRESOLVED
        if _is_library(target):
            if receiver is not UNRESOLVED and _is_pandas(receiver) and func.attr != "pipe":
                return []                       # pandas' methods make new objects
            if _is_pandas_function(target):
                return []
            if _splits(target) and call.args and all(self._data(a) for a in call.args):
                return []                       # rows taken by position: new arrays and frames
            held = [receiver] if receiver is not UNRESOLVED else \
                self.objects(func.value) if isinstance(func, ast.Attribute) else []    # `{"a": df}.items()`
            given = _union([self.objects(a) for a in args] + [held])
            if given is None:
                return None
            # a library's result may hold its arguments as they are (`SimpleNamespace(df=df)`,
            # `np.asarray(a)`) and what its receiver holds; pandas' own make new objects (above)
            return given
        reads = self.functions.get(func.id) if isinstance(func, ast.Name) and func.id in self.functions \
            else _global_names(target)
        if "*" in reads:
            return None
        return _union([self.objects(ast.Name(n, ast.Load())) for n in sorted(reads)] +
                      [self.objects(a) for a in args] +
                      [[receiver] if receiver is not UNRESOLVED else []])

    def _data(self, node: ast.AST) -> bool:
        """Is `node` a live array or pandas object, or one the cell made (abstract.py)?"""
        obj = self.identity(node)
        return _is_data(obj) or (issubclass(type(obj), Made) and obj.is_data())

    def callee(self, func: ast.AST):
        if isinstance(func, ast.Name) and func.id not in self.ns and func.id not in self.state.bound \
                and hasattr(builtins, func.id):
            return getattr(builtins, func.id)          # print(df), len(df): builtins
        if isinstance(func, ast.Name) and func.id in self.functions:
            return self.state.same.get(func.id, UNRESOLVED)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant) and \
                type(func.value.value) in (str, bytes):
            # `"{:.2f}".format(model.score(X, y))`, `", ".join(names)`: a method of str or bytes
            method = getattr(func.value.value, func.attr, UNRESOLVED)
            return method if type(method) is types.BuiltinFunctionType else UNRESOLVED
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Dict) and func.attr in _DICT_VIEWS and \
                all(isinstance(k, ast.Constant) for k in func.value.keys):    # (a key of the user's hashes: its code)
            return getattr(dict, func.attr)     # `{"a": m}.items()`: a view of the new dict, nothing of its items runs
        return self.identity(func)

    def reach(self, objects: list | None) -> set[int] | None:
        """The ids of `objects` and of what they hold (containers' elements, instances'
        attributes, what the cell put into them); None if too many to follow."""
        if objects is None:
            return None
        seen: set[int] = set()
        todo = [(o, 0) for o in objects]
        while todo:
            o, depth = todo.pop()
            if id(o) in seen or issubclass(type(o), _SCALARS + _OPAQUE):
                continue
            if len(seen) >= _MAX_REACH:
                return None
            seen.add(id(o))
            self.state.kept[id(o)] = o
            todo += [(x, depth) for x in self.state.holds.get(id(o), ())]
            if depth < _REACH_DEPTH:
                todo += [(x, depth + 1) for x in _held_by(o)]
        return seen

    # -- changes -------------------------------------------------------------------------------

    def augmented(self, name: ast.Name) -> None:
        """`z += 1`: Python's in-place operator on the object the name holds, which every other
        name for it sees (numpy's changes an array's values, keeping its shape and dtype; a
        list's extends it). A value the cell made keeps what is known of it (its shape)."""
        objects = self.objects(name)
        if objects is None:
            self.change(None)
            return
        st = self.state
        for obj in objects:
            if _numpy_array(obj):
                st.values_changed(obj, st.only_values_changed(obj))
            elif issubclass(type(obj), Made):
                st.written.append(None)     # (a view the cell made writes its base's values)
            elif type(obj) not in _IMMUTABLE:
                self.change([obj])      # (Python's numbers, text and tuples make a new object)

    def change(self, objects: list | None) -> None:
        """Anything `objects` reach may change."""
        ids = self.reach(objects)
        if ids is None:
            self.state.touched.add("*")
        else:
            self.state.mark_changed(ids)

    def callback(self, arg: ast.AST) -> None:
        """A function of the user's given to a call (`df.apply(f)`, `sorted(x, key=f)`) may run
        there: what it reads may change."""
        if isinstance(arg, ast.Lambda):
            self.touch_names(cell_function_names(arg))
            self.state.user_code_may_run()
        elif isinstance(arg, ast.Name) and arg.id in self.functions:
            self.touch_names(self.functions[arg.id])
            self.state.user_code_may_run()
        elif chain_root(arg) is not None:
            obj = self.identity(arg)
            if issubclass(type(obj), (types.FunctionType, types.MethodType, type)) and not _is_library(obj):
                self.state.user_code_may_run()
            if issubclass(type(obj), (types.FunctionType, types.MethodType)) and not _is_library(obj):
                self.touch_names(_global_names(obj), _stored_globals(obj))
            if isinstance(arg, ast.Attribute):
                # `s.map(counts.update)`: a bound method given to a call may change its object
                owner = self.identity(arg.value)
                if owner is not UNRESOLVED and not issubclass(type(owner), types.ModuleType) and \
                        _method_of(owner, arg.attr):
                    self.state.touched.add(chain_root(arg))
                    self.change([owner])

    def touch_names(self, names: set[str], rebinds: set[str] | None = None) -> None:
        """A function of the user's reads these global names: it may change them, and rebind
        `rebinds` (all of them where not known)."""
        self.state.touched |= names
        self.state.rebinding |= names if rebinds is None else rebinds
        # a name it binds again (through a function of the user's it calls too) holds what it was not
        self.state.touched |= (rebinds or set()) - {"*"}
        if "*" not in names:
            for n in names:
                self.change(self.objects(ast.Name(n, ast.Load())))

    def put(self, into: ast.AST, obj, value: ast.AST | None) -> None:
        """The cell puts `value` into `obj` (a store, `frames.append(df)`): a later change through
        `obj` may change it."""
        objects = self.objects(value) if value is not None else []
        if obj is not UNRESOLVED:
            if objects is None:
                self.state.touched.add("*")
            else:
                self.state.holds.setdefault(id(obj), []).extend(objects)
                self.state.kept[id(obj)] = obj
        elif isinstance(into, ast.Name) and into.id in self.state.held and objects:
            before = self.state.held[into.id]
            self.state.held[into.id] = None if before is None or objects is None else before + objects

    def store(self, target: ast.Attribute | ast.Subscript, value: ast.AST | None, sure: bool = False) -> None:
        """`x.a = v`, `x["k"] = v`, `del x[k]`: x changes (only by the key, for a string key set
        on an object the cell can tell), and so do the objects on the way to it. `sure`: the
        store surely runs (a literal stored so is kept in literals_set)."""
        st = self.state
        root, steps = _chain(target.value)
        prefix = self._prefix(root, steps)
        if prefix and len(prefix) == len(steps) + 1 and prefix[-1] is not UNRESOLVED:
            obj = prefix[-1]
            owners = [p for p in prefix[:-1] if not _keys_fixed(p)]
            if owners and owners[-1] is prefix[-2]:
                names = set() if _names_kept(prefix[-2], steps[-1], obj, target) else \
                    _indexed_names(prefix[-2], steps[-1], target)
                if names is not None:           # `df.index.name = "i"`, `df.iloc[0] = 1`, `df.loc[:, "c"] = 1`
                    st.names_changed(owners.pop(), names)
            st.mark_changed({id(p) for p in owners})
            key = _string_key(target) if isinstance(target.ctx, ast.Store) else None
            made = issubclass(type(obj), Made)
            if made:
                self.change(st.holds.get(id(obj), []))   # the value made may be one of them
            if made and isinstance(target, ast.Subscript) and isinstance(target.ctx, ast.Store) and \
                    obj.keeps("__setitem__", False):
                st.written.append(None)                  # `a[0] = 1` in an array: its shape stays (a view's base changes)
            elif key is not None and id(obj) not in st.changed:
                st.keys_set.setdefault(id(obj), set()).add(key)
            elif (names := _names_made(obj, target)) is not None:
                st.names_changed(obj, names)
            elif isinstance(target, ast.Subscript) and isinstance(target.ctx, ast.Store) and _numpy_array(obj):
                st.values_changed(obj, st.only_values_changed(obj))     # `a[0] = 1`: numpy casts into a's dtype
            else:
                before = st.literals_set.get(id(obj), None if id(obj) in st.changed else {})
                st.mark_changed({id(obj)})
                stored = _literal_value(value) if sure and isinstance(target, ast.Attribute) and \
                    isinstance(target.ctx, ast.Store) and not made else _NO_LITERAL
                if before is not None and stored is not _NO_LITERAL:
                    st.literals_set[id(obj)] = {**before, target.attr: stored}
                    st.kept[id(obj)] = obj
            st.kept.update((id(p), p) for p in prefix)
            self.put(target.value, obj, value)
            return
        if prefix and all(_keys_fixed(p) for p in prefix):
            return          # `pd.options.display.max_rows = 20`: an option's value, which no fact reads
        # the object changed is not known: anything the last known step reaches may be it
        name = any_root(target.value)
        if name is not None:
            st.touched.add(name)
        self.change(prefix[-1:] if prefix else self.objects(root))
        if prefix:
            st.mark_changed({id(p) for p in prefix})
        if isinstance(root, ast.Name) and not steps:
            self.put(root, UNRESOLVED, value)

    def _prefix(self, root: ast.AST, steps: list[ast.AST]) -> list:
        """The live objects along a chain, as far as the cell can tell which they are."""
        if not isinstance(root, ast.Name):
            return []
        obj = self.state._name(root.id, self.ns)
        if obj is UNRESOLVED:
            return []
        out = [obj]
        for s in steps:
            # a frame changed only in its labels is still the object its indexers store into
            through = id(obj) in self.state.names_added and isinstance(s, ast.Attribute) and s.attr in _INDEXERS
            if _open(s) or not (through or self.state._readable(obj, s)):
                break
            obj = resolve_step(obj, s)
            if obj is UNRESOLVED:
                break
            out.append(obj)
        return out

    def call(self, call: ast.Call) -> None:
        st = self.state
        func = call.func
        root = any_root(func)
        if is_magic(call):
            if magic_name(call) not in QUIET_MAGICS:
                st.stops = True
            return
        if isinstance(func, ast.Name) and func.id in ("exec", "eval", "globals", "vars", "locals", "setattr",
                                                      "delattr", "__import__") and func.id not in self.ns:
            st.stops = True
            return
        target = self.callee(func)
        alternatives = self._library_callees(func) if target is UNRESOLVED else []
        if isinstance(func, ast.Name) and func.id in self.functions:
            self.touch_names(self.functions[func.id])           # a function of the cell: what it reads
        elif target is not UNRESOLVED and not _is_library(target):
            self.touch_names(_global_names(target), _stored_globals(target))     # the user's function: what it reads
        elif target is UNRESOLVED and isinstance(func, ast.Name) and self.objects(func) is None:
            st.touched.add("*")                                 # a callable the cell made, unknown
        elif target is UNRESOLVED and isinstance(func, ast.Name) and not alternatives:
            # a name that may be one of these (`for f in [f1_score, mine]`, `f = mine` in a loop):
            # each of the user's may run, and what it reads may change
            for obj in self.objects(func):
                if not _is_library(obj):
                    self.touch_names(_global_names(obj), _stored_globals(obj))
        for a in [*call.args, *(k.value for k in call.keywords)]:
            self.callback(a)
        returned = self._estimator_returned(func.value) if isinstance(func, ast.Attribute) else UNRESOLVED
        looped = self._loop_estimators(func.value) if isinstance(func, ast.Attribute) else None
        new = isinstance(func, ast.Attribute) and (self._sklearn_made(func.value) or
                                                   self._numpy_made(func.value) and func.attr not in ARRAY_MUTATING and
                                                   not func.attr.startswith("__"))
        if looped is not None:
            self.change(looped)         # `for clf in models: clf.fit(X, y)`: one of them, fitted
        elif isinstance(func, ast.Attribute) and root is not None and returned is not _NEW and not new:
            receiver = self.identity(func.value) if returned is UNRESOLVED else returned
            if receiver is UNRESOLVED and chain_root(func.value):
                base = self.identity(_chain(func.value)[0])
                # `df["a"].mean()`: a column of df; `axes[0].plot()`: an element of what the cell made
                receiver = base if _is_pandas(base) or issubclass(type(base), Made) else UNRESOLVED
                if _figure_part(base) and any(isinstance(x, ast.Attribute) and x.attr.startswith("__")
                                              for x in ast.walk(func.value)):
                    self.change([base])     # `fig.__dict__.update(...)`: its own names, set
            if not _keeps_receiver(receiver, func.attr, call) and not self._loop_items_kept(func, call):
                was = _numpy_array(receiver) and func.attr in ARRAY_MUTATING - ARRAY_RESHAPING and \
                    st.only_values_changed(receiver)
                if type(receiver) in (list, dict, set):     # `big.append(x)`: its members stay as they are
                    st.mark_changed({id(receiver)})
                    st.kept[id(receiver)] = receiver
                else:
                    self.change([receiver] if receiver is not UNRESOLVED else self.objects(func.value))
                if was:                                     # `a.sort()`, `a.fill(0)`: its values only
                    st.values_changed(receiver, True)
                elif issubclass(type(receiver), Made) and func.attr in ARRAY_MUTATING:
                    st.written.append(None)                 # `v.fill(1)` on a view the cell made
                for a in [*call.args, *(k.value for k in call.keywords)]:
                    self.put(func.value, receiver, a)          # `frames.append(df)`: frames holds df
        elif isinstance(func, ast.Attribute) and root is None and returned is not _NEW and not new:
            self.change(self.objects(func.value))  # `[x][0].pop()`: a method of what a display holds
        # arguments: a library call leaves them as they are, but for the few that change one
        # (an unbound method, `operator.setitem`, `out=`); anything else may change them
        # (a method of what the cell made, abstract.py, is its library's too)
        owner = self.identity(func.value) if isinstance(func, ast.Attribute) else UNRESOLVED
        made = target is UNRESOLVED and isinstance(func, ast.Attribute) and \
            ((issubclass(type(owner), Made) and _keeps_arguments(owner) and _library_member(owner, func.attr)) or
             self._part_of_made(func.value) or
             (self._library_instance(func.value) and _plain_call(func.value)) or
             (returned is not UNRESOLVED and self._plain_returned(func.value)) or looped is not None or new)
        reads = made and issubclass(type(owner), Made) or target is not UNRESOLVED and _reads_dunders(target)
        if reads and any(self._foreign(a) for a in [*call.args, *(k.value for k in call.keywords)]):
            # `t.set_text(label)`, `plt.title(label)`, `print(label)`: the call reads `label`, running its dunders
            self.state.user_code_may_run()
        if (target is not UNRESOLVED and _is_library(target)) or made or alternatives:
            changed = [k.value for k in call.keywords if k.arg == "out"] if made else \
                [a for t in alternatives or [target] for a in self._changed_by_library(func, t, call)]
            for a in changed:
                obj = self.identity(a)
                if not made and _numpy_array(obj) and _numpy_function(target) and st.only_values_changed(obj):
                    self.change([obj])                  # `np.random.shuffle(a)`, `np.put(a, ...)`, `out=a`:
                    st.values_changed(obj, True)        # numpy writes into a, keeping its shape and dtype
                    continue
                if any_root(a) is not None:
                    st.touched.add(any_root(a))
                self.change(self.objects(a))
        elif target is UNRESOLVED or not _is_library(target):
            self.state.user_code_may_run()
            for a in [*call.args, *(k.value for k in call.keywords)]:
                r = any_root(a)
                # `logger.setLevel(logging.ERROR)`: the value is given, not a library's module
                if r is not None and not self._library_module(r):
                    st.touched.add(r)
                self.change(self.objects(a))

    def _numpy_made(self, node: ast.AST) -> bool:
        """`np.exp(t)` in `np.exp(t).sum(axis=0)`: a call of numpy's own functions on plain data
        (no object of the user's class, no array of objects): it makes numpy's array or scalar,
        whose methods are numpy's code alone (`np.asarray(a)` may be `a` itself: a method that
        changes the array is not one of these)."""
        if isinstance(node, (ast.BinOp, ast.Compare)):     # `(A * np.exp(t)).sum()`, `(y == k).nonzero()`:
            sides = (node.left, node.right) if isinstance(node, ast.BinOp) else (node.left, *node.comparators)
            if isinstance(node, ast.Compare) and (len(node.ops) != 1 or type(node.ops[0]) not in _ORDERING):
                return False                    # (`a < b < c` is Python's `and`; `in` and `is` are not numpy's)
            return all(self._numpy_made(x) or self._numpy_operand(x) for x in sides) and \
                any(self._numpy_made(x) or not isinstance(x, ast.Constant) for x in sides)
        if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords) or \
                any(isinstance(a, ast.Starred) for a in node.args):
            return False
        target = self.callee(node.func)
        if target is builtins.abs and len(node.args) == 1 and not node.keywords:
            # `abs(z).max()`: Python's abs of numpy's array of numbers is its `__abs__`, numpy's absolute
            return not isinstance(node.args[0], ast.Constant) and self._numpy_operand(node.args[0])
        return target is not UNRESOLVED and _numpy_function(target) and \
            not any(self._foreign(a) for a in [*node.args, *(k.value for k in node.keywords)])

    def _numpy_operand(self, node: ast.AST) -> bool:
        """A number written out, an array of numpy's own class of numbers (live, or as the cell
        made it), or a numpy scalar: arithmetic with it is numpy's."""
        if isinstance(node, ast.Constant):
            return type(node.value) in (int, float, complex)
        obj = self.identity(node)
        np = sys.modules.get("numpy")
        if np is None or obj is UNRESOLVED:
            return False
        if issubclass(type(obj), Made):
            return isinstance(obj, Abstract) and obj.like == "ndarray" and obj.kind is not None and obj.kind in "biufc"
        return type(obj) is np.ndarray and obj.dtype.kind in "biufc" or type(obj) in (int, float, complex) or \
            issubclass(type(obj), np.number) and _library_class(type(obj))

    def _foreign(self, node: ast.AST) -> bool:
        """May the value of `node` be or hold an object of a class of the user's (its dunders,
        `__str__`, `__array__`, `__float__`, run when a library reads it), or one not known?"""
        reached = self.reach(self.objects(node))
        if reached is None:
            return True
        for i in reached:
            o = self.state.kept.get(i)
            if o is None or issubclass(type(o), Made) or type(o) in (list, tuple, dict, set, frozenset) or \
                    issubclass(type(o), _SCALARS + (types.ModuleType,)):
                continue
            from .read_policy import POLICY
            if not POLICY.is_library(type(o)) or _holds_objects(o):
                return True             # (an array or a frame of objects holds what its methods call)
        return False

    def _library_module(self, name: str) -> bool:
        """Is `name` bound, as the cell has it so far, to an installed library's module?"""
        return _is_library_module(self.identity(ast.Name(name, ast.Load())))

    def _library_instance(self, node: ast.AST) -> bool:
        """Is `node` a library's class called right there (`LinearRegression().fit(X, y)`)? Its
        methods are then the library's, as a live instance's are."""
        if not isinstance(node, ast.Call):
            return False
        cls = self.callee(node.func)
        return issubclass(type(cls), type) and _is_library(cls)

    def _library_callees(self, func: ast.AST) -> list:
        """`for metric in [f1_score, recall_score]: metric(y, p)`, `for cv in cvs: cv(n_splits=5)`:
        in the body of a loop over a list the cell wrote or a live list or tuple (loop_items),
        whose items are all functions or classes of a library, the loop's variable called (the
        body binds it nowhere else): those items; else []."""
        if not isinstance(func, ast.Name):
            return []
        items = loop_items(func, self.loops, self.identity, self.callee)
        return items if items and all(_plain_library_callable(o) for o in items) else []

    def _sklearn_made(self, node: ast.AST, depth: int = 0) -> bool:
        """`CalibratedClassifierCV(FrozenEstimator(clf), method="sigmoid")`: an estimator of
        scikit-learn's own class made right there of literals, plain values and estimators, live
        or made by the cell (flow._plain_value), and estimators made so, none `copy=False`. Its methods then leave
        their arguments as they are, and its fit leaves its parameters as they were (scikit-learn's
        common check `check_estimators_overwrite_params`): nothing the user holds changes."""
        if depth > 4 or not self._library_instance(node) or not _sklearn_own(self.callee(node.func)) or \
                any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return False
        for name, a in [(None, a) for a in node.args] + [(k.arg, k.value) for k in node.keywords]:
            if _plain_call(ast.Call(ast.Name("f", ast.Load()), [], [ast.keyword(name or "value", a)])):
                continue                        # a literal
            if isinstance(a, ast.Call):
                if not self._sklearn_made(a, depth + 1):
                    return False
                continue
            obj = self.identity(a) if chain_root(a) is not None else UNRESOLVED
            if obj is UNRESOLVED or issubclass(type(obj), Made) and not isinstance(obj, Abstract) or \
                    not _copies(name, obj) or not _plain_value(obj):
                return False                    # (an estimator the cell made: `_plain_value` reads it)
        return True

    def _loop_items_kept(self, func: ast.Attribute, call: ast.Call) -> bool:
        """`for name, clf in models: name.upper()`: a method of a loop's variable over live items
        (loop_items) that leaves each of them as it was (a str's, a tuple's)."""
        if not isinstance(func.value, ast.Name):
            return False
        items = loop_items(func.value, self.loops, self.identity, self.callee)
        return bool(items) and all(_keeps_receiver(i, func.attr, call) for i in items)

    def _loop_estimators(self, node: ast.AST) -> list | None:
        """`for name, clf in models: clf.fit(X, y).predict(X)`: the receiver is a loop's variable
        over a live list, tuple or dict (loop_items) whose items are all estimators of
        scikit-learn's own classes holding only plain values (their methods leave their arguments
        as they are), reached through methods that return the estimator itself: those items;
        else None."""
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RETURNS_SELF:
            if node.func.attr == "set_params" and not _plain_call(node):
                return None
            node = node.func.value
        if not isinstance(node, ast.Name):
            return None
        items = loop_items(node, self.loops, self.identity, self.callee)
        return items if items and all(_sklearn_own(type(e)) and _plain_value(e) for e in items) else None

    def _estimator_returned(self, node: ast.AST):
        """`est.fit(X)`, `LinearRegression().fit(X, y)`, `est.set_params(C=1).fit(X)`: a call
        scikit-learn's own estimators answer with themselves, so a method chained on it is the
        estimator's: the estimator (live, or the cell's abstract one), `_NEW` for one made right
        there, else UNRESOLVED."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
                node.func.attr in RETURNS_SELF):
            return UNRESOLVED
        owner = node.func.value
        if self._library_instance(owner):
            cls = self.callee(owner.func)
            return _NEW if _sklearn_own(cls) else UNRESOLVED
        est = self.identity(owner) if chain_root(owner) is not None else self._estimator_returned(owner)
        if est is _NEW:
            return _NEW
        if issubclass(type(est), Made):
            return est if isinstance(est, Abstract) and est.like == "estimator" else UNRESOLVED
        return est if est is not UNRESOLVED and _sklearn_own(type(est)) else UNRESOLVED

    def _plain_returned(self, node: ast.Call) -> bool:
        """Is the estimator `node` returns (`_estimator_returned`) one whose methods leave their
        arguments as they are: made of literals, or holding only plain data and scikit-learn's
        own estimators, no `copy=False` (it would write into X) and nothing of the user's to call?"""
        if node.func.attr == "set_params" and not _plain_call(node):
            return False
        owner = node.func.value
        if self._library_instance(owner):
            return _plain_call(owner)
        if chain_root(owner) is None:
            return isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute) and \
                owner.func.attr in RETURNS_SELF and self._plain_returned(owner)
        est = self.identity(owner)
        return _keeps_arguments(est) if issubclass(type(est), Made) else _plain_value(est)

    def _part_of_made(self, node: ast.AST) -> bool:
        """Is `node` a step into what the cell made whose parts are its library's (`axes[0]` of
        `plt.subplots`)?"""
        if chain_root(node) is None or not isinstance(node, (ast.Attribute, ast.Subscript)):
            return False
        base = self.identity(_chain(node)[0])
        return issubclass(type(base), Made) and type(base).library_parts is True

    def _changed_by_library(self, func: ast.AST, target, call: ast.Call) -> list[ast.AST]:
        """The arguments a library call may change: the receiver of an unbound method
        (`pd.DataFrame.insert(df, ...)`, through `df.pipe(pd.DataFrame.insert, ...)` too), the
        first argument of a known mutator, an `out=` array."""
        out = [k.value for k in call.keywords if k.arg == "out"]
        args = list(call.args)
        if isinstance(func, ast.Attribute) and func.attr == "pipe" and args:
            target, func, args = self.identity(args[0]), args[0], [func.value] + args[1:]
        if not args or target is UNRESOLVED:
            return out
        out += _numpy_outputs(target, args)
        owner = self.identity(func.value) if isinstance(func, ast.Attribute) else UNRESOLVED
        name = getattr(target, "__name__", None)
        if issubclass(type(owner), type) and type(name) is str:
            first = self.identity(args[0])
            if first is UNRESOLVED or not _keeps_receiver(first, name, call):
                out.append(args[0])
        elif name in _MUTATES_FIRST.get(getattr(target, "__module__", None) or "", ()):
            out.append(args[0])
        return out


def _numpy_outputs(target, args: list) -> list:
    """The positional arguments numpy writes into: a ufunc's after its inputs (`np.maximum(a, 1,
    a)`), a ufunc's `at`'s first (`np.add.at(a, i, 1)`), a function's `out` given by place."""
    import inspect
    import sys
    np = sys.modules.get("numpy")
    if np is None:
        return []
    if type(target) is np.ufunc:
        return args[target.nin:]
    if type(getattr(target, "__self__", None)) is np.ufunc:
        return args[:1] if getattr(target, "__name__", None) == "at" else []
    if not str(getattr(target, "__module__", None) or "").startswith("numpy"):
        return []
    try:
        params = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        return []
    place = params.index("out") if "out" in params else len(args)
    return args[place:place + 1]


_NOT_BOUND = object()       # a loop target that does not bind the name looked for


def loop_items(name: ast.Name, loops: list, identity, callee) -> list | None:
    """The live objects the loop variable `name` takes, one an iteration, in the innermost of
    `loops` (outermost first) whose target binds it and whose body `name` is in: `for clf in
    models`, `for clf, label in pairs`, `for i, (clf, label) in enumerate(pairs)`, `for label,
    clf in models.items()`, `for clf in models.values()`, `for clf, ax in zip(models, axes)`,
    over live lists, tuples and dicts of Python's own classes (reading them runs nothing of the
    user's). `identity` gives a chain's live object as the cell has it so far (UNRESOLVED: not
    known or changed), `callee` a called name's object (a builtin's too). None when the body
    binds the name again, or the items are not known, none or too many."""
    for loop in reversed(loops):
        if not any(name is n for b in loop.body for n in ast.walk(b)):
            continue
        if not any(isinstance(t, ast.Name) and t.id == name.id for t in ast.walk(loop.target)):
            continue                    # bound by an outer loop, or before
        if any(isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load) or
               isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal,
                              ast.Import, ast.ImportFrom))
               for b in loop.body for n in ast.walk(b)):
            return None
        rows = _iterated(loop.iter, identity, callee)
        if rows is None or not 0 < len(rows) <= 100:
            return None
        out = [_unpacked(loop.target, row, name.id) for row in rows]
        return None if any(v is _NOT_BOUND or v is UNRESOLVED for v in out) else out
    return None


def _iterated(node: ast.AST, identity, callee) -> list | None:
    """What a loop over `node` takes, in order: a live list, tuple or dict (its keys), a list or
    tuple written with live items, `d.items()`, `d.values()`, `d.keys()` of a live dict, and
    `enumerate(...)`, `zip(...)` of those; None otherwise."""
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [identity(e) for e in node.elts]
        return None if any(isinstance(e, ast.Starred) for e in node.elts) or any(i is UNRESOLVED for i in items) \
            else items
    if isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
        func = node.func
        builtin = callee(func) if isinstance(func, ast.Name) else None
        if (builtin is enumerate or builtin is zip) and node.args:
            parts = [_iterated(a, identity, callee) for a in node.args]
            if any(p is None for p in parts) or (builtin is enumerate and len(parts) != 1):
                return None
            return list(enumerate(parts[0])) if builtin is enumerate else [tuple(r) for r in zip(*parts)]
        if builtin is range and 1 <= len(node.args) <= 3:
            bounds = [int_arithmetic(a, identity) for a in node.args]
            if None in bounds or len(bounds) == 3 and bounds[2] == 0:
                return None             # (a step of 0: range's own ValueError)
            try:
                return list(range(*bounds)) if len(range(*bounds)) <= 100 else None
            except OverflowError:       # more items than an index holds
                return None
        if builtin in (list, tuple, reversed, sorted) and len(node.args) == 1:
            rows = _iterated(node.args[0], identity, callee)
            return None if rows is None else rows[::-1] if builtin is reversed else \
                _sorted_by_plain_keys(rows) if builtin is sorted else rows
        if isinstance(func, ast.Attribute) and func.attr in ("items", "values", "keys") and not node.args and \
                chain_root(func.value) is not None:
            d = identity(func.value)
            return list(getattr(dict, func.attr)(d)) if type(d) is dict else None
        return None
    if chain_root(node) is None:
        return None
    obj = identity(node)
    return list(obj) if type(obj) in (list, tuple, dict) else None


def int_arithmetic(node: ast.expr, identity) -> int | None:
    """An int written (`3`, `-1`), held by a chain (`identity` gives its object: a name the cell
    has not changed, a loop's variable), or + - * // % of those."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = int_arithmetic(node.operand, identity)
        return -v if v is not None else None
    if isinstance(node, ast.BinOp) and type(node.op) in _INT_OPS:
        a, b = int_arithmetic(node.left, identity), int_arithmetic(node.right, identity)
        return None if a is None or b is None or type(node.op) in (ast.FloorDiv, ast.Mod) and b == 0 else \
            _INT_OPS[type(node.op)](a, b)
    v = node.value if isinstance(node, ast.Constant) else identity(node) if chain_root(node) is not None else None
    return v if type(v) is int else None


_INT_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
            ast.Mod: operator.mod}


def _sorted_by_plain_keys(rows: list) -> list | None:
    """`sorted(models.items())`: rows ordered by keys of one of Python's own types, all distinct
    (a dict's), so no comparison reaches what they hold; None for any other rows."""
    keys = [r[0] if type(r) is tuple and r else r for r in rows]
    if len({type(k) for k in keys}) > 1 or not all(type(k) in (str, int, float) for k in keys) or \
            len(set(keys)) < len(keys):
        return None
    return [rows[i] for _, i in sorted(zip(keys, range(len(rows))))]


def _unpacked(target: ast.AST, row, name: str):
    """The value `name` gets when the loop's `target` takes `row` (_NOT_BOUND: the target does not
    bind it; UNRESOLVED: the row does not unpack as the target says, known)."""
    if isinstance(target, ast.Name):
        return row if target.id == name else _NOT_BOUND
    if not isinstance(target, (ast.Tuple, ast.List)) or type(row) not in (tuple, list) or \
            len(row) != len(target.elts) or any(isinstance(t, ast.Starred) for t in target.elts):
        return UNRESOLVED
    for t, v in zip(target.elts, row):
        found = _unpacked(t, v, name)
        if found is not _NOT_BOUND:
            return found
    return _NOT_BOUND


def _pandas_frame(obj) -> bool:
    """A DataFrame or Series of pandas' own classes, live or one the cell made (abstract.py)."""
    if issubclass(type(obj), Abstract):
        return obj.like in ("DataFrame", "Series")
    pd = sys.modules.get("pandas")
    return pd is not None and type(obj) in (pd.DataFrame, pd.Series)


def _names_made(obj, target: ast.Attribute | ast.Subscript) -> set[str] | None:
    """The names a store into a frame or series of pandas' own classes may make attributes of
    it: `s.name = v` that name (pandas sets an attribute, or a column's values), `del df["c"]`
    none, `df[["a", "b"]] = v` its string keys, `s[0] = v` none; None when it may be any (a store
    of its labels themselves, `df.columns = ...`, or a key the text does not say)."""
    if not _pandas_frame(obj):
        return None
    if isinstance(target.ctx, ast.Del):
        return set()
    if isinstance(target, ast.Attribute):
        return None if target.attr.startswith("_") or target.attr in ("columns", "index", "axes") else {target.attr}
    keys = target.slice.elts if isinstance(target.slice, (ast.List, ast.Tuple)) else [target.slice]
    if not all(isinstance(k, ast.Constant) for k in keys):
        return None
    return {k.value for k in keys if isinstance(k.value, str)}


def _names_kept(owner, step: ast.AST, index, target: ast.AST) -> bool:
    """`df.index.name = "i"`, `df.columns.names = [...]`: a store of an index's names, reached
    from a pandas frame or series, changes none of the owner's labels."""
    pd = sys.modules.get("pandas")
    return _pandas_frame(owner) and isinstance(step, ast.Attribute) and step.attr in ("index", "columns") and \
        isinstance(target, ast.Attribute) and isinstance(target.ctx, ast.Store) and \
        target.attr in ("name", "names") and type(index) in (
            pd.Index, pd.RangeIndex, pd.MultiIndex, pd.DatetimeIndex, pd.TimedeltaIndex, pd.PeriodIndex,
            pd.CategoricalIndex, pd.IntervalIndex)


_INDEXERS = frozenset({"loc", "iloc", "at", "iat", "index", "columns"})


def _indexed_names(owner, step: ast.AST, target: ast.AST) -> set[str] | None:
    """The labels a store through a pandas frame's or series' indexer may add to it: none through
    `iloc`/`iat` (positions never enlarge it), through `loc`/`at` the string column of a frame's
    `[rows, "c"]` (or its list), a series' string row; None when not known."""
    if not (_pandas_frame(owner) and isinstance(step, ast.Attribute) and isinstance(target, ast.Subscript) and
            isinstance(target.ctx, (ast.Store, ast.Del))):
        return None
    if step.attr in ("iloc", "iat"):
        return set()
    if step.attr not in ("loc", "at"):
        return None
    frame = owner.like == "DataFrame" if issubclass(type(owner), Abstract) else type(owner).__name__ == "DataFrame"
    key = target.slice
    if frame:
        if not isinstance(key, ast.Tuple):
            return set()                # `df.loc[rows] = v`: rows only
        if len(key.elts) != 2:
            return None
        key = key.elts[1]
        if isinstance(key, ast.Slice):
            return set()
    keys = key.elts if isinstance(key, (ast.List, ast.Tuple)) and not frame or \
        isinstance(key, ast.List) else [key]
    if not all(isinstance(k, ast.Constant) for k in keys):
        return None
    return {k.value for k in keys if type(k.value) is str}


def _keys_fixed(obj) -> bool:
    """Does a store below `obj` (`pd.options.display.max_rows = 20`) leave its attributes as they
    are? An installed library's module (only a store on the module itself rebinds its names),
    and pandas' options (setting one changes its value, never which options there are; no fact
    reads an option's value)."""
    # pandas' class itself, compared by identity (no attribute of the object's class is read)
    return _is_library_module(obj) or \
        type(obj) is getattr(sys.modules.get("pandas._config.config"), "DictWrapper", None)


def _is_library_module(obj) -> bool:
    return issubclass(type(obj), types.ModuleType) and _is_library(obj)


def _union(parts: list[list | None]) -> list | None:
    out = []
    for p in parts:
        if p is None:
            return None
        out += p
    return out


def any_root(node: ast.AST) -> str | None:
    """The leftmost name of an expression such as `a.b().c[i]` (whatever its steps are)."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            return None


# scikit-learn's rule for its estimators (its estimator checks hold every one to it): these
# methods return the estimator itself
RETURNS_SELF = frozenset({"fit", "partial_fit", "set_params", "set_output"})
_NEW = object()                 # an estimator made by the call itself: nothing the user holds


def _copies(name: str | None, value) -> bool:
    """Does this parameter leave its input alone? `copy=False`, `copy_X=False` write into it."""
    return not (type(name) is str and "copy" in name and value is False)


def _plain_call(call: ast.AST) -> bool:
    """`SimpleImputer(strategy="mean")`, `est.set_params(C=1)`: every argument a literal, none
    `copy=False`."""
    def literal(n) -> bool:
        if isinstance(n, ast.Constant) or isinstance(n, ast.UnaryOp) and isinstance(n.operand, ast.Constant):
            return True
        if isinstance(n, (ast.Tuple, ast.List)):
            return all(literal(e) for e in n.elts)
        return isinstance(n, ast.Dict) and all(k is not None and literal(k) and literal(v) for k, v in zip(n.keys, n.values))
    return isinstance(call, ast.Call) and all(literal(a) for a in call.args) and \
        all(k.arg is not None and literal(k.value) and _copies(k.arg, getattr(k.value, "value", None))
            for k in call.keywords)


def _keeps_arguments(made: Made) -> bool:
    """Does a method of what the cell made leave its arguments as they are? Not an estimator's
    with `copy=False` or of unknown arguments (abstract.py's `Instance` of an estimator class)."""
    if isinstance(made, Abstract) and made.like == "estimator":
        return _plain_value(made)
    cls = made.of_class()
    return cls is None or not _sklearn_own(cls)


# builtins that read their arguments' dunders (`__str__`, `__format__`, `__float__`, ...)
_DUNDER_READERS = frozenset({"print", "str", "repr", "format", "float", "int", "complex", "bool", "bytes", "len",
                             "abs", "round", "hash", "sorted", "list", "tuple", "set", "dict", "sum", "min", "max"})


def _reads_dunders(target) -> bool:
    """A call that reads what it is given through its dunders: Python's own (`print`, `str`,
    `float`), or matplotlib's and numpy's functions (`plt.title(label)`, `np.asarray(x)`)."""
    import builtins
    if type(target) is types.BuiltinFunctionType and getattr(builtins, getattr(target, "__name__", ""), None) is target:
        return target.__name__ in _DUNDER_READERS
    if type(target) is type and target in (str, float, int, complex, bool, bytes, list, tuple, set, dict):
        return True                     # (the type read, never `isinstance`: no `__class__` of the user's)
    module = target.__module__ if type(target) is types.FunctionType and _is_library(target) else None
    return type(module) is str and module.split(".")[0] in ("matplotlib", "numpy")


def _holds_objects(o) -> bool:
    """An array of numpy's objects, or a pandas Series, Index or frame of the object dtype (its
    values are whatever objects it was given)."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if np is not None and type(o) is np.ndarray:
        return o.dtype.kind == "O"
    if pd is not None and type(o) in (pd.Series, pd.Index):
        return o.dtype == object
    if pd is not None and type(o) is pd.DataFrame:
        return any(d == object for d in o.dtypes)
    return False


def _library_class(cls) -> bool:
    """A class a library defines."""
    from .read_policy import POLICY
    return POLICY.is_library(cls)


def _library_member(made: Made, attr: str) -> bool:
    """Is `attr` of what the cell made its library's own (not a function of the user's set on a
    library class, `Text.set_color = mine`)? A value known by its kind alone (abstract.py) is
    read as its library made it."""
    cls = made.of_class()
    if cls is None:
        return True
    from .libraries import library_code
    from .read_policy import POLICY
    member = POLICY.static(cls, attr, None)
    if type(member) is types.FunctionType:      # its code's file: a wrapper of the user's copies `__module__`
        return library_code(member)
    return member is None or POLICY.is_library(member)


def plain_data(v) -> bool:
    """Plain data (_plain_value), never an estimator's or a display's object: Python's values,
    numpy's arrays and scalars of numbers or text, lists, tuples and dicts of them."""
    np = sys.modules.get("numpy")
    if np is not None and type(v) in (np.random.RandomState, np.random.Generator):
        return True
    return _plain_value(v) and (v is None or type(v) in (str, int, float, bool, complex, list, tuple, dict) or
                                np is not None and (type(v) is np.ndarray or issubclass(type(v), np.generic)))


def _plain_value(v, depth: int = 0) -> bool:
    """Plain data, numpy's arrays and scalars, a random generator, or an estimator (live, or the
    cell's abstract one) of scikit-learn's own classes holding only such values, none of its
    parameters `copy=False`: nothing of the user's to call, nothing written into its input."""
    if depth > 20:
        return False
    if v is None or type(v) in (str, int, float, bool, complex):
        return True
    if type(v) in (list, tuple):
        return len(v) <= 1000 and all(_plain_value(x, depth + 1) for x in v)
    if type(v) is dict:
        return len(v) <= 1000 and all(_plain_value(k, depth + 1) and _plain_value(x, depth + 1) for k, x in v.items())
    np = sys.modules.get("numpy")
    if np is not None and (type(v) is np.ndarray or issubclass(type(v), np.generic) or
                           type(v) in (np.random.RandomState, np.random.Generator)):
        return type(v) is not np.ndarray or v.dtype.kind != "O"
    if isinstance(v, Abstract):
        if v.like != "estimator":
            return False
        args, keywords = v.arguments
        return all(_plain_value(a, depth + 1) for a in args) and \
            all(_copies(k, x) and _plain_value(x, depth + 1) for k, x in keywords)
    if issubclass(type(v), Made) or not (_sklearn_own(type(v)) or _twin(type(v))):
        return False
    from .read_policy import POLICY
    return all(type(k) is str and not k.startswith("__") and _copies(k, x) and _plain_value(x, depth + 1)
               for k, x in POLICY.own_dict(v).items())


def _twin(cls) -> bool:
    from .abstract_sklearn import _twin_class
    return _twin_class(cls)


def _plain_library_callable(obj) -> bool:
    """A library's class, a function of a library's module (no method: its first argument would be
    the receiver it may change), or a compiled function of a library's module other than
    Python's builtins (`setattr`, `exec`)."""
    if issubclass(type(obj), type):
        return _is_library(obj)
    if type(obj) is types.FunctionType:
        return "." not in obj.__qualname__ and _is_library(obj)
    if type(obj) is types.BuiltinFunctionType:
        owner = obj.__self__
        return issubclass(type(owner), types.ModuleType) and owner is not builtins and _is_library(obj)
    return False


def _sklearn_own(cls) -> bool:
    """Is `cls` an estimator class all of whose bases are scikit-learn's own?"""
    from .estimators import _plain_class
    from .read_policy import POLICY
    base = sys.modules.get("sklearn.base")
    return base is not None and issubclass(type(cls), type) and _plain_class(cls, fit_check=True) and \
        base.BaseEstimator in POLICY.mro(cls)


# the methods scikit-learn's common checks hold to leaving an estimator's attributes as they
# were (`check_dict_unchanged`)
_LEAVES_ESTIMATOR = frozenset({"predict", "transform", "decision_function", "predict_proba"})


def _sequence(node: ast.AST, objects: list | None) -> bool:
    """Is the operand a list or tuple: a display, a comprehension, or objects that are Python's
    lists and tuples, the kernel's or the cell's? (A name of unknown objects: not known to be.)"""
    if isinstance(node, (ast.List, ast.Tuple, ast.ListComp)):
        return True
    return objects is not None and any(type(o) in (list, tuple) or issubclass(type(o), Made) and o.of_class() in (list, tuple)
               for o in objects)


def _holds_containers(made: Made) -> bool:
    """Does a display the cell made hold lists, dicts or sets (made with it: a change to one
    through a loop's variable is a change to it)?"""
    value = made.literal()
    items = value.values() if type(value) is dict else value if type(value) in (list, tuple, set) else ()
    return any(type(x) in (list, dict, set) for x in items)


def _keeps_receiver(receiver, method: str, call: ast.Call) -> bool:
    if receiver is UNRESOLVED:
        return False
    import sys
    import types
    if issubclass(type(receiver), types.ModuleType):
        return True                  # `np.random.seed(0)`: a module's attributes stay
    if method in _LEAVES_ESTIMATOR and _sklearn_own(type(receiver)):
        from .estimators import runs_library_code_only
        return runs_library_code_only(receiver)      # `model.predict(X)`: scikit-learn's code alone
    if issubclass(type(receiver), Made):
        return receiver.keeps(method, inplace(call))     # a value the cell made (abstract.py)
    if random_generator_draw(type(receiver), method):
        return True                  # `rng.normal(size=5)`: the generator's state alone moves
    pd = sys.modules.get("pandas")
    if pd is not None and issubclass(type(receiver), (pd.DataFrame, pd.Series, pd.Index)):
        # (a private method, `_update_inplace`, may change it whatever its name says)
        return not inplace(call) and method not in PANDAS_MUTATING and not method.startswith("_")
    np = sys.modules.get("numpy")
    if np is not None and type(receiver) is np.ndarray:
        return not inplace(call) and method not in ARRAY_MUTATING and not method.startswith("__")
    for kind, mutating in _MUTATING.items():
        if type(receiver) is kind:
            return method not in mutating
    return type(receiver) in (str, bytes, int, float, tuple, frozenset, type(None))


def _method_of(owner, attr: str) -> bool:
    """Is `owner.attr` one of its class's methods (a value the cell made whose class it does not
    say: an attribute, as `grid.best_params_` is)? Read from the class's own members: nothing runs."""
    from .read_policy import POLICY
    cls = owner.of_class() if issubclass(type(owner), Made) else type(owner)
    if cls is None:
        return False
    member = POLICY.static(cls, attr, None)
    return type(member) in (types.FunctionType, types.MethodDescriptorType, types.BuiltinFunctionType,
                            types.WrapperDescriptorType, types.ClassMethodDescriptorType, classmethod, staticmethod)


_IMMUTABLE = (int, float, complex, bool, str, bytes, tuple, frozenset, type(None))
# a dict's methods that make a view of it, calling nothing of its keys or values
_DICT_VIEWS = ("items", "keys", "values")
# the comparisons numpy computes element by element (its own ufuncs for arrays of numbers)
_ORDERING = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _numpy_array(obj) -> bool:
    """Is `obj` an array of numpy's own class (never a subclass: its methods may do anything)?"""
    import sys
    np = sys.modules.get("numpy")
    return np is not None and type(obj) is np.ndarray


def _numpy_function(target) -> bool:
    """Is `target` a function of numpy's own modules (its mutators of their first argument,
    `np.put`, `np.copyto`, `np.random.shuffle`, and what writes into `out=`: all keep that array's
    shape and dtype, or raise)?"""
    module = getattr(target, "__module__", None) if _is_library(target) else None
    return type(module) is str and module.split(".")[0] == "numpy"


def inplace(call: ast.Call) -> bool:
    """`inplace=` given a value that may be true: pandas then changes the object itself."""
    return any(k.arg == "inplace" and not (isinstance(k.value, ast.Constant) and not k.value.value)
               for k in call.keywords)


def is_magic(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and \
        isinstance(f.value.func, ast.Name) and f.value.func.id == "get_ipython"


def magic_name(call: ast.Call) -> str | None:
    if call.func.attr in ("system", "getoutput"):
        return "pip"                 # `!cmd`: a shell command defines no Python name
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def item_by_item(target: ast.Tuple | ast.List, value: ast.AST) -> bool:
    """Does `a, b = x, y` bind each name to its own item of the display? Where no side is
    starred (`a, *rest = [x, y]`: rest is a new list) and the display reads no name the target
    binds (Python reads the whole right side first: `a, b = b, a` swaps)."""
    return isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and \
        not any(isinstance(e, ast.Starred) for e in value.elts + target.elts) and \
        not {x.id for x in ast.walk(target) if isinstance(x, ast.Name)} & \
        {x.id for x in ast.walk(value) if isinstance(x, ast.Name)}


def cell_function_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """Names a function defined in the cell reads or changes (what a call to it may touch)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
