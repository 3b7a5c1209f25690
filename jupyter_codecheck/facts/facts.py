"""The walk over a cell that makes kernel facts, statement by statement in the order they run.

A use is checked against the object the kernel holds now only while nothing before it in the
cell may have rebound or changed that object (`flow`); uses inside a function or class body run
later, in a `try` they may be handled, under an `if` that tests the same name they may be
guarded: none of those is checked. A name a straight-line top-level assignment binds to what a
known library call makes gets that value's abstract value (`abstract`), followed by flow like a
live object; the value facts read it, and the key facts a DataFrame's columns it knows (a
column the cell dropped), the others never do.
"""
from __future__ import annotations

import ast
import builtins
import functools
import inspect
import re
import sys
import types
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace

from ..pytext.pycheck import all_nodes, near_typo, never_run_loops, parent_map, parse, walk_skipping
from ..pytext.sources import runs_here
from ..pytext.versions import dead_spans, in_spans
from .abstract import Propagation
from .pandas_plots import plot_keyword_claim
from .seaborn_calls import heatmap_claim, seaborn_claim
from .stand_ins import augmented_lookup_claim, axis_method_claim, data_call_claim, draw_claim, frame_operator_claim, inplace_operator_claim, lookup_claim, maker_claim, shape_method_claim, string_method_claim
from .python_types import builtin_call_claim, inplace_type_claim, iteration_claim, not_callable_claim, operator_claim
from .abstract_sklearn import held_whole, library_twin, pipeline_step, pipeline_steps, shorthand_class
from .abstract_value import Abstract, _literal, array_like, literal_int
from .attributes import MISSING, attribute_names, fixed_attributes, overrides_lookup
from .column_values import column_binop_claim, conversion_claim, grouped_reduction_claim, pivot_claim, reduction_claim
from .columns import column_uses, subset_source
from .displays import display_claim, feature_name_claim
from .encoders import encoder_claim
from .matplotlib_properties import artist_call_claim, clabel_claim, colorbar_claim, colorbar_mappable_claim, is_artist_set, legend_claim, \
    current_axes_exact, current_figure_kept, current_axes_plain, matplotlib_object, plain_own_dict, pyplot_axes_method, plain_subclass, property_claim, savefig_claim, scale_claim, set_claim, setp_claim, \
    made_axis_class, tick_params_claim, ticks_claim, current_figure_empty, pyplot_figures_plain, bars_made, \
    no_pyplot_figures
from .matplotlib_rc import params_key_claim, rc_claim, update_claim
from .matplotlib_values import FIGURE_LAYOUT, axes_call_claim, cell_registers, grid_claim, layout_claim
from .pandas_inputs import eval_names_claim, expression_claim, frequency_claim, inplace_claim, level_claim, merge_claim, \
    reader_claim, timezone_claim, tuple_key_claim, writer_claim
from .pandas_options import option_claim
from .column_selection import column_selection_claim, column_transformer_parts, frame_labels
from .called_functions import KernelCall, body_loops, called_bodies, kernel_calls
from .first_pass import as_written, first_passes, in_straight_body, mentions
from .session_code import session_words
from .frame_shapes import column_assignment_claim, cut_claim, frame_claim
from .estimators import INVERTING, NEEDS_FIT, WITH_Y, estimator_parameters, unbound_method_claim, estimator_problem, samples_problem, selection_width_problem, \
    unfitted_pipeline_problem, width_problem
from .flow import Effects, cell_function_names, int_arithmetic, item_by_item, loop_items, plain_data
from .abstract_matplotlib import (added_axes, axes_class, drawn_class, figure as new_figure, figure_class, figure_hooks, plain_making, projection_axes,
                                  projection_axes_class, subplot_position)
from .dataset_loaders import bunch_class, loaded, loader_keys
from .libraries import own_classes, own_function, read_begins
from .instances import Instance, drawn_method, instance_class, learned_names, made_class, made_display, missing_attribute, \
    never_learned, returns_itself
from .keys import missing_key, missing_numbered_column
from .labels import MissingLabel, dropped_row_label, missing_group, row_label_missing
from .metrics import metric_claim
from .plots import plot_claim
from .modules import imported, leading_imports, missing_import, missing_module, module_resolver
from .namespace import UNRESOLVED, Made, chain_root
from .pandas_lookup import grouped_columns, lookup, made_labels, selected
from .parameters import FITTING, constraint_claim, fit_parameter_problem, grid_key_problem, missing_target_problem, \
    parameters_copy, step_parameter_problem
from .positions import loop_index_claim, position_claim
from .read_policy import POLICY
from .renamed import Renamed, renamed_attribute, renamed_keyword, rewritten_call
from .returns import called_class, method_class
from .signatures import array_method, bind_error
from .values import ValueClaim, accessor_claim, binop_claim, call_claim, concat_axis_claim, concatenator_claim, \
    extremes_claim, field_claim, \
    index_claim, store_claim, text_index_claim, truth_claim, unpack_claim

KINDS = ("attribute", "key", "call", "value")
# what reads an array of Axes without changing its items
# the Axes' methods returns.py reads whose mappable they add to that Axes (`mappable.axes`)
_ADDED_TO_AXES = frozenset({"imshow", "scatter", "contour", "contourf", "pcolormesh", "pcolor"})
_ARRAY_READS = frozenset({"flat", "ravel", "flatten", "T", "shape", "size", "ndim", "reshape"})
_MAX_CANDIDATES = 6
# scikit-learn's settings that may turn its parameter validation off
_SKLEARN_CONFIG = frozenset({"set_config", "config_context"})


@dataclass
class KernelFact:
    """A crash the kernel's objects predict: where (the word to fix, on one line; columns in
    characters), what Python will say, and the exact alternatives a fix may write there."""
    kind: str                    # attribute | key | call | value
    line: int                    # 1-based
    column: int                  # 0-based, characters
    end_column: int
    message: str
    candidates: list[str] = field(default_factory=list)
    # the first candidate is the one fix a library's release records (renamed.py): no model
    # judgement of it is needed, and a model trained on the old name would refuse it
    recorded: bool = False
    # a value fact's subjects: the names whose objects (live, or made by the cell) the rule reads,
    # so the guard can ask that none of them may change before the use (certainty.py); none:
    # the fact is shown, never a stop
    subjects: tuple[str, ...] = ()
    # a value fact of the cell's literals alone (`"a" + 1`, `str(2, 3, 1)`): it names no object, yet
    # stops where the use surely runs
    literal: bool = False
    # a fact in the body of a function of the kernel's the cell calls, shown on the call: where it
    # stands in the view that runs that body (called_functions.KernelCall: line, character column)
    within: tuple[int, int] | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping) -> "KernelFact":
        return cls(kind=str(d["kind"]), line=int(d["line"]), column=int(d["column"]),
                   end_column=int(d["end_column"]), message=str(d["message"]),
                   candidates=[str(c) for c in d.get("candidates", ())], recorded=bool(d.get("recorded", False)),
                   subjects=tuple(str(s) for s in d.get("subjects", ())), literal=bool(d.get("literal", False)),
                   within=tuple(int(v) for v in d["within"]) if d.get("within") else None)


def kernel_facts(source: str, namespace: Mapping, *, libraries: str = "loaded") -> list[KernelFact]:
    """The attribute, key, call and value errors the cell will raise with these objects (value:
    a library's rule on its inputs' shapes, values.py). The cell's own
    imports bind modules this process has imported (`"leading"`: also the installed libraries the
    cell begins by importing, just before it runs; `libraries="import"`: also installed
    libraries, imported now; see modules.py)."""
    here = runs_here(source) if isinstance(namespace, Mapping) else None
    if here is None:        # %%bash, %%html, ...: not Python run in this namespace
        return []
    read_begins()
    body, offset = here     # a %%time or %%capture cell: its body, lines counted in the cell
    tree = parse(body)
    if tree is None:
        return []
    resolve = module_resolver(libraries, leading_imports(tree) if libraries == "leading" else frozenset())
    dead = dead_spans(tree, namespace)        # a branch a version test shuts never runs
    facts = _read_facts(body, namespace, resolve, tree)
    for loop, view in first_passes(tree, namespace):   # what a loop's sure first pass does (first_pass.py)
        seen = {(f.line, f.column) for f in facts}
        facts += [f for f in _read_facts(body, namespace, resolve, view)
                  if in_straight_body(loop, f.line) and (f.line, f.column) not in seen]
    for fn, view in called_bodies(tree):        # a function of the cell's read at its call (called_functions.py)
        seen = {(f.line, f.column) for f in facts}
        facts += [f for f in _body_facts(body, namespace, resolve, fn, view) if (f.line, f.column) not in seen]
    for kc in kernel_calls(tree, body, namespace):     # and one of the kernel's, shown on the call
        seen = {(f.line, f.column) for f in facts}
        facts += [f for f in (_on_call(kc, body, f) for f in _body_facts(kc.text, namespace, resolve, kc.function,
                                                                         kc.view)) if (f.line, f.column) not in seen]
    facts = [f for f in sorted(facts, key=lambda f: (f.line, f.column)) if not in_spans(f.line, f.column, dead)]
    facts = checked_fixes(body, namespace, resolve, facts)
    return [replace(f, line=f.line + offset) for f in facts] if offset else facts


def _body_facts(source: str, namespace: Mapping, resolve, fn: ast.FunctionDef, view: ast.Module) -> list[KernelFact]:
    """The facts of a function's body in the view of its call: on its straight lines, and on the
    straight lines of a loop of its top level in that loop's first pass."""
    facts = [f for f in _read_facts(source, namespace, resolve, view) if in_straight_body(fn, f.line)]
    for loop, inner in body_loops(fn, view, namespace):
        seen = {(f.line, f.column) for f in facts}
        facts += [f for f in _read_facts(source, namespace, resolve, inner)
                  if in_straight_body(loop, f.line) and (f.line, f.column) not in seen]
    return facts


def _on_call(kc: KernelCall, source: str, f: KernelFact) -> KernelFact:
    """A fact of a kernel function's body, shown on the cell's call of it."""
    lines = source.split("\n")
    name = kc.call.func
    column = _chars(lines, name.lineno, name.col_offset)
    return replace(f, line=name.lineno, column=column, end_column=column + len(kc.name), candidates=[],
                   recorded=False, message=f"in {kc.name}() (line {f.line - kc.shift} of its cell): {f.message}",
                   within=(f.line, f.column))


def _read_facts(source: str, namespace: Mapping, resolve, tree: ast.Module) -> list[KernelFact]:
    walk = _Walk(source, namespace, resolve, tree)
    with cell_registers(source):
        walk.block(tree.body)
    return sorted(walk.facts.values(), key=lambda f: (f.line, f.column))


def checked_fixes(source: str, namespace: Mapping, resolve, facts: list[KernelFact]) -> list[KernelFact]:
    """Each fact's fixes as the same facts read the patched cell: a fix that does not parse, or
    after which the facts still find an error on its line that the cell had not, is not offered;
    where that leaves a release's recorded rewrite out, the message says what it still lacks."""
    lines = source.split("\n")
    before = {(f.line, f.kind, f.message) for f in facts}
    out = []
    for f in facts:
        kept, lacks = [], None
        for fix in f.candidates:
            text = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
            patched = "\n".join([*lines[:f.line - 1], text[:f.column] + fix + text[f.end_column:], *lines[f.line:]])
            tree = parse(patched)
            still = None if tree is not None else "it does not parse"
            if tree is not None:
                try:
                    after = _read_facts(patched, namespace, resolve, tree)
                except Exception:  # noqa: BLE001 - no facts on the patched cell: no objection
                    after = []
                still = next((g.message for g in after if g.line == f.line
                              and (g.line, g.kind, g.message) not in before), None)
            if still is None:
                kept.append(fix)
            elif f.recorded and fix == f.candidates[0]:
                lacks = f"{fix} would still fail: {still}"
        if kept != f.candidates:
            f = replace(f, candidates=kept, recorded=f.recorded and kept[:1] == f.candidates[:1],
                        message=f.message + (f" ({lacks})" if lacks else ""))
        out.append(f)
    return out


_UNREAD = object()        # a value a walk reads once, when first asked


# pyplot's calls and keywords that may make a Figure or Axes of another class, or another one,
# current: an existing figure by number or object, a closed one's successor, an Axes object given
# to be added or made current, any keyword unpacked (`**kw`: `FigureClass=` may be in it)
_CURRENT_CHANGERS = frozenset({"figure", "close", "sca", "axes", "add_axes", "add_subplot", "subplot_mosaic",
                               "switch_backend", "delaxes", "figimage"})
_OTHER_CLASS_KEYWORDS = frozenset({"FigureClass", "axes_class", "projection", "polar", "subplot_kw", "num"})


def _may_change_current(x: ast.AST, numpy_call=lambda call: False, no_figures: bool = False) -> bool:
    """`numpy_call(call)`: is the call's function numpy's own, which chooses no figure whatever
    its keywords (`np.linspace(0, 1, num=200)`)? `no_figures`: pyplot holds no Figure as the cell
    starts (an inline backend closes them after each cell), so `plt.figure(1)` makes a new one
    of matplotlib's class, or finds one the cell made."""
    if isinstance(x, ast.Call) and any(k.arg in _OTHER_CLASS_KEYWORDS for k in x.keywords) and not numpy_call(x):
        return True
    if isinstance(x, ast.keyword):
        return x.arg is None
    if isinstance(x, ast.Call):
        name = x.func.attr if isinstance(x.func, ast.Attribute) else x.func.id if isinstance(x.func, ast.Name) else None
        # `plt.figure()`, `fig.add_axes([...])`: new ones of matplotlib's classes; `plt.subplot(...)` of any
        # position (it takes no Axes object) a new one or one of the current Figure's (read);
        # `plt.figure(2)`: another figure; `plt.close("all")`: none, then a new one
        if name == "close" and len(x.args) == 1 and not x.keywords and _literal(x.args[0]) == "all":
            return False
        numbered = name == "figure" and bool(x.args) and not (
            no_figures and len(x.args) == 1 and isinstance(x.args[0], ast.Constant) and type(x.args[0].value) in (int, str))
        return name in _CURRENT_CHANGERS and not all(isinstance(a, (ast.Constant, ast.List, ast.Tuple)) for a in x.args) or \
            name in ("close", "sca", "switch_backend", "delaxes", "subplot_mosaic") or numbered
    return False


class _Walk:
    def __init__(self, source: str, namespace: Mapping, resolve_module, tree: ast.Module):
        self.tree = tree
        self.lines = source.split("\n")
        self.imports: dict[str, object] = {}         # what the cell's own imports bind
        self.ns = ChainMap(self.imports, namespace)
        self.resolve_module = resolve_module
        self.state = Effects()
        self.top_level = {id(s) for s in tree.body}
        self.never_run = {id(loop) for loop in never_run_loops(tree, namespace)}     # over an empty container
        self.functions: dict[str, set[str]] = {}
        self.guarded: list[set[str]] = []       # names an enclosing `if`/`while` tests
        self.handled = 0                        # inside a `try` with handlers
        self.facts: dict[tuple[int, int], KernelFact] = {}
        self._class_stores: bool | None = None  # does the cell store an attribute on what may be a class
        self._first_change: tuple | None = None  # where the cell's first call or store ends (_nothing_changed_before)
        self._text_tree: ast.Module | None = None         # the cell's own text parsed (_text_binds)
        self._other_current: bool | None = None  # may the cell make another class of Figure or Axes current
        self._options_named: bool | None = None  # does the cell name a way to set pandas' options
        self._drawing: dict[int, bool] = {}      # do the statements up to one call only matplotlib's, numpy's, Python's own
        self._rc_changes: dict[str, bool] = {}   # may the cell change matplotlib's setting (by key)
        self._session = _UNREAD                  # the words the session's inputs write (session_code.py)
        # an estimator the cell made and fitted on its top level -> X's width there (None: unknown)
        # an estimator the cell made and fitted: X's width and column names there (None: unknown or none)
        self.fitted: dict[int, tuple[Abstract, int | None, tuple | None]] = {}
        self.walks: dict[int, tuple[ast.AST, list[ast.AST]]] = {}     # a node -> the nodes that run with it
        self.shapes: dict[int, tuple] = {}          # a value's shape and dtype, read once (abstract.py)
        self.in_loop: set[int] = set()               # the statements of a `for` loop's body itself
        self.loop_made_names: list[tuple[str, list | None]] = []   # bound there: the name, what it held

    # -- statements, in the order they run ------------------------------------------------------

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if self.state.stops:
                return
            self.statement(stmt)

    def statement(self, s: ast.stmt) -> None:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not isinstance(s, ast.ClassDef):
                self.functions[s.name] = cell_function_names(s)
            self.apply(s)
            return
        if isinstance(s, (ast.For, ast.AsyncFor)):
            self.expression(s.iter)
            if isinstance(s, ast.For) and id(s) in self.top_level and not self.handled and not self.state.stops:
                self._value(loop_index_claim(s, lambda x: self._read(x, set()))) or self._probe_clear(s.iter) and \
                    self._value(iteration_claim(s.iter, Propagation(lambda x: self._read(x, set()),
                                                                    shapes=self.shapes).value))
            self.state.loop_made.update(self._loop_made(s))
            self.apply(s)                       # a later iteration sees what the body did
            if id(s) not in self.never_run:
                self.state.enclosing.append(s)
                self.in_loop |= {id(b) for b in s.body}
                made_here = len(self.loop_made_names)
                self.block(s.body)
                self._forget_loop_made(made_here)
                self.state.enclosing.pop()
            self.block(s.orelse)
            return
        if isinstance(s, ast.While):
            self.apply(s)
            self.guarded.append(_names(s.test))
            self.block(s.body)
            self.guarded.pop()
            self.block(s.orelse)
            return
        if isinstance(s, ast.If):
            self.expression(s.test)
            if not self.handled and not self.state.stops and not isinstance(s.test, ast.BoolOp):
                # the test's own truth (a BoolOp's first operand is expression's)
                self._value(truth_claim(s.test, "test", Propagation(lambda x: self._read(x, set()),
                                                                    shapes=self.shapes).value))
            if any(isinstance(n, ast.NamedExpr) for n in ast.walk(s.test)):
                self.apply(s.test)              # `if (n := 6) > 0:` binds n whichever branch runs
            self.guarded.append(_names(s.test))
            self.block(s.body)
            self.block(s.orelse)
            self.guarded.pop()
            return
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.expression(item.context_expr)
            self.apply(ast.Module(body=[ast.Assign([i.optional_vars], i.context_expr)
                                        for i in s.items if i.optional_vars], type_ignores=[]))
            self.block(s.body)
            return
        if isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            self.handled += bool(s.handlers)
            self.block(s.body)
            self.handled -= bool(s.handlers)
            self.apply(s)
            return
        if isinstance(s, ast.Match):
            self.expression(s.subject)
            self.apply(s)
            return
        self.expression(s)
        self._fits(s)
        made = self._made(s)
        self.apply(s)
        for name, value in made:
            objects = self.state.held.get(name)
            if self.state.bind_made(name, value) and id(s) not in self.top_level:
                self.loop_made_names.append((name, objects))
        if isinstance(s, ast.ImportFrom) and not self.guarded and not self.handled:
            missing = missing_import(s, self.resolve_module) if self._imports_first(s) else None
            if missing is not None:
                # nothing of the cell's to name: certainty.py judges the import itself
                self._value(ValueClaim(missing[0], missing[1], "ImportError", missing[2], subjects=()))
        if isinstance(s, (ast.Import, ast.ImportFrom)) and not self.guarded and not self.handled and \
                self._imports_first(s):
            # (a top-level module is looked for on this process's path: a kernel's own namespace only, as
            # _folders_kept's files; the command line reads a notebook whose kernel is elsewhere)
            missing = missing_module(s, self.resolve_module,
                                     top_level=type(self.ns.get("_dh")) is list and self._loaded_before(s))
            if missing is not None:
                self._value(ValueClaim(missing[0], missing[1], "ModuleNotFoundError", missing[2], subjects=()))
        if isinstance(s, (ast.Import, ast.ImportFrom)) and not self.guarded and not self.handled:
            got = imported(s, self.resolve_module)       # a module is the same object everywhere
            self.imports.update(got)
            self.state.bound -= set(got)

    def _forget_loop_made(self, start: int) -> None:
        """After a loop's body: a name its straight statements bound to a value the cell made holds
        it on the pass that bound it; after the loop, that value or what it held before (no pass)."""
        for name, objects in reversed(self.loop_made_names[start:]):
            if name in self.state.same:
                del self.state.same[name]
                self.state.held[name] = objects
        del self.loop_made_names[start:]

    def _loop_made(self, s: ast.For | ast.AsyncFor) -> list[tuple[int, Abstract]]:
        """`for ax in axes.flat`, `for i, ax in enumerate(axes)`, `for ax, im in zip(axes.flat,
        images)`: a top-level loop over an array of Axes the cell made (none of its sizes 0) binds
        its variable to one of them each time (a row of them for a 2-D array), whatever else the
        loop does: (the target Name node's id, that value)."""
        if not isinstance(s, ast.For) or id(s) not in self.top_level or self.state.stops or \
                any(isinstance(x, (ast.Break, ast.Continue)) for x in ast.walk(s)):
            return []                   # a body cut short: what follows may not see an Axes
        it, target = s.iter, s.target
        builtin = self._live_or_builtin(it.func, set()) if isinstance(it, ast.Call) and \
            isinstance(it.func, ast.Name) else None
        plain = isinstance(it, ast.Call) and not it.keywords and not any(isinstance(a, ast.Starred) for a in it.args)
        if builtin is enumerate and plain and len(it.args) == 1 and isinstance(target, ast.Tuple) and \
                len(target.elts) == 2:
            pairs = [(target.elts[1], it.args[0])]
        elif builtin is zip and plain and isinstance(target, ast.Tuple) and len(target.elts) == len(it.args):
            pairs = list(zip(target.elts, it.args))
        else:
            pairs = [(target, it)]
        propagation = Propagation(lambda x: self._read(x, set()), shapes=self.shapes)
        out = []
        for t, node in pairs:
            if isinstance(node, (ast.List, ast.Tuple)) and node.elts and \
                    not any(isinstance(e, ast.Starred) for e in node.elts):
                # a display written out: not empty; `for ax in (ax1, ax2)` of Axes the cell made
                items = [propagation.value(e) if isinstance(e, ast.Name) else None for e in node.elts]
                if isinstance(t, ast.Name) and all(issubclass(type(v), Abstract) and v.like == "Axes" for v in items):
                    out.append((id(t), Abstract("Axes")))
                continue
            live = self._live(node, set()) if len(pairs) > 1 else UNRESOLVED
            if type(live) in (list, tuple, range, str, dict) and len(live) > 0:
                continue                # `zip(axs.flat, cases)`: a live sized builtin not empty (as the cell has it)
            a = propagation.value(node)
            if not issubclass(type(a), Abstract):
                a = propagation.shaped(node)
            if a is None or not a.shape or not all(type(d) is int and d > 0 for d in a.shape):
                return []               # zip stops at the shortest: each must be known not empty
            if isinstance(t, ast.Name) and a.like == "ndarray" and a.holds in ("Axes", "projection") and \
                    self._unchanged(node):
                out.append((id(t), Abstract(a.holds, axes=a.axes) if len(a.shape) == 1 else
                            replace(a, shape=a.shape[1:])))
        return out

    def _item_kept(self, node: ast.expr) -> bool:
        """An Axes read from `node` is one the cell made: not an item (`axes[0]`) of an array whose
        items the cell may have replaced."""
        return not isinstance(node, ast.Subscript) or self._unchanged(node)

    def _unchanged(self, node: ast.expr) -> bool:
        """Is the array of Axes `node` steps from as the cell made it: its name only read from
        (`axes[0]`, `axes.flat`, looped over, counted), never stored into, changed by a method or
        given to a call, and the flow finds it unchanged?"""
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _ARRAY_READS:
            node = node.func.value          # `axes.ravel()`: the array it reads
        root = chain_root(node)
        made = self.state.same.get(root) if root is not None else None
        if made is None or root in self.state.touched or id(made) in self.state.changed or \
                id(made) in self.state.shape_kept:
            return False
        for n in ast.walk(self.tree):
            if not (isinstance(n, ast.Name) and n.id == root and isinstance(n.ctx, ast.Load)):
                continue
            parent = self._parents.get(id(n))
            if isinstance(parent, ast.Subscript) and parent.value is n and isinstance(parent.ctx, ast.Load) or \
                    isinstance(parent, ast.Attribute) and parent.value is n and parent.attr in _ARRAY_READS or \
                    isinstance(parent, ast.For) and parent.iter is n or \
                    isinstance(parent, ast.Assign) and parent.value is n and \
                    all(isinstance(t, (ast.Tuple, ast.List)) for t in parent.targets) or \
                    isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and \
                    parent.func.id in ("enumerate", "zip", "len") and n in parent.args or \
                    self._given_to_matplotlib(n, parent):
                continue
            return False
        return True

    def _given_to_matplotlib(self, n: ast.Name, parent) -> bool:
        """`fig.colorbar(im, ax=axes)`: the array given to matplotlib's own code (a method of what
        the cell made, a function of its modules), which reads it and sets no item of it (a
        library's call that writes into its argument, `out=` or `np.copyto`, is the flow's change)."""
        call = self._parents.get(id(parent)) if isinstance(parent, ast.keyword) else parent
        if not isinstance(call, ast.Call) or not (n in call.args or isinstance(parent, ast.keyword) and parent.value is n):
            return False
        root = chain_root(call.func)
        if root is None or root == n.id:
            return False
        made = self.state.same.get(root)
        if issubclass(type(made), Abstract) and (made.like in ("Axes", "Figure") or made.holds == "Axes"):
            return own_classes(axes_class(), "matplotlib") and own_classes(figure_class(), "matplotlib") \
                if axes_class() is not None and figure_class() is not None else False
        live = self._live_or_builtin(call.func, set(), changes_matter=False)
        module = POLICY.module_of(live) if live is not UNRESOLVED else None
        return type(module) is str and module.startswith("matplotlib.") and type(live) is types.FunctionType and \
            own_function(live, "matplotlib")

    def _made(self, s: ast.stmt) -> list[tuple[str, Abstract | Instance]]:
        """The names a top-level `name = <a known library call>` (or `fig, axes = ...`) binds to
        a value the cell makes, with its abstract value, read before the statement binds them."""
        top = id(s) in self.top_level
        if not (top or id(s) in self.in_loop) or self.state.stops or not isinstance(s, (ast.Assign, ast.AnnAssign)) or \
                s.value is None:
            return []
        if not top:                     # a loop body's straight statement: what it makes there, on each pass
            return [(name, v) for name, v in self._made_in_cell(s) if not _drawing_part(v)]
        return self._made_in_cell(s)

    def _made_in_cell(self, s: ast.Assign | ast.AnnAssign) -> list[tuple[str, Abstract | Instance]]:
        twin = library_twin(s.value, lambda x: self._read(x, set()))
        if twin is not None:            # `cv = KFold(5)`, `grid = np.logspace(-3, 3, 7)`: made here as there
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            return [(t.id, twin) for t in targets if isinstance(t, ast.Name)]
        propagation = Propagation(lambda x: self._read(x, set()), made_first=True, shapes=self.shapes)
        read = propagation.value
        targets = s.targets if isinstance(s, ast.Assign) else [s.target]
        if isinstance(s.value, (ast.Tuple, ast.List)) and all(isinstance(t, (ast.Tuple, ast.List)) for t in targets):
            return _made_items(targets, s.value, propagation)
        value = read(s.value)
        subplot = self._new_subplot(s) or self._added_to_live(s) if not issubclass(type(value), Abstract) and \
            type(value) is not tuple and isinstance(s, ast.Assign) and id(s) in self.top_level else None
        value = subplot or value        # `ax = plt.subplot(212)` on a Figure of no Axes
        if not issubclass(type(value), Abstract) and type(value) is not tuple and isinstance(s, ast.Assign):
            value = self._current_axes(s.value) or value
        number = UNRESOLVED
        if not issubclass(type(value), Abstract) and type(value) is not tuple:
            number = propagation.scalar(s.value)
            if number is UNRESOLVED:
                number = propagation.integer(s.value)    # `n = len(t)` of an array of known length
        if type(number) in (int, float, complex) and not isinstance(s.value, ast.Constant):
            value = Instance(type(number), number)      # `dt = np.pi / 100`: the number Python computes
        elif not issubclass(type(value), Abstract) and type(value) is not tuple:
            cls = made_class(s.value, lambda f: self._live_or_builtin(f, set()))
            if cls is None and isinstance(s.value, ast.Call):
                cls = self._call_class(s.value, set())      # the class the library declares it returns
            value = self._instance(s.value, cls, set()) if cls is not None else self._selected(s.value, set(), value)
            if cls is not None and _random_state_class(cls) and not _seed_taken(s.value, cls, propagation):
                return []               # `np.random.RandomState(-1)`: numpy refuses the seed on that line
        if issubclass(type(value), Abstract) and value.like == "projection" and value.on_current and \
                value is not subplot and not self._on_figures_plain(s.value):
            return []                   # `plt.axes(projection="3d")` on a current Figure of the user's class
        if issubclass(type(value), Abstract) and value.like in ("Axes", "projection") and not self._item_kept(s.value):
            return []                   # `ax = axes[0]` of an array whose items may have been replaced
        if any(issubclass(type(v), Abstract) and (v.like in ("Axes", "Figure", "projection") or
                                                   v.holds in ("Axes", "projection"))
               for v in (value if type(value) is tuple else (value,))) and self._hooks_may_change():
            return []                   # a figure hook set in the cell runs on the new Figure
        # `ax1, ax2 = axes` of an array whose items may have been replaced: no Axes
        kept = isinstance(s.value, ast.Call) or self._unchanged(s.value)
        out = []
        for target in s.targets if isinstance(s, ast.Assign) else [s.target]:
            if isinstance(target, ast.Name) and issubclass(type(value), (Abstract, Instance)):
                out.append((target.id, value))
            elif isinstance(target, (ast.Tuple, ast.List)):
                out += _unpacked(target, value, kept)
        return out

    def _new_subplot(self, s: ast.Assign) -> Abstract | None:
        """`ax = plt.subplot(2, 1, 1)`: pyplot's `subplot` returns the current Figure's Axes at that
        place where one was made there with the same keywords, else the new one `add_subplot` makes.
        A new Axes of matplotlib's class (or the class literal projection keywords choose) where the
        current Figure surely holds none: a new one the cell made current before (`plt.figure()`;
        `plt.close("all")`: none, so `gcf()` makes one) or, with no such statement, the kernel's
        (none yet, or one of no Axes); the statements between add none (_quiet)."""
        call, pyplot = s.value, sys.modules.get("matplotlib.pyplot")
        if pyplot is None or not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) or \
                any(k.arg is None for k in call.keywords) or not self._pyplot_function(call.func, "subplot"):
            return None
        args = [_literal(a) for a in call.args]
        chosen = projection_axes({k.arg: k.value for k in call.keywords}) if call.keywords else None
        if args and not subplot_position(args) or call.keywords and chosen is None or not plain_making() or \
                figure_hooks() or self.state.user_code or not self._classes_kept():
            return None
        before = self.tree.body[:self.tree.body.index(s)]
        start = next((i for i in range(len(before) - 1, -1, -1) if self._new_current(before[i])), None)
        if start is None and not current_figure_empty() or \
                not all(self._quiet(x) for x in before[0 if start is None else start + 1:]):
            return None
        return Abstract("projection", axes=chosen, on_current=True) if chosen is not None else \
            Abstract("Axes", on_current=True)

    def _on_figures_plain(self, call: ast.expr) -> bool:
        """`plt.axes(projection="3d")` adds its Axes to pyplot's current Figure: is the call pyplot's
        own, and that Figure surely of matplotlib's own class (every Figure pyplot holds is, and the
        cell, running none of the user's code, makes none of another: no `FigureClass=`, no keywords
        unpacked)?"""
        return isinstance(call, ast.Call) and self._pyplot_function(call.func, "axes") and \
            pyplot_figures_plain("add_subplot") and pyplot_figures_plain("add_axes") and not self.state.user_code and \
            not any(isinstance(x, ast.keyword) and (x.arg is None or x.arg == "FigureClass") for x in ast.walk(self.tree))

    def _added_to_live(self, s: ast.Assign) -> Abstract | None:
        """`ax = fig.add_subplot(2, 2, 1, projection="polar")` of a live Figure of matplotlib's own
        class whose `add_subplot` (`add_axes`) is its class's: a new Axes each call, as of a Figure
        the cell made (abstract_matplotlib.added_axes: a literal position, no keyword but the
        projection's, matplotlib's code throughout)."""
        call = s.value
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or \
                call.func.attr not in ("add_subplot", "add_axes") or self.state.user_code or not self._classes_kept():
            return None
        fig = self._live(call.func.value, set(), changes_matter=False)
        own = plain_own_dict(fig) if fig is not UNRESOLVED else None
        if own is None or type(fig) is not figure_class() or call.func.attr in own or not self._library_kept(call.func):
            return None
        return added_axes(call, Abstract("Figure"), call.func.attr)

    def _current_axes(self, expr: ast.expr) -> Abstract | None:
        """`ax = plt.gca()`, and a plotting function's `ax = ax or plt.gca()` where `ax` is surely
        None (its default, in a called function's view): pyplot's current Axes, or the one it makes,
        where every Axes of its current Figure is of matplotlib's `Axes` class itself and nothing in
        the cell may make another current (`_pyplot_kept`): an Axes as `plt.axes()` makes one."""
        if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or) and len(expr.values) == 2:
            first = expr.values[0]
            held = self._read(first, set()) if isinstance(first, ast.Name) else UNRESOLVED
            if not (isinstance(first, ast.Constant) and first.value is None or
                    isinstance(first, ast.Name) and (held is None or type(held) is Instance and held.cls is type(None))):
                return None
            expr = expr.values[1]
        if not (isinstance(expr, ast.Call) and not expr.args and not expr.keywords and
                self._pyplot_function(expr.func, "gca")):
            return None
        return Abstract("Axes", on_current=True) if self._pyplot_kept() and current_axes_exact("plot") else None

    def _pyplot_function(self, func: ast.expr, name: str) -> bool:
        """Is `func` pyplot's own `name`, as the cell leaves it?"""
        pyplot = sys.modules.get("matplotlib.pyplot")
        target = self._live_or_builtin(func, set())
        return pyplot is not None and target is not UNRESOLVED and target is POLICY.static(pyplot, name, None) and \
            own_function(target, "matplotlib") and self._library_kept(func)

    def _new_current(self, s: ast.stmt) -> bool:
        """Does the statement leave pyplot with a current Figure of no Axes: `plt.close("all")`
        (none: `gcf()` makes a new one), `plt.figure(...)` with no number (a new Figure of
        matplotlib's class, abstract_matplotlib.figure), alone or bound to a name?"""
        call = s.value if isinstance(s, ast.Expr) or isinstance(s, ast.Assign) and len(s.targets) == 1 and \
            isinstance(s.targets[0], ast.Name) else None
        if not isinstance(call, ast.Call):
            return False
        if isinstance(s, ast.Expr) and self._pyplot_function(call.func, "close"):
            return len(call.args) == 1 and not call.keywords and _literal(call.args[0]) == "all"
        return self._pyplot_function(call.func, "figure") and new_figure(call) is not None

    def _quiet(self, s: ast.stmt) -> bool:
        """Does the statement surely add no Axes to pyplot's current Figure nor make another one
        current: an import of a library already loaded, a function defined (not run), or an
        assignment or expression of names bound to modules, plain data or the cell's own values
        that calls numpy's, math's and Python's own functions alone (pyplot's `plot` adds one)?"""
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            return self._loaded_library(s)
        if isinstance(s, ast.FunctionDef):
            return not s.decorator_list and not any(isinstance(x, ast.Call) for part in (s.args, s.returns)
                                                    if part is not None for x in ast.walk(part))
        if not isinstance(s, (ast.Assign, ast.Expr, ast.Pass)):
            return False
        nodes = list(ast.walk(s))
        return not any(isinstance(x, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)) or
                       isinstance(x, (ast.Attribute, ast.Subscript)) and not isinstance(x.ctx, ast.Load) for x in nodes) and \
            all(self._libraries_object(x.id) for x in nodes if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)) and \
            all(self._numeric_call(c.func) for c in nodes if isinstance(c, ast.Call))

    def _numeric_call(self, func: ast.expr, depth: int = 0) -> bool:
        """Is `func` a function of numpy's, math's or Python's own (not matplotlib's: its pyplot
        adds Axes), or a method of what such a call returned (`np.arange(9).reshape`)?"""
        live = self._live_or_builtin(func, set())
        if live is not UNRESOLVED and not issubclass(type(live), Made):
            module = POLICY.module_of(live)
            root = module.split(".")[0] if type(module) is str else None
            if root not in ("numpy", "math", "builtins"):
                return False
            function = live.__func__ if type(live) is types.MethodType else live
            return own_function(function, root) if type(function) is types.FunctionType else \
                type(live) is not types.MethodType and (not isinstance(live, type) or POLICY.is_library(live))
        return depth < 10 and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and \
            self._numeric_call(func.value.func, depth + 1)

    def _fits(self, s: ast.stmt) -> None:
        """Each estimator the cell made and fits here (a straight-line statement of the cell's top
        level), with X's width (None: unknown); a fit anywhere else leaves it unknown whether
        and on what it was fitted."""
        for n in self._running(s):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                    n.func.attr in ("fit", "fit_transform", "fit_predict", "partial_fit")):
                continue
            est = self._live(n.func.value, set(), made=True)
            if not (issubclass(type(est), Abstract) and est.like == "estimator" or self._library_estimator(est)):
                continue
            self.fitted.pop(id(est), None)
            x = self._argument(n, 0, "X")
            if id(s) not in self.top_level or n.func.attr == "partial_fit" or x is None or self.state.stops:
                continue
            a = array_like(x, Propagation(lambda e: self._read(e, set()), shapes=self.shapes).value)
            width = a.shape[1] if a is not None and a.ndim == 2 and type(a.shape[1]) is int else None
            names = tuple(c for c, _ in a.columns) if width is not None and a.like == "DataFrame" and \
                a.columns is not None else None
            self.fitted[id(est)] = (est, width, names)

    @staticmethod
    def _library_estimator(obj) -> bool:
        """A live scikit-learn estimator of scikit-learn's own classes."""
        base = sys.modules.get("sklearn.base")
        estimator = POLICY.static(base, "BaseEstimator", None) if base is not None else None
        return estimator is not None and POLICY.is_library(type(obj)) and estimator in POLICY.mro(type(obj))

    def _fitted_here(self, est) -> bool:
        """Was `est`, an estimator the cell made, fitted on the cell's top level before this point?"""
        fitted = self.fitted.get(id(est))
        return fitted is not None and fitted[0] is est

    def _refitted(self, n: ast.Call, local: set[str], value) -> bool:
        """`est.transform(B)` after `est.fit(A)` in the cell, B of another width (estimators.py)."""
        func = n.func
        if not isinstance(func, ast.Attribute) or func.attr not in NEEDS_FIT:
            return False
        est = self._live(func.value, local, made=True)
        if est is UNRESOLVED:           # a live estimator the cell fits: as it was before the fit
            est = self._live(func.value, local, made=True, changes_matter=False)
        fitted = self.fitted.get(id(est))
        x = self._argument(n, 0, "X")
        if fitted is None or fitted[0] is not est or fitted[1] is None or x is None:
            return False
        a = array_like(x, value)
        if a is None or a.ndim != 2 or type(a.shape[1]) is not int or a.like not in ("ndarray", "DataFrame") or \
                a.kind in ("U", "S"):
            return False                # text: check_array refuses it first (values.py)
        made = est.instance() if issubclass(type(est), Abstract) else est
        names = tuple(c for c, _ in a.columns) if a.like == "DataFrame" and a.columns is not None else None
        frame = a.like == "DataFrame"
        if made is not None:
            problem = width_problem(made, func.attr, fitted[1], a.shape[1], ast.unparse(x),
                                    fitted_names=fitted[2], names=names, frame=frame)
        elif func.attr in NEEDS_FIT and column_transformer_parts(est) is not None:   # holds the user's code
            problem = selection_width_problem(fitted[1], a.shape[1], ast.unparse(x), frame=frame)
        else:
            problem = None
        if problem is None:
            return False
        self._at_callee(func, f"{ast.unparse(func)}(): {problem}")
        return True

    def apply(self, node: ast.AST) -> None:
        self.state.apply(node, self.ns, self.functions, top_level=id(node) in self.top_level)

    # -- uses ---------------------------------------------------------------------------------

    def expression(self, node: ast.AST) -> None:
        if self.handled or self.state.stops:
            return
        local = _comprehension_names(node)
        # live objects, or what the cell made
        value = self._displays_alone(Propagation(lambda x: self._read(x, local), shapes=self.shapes).value, node)
        for n in self._running(node):
            if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Store):
                if not self._value(accessor_claim(n, lambda x: self._live(x, local))) and \
                        not self._value(inplace_claim(n, lambda x: self._live(x, local))):
                    self._attribute(n, local, value)
            elif isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Store):
                if not (self._value(position_claim(n, lambda x: self._live(x, local), self._text)) or
                        self._value(tuple_key_claim(n, lambda x: self._live(x, local), self._text)) or
                        self._value(inplace_claim(n, lambda x: self._live(x, local))) or
                        self._value(text_index_claim(n, value)) or self._value(concatenator_claim(n, value)) or
                        self._value(self._fields_kept_for(field_claim(n, lambda x: self._live(x, local), self._text))) or
                        self._value(index_claim(n, value)) or
                        self._value(params_key_claim(n, lambda x: self._live(x, local), self._text))):
                    found = len(self.facts)
                    self._key(n, local)
                    self._label(row_label_missing(n, lambda x: self._live(x, local)))
                    if len(self.facts) == found and self._labels_kept(_looked_up(n), local) and self._probe_clear(n):
                        self._value(lookup_claim(n, lambda x: self._live(x, local), value, self._text))
            elif isinstance(n, ast.Subscript):
                self._value(text_index_claim(n, value)) or \
                    self._value(self._fields_kept_for(field_claim(n, lambda x: self._live(x, local), self._text))) or \
                    self._value(params_key_claim(n, lambda x: self._live(x, local), self._text,
                                                 self._parents.get(id(n)))) or \
                    self._labels_kept(_looked_up(n), local) and self._probe_clear(n) and \
                    self._value(lookup_claim(n, lambda x: self._live(x, local), value, self._text))   # `a["id"] = ...`
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Subscript):
                found = len(self.facts)
                self._key(n.target, local)       # `d["k"] += 1` reads d["k"] first
                if len(self.facts) == found and self._probe_clear(n):
                    self._value(augmented_lookup_claim(n, lambda x: self._live(x, local), value)) or \
                        self._value(inplace_type_claim(n, value))
            elif isinstance(n, ast.AugAssign):
                self._probe_clear(n) and (self._value(inplace_operator_claim(n, value)) or
                                          self._value(inplace_type_claim(n, value)))
            elif isinstance(n, ast.Assign):
                claim = column_assignment_claim(n, value)
                if claim is not None:       # the frame is read as well as the values
                    claim.subjects = tuple(dict.fromkeys(self._subjects(n.value) + self._subjects(n.targets[0].value)))
                self._value(claim) or self._value(unpack_claim(n, value)) or self._value(store_claim(n, value))
            elif isinstance(n, ast.Call):
                found = len(self.facts)
                self._call(n, local, value)
                if len(self.facts) == found:    # the library asked itself: where no rule has spoken
                    self._probe(n, local, value)
            elif isinstance(n, ast.BinOp):
                self._value(binop_claim(n, value)) or \
                    self._value(column_binop_claim(n, lambda x: self._live(x, local))) or \
                    self._probe_clear(n) and (self._value(frame_operator_claim(n, lambda x: self._live(x, local), value)) or
                                              self._value(operator_claim(n, value)))
            elif isinstance(n, (ast.UnaryOp, ast.Compare)):
                self._probe_clear(n) and self._value(operator_claim(n, value))
            elif isinstance(n, ast.comprehension):
                self._probe_clear(n.iter) and self._value(iteration_claim(n.iter, value))
            if isinstance(n, ast.BoolOp):       # the first operand's truth is asked
                self._value(truth_claim(n.values[0], "BoolOp", value))
            elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
                self._value(truth_claim(n.operand, "UnaryOp", value))
            elif isinstance(n, (ast.IfExp, ast.Assert)) and not isinstance(n.test, ast.BoolOp):
                self._value(truth_claim(n.test, "test", value))

    def _displays_alone(self, value, node: ast.AST):
        """`value`, but a display of containers the cell wrote (`x = [1, None]`) only where nothing
        run before `node` reads its name: the flow follows calls of the name, not what a container
        made of it may do (`[x][0].pop()`, `y = [x] * 2`, `fs = [x.sort]`)."""
        def read(x):
            v = value(x)
            if isinstance(x, ast.Name) and issubclass(type(v), Made) and \
                    type(v.literal()) in (list, tuple, dict, set) and self._read_before(x.id, node, _holds_mutable(v.literal())):
                return UNRESOLVED
            return v
        return read

    def _read_before(self, name: str, node: ast.AST, mutable_items: bool) -> bool:
        """Does the cell (its view) put `name` into a container or an operation before `node` (in a
        display, `[x] * 2`, a lambda or a comprehension: what the flow does not follow; a call's
        argument or a chain of the name it follows): in a statement of its top level before the one
        that holds `node` (a function's body too), or earlier in that one?"""
        top = node
        while top is not None and id(top) not in self.top_level:
            top = self._parents.get(id(top))
        if top is None:
            return True
        at = (node.lineno, node.col_offset) if hasattr(node, "lineno") else (top.lineno, top.col_offset)
        earlier = [x for s in self.tree.body[:self.tree.body.index(top)] for x in ast.walk(s)] + \
            [x for x in ast.walk(top) if hasattr(x, "lineno") and (x.lineno, x.col_offset) < at]
        return any(isinstance(x, ast.Name) and x.id == name and isinstance(x.ctx, ast.Load) and
                   self._held(x, mutable_items) for x in earlier)

    def _held(self, x: ast.AST, mutable_items: bool) -> bool:
        """Is the name's object put into something the flow does not follow: itself into a display
        or a lambda (`[x]`, `(x,)`), or its items into a new list, an operation's result or a
        comprehension (`x * 2`, `[*x]`, `[b for b in x]`) where they are lists, dicts or sets? An
        item read (`x[0]`), a call's argument or a method of it are the flow's."""
        child, node = x, self._parents.get(id(x))
        while node is not None and not isinstance(node, ast.stmt):
            if isinstance(node, ast.Subscript) and child is node.value or isinstance(node, ast.Call):
                return False
            if isinstance(node, ast.Lambda) or isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and \
                    not isinstance(child, ast.Starred) or isinstance(
                        node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and \
                    not isinstance(child, ast.comprehension):
                return True             # (itself an element: `[x]`, `[x for _ in r]`)
            if isinstance(node, (ast.BinOp, ast.Starred, ast.comprehension)):
                return mutable_items
            child, node = node, self._parents.get(id(node))
        return False

    def _running(self, node: ast.AST) -> list[ast.AST]:
        """The nodes of `node` that run when it runs, walked once (`expression` and `_fits` both
        read a statement's)."""
        kept = self.walks.get(id(node))
        if kept is None or kept[0] is not node:
            kept = self.walks[id(node)] = (node, list(_walk_outside_functions(node)))
        return kept[1]

    def _live(self, chain: ast.AST, local: set[str], *, changes_matter: bool = True, keys: bool = False,
              made: bool = False):
        """The live object a pure chain stands for, as the cell finds it; with `made`, also a
        value the cell made (abstract.py), which no other fact reads."""
        root = chain_root(chain)
        if root is None or root in local or any(root in g for g in self.guarded):
            return UNRESOLVED
        obj = self.state.live(chain, self.ns, changes_matter=changes_matter, keys=keys)
        return UNRESOLVED if not made and issubclass(type(obj), Made) else obj

    def _read(self, node: ast.AST, local: set[str]):
        """What propagation reads of a pure chain: _live_or_builtin with what the cell made."""
        return self._live_or_builtin(node, local, made=True)

    def _live_or_builtin(self, node: ast.AST, local: set[str], *, changes_matter: bool = True,
                         made: bool = False):
        """_live, and a builtin's name the cell and the kernel leave as Python's (`int`, `len`)."""
        if isinstance(node, ast.Name) and node.id not in self.ns and node.id not in self.state.bound \
                and node.id not in local and hasattr(builtins, node.id):
            return getattr(builtins, node.id)
        return self._live(node, local, changes_matter=changes_matter, made=made)

    # -- calls: a call's arguments bound to the callee's signature, an estimator's fit and the
    # columns it was fitted on, the parameters a fit rejects, `pd.concat`'s items, the class a call makes

    def _probe(self, n: ast.Call, local: set[str], value) -> None:
        """A call asked of pandas or numpy on a stand-in or its own plain values (stand_ins.py), of
        matplotlib on a new Figure (matplotlib_values.layout_claim)."""
        if any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
            return
        if not self._probe_clear(n):
            return
        target = self._live_or_builtin(n.func, local, changes_matter=not isinstance(n.func, ast.Attribute))
        live = lambda x: self._live(x, local)
        self._value(shape_method_claim(n, live, value)) or \
            self._labels_kept(_receiver(n), local) and self._value(axis_method_claim(n, live, value)) or \
            target is not UNRESOLVED and \
            self._value(data_call_claim(n, target, live, value, live_data=self._nothing_changed_before(n))) or \
            target is not UNRESOLVED and self._library_kept(n.func) and \
            (self._value(maker_claim(n, target, lambda x: self._live_or_builtin(x, local),
                                     live_data=self._nothing_changed_before(n))) or
             self._value(draw_claim(n, target, value)) or self._value(builtin_call_claim(n, target, value)) or
             self._value(extremes_claim(n, target, value))) or \
            target is UNRESOLVED and self._value(draw_claim(n, target, value)) or \
            self._value(string_method_claim(n, live)) or \
            self._value(layout_claim(n, target if self._library_kept(n.func) else UNRESOLVED, live,
                                     isinstance(n.func, ast.Attribute) and n.func.attr in FIGURE_LAYOUT and
                                     self._made_as_made(n.func, value, "Figure"), lambda: self._numbers_alone_before(n, value),
                                     lambda: current_figure_kept(("add_subplot", "add_axes"))))

    def _probe_clear(self, n: ast.AST) -> bool:
        """May the library be asked of `n` (stand_ins.py): the cell stores nothing on a class (a
        method set on pandas' or numpy's class runs in the probe), and in `n`'s own statement
        nothing is called or stored before it runs (`(dates.pop(), pd.to_datetime(dates))`: the
        flow reads a statement's changes after it)."""
        if not self._classes_kept():
            return False
        statement = self._statement_of(n)
        if statement is None:
            return False
        inner = {id(x) for x in ast.walk(n)}
        at = (n.lineno, n.col_offset)
        return not any(id(x) not in inner and _changes(x) and (x.end_lineno, x.end_col_offset) <= at and
                       not self._numpy_computes(x) for x in ast.walk(statement))

    def _numpy_computes(self, x: ast.AST) -> bool:
        """`np.log(m)`: a call of numpy's own function that writes into none of its arguments (no
        `out`, by name or by place: a ufunc given no more than its inputs, another function fewer
        positional arguments than its signature's place of `out`; none of numpy's functions that
        fill or shuffle what they are given)."""
        if not (isinstance(x, ast.Call) and self._numpy_call(x) and isinstance(x.func, ast.Attribute) and
                x.func.attr not in _NUMPY_WRITERS and not any(k.arg in (None, "out") for k in x.keywords) and
                not any(isinstance(a, ast.Starred) for a in x.args)):
            return False
        f = self._live_or_builtin(x.func, set())
        if type(f).__name__ == "ufunc":
            return len(x.args) <= f.nin
        sig = POLICY.signature(f)
        names = [p.name for p in sig.parameters.values()] if sig is not None else None
        return names is not None and not any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values()) and \
            ("out" not in names or len(x.args) <= names.index("out"))

    def _nothing_changed_before(self, n: ast.AST) -> bool:
        """Is nothing called, stored or deleted in the cell before `n` (imports aside)? What a live
        list or array holds may then be read as the kernel holds it: the flow follows the names
        and objects a cell changes, not the lists inside a dict (`data["age"].pop()`)."""
        if self._first_change is None:      # read once a cell: every call the walk asks of it
            self._first_change = min(((x.end_lineno, x.end_col_offset) for x in ast.walk(self.tree)
                                      if hasattr(x, "end_lineno") and _changes(x)), default=(float("inf"), 0))
        return self._first_change > (n.lineno, n.col_offset)

    def _statement_of(self, n: ast.AST) -> ast.stmt | None:
        """The innermost statement that holds `n`."""
        node = n
        while node is not None and not isinstance(node, ast.stmt):
            node = self._parents.get(id(node))
        return node

    def _call(self, n: ast.Call, local: set[str], value) -> None:
        if any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
            self._value(self._legend(n, local, value))      # `ax.legend(*sc.legend_elements(), ...)`
            return
        func = n.func
        self._label(missing_group(n, lambda x: self._live(x, local)))
        self._label(dropped_row_label(n, lambda x: self._live(x, local)))
        # a method's signature does not change when its object does (`model.fit(X)` first)
        target = self._live_or_builtin(func, local, changes_matter=not isinstance(func, ast.Attribute))
        if self._artist_set(n, target, local, value):
            return
        if self._value(plot_keyword_claim(n, lambda x: self._live(x, local), self._text,
                                          axes_kept=self._classes_kept() and not self.state.user_code and
                                          self._pyplot_kept() and not self._options_may_change())):
            return
        if target is UNRESOLVED:
            self._column_arguments(n, local, target)        # `df.groupby(k).agg({...})`: df's
            if isinstance(func, ast.Attribute) and not self._refitted(n, local, value) and \
                    not self._fit_parameters(n, value) and not self._search_grid(n, local, value) and \
                    not self._value(column_selection_claim(n, value)) and \
                    not self._value(display_claim(n, target, value)) and \
                    not self._value(plot_claim(n, target, value, current_axes_plain)) and \
                    not self._value(self._made_axes_property(n, value)) and \
                    not self._value(self._legend(n, local, value)) and \
                    not self._value(self._made_axes_call(n, local, value)) and \
                    not self._value(self._colorbar(n, target, local, value)) and \
                    not self._value(self._clabel(n, target, local, value)) and \
                    not self._value(self._scale(n, target, local, value)) and \
                    not self._value(grouped_reduction_claim(n, lambda x: self._live(x, local))) and \
                    not self._value(level_claim(n, lambda x: self._live(x, local))):   # the cell made it
                if not self._value(not_callable_claim(n, value)) and \
                        not self._value(call_claim(n, target, value, lambda x: self._live(x, local, changes_matter=False),
                                              self._text, fitted_here=self._fitted_here)) and \
                        not self._value(self._looped_claim(n, local, value)) and not self._made_samples(n, value) \
                        and not self._unfitted_call(n, local):
                    self._made_method_call(n, local, value)
            return
        if not callable(target):        # the type's slot, read: nothing of the object runs
            if type(target).__module__ != "IPython.core.guarded_eval" and _plain_value(target):
                self._at_callee(func, f"{ast.unparse(func)} is a {type(target).__name__}, not a function: "
                                      "calling it raises TypeError")
            return
        self._column_arguments(n, local, target)
        if isinstance(func, ast.Attribute) and func.attr in NEEDS_FIT | WITH_Y | INVERTING and \
                (self._refitted(n, local, value) or self._estimator(n, local, value)):
            return
        if self._concat_items(n, target, local) or self._live_parameters(n, local) or \
                self._search_grid(n, local, value):
            return
        if self._value(frequency_claim(n, target, lambda x: self._live(x, local))) or \
                self._labels_kept(_receiver(n), local) and (self._value(timezone_claim(n, lambda x: self._live(x, local))) or
                                                 self._value(expression_claim(n, lambda x: self._live(x, local))) or
                                                 self._value(level_claim(n, lambda x: self._live(x, local)))) or \
                self._value(pivot_claim(n, target, lambda x: self._live(x, local))) or \
                self._value(merge_claim(n, target, lambda x: self._live(x, local))) or \
                self._value(eval_names_claim(n, target, lambda name: name in self.ns or name in local or
                                             self._text_binds(name))) or \
                self._folders_kept(n) and (self._value(writer_claim(n, lambda x: self._live(x, local))) or
                                           self._value(reader_claim(n, target))):
            return
        if self._value(display_claim(n, target, value)) or self._value(plot_claim(n, target, value, current_axes_plain)) or \
                self._value(feature_name_claim(n, target, lambda x: self._live(x, local))) or \
                self._value(seaborn_claim(n, target, lambda x: self._live(x, local), self._text,
                                          axes_kept=self._classes_kept() and self._library_kept(func) and
                                          self._pyplot_kept())) or \
                self._classes_kept() and self._library_kept(func) and \
                self._value(heatmap_claim(n, target, self._text, lambda node: self._axes_exact(node, local))) or \
                self._value(option_claim(n, target, self._text)) or \
                self._value(rc_claim(n, target, self._text, entered=self._entered_first(n), styles=self._styles_kept)) or \
                self._value(update_claim(n, target, self._text)) or \
                self._classes_kept() and self._library_kept(func) and \
                self._value(property_claim(n, target, self._text, value=value, pyplot_kept=self._pyplot_kept(),
                                           bars=lambda x: self._bars_known(x, local, value))) or \
                self._classes_kept() and self._library_kept(func) and \
                self._value(self._setp(n, target, local)) or \
                self._value(self._colorbar(n, target, local, value)) or \
                self._value(self._clabel(n, target, local, value)) or \
                self._value(self._scale(n, target, local, value)) or \
                self._library_kept(func) and self._value(tick_params_claim(n, target, self._text,
                                                                              pyplot_kept=self._pyplot_kept())) or \
                self._classes_kept() and self._library_kept(func) and self._value(ticks_claim(n, target, self._text)) or \
                self._classes_kept() and self._library_kept(func) and not self._may_store("canvas") and \
                not self._rc_may_change("savefig.format") and not self._rc_may_change("savefig.bbox") and \
                self._value(savefig_claim(n, target, self._text, pyplot_kept=self._pyplot_kept())) or \
                self._classes_kept() and self._library_kept(func) and self._value(artist_call_claim(n, target, self._text)) or \
                self._value(self._legend(n, local, value)) or \
                self._classes_kept() and self._library_kept(func) and self._value(self._axes_call(n, target, local)) or \
                self._value(frame_claim(n, target, value)) or \
                self._value(concat_axis_claim(n, target, value)) or \
                self._value(cut_claim(n, target, value)) or \
                self._value(encoder_claim(n, target, lambda x: self._live(x, local))) or \
                self._classes_kept() and self._value(unbound_method_claim(
                    n, self._live(n.func.value, local, changes_matter=False) if isinstance(n.func, ast.Attribute)
                    else None, value)) or \
                self._sklearn_config_kept() and self._value(constraint_claim(n, target, self._text)) or \
                self._value(call_claim(n, target, value, lambda x: self._live(x, local, changes_matter=False),
                                       self._text, fitted_here=self._fitted_here)) or \
                self._value(conversion_claim(n, target, lambda x: self._live_or_builtin(x, local),
                                             lambda x: self._live(x, local, keys=True))) or \
                self._value(reduction_claim(n, lambda x: self._live(x, local))) or \
                self._value(metric_claim(n, target, lambda x: self._live(x, local), value)):
            return
        self._bind(n, target, len(n.args))

    def _looped_claim(self, n: ast.Call, local: set[str], value) -> ValueClaim | None:
        """`for name, clf in models: clf.fit(X[:, 0], y)`: the receiver is a loop's variable over
        a live list, tuple or dict (flow.loop_items); the call's claim when every item it takes
        gets the same one (read by its class and parameters, as a live estimator the cell fits
        is), the first item's. Its first iteration raises, whichever runs first."""
        func = n.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name) or func.value.id in local:
            return None
        items = loop_items(func.value, self.state.enclosing, lambda x: self._live(x, local),
                           lambda f: self._live_or_builtin(f, local))
        if not items:
            return None
        claims = [call_claim(n, UNRESOLVED, value,
                             lambda x, item=item: item if x is func.value else self._live(x, local, changes_matter=False),
                             self._text) for item in items]
        if any(c is None or c.exception != claims[0].exception for c in claims):
            return None
        return claims[0]

    def _made_axes_property(self, n: ast.Call, value):
        """`ax.plot(x, y, colr="r")` on an Axes the cell made (plt.subplots, plt.axes): the
        method is matplotlib's Axes' own, so its artist's properties are read as on a live one."""
        cls = axes_class()
        axis = n.func.value
        if cls is not None and isinstance(axis, ast.Attribute) and axis.attr in ("xaxis", "yaxis") and \
                n.func.attr in ("set_tick_params", "set_ticks") and self._made_as_made(axis, value, "Axes") and \
                not self._stores_name(n.func.attr) and self._classes_kept() and not self.state.user_code:
            # the Axis an Axes the cell made holds: `_init_axis` makes it of matplotlib's XAxis or YAxis
            axis_class = made_axis_class(axis.attr)
            method = POLICY.static(axis_class, n.func.attr, None) if axis_class is not None else None
            return tick_params_claim(n, method, self._text, made_axes=True) if n.func.attr == "set_tick_params" \
                else ticks_claim(n, method, self._text, made_axes=True)
        if cls is None or not self._made_as_made(n.func, value, "Axes") or not self._classes_kept():
            return None
        if n.func.attr == "tick_params":
            return tick_params_claim(n, POLICY.static(cls, "tick_params", None), self._text, made_axes=True)
        if n.func.attr in ("set_xticks", "set_yticks"):
            return ticks_claim(n, POLICY.static(cls, n.func.attr, None), self._text, made_axes=True)
        return property_claim(n, POLICY.static(cls, n.func.attr, None), self._text, made_axes=True, value=value,
                              bars=lambda x: self._bars_known(x, set(), value))

    def _artist_set(self, n: ast.Call, target, local: set[str], value) -> bool:
        """Is the call matplotlib's `Artist.set` (matplotlib_properties.is_artist_set), of a live
        artist or one the cell made? Its keywords are read by set_claim alone, on an artist as it
        was (a live one before any of the user's code runs in the cell; a made Axes or Figure as
        made): the signature matplotlib writes on `set` names no alias (`fc=`)."""
        func = n.func
        if not isinstance(func, ast.Attribute) or func.attr != "set" or n.args:
            return False                # positional arguments: the signature's TypeError (call_claim)
        if target is UNRESOLVED:
            made = value(func.value)
            like = made.like if issubclass(type(made), Abstract) and made.like in ("Axes", "Figure") else None
            cls = {"Axes": axes_class, "Figure": figure_class}[like]() if like else self._class_of(func.value, local)
            if cls is None or not is_artist_set(POLICY.static(cls, "set", None)):
                return False
            if like is not None and self._classes_kept() and self._made_as_made(func, value, like):
                self._value(set_claim(n, cls, self._text, stored=self._may_store))
            elif like is None and self._classes_kept() and not self.state.user_code and drawn_method(cls, "set"):
                # an artist a matplotlib call of the cell made (returns.py): of exactly that class
                self._value(set_claim(n, cls, self._text, stored=self._may_store))
            return True
        if type(target) is not types.MethodType or not is_artist_set(target.__func__):
            return False
        obj = target.__self__
        if self._classes_kept() and self._library_kept(func) and target.__func__ is POLICY.static(type(obj), "set", None):
            self._value(set_claim(n, type(obj), self._text, obj, stored=self._may_store))
        return True

    def _setp(self, n: ast.Call, target, local: set[str]) -> ValueClaim | None:
        """`plt.setp(labels, rotaton=45)` on live artists (matplotlib_properties.setp_claim)."""
        if type(target) is not types.FunctionType or not n.args:
            return None
        items = self._live(n.args[0], local)
        return setp_claim(n, target, items, self._text, stored=self._may_store) if items is not UNRESOLVED else None

    def _may_store(self, attr: str) -> bool:
        """May the cell set an attribute of that name on some object: a store of it, or a way
        to set one by name (`setattr`, `vars`, an object's `__dict__`)?"""
        return self._stores_name(attr) or self._sets_by_name()

    def _options_may_change(self) -> bool:
        """May the cell set one of pandas' options (its plotting backend among them)?"""
        if self._options_named is None:
            self._options_named = any(
                isinstance(x, ast.Attribute) and x.attr in _PANDAS_OPTIONS or isinstance(x, ast.Name) and x.id in
                _PANDAS_OPTIONS for x in ast.walk(self.tree))
        return self._options_named

    def _pyplot_kept(self) -> bool:
        """May pyplot's current Figure and Axes be read as the cell starts: can nothing in the
        cell make a Figure or Axes of another class, or another one current
        (_may_change_current)? With _library_kept, none of the user's code runs before either."""
        if self._other_current is None:
            no_figures = no_pyplot_figures()
            self._other_current = any(_may_change_current(x, self._numpy_call, no_figures) for x in ast.walk(self.tree))
        return not self._other_current

    def _numbers_alone_before(self, n: ast.AST, value) -> bool:
        """Does the cell, before `n`, store no attribute or item and call nothing but numpy's own
        functions, a numpy generator's draws (the kernel's, or one it made), Python's builtins of
        plain values (`len`, `range`) and pyplot's `figure()` of a new Figure (no number, no class)?
        Then nothing before drew on a Figure or changed matplotlib's settings."""
        np = sys.modules.get("numpy")
        random = POLICY.module_members(np.random) if np is not None else {}
        generators = tuple(c for c in (random.get("Generator"), random.get("RandomState")) if c is not None)
        pyplot = sys.modules.get("matplotlib.pyplot")
        figure = POLICY.static(pyplot, "figure", None) if pyplot is not None else None
        at = (n.lineno, n.col_offset)
        statement = self._statement_of(n)
        if statement is None or id(statement) not in self.top_level:
            return False                # (in a function, a loop or a branch, the text's order is not the run's)
        before = self.tree.body[:self.tree.body.index(statement)]   # (a call's view: in the order it runs)
        if any(not isinstance(s, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Import, ast.ImportFrom, ast.Pass))
               for s in before):
            return False                # (a loop's iteration, a `with`, a function defined: code may run)
        nodes = [x for s in before for x in ast.walk(s)] + \
            [x for x in ast.walk(statement) if hasattr(x, "end_lineno") and (x.end_lineno, x.end_col_offset) <= at]
        for x in nodes:
            if not hasattr(x, "end_lineno"):
                continue
            if isinstance(x, (ast.Attribute, ast.Subscript)) and isinstance(x.ctx, (ast.Store, ast.Del)) or \
                    isinstance(x, (ast.Import, ast.ImportFrom)) and not _loaded(x) or \
                    isinstance(x, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                return False            # (a module's first import runs its code: `mplot3d` registers "3d")
            if not isinstance(x, ast.Call) or self._numpy_call(x):
                continue
            if isinstance(x.func, ast.Name) and any(self._live_or_builtin(x.func, set()) is b for b in _PLAIN_BUILTINS):
                continue
            if figure is not None and self._live_or_builtin(x.func, set()) is figure and self._library_kept(x.func) and \
                    not x.args and all(k.arg not in (None, "num", "FigureClass", "clear") and
                                       _literal(k.value) is not UNRESOLVED for k in x.keywords):
                continue
            if isinstance(x.func, ast.Attribute):
                made = value(x.func.value)
                if issubclass(type(made), Abstract) and made.like == "Generator" or \
                        type(made) in generators and own_classes(type(made), "numpy"):
                    continue
            return False
        return True

    def _numpy_call(self, call: ast.Call) -> bool:
        """Is `call` to numpy's own function, reached from a numpy module by a name the cell does not
        bind again: a function of numpy's files, its array-function dispatcher, a ufunc, or a
        builtin of its random state (`np.random.rand`)?"""
        root = chain_root(call.func)
        if root is None or any(isinstance(x, ast.Name) and x.id == root and not isinstance(x.ctx, ast.Load)
                               for x in ast.walk(self.tree)):
            return False
        path, node = [], call.func
        while isinstance(node, ast.Attribute):
            path.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or not path:
            return False
        obj = self.ns.get(root)
        for attr in reversed(path):
            if type(obj) is not types.ModuleType or not obj.__name__.split(".")[0] == "numpy":
                return False
            obj = POLICY.static(obj, attr, None)
        kind = type(obj)
        if kind is types.FunctionType:
            return own_function(obj, "numpy")
        if kind is types.BuiltinFunctionType:
            owner = type(getattr(obj, "__self__", None))
            return (owner.__module__ or "").split(".")[0] == "numpy" or owner is types.ModuleType and \
                obj.__self__.__name__.split(".")[0] == "numpy"
        if kind.__name__ == "cython_function_or_method" and kind.__module__.startswith("_cython_"):
            module = obj.__module__     # (a C type's slot: `np.random.default_rng`, numpy.random._generator's)
            return type(module) is str and module.split(".")[0] == "numpy"
        return kind.__module__.split(".")[0] == "numpy" and kind.__name__ in ("_ArrayFunctionDispatcher", "ufunc")

    def _library_kept(self, func: ast.expr) -> bool:
        """_live_method_kept, and none of the user's code runs before in the cell: the rules that
        read a library's classes (a user's function may set `Text.set_bad`) need it of a function
        called by its bare name too."""
        return self._live_method_kept(func) and not self.state.user_code

    def _made_as_made(self, method: ast.Attribute, value, like: str) -> bool:
        """Is `method` read from a Figure or an Axes (`like`) the cell made, as pyplot made it:
        the flow finds it unchanged (nothing stored on it, given to the user's code, or changed
        with another part of its figure), and the cell stores that name on nothing (an
        instance's own method is called before its class's: `fig.legend = ...`)? Its method is
        then matplotlib's class's."""
        made = value(method.value)
        return issubclass(type(made), Abstract) and made.like == like and self._item_kept(method.value) and \
            not self._stores_name(method.attr)

    def _classes_kept(self) -> bool:
        """Does the cell store or delete attributes only on objects known not to be classes? A
        method set on a class (`Axes.set_foo = ...`, `Line2D.set_foo = ...`) is a property of
        every artist of it: the keyword rules read the classes as they were."""
        if self._class_stores is None:
            bound = {x.id for x in ast.walk(self.tree) if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load)} | \
                {a.asname or a.name.split(".")[0] for x in ast.walk(self.tree) if isinstance(x, (ast.Import, ast.ImportFrom))
                 for a in x.names}
            self._class_stores = any(
                isinstance(x, ast.Attribute) and isinstance(x.ctx, (ast.Store, ast.Del)) and
                not (isinstance(x.value, ast.Name) and x.value.id not in bound and x.value.id in self.ns and
                     not isinstance(self.ns[x.value.id], type)) for x in ast.walk(self.tree))
        return not self._class_stores

    def _live_method_kept(self, func: ast.expr) -> bool:
        """A live object's method, read as it was before the cell (`ax.plot`): is it still what
        the call runs? An instance's own attribute of that name is called first, and the cell may
        set one (`ax.plot = ...`) or its name be given to the user's code, as may the user's code
        run anywhere in it reach the object (`plt.gca()`)."""
        if not isinstance(func, ast.Attribute):
            return True
        root = chain_root(func)
        return not self.state.user_code and not self._stores_name(func.attr) and \
            root not in self.state.touched and "*" not in self.state.touched

    def _legend(self, n: ast.Call, local: set[str], value):
        """`legend(...)` keywords Legend refuses (matplotlib_properties.legend_claim): the method
        of a live Axes or Figure before any of the user's code runs in the cell, or of one the
        cell made, as made."""
        if not isinstance(n.func, ast.Attribute) or n.func.attr != "legend" or not self._classes_kept():
            return None
        target = self._live_or_builtin(n.func, local, changes_matter=False)
        if target is not UNRESOLVED:
            return legend_claim(n, target, self._text, pyplot_kept=self._pyplot_kept()) \
                if self._library_kept(n.func) else None
        if self._made_as_made(n.func, value, "Axes") and (cls := axes_class()) is not None:
            return legend_claim(n, POLICY.static(cls, "legend", None), self._text, made_axes=True)
        if self._made_as_made(n.func, value, "Figure") and (cls := figure_class()) is not None:
            return legend_claim(n, POLICY.static(cls, "legend", None), self._text, made_figure=True)
        return None

    def _axes_call(self, n: ast.Call, target, local: set[str]):
        """A literal argument an Axes method, or a grid position a Figure, refuses
        (matplotlib_values): pyplot's function on its current Axes or Figure, or the method of
        a live Axes or Figure of matplotlib's own class (the caller checks nothing of the
        user's runs before, _library_kept)."""
        pyplot, axes, figure = (sys.modules.get(m) for m in ("matplotlib.pyplot", "matplotlib.axes", "matplotlib.figure"))
        if pyplot is None or axes is None or figure is None:
            return None
        if type(target) is types.FunctionType:
            if not self._pyplot_kept():
                return None
            if target is POLICY.static(pyplot, "subplot", None) and POLICY.is_library(target):
                return grid_claim(n, "subplot", self._text, self._grid_positions(n, local))
            method = pyplot_axes_method(target)
            return axes_call_claim(n, method, self._text) if method is not None and current_axes_exact(method) else None
        if type(target) is not types.MethodType or not isinstance(n.func, ast.Attribute):
            return None
        owner, name = target.__self__, n.func.attr
        for cls, rule in ((POLICY.static(axes, "Axes", None), axes_call_claim),
                          (POLICY.static(figure, "Figure", None), grid_claim)):
            if isinstance(cls, type) and type(owner) is cls and \
                    target.__func__ is POLICY.static(cls, name, None) and name not in (plain_own_dict(owner) or {name: 0}):
                return rule(n, name, self._text, self._grid_positions(n, local)) if rule is grid_claim else \
                    rule(n, name, self._text)
        return None

    def _made_axes_call(self, n: ast.Call, local: set[str], value):
        """_axes_call's rules on an Axes or a Figure the cell made, as made."""
        if not isinstance(n.func, ast.Attribute) or not self._classes_kept() or self.state.user_code:
            return None
        if self._made_as_made(n.func, value, "Axes"):
            return axes_call_claim(n, n.func.attr, self._text)
        if self._made_as_made(n.func, value, "Figure"):
            return grid_claim(n, n.func.attr, self._text, self._grid_positions(n, local))
        return None

    def _grid_positions(self, n: ast.Call, local: set[str]) -> list[int] | None:
        """`plt.subplot(2, 2, i + 1)` in `for i in range(5)`: the positions the index takes,
        one an iteration of a loop that surely runs each (no `break` or `continue` in its body);
        None where the index is no loop variable's arithmetic."""
        if len(n.args) not in (1, 3):
            return None
        index = n.args[-1]                 # `plt.subplot(2, 2, i + 1)`, `plt.subplot(221 + i)`
        names = {x.id for x in ast.walk(index) if isinstance(x, ast.Name)}
        if len(names) != 1:
            return None
        name = next(x for x in ast.walk(index) if isinstance(x, ast.Name))
        loop = next((lp for lp in reversed(self.state.enclosing)
                     if any(isinstance(t, ast.Name) and t.id == name.id for t in ast.walk(lp.target))), None)
        if loop is None or any(isinstance(x, (ast.Break, ast.Continue, ast.Return)) for b in loop.body for x in ast.walk(b)) \
                or not any(isinstance(b, (ast.Expr, ast.Assign)) and b.value is n for b in loop.body):
            return None                 # the call a statement of the loop's own body: run on every pass
        items = loop_items(name, self.state.enclosing, lambda x: self._live(x, local),
                           lambda f: self._live_or_builtin(f, local))
        if not items:
            return None
        positions = [int_arithmetic(index, lambda x, v=v: v if isinstance(x, ast.Name) and x.id == name.id else None)
                     for v in items]
        return None if None in positions else positions

    def _colorbar(self, n: ast.Call, target, local: set[str], value):
        """`colorbar(...)` keywords Colorbar refuses (matplotlib_properties.colorbar_claim): of a
        live Figure or pyplot before any of the user's code runs in the cell, or of a Figure the
        cell made, as made."""
        name = n.func.attr if isinstance(n.func, ast.Attribute) else None
        if name != "colorbar" or not self._classes_kept():
            return None
        if (claim := self._colorbar_mappable(n, target, local, value)) is not None:
            return claim

        def axes_known(node) -> bool:
            if node is None:            # neither `ax` nor `cax`: the mappable's own Axes
                return self._mappable_on_axes(n.args[0], mappable, local, value)
            if isinstance(node, (ast.List, ast.Tuple)):     # of one Figure: one Axes only
                return len(node.elts) == 1 and axes_known(node.elts[0])
            made = value(node)
            if issubclass(type(made), Abstract):
                return (made.like == "Axes" or made.like == "ndarray" and made.holds == "Axes") and \
                    self._item_kept(node)
            live = self._live(node, local)
            np = sys.modules.get("numpy")
            if np is not None and type(live) is np.ndarray and live.dtype == object:
                live = live.ravel().tolist()        # a grid of Axes
            items = list(live) if type(live) in (list, tuple) else [live]
            cls = axes_class()
            if cls is None or not items or not all(plain_subclass(type(x), cls) for x in items):
                return False
            # make_axes refuses Axes of more than one Figure (ValueError)
            figures = {id((plain_own_dict(x) or {}).get("_parent_figure")) for x in items}
            return len(items) == 1 or len(figures) == 1 and (plain_own_dict(items[0]) or {}).get("_parent_figure") is not None

        mappable = self._live(n.args[0], local) if len(n.args) == 1 else UNRESOLVED
        made = self._live(n.args[0], local, made=True) if len(n.args) == 1 and mappable is UNRESOLVED else None
        if type(made) is Instance and drawn_method(made.cls, "get_figure") and self._classes_kept() and \
                not self.state.user_code:
            mappable = made             # `pcm = ax.pcolormesh(...)`: of matplotlib's class (returns.py)
        elif mappable is UNRESOLVED or not matplotlib_object(mappable):
            return None                 # its `axes` and `get_figure` are read before Colorbar is made
        if target is not UNRESOLVED:
            return colorbar_claim(n, target, self._text, axes_known, pyplot_kept=self._pyplot_kept()) \
                if self._library_kept(n.func) else None
        if self._made_as_made(n.func, value, "Figure") and (cls := figure_class()) is not None:
            return colorbar_claim(n, POLICY.static(cls, "colorbar", None), self._text, axes_known, made_figure=True)
        return None

    def _colorbar_mappable(self, n: ast.Call, target, local: set[str], value):
        """`colorbar()` of no mappable, or of an array (matplotlib_properties.colorbar_mappable_claim):
        of pyplot or a live Figure before any of the user's code runs, or of a Figure the cell made."""
        mappable = None
        if n.args:
            mappable = self._live(n.args[0], local)
            if mappable is UNRESOLVED:
                mappable = value(n.args[0])     # the cell's own array or display
            if mappable is UNRESOLVED:
                mappable = _literal_display(n.args[0])
        if target is not UNRESOLVED:
            return colorbar_mappable_claim(n, target, mappable, pyplot_kept=self._pyplot_kept(),
                                           first=self._numbers_alone_before(n, value)) \
                if self._library_kept(n.func) else None
        if self._made_as_made(n.func, value, "Figure") and (cls := figure_class()) is not None:
            return colorbar_mappable_claim(n, POLICY.static(cls, "colorbar", None), mappable, made_figure=True)
        return None

    def _mappable_on_axes(self, node: ast.expr, mappable, local: set[str], value) -> bool:
        """Is the mappable given to `colorbar` surely on an Axes of matplotlib's own class (its
        `axes`, which colorbar steals from where no `ax` is given)? A live one whose `_axes` is
        one; or a name the cell binds only by top-level assignments, the last of them before the
        colorbar's statement to a plotting method's result on a live Axes of matplotlib's or one
        the cell made (the method adds what it makes to that Axes: `c = ax0.pcolor(...)`), and
        never removes (`c.remove()` leaves it no Axes)."""
        cls = axes_class()
        if cls is None:
            return False
        if not isinstance(mappable, Instance):
            own = plain_own_dict(mappable) or {}
            return plain_subclass(type(own.get("_axes")), cls)
        if any(isinstance(x, ast.Attribute) and x.attr == "remove" for x in ast.walk(self.tree)):
            return False
        return self._bound_on_axes(node, _ADDED_TO_AXES, local, value) is not None

    def _bound_on_axes(self, node: ast.expr, methods, local: set[str], value, *,
                       drawn_on: bool = False) -> ast.Call | None:
        """The call of one of `methods` on a live Axes of matplotlib's or one the cell made whose
        result `node` is: a name the cell binds only by top-level assignments, the last of them
        before `node`'s statement to that call (`c = ax0.pcolor(...)`). `drawn_on`: the live Axes
        may have been drawn on since (its class is as it was), its name bound nowhere in the cell."""
        cls = axes_class()
        if cls is None or not isinstance(node, ast.Name):
            return None
        stores = [x for x in ast.walk(self.tree) if isinstance(x, ast.Name) and x.id == node.id and
                  not isinstance(x.ctx, ast.Load)]
        bindings = [s for s in self.tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1 and
                    isinstance(s.targets[0], ast.Name) and s.targets[0] in stores]
        statement = node
        while statement is not None and statement not in self.tree.body:
            statement = self._parents.get(id(statement))
        before = [s for s in bindings if statement is not None and s.end_lineno < statement.lineno]
        call = before[-1].value if before else None
        if len(bindings) != len(stores) or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or \
                call.func.attr not in methods:
            return None
        if self._made_as_made(call.func, value, "Axes"):
            return call
        root = chain_root(call.func.value)
        if drawn_on and any(isinstance(x, ast.Name) and x.id == root and not isinstance(x.ctx, ast.Load)
                            for x in ast.walk(self.tree)):
            return None
        receiver = self._live(call.func.value, local, changes_matter=not drawn_on)
        return call if receiver is not UNRESOLVED and plain_subclass(type(receiver), cls) and \
            own_classes(type(receiver), "matplotlib") else None

    def _bars_known(self, node: ast.expr, local: set[str], value) -> bool:
        """Is the container given to `bar_label` surely a BarContainer of a bar at least: a live one
        of matplotlib's class holding its patches as made, or the result of `ax.bar`/`ax.barh` that
        surely makes a bar (matplotlib_properties.bars_made), bound as _bound_on_axes reads it, its
        `patches` stored nowhere in the cell?"""
        if self._may_store("patches"):
            return False
        live = self._live(node, local)
        if live is not UNRESOLVED:
            container = sys.modules.get("matplotlib.container")
            cls = POLICY.static(container, "BarContainer", None) if container is not None else None
            patches = (plain_own_dict(live) or {}).get("patches")
            return isinstance(cls, type) and type(live) is cls and own_classes(cls, "matplotlib") and \
                type(patches) in (list, tuple) and len(patches) > 0
        call = self._bound_on_axes(node, ("bar", "barh"), local, value, drawn_on=True)
        return call is not None and bars_made(call, 2, value, returned=True)

    def _scale(self, n: ast.Call, target, local: set[str], value):
        """`ax.set_xscale("symlog", linthrsh=...)` (matplotlib_properties.scale_claim): of a live Axes
        of matplotlib's classes before any of the user's code runs, or of one the cell made, as made."""
        func = n.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("set_xscale", "set_yscale") or not self._classes_kept():
            return None
        if target is not UNRESOLVED:
            owner = getattr(target, "__self__", None) if type(target) is types.MethodType else None
            if owner is None or not plain_subclass(type(owner), object) or not self._library_kept(func):
                return None
            return scale_claim(n, target.__func__, self._text)
        if self._made_as_made(func, value, "Axes") and axes_class() is not None and not self.state.user_code:
            return scale_claim(n, POLICY.static(axes_class(), func.attr, None), self._text)
        return None

    def _clabel(self, n: ast.Call, target, local: set[str], value):
        """`ax.clabel(CS, fontsiz=10)` (matplotlib_properties.clabel_claim): of a live Axes of
        matplotlib's classes before any of the user's code runs, or of one the cell made, as made;
        the contour set live, or made by matplotlib's documented call (returns.py)."""
        func = n.func
        if not isinstance(func, ast.Attribute) or func.attr != "clabel" or not n.args or not self._classes_kept():
            return None
        if target is not UNRESOLVED:
            owner = getattr(target, "__self__", None) if type(target) is types.MethodType else None
            if owner is None or not plain_subclass(type(owner), object) or not self._library_kept(func):
                return None
            method = target.__func__
        elif self._made_as_made(func, value, "Axes") and axes_class() is not None and not self.state.user_code:
            method = POLICY.static(axes_class(), "clabel", None)
        else:
            return None
        contours = self._live(n.args[0], local)
        cls = type(contours) if contours is not UNRESOLVED and matplotlib_object(contours) else None
        if cls is None:
            made = self._live(n.args[0], local, made=True)
            cls = made.cls if type(made) is Instance else None
        return clabel_claim(n, method, cls, self._text) if cls is not None else None

    def _concat_items(self, n: ast.Call, target, local: set[str]) -> bool:
        """`pd.concat([df, {"a": 1}])`: pandas' concat takes Series and DataFrames only; an item
        of its list that is a dict, list, number or text (written so, or a name the kernel binds
        to one) raises TypeError. The fix makes a dict a one-row frame."""
        pd = sys.modules.get("pandas")
        if pd is None or target is not POLICY.static(pd, "concat", None) or not n.args or \
                not isinstance(n.args[0], (ast.List, ast.Tuple)):
            return False
        for e in n.args[0].elts:
            if isinstance(e, (ast.Dict, ast.List, ast.Constant)):
                kind = {ast.Dict: dict, ast.List: list}.get(type(e)) or type(e.value)
            elif isinstance(e, ast.Name) and e.id not in local and e.id not in self.state.bound and \
                    type(self.ns.get(e.id)) in (dict, list, str, int, float):
                kind = type(self.ns[e.id])
            else:
                continue
            message = (f"{ast.unparse(n.func)}() cannot concatenate object of type '{kind}'; only "
                       "Series and DataFrame objs are valid: TypeError")
            module = ast.unparse(n.func.value) if isinstance(n.func, ast.Attribute) else None
            text = self._text(e)
            if e.lineno != e.end_lineno or module is None or text is None:
                self._at_callee(n.func, message)
                return True
            fixes = [f"{module}.DataFrame([{text}])"] if kind is dict else \
                [f"{module}.DataFrame({text})"] if kind is list else []
            self._add("call", e.lineno, _chars(self.lines, e.lineno, e.col_offset), None, message, fixes,
                      end=_chars(self.lines, e.lineno, e.end_col_offset))
            return True
        return False

    def _fit_parameters(self, n: ast.Call, value) -> bool:
        """`est.fit(X, y)`, `SVC(C=-1).fit(X, y)`, `est.set_params(svc__gama=1)`: an estimator the
        cell makes whose parameters scikit-learn's fit (set_params) rejects before it reads X (the
        values) (parameters.py)."""
        if n.func.attr not in FITTING or \
                not isinstance(n.func.value, ast.Call) and self._runs_before_in_statement(n):
            return False                # (`print(m.set_params(C=1), m.fit(X, y))`: changed first; a
            #                             receiver made in the call itself, `SVC(...).fit`, no name reaches)
        est = value(n.func.value)
        if not (issubclass(type(est), Abstract) and est.like == "estimator"):
            return False
        if n.func.attr == "set_params" and not est.made_whole():
            return False                # set_params would reach a live estimator it holds
        if self._parts_changed(est):
            return False                # `svc.C = 1.0` after `make_pipeline(..., svc)`: the pipeline's step changed
        keywords = [k.arg for k in n.keywords]
        made = est.instance()
        problem = fit_parameter_problem(made, n.func.attr, len(n.args), keywords) or \
            step_parameter_problem(made, n.func.attr, len(n.args), keywords) or \
            missing_target_problem(made, n.func.attr, len(n.args), keywords)
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}", "value", self._subjects(n.func))
        return True

    def _parts_changed(self, v, top: bool = True) -> bool:
        """Has the cell changed an estimator the made one holds since it was given (by its own
        name: the flow marks what is changed, not what holds it)?"""
        if issubclass(type(v), Abstract):
            args, keywords = v.arguments
            return not top and id(v) in self.state.changed or \
                any(self._parts_changed(a, False) for a in (*args, *(x for _, x in keywords)))
        if type(v) in (list, tuple):
            return any(self._parts_changed(x, False) for x in v)
        if type(v) is dict:
            return any(self._parts_changed(x, False) for x in v.values())
        return False

    def _live_parameters(self, n: ast.Call, local: set[str]) -> bool:
        """A live estimator's parameters its own method refuses before it reads the data, read by
        that method on a copy of its parameters (parameters.parameters_copy), the live one left
        as it is: `enet.set_params(alha=0.1)`, `pipe.set_params(svc_C=1)` (a name in none of
        `get_params(deep=True)`'s: ValueError), `svc.fit(X, y)` after `svc = SVC(C=-1)` in an
        earlier cell, or after `svc.C = -1` in this one (its fit validates the parameters:
        the literals the cell surely stored on its own parameters, flow.literals_set, are set on
        the copy). Not where anything else the cell ran before, this statement's other calls too,
        may have changed it or what it holds (`steps.append(...)` on its list), nor partial_fit
        (validated on the first call only)."""
        if not isinstance(n.func, ast.Attribute) or n.func.attr not in FITTING or n.func.attr == "partial_fit" or \
                n.func.attr == "set_params" and n.args:
            return False
        if self._runs_before_in_statement(n):
            return False                # the statement's effects are applied after it: unknown
        est = self._live(n.func.value, local)
        stored = {}
        if est is UNRESOLVED and isinstance(n.func.value, ast.Name) and not self.state.user_code and \
                not self._sets_by_name():
            est = self._live(n.func.value, local, changes_matter=False)
            stored = self.state.literals_set.get(id(est)) if est is not UNRESOLVED else None
            if not stored:
                return False
        if not self._sklearn_config_kept():
            return False                # (validation may be turned off in the cell)
        if est is UNRESOLVED or issubclass(type(est), Made) or \
                (self.state.changed_within(est) if not stored else self._held_changed(est)):
            return False                # the cell may have changed it, or what it holds, before
        copy = parameters_copy(est)
        if copy is None or stored and not self._stored_parameters(copy, stored):
            return False
        problem = fit_parameter_problem(copy, n.func.attr, len(n.args), [k.arg for k in n.keywords])
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}", "value", self._subjects(n.func))
        return True

    def _sets_by_name(self) -> bool:
        """Does the cell name a way to set an attribute by name (`setattr`, `vars`, `__dict__`)?"""
        return any(isinstance(x, ast.Attribute) and x.attr in ("__dict__", "__setattr__") or
                   isinstance(x, ast.Name) and x.id in ("setattr", "vars") for x in ast.walk(self.tree))

    def _held_changed(self, est) -> bool:
        """May the cell have changed what the estimator holds (an estimator among its parameters)?"""
        params = estimator_parameters(est)
        return params is None or any(self.state.changed_within(v) for v in params.values()
                                     if not issubclass(type(v), (str, int, float, bool, type(None))))

    @staticmethod
    def _stored_parameters(copy, stored: dict) -> bool:
        """Set on the copy the literals the cell stored on the live estimator, each one of its own
        parameters (the copy's class is scikit-learn's, its parameters plain: nothing else runs)."""
        params = estimator_parameters(copy)
        if params is None or any(k not in params for k in stored):
            return False
        for k, v in stored.items():
            setattr(copy, k, v)
        return True

    def _runs_before_in_statement(self, n: ast.Call) -> bool:
        """Does anything that may change objects run in `n`'s statement before `n` does (a call
        other than those `n` is an argument of, a walrus, an await or a yield, anywhere in it)?
        The flow's effects of a statement are known only after it."""
        statement, node = n, n
        while not isinstance(statement, ast.stmt):
            statement = self._parents.get(id(statement))
            if statement is None:
                return True
        enclosing = set()
        while node is not statement:
            enclosing.add(id(node))
            node = self._parents.get(id(node))
        return any(isinstance(x, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)) and
                   id(x) not in enclosing for x in self._running(statement))

    def _made_method_call(self, n: ast.Call, local: set[str], value) -> None:
        """`frame.reindex(idex=...)` on a value the cell makes whose class is known (instances.py,
        returns.py): the method as the class defines it, a library's Python or compiled function
        (its signature names the receiver first)."""
        cls = self._class_of(n.func.value, local)
        method = POLICY.static(cls, n.func.attr, None) if cls is not None else None
        if cls is not None and cls is figure_class() and self._made_as_made(n.func, value, "Figure") and \
                self._classes_kept() and \
                self._value(property_claim(n, method, self._text, made_figure=True)):
            return                      # `fig.add_subplot(111, projecton="3d")`: the new Axes' keywords
        compiled = type(method).__name__ == "cython_function_or_method"     # numpy.random's Generator's
        if method is not None and (type(method) is types.FunctionType or compiled) and POLICY.is_library(method):
            self._bind(n, method, len(n.args) + 1)
        elif array_method(method) is not None:
            self._bind(n, method, len(n.args) + 1)      # numpy's array methods (signatures.py)

    def _instance(self, node: ast.expr, cls: type, local: set[str]) -> Instance:
        """What `node` makes, of class `cls`: with its value if it is a literal display, with
        the labels pandas' attribute lookup answers on it where they are known."""
        labels = None
        if isinstance(node, ast.Call) and lookup(cls) is not None:
            propagation = Propagation(lambda x: self._read(x, local), shapes=self.shapes)

            def value(x: ast.AST):
                v = propagation.value(x)
                if v is UNRESOLVED and isinstance(x, ast.Call):     # `df.dropna().head()`: a call's own
                    made = self._call_class(x, local)
                    return self._instance(x, made, local) if made is not None else v
                return v
            labels = made_labels(node, cls, value)
        parts = None
        if isinstance(node, ast.Call) and cls is bunch_class():
            loader = self._live_or_builtin(node.func, local, changes_matter=False)
            labels = loader_keys(loader, node)
            parts = loaded(loader, node) if labels is not None else None
            parts = parts if type(parts) is dict else None
        return Instance(cls, _literal_display(node) if cls is not list else self._listed(node, local), labels, parts)

    def _listed(self, node: ast.expr, local: set[str]):
        """`list(df)`, `list(df.columns)`: the labels of a live frame's columns (iterating a
        DataFrame gives them; pandas' own classes, plain labels only), else as a display's."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list" and
                len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred) and
                self._live_or_builtin(node.func, local) is list):
            return _literal_display(node)
        return frame_labels(self._live(node.args[0], local))

    def _selected(self, node: ast.expr, local: set[str], otherwise):
        """`g["col"]` of a DataFrameGroupBy: the SeriesGroupBy (or DataFrameGroupBy) pandas makes
        of it (pandas_lookup.selected); `otherwise` for anything else or a value already known."""
        if issubclass(type(otherwise), Made) or not isinstance(node, ast.Subscript):
            return otherwise
        got = selected(node, lambda x: self._made_or_live(x, local))
        return Instance(got[0], UNRESOLVED, got[1]) if got is not None else otherwise

    def _made_or_live(self, node: ast.expr, local: set[str]):
        """_read, and of a library call the instance of the class it declares (`df.groupby(k)`)."""
        v = self._read(node, local)
        if v is UNRESOLVED and isinstance(node, ast.Call):
            cls = self._call_class(node, local)
            return self._instance(node, cls, local) if cls is not None else v
        return v

    def _class_of(self, node: ast.expr, local: set[str]) -> type | None:
        """The class of what `node` evaluates to, where it is certain: a value the cell made whose
        class is known, a library call that declares its class, a live object's (a library's)."""
        if isinstance(node, ast.Call):
            return self._call_class(node, local)
        if isinstance(node, ast.Subscript) and (got := selected(node, lambda x: self._made_or_live(x, local))) is not None:
            return got[0]
        if isinstance(node, (ast.Subscript, ast.Attribute)) and (part := self._pipeline_part(node, local)) is not None:
            return part
        cls = made_class(node, lambda f: self._live_or_builtin(f, local))
        if cls is not None:
            return cls
        obj = self._live(node, local, changes_matter=False, made=True)
        if obj is UNRESOLVED and isinstance(node, ast.Subscript) and self._item_kept(node):
            # `axes[1]` of a grid the cell made and left as made: its Axes
            obj = Propagation(lambda x: self._read(x, set()), shapes=self.shapes).value(node)
            obj = obj if issubclass(type(obj), Abstract) and obj.like == "Axes" else UNRESOLVED
        if obj is UNRESOLVED:
            return None
        if issubclass(type(obj), Made):
            if obj.of_class() is not None:
                return obj.of_class()
            known = instance_class(obj)
            return known[0] if known is not None else None
        return type(obj) if POLICY.is_library(type(obj)) else None

    def _pipeline_part(self, node: ast.expr, local: set[str]) -> type | None:
        """The class of a new object scikit-learn's Pipeline gives for `pipe[...]` (its
        `__getitem__`): a slice of literal bounds and step 1 is a new Pipeline holding its
        parameters alone; a step's place or name (`pipe[-1]`, `pipe.named_steps["svc"]`,
        _step_path), the step there, where the cell made the pipeline and that step
        (`make_pipeline(PCA(), SVC())[-1]`)."""
        mod = sys.modules.get("sklearn.pipeline")
        pipeline = POLICY.static(mod, "Pipeline", None) if mod is not None else None
        if pipeline is None:
            return None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            bounds = (node.slice.lower, node.slice.upper)
            if node.slice.step is not None and literal_int(node.slice.step) != 1 or \
                    any(b is not None and literal_int(b) is None for b in bounds):
                return None
            return pipeline if self._class_of(node.value, local) is pipeline else None
        base, key = _step_path(node)
        if base is None or key is None:
            return None
        step = pipeline_step(self._live(base, local, made=True), key)
        # a step the cell made (a live one may hold what earlier cells set on it)
        return step.estimator if issubclass(type(step), Abstract) and step.like == "estimator" else None

    def _call_class(self, n: ast.Call, local: set[str]) -> type | None:
        """The class a library call's result has, as the library declares it (returns.py)."""
        keywords = [k.arg for k in n.keywords if k.arg is not None]
        # the positional arguments' number, None where starred ones make it (or `**kw` the keywords) unknown
        n_args = None if any(isinstance(a, ast.Starred) for a in n.args) or len(keywords) < len(n.keywords) \
            else len(n.args)
        callee = self._live_or_builtin(n.func, local, changes_matter=False)
        if callee is not UNRESOLVED and not issubclass(type(callee), Made) and loader_keys(callee, n) is not None:
            return bunch_class()            # `load_iris()`: a Bunch of the keys its source names
        if callee is not UNRESOLVED and not issubclass(type(callee), Made) and made_display(callee) is not None:
            return made_display(callee)     # `RocCurveDisplay.from_estimator(...)`
        if callee is not UNRESOLVED and not issubclass(type(callee), Made):
            owner = callee.__self__ if type(callee) is types.MethodType else None
            return called_class(callee, type(owner) if owner is not None else None, keywords, n_args)
        if isinstance(n.func, ast.Attribute):
            receiver = self._class_of(n.func.value, local)
            if receiver is not None and returns_itself(receiver, n.func.attr):
                return receiver             # `clf.fit(X, y).score(...)`: scikit-learn's fit returns the estimator
            if receiver is not None:
                return method_class(receiver, n.func.attr, keywords, n_args)
        return None

    def _bind(self, n: ast.Call, target, n_args: int) -> None:
        """A call fact where the callable's signature refuses the call's arguments."""
        func = n.func
        err = bind_error(target, n_args, [k.arg for k in n.keywords])
        if err is None:
            return
        name = ast.unparse(func)
        kw = next((k for k in n.keywords if k.arg == err.keyword), None)
        if kw is not None:
            near = _near(kw.arg, list(err.parameters), prefixes=True)
            message = f"{name}() {_bare(err.message)}"
            if (r := renamed_keyword(target, kw.arg, kw.value, n.keywords)) is not None:    # a release renamed it
                message = message + r.note
                if self._rewritten("call", r, n, message) or self._rewritten_keyword(r, kw, message):
                    return
                near = ([r.new] if r.new else []) + near
            self._add("call", kw.lineno, _chars(self.lines, kw.lineno, kw.col_offset), kw.arg, message, near,
                      recorded=bool(r and r.new))
        else:
            self._at_callee(func, f"{name}() {_bare(err.message)}")

    def _estimator(self, n: ast.Call, local: set[str], value) -> bool:
        """`model.predict(X)`: a scikit-learn estimator not fitted, or fitted on other columns or
        another number of them; `model.fit(X, y)` with y of another length (a fact placed on the
        method's name). X and y live, written as literals or made by the cell (`value`). The
        estimator as it is now: a `fit` earlier in the cell changes it (then no fact)."""
        as_now = self._live(n.func.value, local)        # UNRESOLVED if the cell changed it before
        est = as_now if as_now is not UNRESOLVED else self._live(n.func.value, local, changes_matter=False)
        if est is UNRESOLVED:
            return False
        x_arg, y_arg = (self._argument(n, k, name) for k, name in ((0, "X"), (1, "y")))
        x, y = (self._input(a, local, value) for a in (x_arg, y_arg))
        problem = None
        if x is not UNRESOLVED and y is not UNRESOLVED:
            problem = samples_problem(est, n.func.attr, x, y, ast.unparse(x_arg), ast.unparse(y_arg))
        # the estimator's own state: not after the cell changed it or named it earlier (it may
        # have gone into something that fits it in place, a pipeline or a list looped over)
        root = chain_root(n.func.value)
        if problem is None and as_now is not UNRESOLVED and \
                self._first_seen.get(root, (1 << 30, 0)) >= (n.func.value.lineno, n.func.value.col_offset):
            problem = estimator_problem(est, n.func.attr, None if x is UNRESOLVED else x,
                                        has_x=x is not UNRESOLVED,
                                        x_name=ast.unparse(x_arg) if x_arg is not None else "X")
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}")
        return True

    def _input(self, node: ast.expr | None, local: set[str], value):
        """An estimator's X or y: the live object, else the array a literal or a value the cell
        makes stands for (abstract_value.array_like); UNRESOLVED when neither is known."""
        if node is None:
            return UNRESOLVED
        live = self._live(node, local)
        if live is not UNRESOLVED:
            return live
        made = array_like(node, value)
        return made if made is not None else UNRESOLVED

    def _made_samples(self, n: ast.Call, value) -> bool:
        """`LinearRegression().fit(X_train, y_test)`, `m.fit(...)` of an estimator the cell made:
        X and y of different lengths (scikit-learn's check_consistent_length), by its class's tags."""
        est = value(n.func.value)
        x_arg, y_arg = (self._argument(n, k, name) for k, name in ((0, "X"), (1, "y")))
        if not (issubclass(type(est), Abstract) and est.like == "estimator") or x_arg is None or y_arg is None:
            return False
        x, y = array_like(x_arg, value), array_like(y_arg, value)
        made = est.instance()
        if made is None or x is None or y is None:
            return False
        problem = samples_problem(made, n.func.attr, x, y, ast.unparse(x_arg), ast.unparse(y_arg))
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}")      # as a live estimator's
        return True

    def _unfitted_call(self, n: ast.Call, local: set[str]) -> bool:
        """`sgd.predict(X)` of an estimator the cell made and nothing fitted (_unfitted_made):
        scikit-learn's NotFittedError, as for a live estimator never fitted (estimators.py)."""
        if not isinstance(n.func, ast.Attribute) or n.func.attr not in NEEDS_FIT:
            return False
        fresh = self._unfitted_made(n.func.value, local)
        if fresh is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
            return False
        try:                            # Python's TypeError for arguments the method does not take comes first
            inspect.signature(getattr(type(fresh), n.func.attr)).bind(
                fresh, *n.args, **{k.arg: k.value for k in n.keywords})
        except (TypeError, ValueError, AttributeError):
            return False
        problem = estimator_problem(fresh, n.func.attr) or unfitted_pipeline_problem(fresh, n.func.attr)
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}")
        return True

    def _attribute_read(self, x: ast.Name) -> bool:
        """Is the name only read there for an attribute a fit sets (`lr.coef_`: nothing called,
        stored, given or stepped into)?"""
        parent = self._parents.get(id(x))
        return isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load) and \
            parent.attr.endswith("_") and not parent.attr.startswith("_") and \
            not isinstance(self._parents.get(id(parent)), (ast.Call, ast.Subscript, ast.Attribute, ast.NamedExpr))

    def _learned_unset(self, n: ast.Attribute, local: set[str]) -> bool:
        """`lr.coef_` of an estimator nothing fitted (_unfitted_made): a name ending in `_` that
        neither its class nor the instance scikit-learn makes holds, on a class with no
        `__getattr__` of its own (Python's AttributeError)."""
        if not n.attr.endswith("_") or n.attr.startswith("_") or not isinstance(n.ctx, ast.Load):
            return False
        fresh = self._unfitted_made(n.value, local)
        if fresh is None or overrides_lookup(type(fresh)):
            return False
        try:
            return POLICY.static(type(fresh), n.attr, MISSING) is MISSING and n.attr not in POLICY.own_dict(fresh)
        except Exception:  # noqa: BLE001 - a class that reads otherwise: no claim
            return False

    def _unfitted_made(self, node: ast.expr, local: set[str]):
        """The estimator a name stands for, as scikit-learn makes it, where the cell made it of
        its own class with literal arguments (`lr = LinearRegression()`) and nothing can have
        fitted it before `node` runs: a statement of the cell's top level binds the name, none
        after it names it (or holds it as a string) before `node`'s statement but to make a
        pipeline of it that nothing names after (_holder), that statement names it only at
        `node` (or reads its attributes), and no code of the user's has run. Also a step of
        such a pipeline (`pipe[-1]`, `pipe.named_steps["svc"]`, `pipe.steps[-1][1]`): a
        Pipeline's `__getitem__` and `named_steps` give the step itself. Else None."""
        if self.state.stops or self.state.user_code:
            return None
        use = self._parents.get(id(node))
        if isinstance(use, ast.Attribute) and (self._stores_name(use.attr) or self._named_in_text(use.attr)):
            return None                 # `lm.SGDRegressor.coef_ = 0`, `setattr(cls, "predict", f)`
        root, key = _step_path(node)
        if not isinstance(root, ast.Name) or self._named_in_text(root.id):
            return None
        made = self._live(root, local, made=True)
        est = made if key is None else pipeline_step(made, key)
        if not (issubclass(type(made), Abstract) and made.like == "estimator" and
                issubclass(type(est), Abstract) and est.like == "estimator"):
            return None
        found = self._bound_once(root, lambda s: self._holder(s, {root.id}) is not None)
        if found is None:
            return None
        statement, before, binding = found
        maker = self._live_or_builtin(binding.value.func, local, changes_matter=False)
        if maker is not made.estimator and (maker is UNRESOLVED or shorthand_class(maker) is not made.estimator):
            return None                 # (`LinearRegression().fit(X, y)` is the same estimator, fitted)
        # a pipeline is fitted when its last step is: what names a step it was given may fit it
        steps = {x.id for a in (*binding.value.args, *(k.value for k in binding.value.keywords))
                 for x in ast.walk(a) if isinstance(x, ast.Name)} if pipeline_steps(made) is not None else set()
        holders = {root.id}
        for s in before[before.index(binding) + 1:]:
            if any(mentions(s, h, reads=True) for h in steps):
                return None
            if any(mentions(s, h, reads=True) for h in holders):
                holder = self._holder(s, holders)
                if holder is None:
                    return None
                holders.add(holder)
        if any(mentions(statement, h, reads=True) for h in (holders - {root.id}) | steps):
            return None                 # `(pipe.fit(X, y), svc.coef_)`: the pipeline may fit it first
        return est.instance()

    def _bound_once(self, name: ast.Name, passed=lambda s: False) -> tuple | None:
        """(the statement, the cell's statements before it, the binding) where `name` is read in
        a statement of the cell's top level that names it only there (or reads its attributes),
        and the last statement before it that names it (but those `passed`) binds it alone to a
        call's result: `lr = LinearRegression()`. None otherwise."""
        statement = name
        while statement is not None and id(statement) not in self.top_level:
            statement = self._parents.get(id(statement))
        if statement is None or isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or \
                any(isinstance(x, ast.Name) and x.id == name.id and x is not name and not self._attribute_read(x)
                    for x in ast.walk(statement)):
            return None
        before = self.tree.body[:self.tree.body.index(statement)]
        naming = [s for s in before if mentions(s, name.id, reads=True) and not passed(s)]
        binding = naming[-1] if naming else None
        if not (isinstance(binding, ast.Assign) and len(binding.targets) == 1 and
                isinstance(binding.targets[0], ast.Name) and binding.targets[0].id == name.id and
                not mentions(binding.value, name.id, reads=True) and isinstance(binding.value, ast.Call)):
            return None
        return statement, before, binding

    def _search_grid(self, n: ast.Call, local: set[str], value) -> bool:
        """`search.fit(X, y)` of scikit-learn's GridSearchCV or RandomizedSearchCV (live, or made
        in the cell: `GridSearchCV(pipe, {"svc__gama": [0.1, 1]})`, the name bound to it read
        nowhere between), whose grid names a parameter its estimator lacks: each candidate's
        set_params raises ValueError in the search's fit (parameters.grid_key_problem). The grid
        of dicts the cell wrote with literal string keys (or bound to a name nothing else
        reads before the fit), or a live one; the estimator live or made, as it is at the fit."""
        if not isinstance(n.func, ast.Attribute) or n.func.attr != "fit" or self.state.stops or \
                not isinstance(n.func.value, ast.Call) and self._runs_before_in_statement(n) or \
                not (n.args or any(k.arg == "X" for k in n.keywords)):
            return False                # (a search made in the call itself: no name reaches it)
        mod = sys.modules.get("sklearn.model_selection")
        searches = {POLICY.static(mod, c, None): c for c in ("GridSearchCV", "RandomizedSearchCV")} if mod else {}
        receiver = n.func.value
        live = self._live(receiver, local)
        if live is not UNRESOLVED:      # a search of an earlier cell, as it is now
            if type(live) not in searches or self.state.changed_within(live):
                return False
            own = POLICY.own_dict(live)
            est, grid = own.get("estimator"), own.get("param_grid", own.get("param_distributions"))
            grids = _grid_keys(grid)
            random = searches[type(live)] == "RandomizedSearchCV"
        else:
            call = receiver
            if isinstance(receiver, ast.Name):
                found = self._bound_once(receiver)
                call = found[2].value if found is not None else None
            if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) or \
                    any(k.arg is None for k in call.keywords):
                return False
            cls = self._live_or_builtin(call.func, local, changes_matter=False)
            if cls not in searches:
                return False
            random = searches[cls] == "RandomizedSearchCV"
            given = dict(zip(("estimator", "grid"), call.args)) | \
                {("grid" if k.arg in ("param_grid", "param_distributions") else k.arg): k.value for k in call.keywords}
            if "estimator" not in given or "grid" not in given:
                return False
            made = value(given["estimator"])
            est = made.instance() if issubclass(type(made), Abstract) and made.like == "estimator" else made
            grids = self._written_grid(given["grid"], n, local, set(searches))
        if grids is None or est is UNRESOLVED or est is None or (random and len(grids) != 1):
            return False                # RandomizedSearchCV draws each candidate from one of its dicts
        problem = grid_key_problem(est, grids)
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}", "value", self._subjects(n.func))
        return True

    def _written_grid(self, node: ast.expr, use: ast.Call, local: set[str],
                      searches: set) -> list[list[str]] | None:
        """The keys of each dict of a search's grid the cell writes (`{"svc__C": [...]}`, a list
        of such), or binds to a name that nothing reads between its binding and the search's
        fit but a search's making (`searches`, its classes); a live one's, unchanged by the
        cell. None otherwise."""
        grids = _written_keys(node)
        if grids is not None or not isinstance(node, ast.Name):
            return grids
        live = self._live(node, local)
        if live is not UNRESOLVED:
            return _grid_keys(live) if not self.state.changed_within(live) else None
        statement = use
        while statement is not None and id(statement) not in self.top_level:
            statement = self._parents.get(id(statement))
        if statement is None:
            return None
        before = self.tree.body[:self.tree.body.index(statement)]
        naming = [s for s in before if mentions(s, node.id, reads=True)]
        binding = next((s for s in reversed(naming) if isinstance(s, ast.Assign) and len(s.targets) == 1 and
                        isinstance(s.targets[0], ast.Name) and s.targets[0].id == node.id), None)
        if binding is None or mentions(binding.value, node.id, reads=True) or mentions(statement, node.id, reads=True):
            return None
        later = naming[naming.index(binding) + 1:]
        # read only where the search is made (a name given whole: the search stores the dict)
        if any(not (isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) and
                    self._live_or_builtin(s.value.func, local, changes_matter=False) in searches and
                    any(isinstance(a, ast.Name) and a.id == node.id for a in
                        (*s.value.args, *(k.value for k in s.value.keywords))) and
                    sum(isinstance(x, ast.Name) and x.id == node.id for x in ast.walk(s)) == 1) for s in later):
            return None
        return _written_keys(binding.value)

    def _holder(self, s: ast.stmt, names: set[str]) -> str | None:
        """The name `pipe = make_pipeline(scaler, svc)` (or `Pipeline([("s", scaler), ...])`)
        binds, where `names` appear in it only as steps given whole: scikit-learn's Pipeline
        only stores them until it is fitted. None for any other statement."""
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and
                s.targets[0].id not in names and isinstance(s.value, ast.Call)):
            return None
        maker = self._live_or_builtin(s.value.func, set(), changes_matter=False)
        return s.targets[0].id if maker is not UNRESOLVED and held_whole(s.value, maker, names) else None

    # -- attributes and keys ------------------------------------------------------------------

    def _attribute(self, n: ast.Attribute, local: set[str], value=None) -> None:
        obj = self._live(n.value, local)
        if obj is UNRESOLVED:       # what the cell stores into a dict or a list adds no attribute
            held = self._live(n.value, local, changes_matter=False)
            obj = held if held is not UNRESOLVED and (fixed_attributes(held) or
                                                      self._not_learned(held, n.attr)) else UNRESOLVED
        changed = self._changed_frame(n, local) if obj is UNRESOLVED else UNRESOLVED
        if type(changed) is tuple:          # a frame the cell made, then changed only so
            self._made_attribute(n, local, value, changed)
            return
        obj = changed if obj is UNRESOLVED else obj
        away = self._given_away(n, local) if obj is UNRESOLVED else UNRESOLVED
        if obj is UNRESOLVED and away is not UNRESOLVED and not issubclass(type(away), Made):
            obj = away                  # `np.flatnonzdro(...)`, `model.fitt(...)` after the user's code ran
        elif obj is UNRESOLVED:
            self._made_attribute(n, local, value)
            return
        if POLICY.has_attribute(obj, n.attr) is not False:
            return
        if issubclass(type(obj), types.ModuleType) and (self._may_store(n.attr) or self._named_in_text(n.attr)):
            return                      # a module takes any name set on it by any way (`m.__dict__["x"] = 1`)
        near = _near(n.attr, [*attribute_names(obj), *learned_names(type(obj))])
        what = getattr(obj, "__name__", None) if isinstance(obj, type(ast)) else None
        owner = f"module {what!r}" if what else f"{type(obj).__name__!r} object"
        message = f"{owner} has no attribute {n.attr!r}"
        self._missing_attribute(n, obj, message, near)

    def _changed_frame(self, n: ast.Attribute, local: set[str]):
        """A frame or series the cell changed only in ways that make known names attributes of it
        (`del df["c"]`, `s.name = "x"`), when `n.attr` is none of those names: the live object, or
        for one the cell made, (it, the names it may have gained); else UNRESOLVED."""
        found = self._changed_only_so(n.value, local)
        if found is None or n.attr in found[1]:
            return UNRESOLVED
        return found if issubclass(type(found[0]), Abstract) else found[0]

    def _not_learned(self, obj, attr: str) -> bool:
        """A scikit-learn estimator's attribute a fit cannot add: what an estimator learns ends
        with "_" (`coef_`; scikit-learn's convention for every estimator of its own) and is named
        in its class's documented attributes, private state starts with one; a plain name
        (`predcit`, `best_params`) or an undocumented one (`bestt_score_`) is the class's or none,
        however the cell fits it, unless the cell stores that name itself."""
        if attr.startswith("_") or not self._library_estimator(obj) or \
                (attr.endswith("_") and not never_learned(type(obj), attr)):
            return False
        # the user's code that ran may set any name on it, but one the session writes nowhere
        return not self._stores_name(attr) and \
            (not self.state.user_code or self._written_nowhere(attr))

    def _hooks_may_change(self) -> bool:
        """May the cell set matplotlib's `figure.hooks` (the user's code run on each new Figure)?"""
        return self._rc_may_change("figure.hooks")

    def _rc_may_change(self, key: str) -> bool:
        """May the cell change matplotlib's setting `key` ("figure.hooks", "savefig.format"): rcParams
        reached but as an item of another literal key or `get`, `rc` of that group (or one not
        literal), a style sheet that may hold it, an rc file, the defaults restored, `rc_context`,
        those names imported, or the key or `rcParams` named in a string?"""
        if key not in self._rc_changes:
            group = key.split(".")[0]
            tools = {"rc", "rc_file", "rc_file_defaults", "rcdefaults", "rc_context", "style", "rcParams"}
            found = False
            for x in ast.walk(self.tree):
                parent = self._parents.get(id(x))
                if isinstance(x, ast.Constant) and x.value in ("rcParams", key, key.split(".")[-1]):
                    found = True
                elif isinstance(x, (ast.Import, ast.ImportFrom)):
                    module = x.module if isinstance(x, ast.ImportFrom) else None
                    names = {a.name for a in x.names}
                    found |= module is not None and module.startswith("matplotlib") and bool(names & tools) or \
                        any(n.startswith("matplotlib.style") for n in names) or (module or "").startswith("matplotlib.style")
                elif isinstance(x, (ast.Name, ast.Attribute)) and (x.id if isinstance(x, ast.Name) else x.attr) == "rcParams":
                    if isinstance(parent, ast.Subscript) and parent.value is x:
                        k = parent.slice
                        found |= isinstance(parent.ctx, (ast.Store, ast.Del)) and \
                            not (isinstance(k, ast.Constant) and type(k.value) is str and k.value != key)
                    elif not (isinstance(parent, ast.Attribute) and parent.attr == "get"):
                        found = True        # `rcParams.update(...)`, `p = plt.rcParams`, handed on
                elif isinstance(x, ast.Call):
                    f = x.func
                    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
                    if name == "rc":
                        given = x.args[0] if x.args else None
                        found |= not (isinstance(given, ast.Constant) and type(given.value) is str and
                                      group not in given.value.split(","))
                    elif name in ("rc_file", "rc_file_defaults", "rcdefaults", "rc_context"):
                        found = True
                    elif name == "use" and isinstance(f, ast.Attribute) and \
                            (isinstance(f.value, ast.Attribute) and f.value.attr == "style" or
                             isinstance(f.value, ast.Name) and f.value.id == "style"):
                        found |= not _styles_keep(x, key)       # a style sheet may set it
            self._rc_changes[key] = found
        return self._rc_changes[key]

    def _named_in_text(self, attr: str) -> bool:
        """Does the cell hold the name as a string (`object.__setattr__(m, "x", 1)`)?"""
        return any(isinstance(x, ast.Constant) and x.value == attr for x in ast.walk(self.tree))

    def _entered_first(self, n: ast.Call) -> bool:
        """Is the call the first item of a `with` (entered there, no earlier item's exit around it)?"""
        item = self._parents.get(id(n))
        owner = self._parents.get(id(item)) if isinstance(item, ast.withitem) else None
        return isinstance(owner, (ast.With, ast.AsyncWith)) and owner.items[0] is item and item.context_expr is n

    def _styles_kept(self) -> bool:
        """Does the cell name nothing that may add a style before it is used (`style.reload_library()`,
        matplotlib's style library, a style file written)?"""
        return not any(re.search(r"reload_library|stylelib|\.mplstyle|\blibrary\b|\bopen\(|write", line)
                       for line in self.lines)

    def _text_binds(self, name: str) -> bool:
        """Does the cell's text bind `name` anywhere (first_pass.mentions, or a function's parameter),
        read from the text itself: a call's view leaves the function's `def` out?"""
        if self._text_tree is None:
            try:
                self._text_tree = ast.parse("\n".join(self.lines))
            except (SyntaxError, ValueError):
                self._text_tree = self.tree
        return mentions(self._text_tree, name) or \
            any(isinstance(a, ast.arg) and a.arg == name for a in ast.walk(self._text_tree))

    def _fields_kept_for(self, claim: ValueClaim | None) -> ValueClaim | None:
        """A field's claim where the cell renames no dtype's fields (`d.names = ...`, `a.dtype = ...`:
        a dtype object is shared by the arrays made of it) and calls nothing that may (numpy's
        `rename_fields`); the cell is read only for a claim."""
        if claim is None or self._stores_name("names") or self._stores_name("dtype") or \
                any(isinstance(x, ast.Attribute) and x.attr == "rename_fields" for x in ast.walk(self.tree)):
            return None
        return claim

    def _stores_name(self, attr: str) -> bool:
        """Does the cell store or delete an attribute of that name anywhere (`x.attr = ...`)?"""
        return any(isinstance(x, ast.Attribute) and x.attr == attr and isinstance(x.ctx, (ast.Store, ast.Del))
                   for x in ast.walk(self.tree))

    def _made_attribute(self, n: ast.Attribute, local: set[str], value, changed: tuple | None = None) -> None:
        """An attribute of a value the cell makes whose class is known (instances.py); `changed`:
        a frame it made, then changed in ways that may add only these names (flow.names_may_add)."""
        cls = made_class(n.value, lambda f: self._live_or_builtin(f, local))
        if changed is not None:
            made = changed[0]
        elif cls is not None:
            made = Instance(cls)
        else:
            made = self._live(n.value, local, made=True)
            if made is UNRESOLVED:      # a dict the cell filled is still a dict
                made = self._live(n.value, local, changes_matter=False, made=True)
                made = made if type(made) is Instance and made.fixed else UNRESOLVED
            if made is UNRESOLVED and value is not None and not isinstance(n.value, ast.Name):
                made = value(n.value)
            if not issubclass(type(made), Made) and isinstance(n.value, ast.Call):
                cls = self._call_class(n.value, local)     # `pd.Series(data).indx`, `SVC(C=c).fitt`
                made = self._instance(n.value, cls, local) if cls is not None else made
            if not issubclass(type(made), Made) and isinstance(n.value, (ast.Subscript, ast.Attribute)):
                cls = self._pipeline_part(n.value, local)      # `pipe[:-1].get_feature_names_out()`
                made = Instance(cls) if cls is not None else made
            if made is UNRESOLVED:
                made = self._given_away(n, local)
            made = self._selected(n.value, local, made)
        known = instance_class(made)
        if known is not None and changed is not None:
            known = (known[0], known[1] | frozenset(changed[1]))
        if known is not None and not missing_attribute(*known, n.attr) and self._learned_unset(n, local):
            klass = known[0]
            self._missing_attribute(n, klass, f"{klass.__name__!r} object has no attribute {n.attr!r}: fit() sets it, "
                                              "and nothing in the cell fitted it before this line", [])
            return
        if known is None or not missing_attribute(*known, n.attr):
            return
        if (known[0] in (axes_class(), figure_class()) or projection_axes_class(known[0])) and \
                not self._axes_method_typo(n, value):
            return
        if drawn_class(known[0]) and not self._drawn_method_typo(n):
            return
        klass, held = known
        names = set(held) | {k for c in POLICY.mro(klass) for k in POLICY.class_members(c) if type(k) is str} | \
            learned_names(klass)
        near = _near(n.attr, sorted(x for x in names if not x.startswith("__")))
        self._missing_attribute(n, klass, f"{klass.__name__!r} object has no attribute {n.attr!r}", near)

    def _given_away(self, n: ast.Attribute, local: set[str]):
        """An Axes or a Figure the cell made, or a library's module, under a name nothing binds
        again, reached since by anyone's code (`example_plot(ax)`), whose missing name is called
        (`fig.tght_layout()`, `np.flatnonzdro(...)`): no library sets such a name on it, and none
        of the user's code can where the session's code writes that name nowhere
        (session_code.py); else UNRESOLVED."""
        call, node = self._parents.get(id(n)), n.value
        if not (isinstance(call, ast.Call) and call.func is n and isinstance(node, ast.Name)) or node.id in local or \
                any(node.id in g for g in self.guarded) or node.id in self.state.rebinding or \
                "*" in self.state.touched or self.state.stops:
            return UNRESOLVED
        made = self.state.live(node, self.ns, changes_matter=False)
        if not (issubclass(type(made), Abstract) and made.like in ("Axes", "Figure") or self._plain_library(made)) or \
                self._may_store(n.attr) or self._named_in_text(n.attr) or \
                not self._written_nowhere(n.attr):
            return UNRESOLVED
        return made

    @staticmethod
    def _plain_library(obj) -> bool:
        """A library's module, or a live object of a library's classes alone that answers no name
        of its own making (no `__getattr__`: a frame's columns, a Bunch's keys)?"""
        if issubclass(type(obj), types.ModuleType):
            return POLICY.is_library_module(POLICY.module_of(obj))
        if obj is UNRESOLVED or issubclass(type(obj), (Made, type)) or \
                not POLICY.library_through(type(obj)):
            return False
        return all("__getattr__" not in POLICY.class_members(k) for k in POLICY.mro(type(obj)) if k is not object)

    def _written_nowhere(self, name: str) -> bool:
        """Does no input of the session write `name`, where its inputs are all the user's code
        there is (session_code.py; read once a cell)?"""
        if self._session is _UNREAD:
            self._session = session_words(self.ns, "\n".join(self.lines))
        return self._session is not None and name not in self._session

    def _axes_method_typo(self, n: ast.Attribute, value) -> bool:
        """An Axes or a Figure holds what anything given it sets (pandas' `df.plot(ax=ax,
        secondary_y=...)` sets `ax.right_ax`; `plt.gca().x = 1` reaches it by another name): a
        name missing from one the cell made is claimed where it is called (`ax.plott(...)`,
        `fig.add_subpot(...)`: no library sets a method on it), or anywhere in a cell whose
        statements up to that one call only matplotlib's, numpy's and Python's own code
        (_drawing_only: `ax.spings["top"]`), and the cell stores that name nowhere."""
        call = self._parents.get(id(n))
        return self._item_kept(n.value) and not self._may_store(n.attr) and self._unguarded(n) and \
            (isinstance(call, ast.Call) and call.func is n or self._read_surely(n) and self._drawing_only(n, value))

    def _drawn_method_typo(self, n: ast.Attribute) -> bool:
        """A name missing from an artist or a colorbar a matplotlib call of the cell made (returns.py)
        is claimed where it is called (`cbar.set_tick(...)`), none of the user's code run before
        (it may reach the object through its Figure) and the cell storing that name nowhere:
        matplotlib's own code sets only names its source spells (instances.missing_attribute)."""
        call = self._parents.get(id(n))
        return isinstance(call, ast.Call) and call.func is n and self._item_kept(n.value) and \
            not self._may_store(n.attr) and self._unguarded(n) and not self.state.user_code

    def _unguarded(self, n: ast.AST) -> bool:
        """Is `n` in no part of its statement that a test may skip (`ax.right_ax if hasattr(ax,
        "right_ax") else ax`, `hasattr(...) and ax.right_ax`, an assert's message, a chained
        comparison's later terms)?"""
        node, child = self._parents.get(id(n)), n
        while node is not None and not isinstance(node, ast.stmt):
            if isinstance(node, (ast.IfExp, ast.BoolOp)) or \
                    isinstance(node, ast.Compare) and len(node.ops) > 1 and child is not node.left:
                return False
            node, child = self._parents.get(id(node)), node
        return not isinstance(node, ast.Assert)

    def _read_surely(self, n: ast.AST) -> bool:
        """Is `n` read whenever its statement runs, on the cell's top level: not in a part a test
        may skip (_unguarded), in a comprehension or a lambda, nor in a block?"""
        node = self._parents.get(id(n))
        while node is not None and not isinstance(node, ast.stmt):
            if isinstance(node, (ast.comprehension, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                                 ast.Lambda)):
                return False
            node = self._parents.get(id(node))
        return node is not None and id(node) in self.top_level and self._unguarded(n)

    def _drawing_only(self, n: ast.AST, value) -> bool:
        """Do the cell's statements up to the top-level one that holds `n` (only they run before
        it) define no function or class and call only matplotlib's, numpy's and Python's own
        functions, classes and methods: of their modules, of live objects of theirs, and of the
        Figures, Axes and artists the cell made through them? matplotlib's code sets no name on an
        Axes or a Figure that a new one lacks (what `axes_names` reads); pandas' plotting, seaborn
        and the user's code may, on one they are given or find as pyplot's current one."""
        statement = n
        while statement is not None and id(statement) not in self.top_level:
            statement = self._parents.get(id(statement))
        if statement is None:
            return False
        upto = self.tree.body.index(statement) + 1
        if upto not in self._drawing:
            nodes = [x for s in self.tree.body[:upto] for x in ast.walk(s)]
            self._drawing[upto] = not any(isinstance(x, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                                   ast.With, ast.AsyncWith)) for x in nodes) and \
                all(self._loaded_library(x) for x in nodes if isinstance(x, (ast.Import, ast.ImportFrom))) and \
                all(self._libraries_object(x.id) for i, s in enumerate(self.tree.body[:upto]) for x in ast.walk(s)
                    if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load) and
                    not any(mentions(b, x.id) for b in self.tree.body[:i])) and \
                all(self._drawn_by_libraries(c.func, value) for c in nodes if isinstance(c, ast.Call))
        return self._drawing[upto]

    @staticmethod
    def _loaded_library(node: ast.Import | ast.ImportFrom) -> bool:
        """An import of a library module already loaded: it runs no code."""
        if isinstance(node, ast.ImportFrom):
            names = [node.module] if node.level == 0 and node.module else []
        else:
            names = [a.name for a in node.names]
        return bool(names) and all(sys.modules.get(m) is not None and POLICY.is_library_module(m) for m in names)

    def _libraries_object(self, name: str) -> bool:
        """A name the kernel binds to a module, plain data (flow.plain_data: never a live artist,
        whose callbacks run in its setters) or a class or function of matplotlib's, numpy's or
        Python's own (`AutoMinorLocator`, as _drawn_by_libraries takes it as a callee), or one only
        the cell binds, or a builtin (matplotlib may read what it is given: an object of the
        user's class runs the user's code); a name the cell bound before is the cell's (the
        caller's to tell)."""
        if name not in self.ns:
            return True                 # the cell's own, or a builtin's
        obj = self.ns[name]
        return issubclass(type(obj), types.ModuleType) or plain_data(obj) or \
            (isinstance(obj, type) or type(obj) in (types.FunctionType, types.BuiltinFunctionType)) and \
            self._drawn_by_libraries(ast.Name(name, ast.Load()), None)

    def _drawn_by_libraries(self, node: ast.expr, value, depth: int = 0) -> bool:
        """Is `node` (a callee, or what a method is called on) matplotlib's, numpy's or Python's:
        a builtin, a live object of their modules, or a Figure, Axes or artist the cell made,
        reached through their attributes, items and methods (a matplotlib method's result)?"""
        if depth > 20:
            return False
        live = self._live_or_builtin(node, set(), changes_matter=False)
        if live is not UNRESOLVED and not issubclass(type(live), Made):
            module = POLICY.module_of(live)
            root = module.split(".")[0] if type(module) is str else None
            if root not in ("matplotlib", "numpy", "builtins", "math"):
                return False
            function = live.__func__ if type(live) is types.MethodType else live
            # a function's code where its module says (a wrapper of the user's copies `__module__`)
            return own_function(function, root) if type(function) is types.FunctionType else \
                type(live) is not types.MethodType and (not isinstance(live, type) or POLICY.is_library(live))
        if isinstance(node, ast.Name):
            made = self._live(node, set(), changes_matter=False, made=True)
            made = made if made is not UNRESOLVED or value is None else value(node)
            return issubclass(type(made), Abstract) and (made.like in ("Axes", "Figure") or made.holds == "Axes") or \
                type(made) is Instance and drawn_method(made.cls, "set")
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            return self._drawn_by_libraries(node.value, value, depth + 1)
        if isinstance(node, ast.Call):
            return self._drawn_by_libraries(node.func, value, depth + 1)
        return False

    def _missing_attribute(self, n: ast.Attribute, obj, message: str, near: list[str]) -> None:
        """The attribute fact on `n` (`obj`: the object or, for one the cell makes, its class); where
        a release renamed or removed the name, its replacement first, or the whole call rewritten."""
        if (r := renamed_attribute(obj, n.attr)) is not None:
            message, near = message + r.note, ([r.new] if r.new else []) + near
            call = self._parents.get(id(n))
            if isinstance(call, ast.Call) and call.func is n and self._rewritten("attribute", r, call, message):
                return
        line, end = n.end_lineno, n.end_col_offset
        self._add("attribute", line, _chars(self.lines, line, end) - len(n.attr), n.attr, message, near,
                  recorded=bool(r and r.new))

    def _key(self, n: ast.Subscript, local: set[str]) -> None:
        base, index, columns = n.value, n.slice, False
        if isinstance(base, ast.Attribute) and base.attr in ("loc", "at") and isinstance(index, ast.Tuple) \
                and len(index.elts) == 2:
            base, index, columns = base.value, index.elts[1], True
        if isinstance(index, ast.List):
            keys, columns = list(index.elts), True      # `df[["a", "b"]]`: columns only
        else:
            keys = [index]
        self._numbered_columns(base, [k for k in keys if isinstance(k, ast.Constant) and type(k.value) is int], local)
        keys = [k for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if not keys:
            return
        if self._grouped_key(n.value, keys, local):
            return
        # `df.groupby("k")["revenu"]`: the columns selected after grouping are df's
        grouped = isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr == "groupby"
        source = base.func.value if grouped else base
        obj, gained = self._live(source, local, keys=True), frozenset()
        pd = sys.modules.get("pandas")
        if obj is UNRESOLVED and not grouped:
            obj, gained = self._changed_labels(source, local)
        if pd is not None and type(obj) is pd.DataFrame and type(obj.index) is pd.MultiIndex and \
                isinstance(n.value, ast.Attribute) and n.value.attr in ("loc", "at") and \
                isinstance(n.slice, ast.Tuple) and not isinstance(n.slice.elts[0], (ast.Slice, ast.List)):
            return                      # `df.loc[a, b]` on rows of a MultiIndex: (a, b) may be one row's label
        made = obj is UNRESOLVED
        if made:
            obj = self._live(source, local, keys=True, made=True)     # a frame the cell made: its columns
            if not grouped and _literal_dict(obj):
                self._dict_keys(obj, keys)    # a dict the cell wrote, only given keys since: its keys
                return
            if not grouped and issubclass(type(obj), Abstract) and obj.index_labels is not None:
                self._dict_keys(obj, keys)    # a Series whose labels the cell wrote
                return
            if not (issubclass(type(obj), Abstract) and obj.like == "DataFrame" and obj.columns is not None) or \
                    grouped and obj.index_names is None:
                return
        elif grouped and (pd is None or type(obj) is not pd.DataFrame):
            return
        levels = set() if not grouped else set(obj.index_names) if made else \
            {x for x in obj.index.names if type(x) is str}
        for k in keys:
            labels = self._missing_label(obj, k.value, columns or grouped, gained)
            if labels is None or k.value in levels:
                continue
            what = "column" if type(obj) is not dict else "key"
            owner = obj.like if issubclass(type(obj), Abstract) else type(obj).__name__
            self._missing_key(k, labels, f"{owner} has no {what} {k.value!r}" +
                              (" to select after groupby()" if grouped else ""))

    def _dict_keys(self, made, keys: list[ast.Constant]) -> None:
        """`d["c"]` of a dict the cell wrote (`d = {"a": 1}`), `s["c"]` of a Series whose labels it
        wrote (`pd.Series([1], index=["a"])`), since given string keys only: a string key neither
        holds is a KeyError (pandas 3 reads a string as a label only)."""
        series = issubclass(type(made), Abstract)
        held = set(made.index_labels) if series else made.literal()
        added = self.state.set_keys(made)
        for k in keys:
            if k.value not in held and k.value not in added:
                names = sorted({x for x in held if type(x) is str} | added)
                self._missing_key(k, names, f"Series has no label {k.value!r}" if series else
                                  f"dict has no key {k.value!r}")

    def _numbered_columns(self, base: ast.expr, numbers: list[ast.Constant], local: set[str]) -> None:
        """`df[5]`: a column number no column of the kernel's DataFrame is labelled (keys.py)."""
        if not numbers:
            return
        frame = self._live(base, local)
        for k in numbers:
            if frame is not UNRESOLVED and missing_numbered_column(frame, k.value):
                self._add("key", k.lineno, _chars(self.lines, k.lineno, k.col_offset), None,
                          f"DataFrame has no column labelled {k.value} (`[]` reads labels, not positions)", [],
                          end=_chars(self.lines, k.end_lineno, k.end_col_offset) if k.end_lineno == k.lineno else None)

    def _grouped_key(self, base: ast.expr, keys: list[ast.Constant], local: set[str]) -> bool:
        """`g["dtaa1"]` of a DataFrameGroupBy the kernel holds or the cell made: a column the
        grouped frame lacks raises KeyError. True when `base` is such a one."""
        g = self._live(base, local, keys=True, made=True)
        columns = grouped_columns(g) if g is not UNRESOLVED else None
        if columns is None:
            return False
        for k in keys:
            if k.value not in columns:
                self._missing_key(k, sorted(columns), f"DataFrameGroupBy has no column {k.value!r} to select")
        return True

    @functools.cached_property
    def _first_seen(self) -> dict[str, tuple[int, int]]:
        """Name -> where the cell first has it (read only when an estimator call is judged)."""
        seen: dict[str, tuple[int, int]] = {}
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Name):
                at = (n.lineno, n.col_offset)
                seen[n.id] = min(seen.get(n.id, at), at)
        return seen

    @functools.cached_property
    def _parents(self) -> dict[int, ast.AST]:
        return parent_map(self.tree)

    def _rewritten(self, kind: str, r: Renamed, call, message: str) -> bool:
        """A fact on the whole call, whose fix is the call as the entry rewrites it."""
        if not isinstance(call, ast.Call) or (text := rewritten_call(r, call, self.lines, self.ns)) is None:
            return False
        line = call.lineno
        self._add(kind, line, _chars(self.lines, line, call.col_offset), None, message, [text],
                  end=_chars(self.lines, line, call.end_col_offset), recorded=True)
        return True

    def _rewritten_keyword(self, r: Renamed, kw: ast.keyword, message: str) -> bool:
        """`error_bad_lines=False` -> `on_bad_lines="skip"`: a fact on the keyword and its value."""
        if not r.new or "=" not in r.new or kw.lineno != kw.end_lineno:
            return False
        self._add("call", kw.lineno, _chars(self.lines, kw.lineno, kw.col_offset), None, message, [r.new],
                  end=_chars(self.lines, kw.lineno, kw.end_col_offset), recorded=True)
        return True

    @staticmethod
    def _argument(n: ast.Call, position: int, keyword: str):
        if len(n.args) > position:
            return n.args[position]
        return next((k.value for k in n.keywords if k.arg == keyword), None)

    def _at_callee(self, func: ast.expr, message: str, kind: str = "call", subjects: tuple[str, ...] = ()) -> None:
        """A call fact placed on the called name (the attribute of `obj.method`)."""
        line, end = func.end_lineno, func.end_col_offset
        word = func.attr if isinstance(func, ast.Attribute) else ast.unparse(func)
        self._add(kind, line, _chars(self.lines, line, end) - len(word), word, message, [], subjects=subjects)

    def _value(self, claim: ValueClaim | None) -> bool:
        """A value fact: on the called name, or on the expression the library rejects (an
        operation, an argument) with its exact alternatives."""
        if claim is None:
            return False
        node = claim.node
        subjects = claim.subjects if claim.subjects is not None else self._subjects(node)
        if claim.subjects is None and not subjects and self._numpy_alone(node):
            claim.literal = True        # `np.arange(5) / np.arange(6)`: numpy's functions of literals alone
        if claim.callee:
            line, end = node.end_lineno, node.end_col_offset
            word = node.attr if isinstance(node, ast.Attribute) else ast.unparse(node)
            self._add("value", line, _chars(self.lines, line, end) - len(word), word, claim.message, [],
                      subjects=subjects, literal=claim.literal)
            return True
        text = self._alias_text(node) if isinstance(node, ast.alias) else \
            self._statement_text(node) if isinstance(node, ast.stmt) else self._text(node)
        if text is None:
            return False
        column = _chars(self.lines, node.lineno, node.col_offset)
        self._add("value", node.lineno, column, text, claim.message, claim.candidates, subjects=subjects,
                  literal=claim.literal)
        return True

    def _numpy_alone(self, node: ast.AST) -> bool:
        """Is the use of `node` (as _subjects reads it) written of literals, numpy's modules by names
        the cell leaves as they are and Python's `len`, `range`, `int`, `float` alone?"""
        parent = self._parents.get(id(node))
        use = parent if isinstance(parent, ast.Call) and node is parent.func else node
        names = [x for x in ast.walk(use) if isinstance(x, ast.Name)]
        if not names or any(isinstance(x, (ast.Lambda, ast.NamedExpr)) for x in ast.walk(use)):
            return False
        np = sys.modules.get("numpy")
        for x in names:
            obj = self.ns.get(x.id, UNRESOLVED) if x.id not in self.state.bound else UNRESOLVED
            if obj is UNRESOLVED and x.id not in self.ns and x.id not in self.state.bound and \
                    any(getattr(builtins, x.id, None) is b for b in (len, range, int, float)):
                continue
            if not (np is not None and issubclass(type(obj), types.ModuleType) and
                    POLICY.module_members(obj).get("__name__", "").split(".")[0] == "numpy"):
                return False
        return True

    def _subjects(self, node: ast.AST) -> tuple[str, ...]:
        """The names whose objects a value claim on `node` reads: those of the whole use (the call
        whose callee or argument it is, else the operation itself) but the kernel's modules,
        classes and functions (code, not data: what the guard asks cannot change of them)."""
        parent = self._parents.get(id(node))
        if isinstance(parent, ast.keyword):     # a keyword's value: the keyword's call is the use
            parent = self._parents.get(id(parent))
        use = parent if isinstance(parent, ast.Call) and (node is parent.func or node in parent.args or
                                                           any(node is k.value for k in parent.keywords)) or \
            isinstance(parent, ast.Subscript) and node is parent.value else node     # `np.c_[a, X]`
        names = []
        for n in ast.walk(use):
            if isinstance(n, ast.Name) and n.id not in names:
                obj = self.ns.get(n.id, getattr(builtins, n.id, UNRESOLVED)) if n.id not in self.state.bound else \
                    UNRESOLVED          # (a name of Python's builtins the kernel does not shadow: `print`)
                if not issubclass(type(obj), (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
                    names.append(n.id)
        return tuple(names)

    def _text(self, node: ast.AST) -> str | None:
        """The node's own text in the cell, when it is on one line and the cell's text there is
        that code (a transformed cell's columns may differ)."""
        if getattr(node, "end_lineno", None) != getattr(node, "lineno", 0) or not 0 < node.lineno <= len(self.lines):
            return None
        line = self.lines[node.lineno - 1]
        text = line[_chars(self.lines, node.lineno, node.col_offset):_chars(self.lines, node.lineno,
                                                                            node.end_col_offset)]
        # a keyword argument's text is its name, "=" and its value's
        name, value = (f"{node.arg}=", node.value) if isinstance(node, ast.keyword) and node.arg else ("", node)
        try:
            same = text.startswith(name) and \
                ast.dump(ast.parse(text[len(name):].strip(), mode="eval").body) == ast.dump(as_written(value))
        except SyntaxError:
            same = False
        return text if same else None

    def _axes_exact(self, node: ast.expr | None, local: set[str]) -> bool:
        """An Axes of matplotlib's `Axes` class itself: `node`'s live one, or (None) pyplot's
        current one, the cell making no other current."""
        if node is None:
            return self._pyplot_kept() and current_axes_exact("pcolormesh")
        cls = axes_class()
        return cls is not None and type(self._live(node, local)) is cls

    def _sklearn_config_kept(self) -> bool:
        """Does the cell leave scikit-learn's configuration alone (no `set_config`, no
        `config_context`: `skip_parameter_validation` turns its parameter checks off)?"""
        return not any(isinstance(x, ast.Name) and x.id in _SKLEARN_CONFIG or
                       isinstance(x, ast.Attribute) and x.attr in _SKLEARN_CONFIG or
                       isinstance(x, ast.alias) and x.name in _SKLEARN_CONFIG for x in ast.walk(self.tree))

    def _imports_first(self, s: ast.ImportFrom) -> bool:
        """Is the import a statement of the cell's top level that only imports run before (a
        docstring and `pass`, a `%matplotlib` line's reading, aside)? Nothing of the cell's can then
        have given the module a name (a store, `setattr`, its `__dict__` or `__path__` changed) or
        handled the error."""
        if s not in self.tree.body:
            return False
        before = self.tree.body[:self.tree.body.index(s)]
        return all(isinstance(b, (ast.Import, ast.ImportFrom, ast.Pass)) or
                   isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) for b in before)

    def _loaded_before(self, s: ast.stmt) -> bool:
        """Are the imports before `s` (_imports_first) all of modules already loaded: no module's
        code runs before it, so none can have changed `sys.path` or the finders?"""
        def loaded(b: ast.stmt) -> bool:
            if isinstance(b, ast.Import):
                return all(a.name in sys.modules for a in b.names)
            if isinstance(b, ast.ImportFrom):       # a name the loaded module holds, or a loaded submodule
                mod = sys.modules.get(b.module) if not b.level and b.module else None
                own = POLICY.module_members(mod) if mod is not None else {}
                return mod is not None and all(a.name != "*" and (a.name in own or f"{b.module}.{a.name}" in sys.modules)
                                               for a in b.names)
            return isinstance(b, ast.Expr)          # a docstring (_imports_first)
        return all(loaded(b) for b in self.tree.body[:self.tree.body.index(s)])

    def _labels_kept(self, receiver: ast.expr | None, local: set[str]) -> bool:
        """A live pandas object (a method's receiver, a lookup's), its index and columns as they
        were: the cell has not changed them through another name or in place
        (`df.index.set_names("k", inplace=True)`, `i = df.index; i.name = "k"`): the flow marks
        those objects, not the frame."""
        if receiver is None:
            return True
        obj = self._live(receiver, local)
        pd = sys.modules.get("pandas")
        if pd is None or type(obj) not in (pd.DataFrame, pd.Series):
            return True                     # (the rules read no labels of anything else)
        labels = [obj.index] + ([obj.columns] if type(obj) is pd.DataFrame else [])
        return "*" not in self.state.touched and not any(id(x) in self.state.changed for x in labels)

    def _folders_kept(self, n: ast.Call) -> bool:
        """May no file or folder be made, nor the working directory changed, before `n` in the cell:
        no call at all runs before it (the statements before it bind literals or import; in its own
        statement nothing is called before it), so nothing of the cell's, a library's or the user's
        can have made a path? Only in a kernel's own namespace (IPython's directory history `_dh`
        in it): the facts run in the kernel's process, whose working directory the cell's relative
        paths start from; the command line reads a notebook from elsewhere."""
        if self.state.user_code or type(self.ns.get("_dh")) is not list:
            return False
        at = (n.lineno, n.col_offset)
        inner = {id(x) for x in ast.walk(n)}
        # (in its own statement a call after it in the text may run first: `d[f()] = g()` runs g first)
        statement = next((s for s in self.tree.body if (s.lineno, s.col_offset) <= at <= (s.end_lineno, s.end_col_offset)),
                         None)
        if statement is None or any(isinstance(c, ast.Call) and id(c) not in inner for c in ast.walk(statement)):
            return False
        return not any(isinstance(c, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) and id(c) not in inner and
                       (c.lineno, c.col_offset) < at for c in ast.walk(self.tree)) and \
            not any(isinstance(c, (ast.With, ast.AsyncWith, ast.For, ast.While)) and (c.lineno, c.col_offset) < at
                    for c in ast.walk(self.tree))

    def _statement_text(self, node: ast.stmt) -> str | None:
        """A statement's text on its first line (an import whose module is missing: the whole of it)."""
        if not 0 < node.lineno <= len(self.lines):
            return None
        line = self.lines[node.lineno - 1]
        start = _chars(self.lines, node.lineno, node.col_offset)
        end = _chars(self.lines, node.lineno, node.end_col_offset) if node.end_lineno == node.lineno else len(line)
        return line[start:end] or None

    def _alias_text(self, node: ast.alias) -> str | None:
        """An import's name (`make_moon`, `make_moon as mm`) as the cell writes it, on one line."""
        if node.end_lineno != node.lineno or not 0 < node.lineno <= len(self.lines):
            return None
        line = self.lines[node.lineno - 1]
        text = line[_chars(self.lines, node.lineno, node.col_offset):_chars(self.lines, node.lineno, node.end_col_offset)]
        return text if text.split() == [node.name, *(["as", node.asname] if node.asname else [])] else None

    def _missing_key(self, k: ast.Constant, labels, message: str) -> None:
        """A key fact on the string literal `k`: its fixes are the near labels, quoted as it is."""
        quote = self._quote(k)
        self._add("key", k.lineno, _chars(self.lines, k.lineno, k.col_offset), None, message,
                  [f"{quote}{c}{quote}" for c in _near(k.value, labels) if quote not in c],
                  end=_chars(self.lines, k.end_lineno, k.end_col_offset) if k.end_lineno == k.lineno else None)

    def _column_arguments(self, n: ast.Call, local: set[str], target) -> None:
        """Column names given to a DataFrame method or pandas function (`df.sort_values("pirce")`,
        `df.drop(columns=["nmae"])`, `pd.merge(a, b, on="k")`, see columns.py): one the DataFrame
        lacks is a KeyError."""
        pd = sys.modules.get("pandas")
        if pd is None:
            return
        for use in column_uses(n):
            if use.function is not None and (target is UNRESOLVED or target is not getattr(pd, use.function, None)):
                continue
            if use.receiver is not None and not _frame_like(self._live(use.receiver, local, keys=True, made=True), pd):
                continue
            source = subset_source(use.frame)
            if source is not use.frame and use.unless_rows is not None:
                continue                # a list of group keys as long as the rows: rows unknown here
            frame, gained = self._live(source, local, keys=True, made=True), frozenset()
            if frame is UNRESOLVED and use.unless_rows is None:     # its rows may have changed
                frame, gained = self._changed_labels(source, local)
            if not _frame_like(frame, pd):
                continue
            made = issubclass(type(frame), Abstract)
            rows = frame.shape[0] if made else len(frame.index)
            if use.unless_rows is not None and (rows is None or use.unless_rows in (rows, -1)):
                continue
            # `type(x) is str`: an isinstance test would read a user's label's `__class__`
            names = frame.index_names if made else [x for x in frame.index.names if type(x) is str]
            if names is None and use.index_names:
                continue                # a frame the cell made from one whose index names are unknown
            levels = set(names) if use.index_names else set()
            for k in use.keys:
                labels = self._missing_label(frame, k.value, True, gained)
                if labels is not None and k.value not in levels:
                    self._missing_key(k, labels, f"DataFrame has no column {k.value!r} {use.what}")
                elif k.value in use.moved and self.state.set_keys(frame) == set():
                    self._missing_key(k, [], f"DataFrame has no column {k.value!r} {use.what}: "
                                             f"x={k.value!r} has made it the index")

    def _label(self, m: MissingLabel | None) -> None:
        """A row label or group name the object lacks (labels.py): a key fact on the literal."""
        if m is None:
            return
        k = m.key
        if m.labels and isinstance(k, ast.Constant) and type(k.value) is str:
            self._missing_key(k, m.labels, m.message)
        elif k.end_lineno == k.lineno:
            text = self._text(k) if m.keyword else None
            self._add("key", k.lineno, _chars(self.lines, k.lineno, k.col_offset), None, m.message,
                      [f"{m.keyword}={text}"] if text else [], end=_chars(self.lines, k.lineno, k.end_col_offset))

    def _changed_only_so(self, source: ast.expr, local: set[str]):
        """flow's names_may_add for a name the kernel or the cell binds (not a comprehension's or
        a guarded one): (the frame or series, the names it may have gained), or None."""
        root = chain_root(source)
        if root is None or root in local or any(root in g for g in self.guarded):
            return None
        return self.state.names_may_add(source, self.ns)

    def _changed_labels(self, source: ast.expr, local: set[str]):
        """A live frame or series the cell changed only in ways that add known labels (flow's
        names_added: `df.iloc[0] = 1`, `df.loc[:, "c"] = 1`): (it, those labels); else UNRESOLVED."""
        found = self._changed_only_so(source, local)
        if found is None or issubclass(type(found[0]), Abstract):
            return UNRESOLVED, frozenset()
        return found[0], frozenset(found[1])

    def _missing_label(self, obj, key: str, columns: bool, gained=frozenset()):
        """missing_key, with the keys the cell sets on the object (or may add: `gained`) before
        this point."""
        added = self.state.set_keys(obj) | gained
        if issubclass(type(obj), Abstract):
            names = [c for c, _ in obj.columns]
            labels = None if key in added or key in names else names
        else:
            labels = None if key in added else missing_key(obj, key, columns=columns)
        return None if labels is None else labels + sorted(added)

    # -- results ------------------------------------------------------------------------------

    def _add(self, kind, line, column, word, message, candidates, end=None, recorded=False, subjects=(),
             literal=False) -> None:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if end is None:
            end = column + len(word)
        if word is not None and text[column:end] != word:
            return                    # the transformed cell's columns differ here: no place to show
        self.facts.setdefault((line, column), KernelFact(kind, line, column, end, message,
                                                         list(dict.fromkeys(candidates))[:_MAX_CANDIDATES], recorded,
                                                         subjects, literal))

    def _quote(self, k: ast.Constant) -> str:
        text = self.lines[k.lineno - 1] if k.lineno <= len(self.lines) else ""
        ch = text[_chars(self.lines, k.lineno, k.col_offset):][:1]
        return ch if ch in ("'", '"') else '"'


def _changes(x: ast.AST) -> bool:
    """A call, or a store or deletion through an attribute or item, or an augmented assignment:
    what may change an object the flow does not see (a list inside a dict, a statement's own)."""
    return isinstance(x, (ast.Call, ast.AugAssign, ast.Delete, ast.NamedExpr)) or \
        isinstance(x, (ast.Attribute, ast.Subscript)) and isinstance(x.ctx, (ast.Store, ast.Del))


def _receiver(n: ast.Call) -> ast.expr | None:
    """A method call's object (`df` of `df.query(...)`); None for a function's call."""
    return n.func.value if isinstance(n.func, ast.Attribute) else None


def _looked_up(n: ast.Subscript) -> ast.expr:
    """What a lookup reads the labels of: `df` of `df[k]` and of `df.loc[k]`."""
    base = n.value
    return base.value if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc", "at", "iat") else base


# the names through which a cell sets pandas' options
_PANDAS_OPTIONS = ("set_option", "option_context", "options")


def _drawing_part(v) -> bool:
    """A Figure, an Axes or an array of them: pyplot's current state reaches them across passes."""
    return any(issubclass(type(x), Abstract) and (x.like in ("Axes", "Figure", "projection") or
                                                  x.holds in ("Axes", "projection"))
               for x in (v if type(v) is tuple else (v,)))


def _made_items(targets: list, display: ast.Tuple | ast.List, propagation: Propagation) \
        -> list[tuple[str, Abstract | Instance]]:
    """`x, y = X.ravel(), Y.ravel()`, `n_samples, n_features = 200, 50`: each name of the one tuple
    target bound item by item to the display's item (flow.item_by_item, as the flow binds it) that
    is data the cell made (an array, a series or a frame) or a Python number it surely is. A name
    given twice (`p, p = a, b`) or a chain of targets binds nothing: a later binding wins."""
    names = [x.id for t in targets for x in ast.walk(t) if isinstance(x, ast.Name)]
    if len(targets) != 1 or len(names) != len(set(names)) or not item_by_item(targets[0], display):
        return []
    out = []
    for t, e in zip(targets[0].elts, display.elts):
        v = propagation.value(e) if isinstance(t, ast.Name) else None
        if issubclass(type(v), Abstract) and v.like in ("ndarray", "Series", "DataFrame") and v.holds is None:
            out.append((t.id, v))
        elif isinstance(t, ast.Name) and type(number := propagation.scalar(e)) in (int, float, complex):
            out.append((t.id, Instance(type(number), number)))
    return out


def _unpacked(target: ast.Tuple | ast.List, value, axes_kept: bool) -> list[tuple[str, Abstract]]:
    """The names a tuple target binds to the parts of a value the cell made: a tuple's items
    (`fig, axes = plt.subplots(...)`), or the items of an array of Axes of a known first size
    (`fig, (ax1, ax2) = plt.subplots(1, 2)`, `ax1, ax2 = axes`: Axes, or rows of them), nested
    targets alike. `axes_kept`: the array's items are those the cell made."""
    if any(isinstance(t, ast.Starred) for t in target.elts):
        return []
    if type(value) is tuple:
        parts = value
    elif issubclass(type(value), Abstract) and value.like == "ndarray" and value.holds is None and value.ndim >= 2 and \
            value.shape[0] == len(target.elts):
        parts = [replace(value, shape=value.shape[1:]) for _ in target.elts]      # `Y, X = np.mgrid[...]`: rows
    elif issubclass(type(value), Abstract) and value.like == "ndarray" and value.holds in ("Axes", "projection") and \
            axes_kept and value.shape and value.shape[0] == len(target.elts):
        item = Abstract(value.holds, axes=value.axes) if len(value.shape) == 1 else replace(value, shape=value.shape[1:])
        parts = [item if k == 0 else replace(item) for k in range(len(target.elts))]     # each its own object
    else:
        return []
    if len(parts) != len(target.elts):
        return []
    out = []
    for t, v in zip(target.elts, parts):
        if isinstance(t, ast.Name) and issubclass(type(v), Abstract):
            out.append((t.id, v))
        elif isinstance(t, (ast.Tuple, ast.List)):
            out += _unpacked(t, v, axes_kept)
    return out


def _literal_dict(obj) -> bool:
    """A dict the cell wrote as a display of plain data (`d = {"a": 1}`), as it still is."""
    return type(obj) is Instance and obj.cls is dict and type(obj.literal()) is dict


def _frame_like(obj, pd) -> bool:
    """A live DataFrame of pandas' own class, or one the cell makes whose columns are known."""
    if issubclass(type(obj), Abstract):
        return obj.like == "DataFrame" and obj.columns is not None
    return type(obj) is pd.DataFrame


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _comprehension_names(node: ast.AST) -> set[str]:
    """Names bound inside comprehensions and lambdas of the expression: not the kernel's."""
    out = set()
    for n in all_nodes(node):
        if isinstance(n, ast.comprehension):
            out |= {t.id for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        elif isinstance(n, ast.Lambda):
            out |= {a.arg for a in ast.walk(n.args) if isinstance(a, ast.arg)}
        elif isinstance(n, ast.NamedExpr):
            out.add(n.target.id)
    return out


def _walk_outside_functions(node: ast.AST):
    return walk_skipping(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))


def _plain_value(obj) -> bool:
    """A value whose type Python or a library defines (an int, an array, a DataFrame): calling it
    surely fails. An instance of the user's class might be made callable another way."""
    return type(obj).__module__ == "builtins" or POLICY.is_library(type(obj))


def _chars(lines: list[str], line: int, byte_col: int) -> int:
    """A character column from the AST's UTF-8 byte column."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))


def _near(word: str, options, *, prefixes: bool = False) -> list[str]:
    """The options a slip of `word` could have meant, closest first; with `prefixes`, also an
    option that one of the two begins (a keyword's short form: `seperator` -> `sep`)."""
    low = word.lower().replace("_", "").replace(" ", "")
    scored = []
    for o in options:
        if not isinstance(o, str) or o == word:
            continue
        short = o.lower().replace("_", "").replace(" ", "")
        if short == low:
            scored.append((0, o))
        elif near_typo(word, o) or near_typo(word.lower(), o.lower()):
            scored.append((1, o))
        elif prefixes and min(len(short), len(low)) >= 3 and (low.startswith(short) or short.startswith(low)):
            scored.append((2, o))
    return [o for _, o in sorted(scored, key=lambda x: (x[0], len(x[1])))]


def _styles_keep(call: ast.Call, key: str) -> bool:
    """`plt.style.use("ggplot")`, `(["a", "b"])`: literal names of matplotlib's style library
    whose settings (read from its `library`) hold no `key`."""
    style = sys.modules.get("matplotlib.style")
    library = POLICY.static(style, "library", None) if style is not None else None
    given = _literal(call.args[0]) if len(call.args) == 1 and not call.keywords else None
    names = [given] if type(given) is str else given if type(given) in (list, tuple) else None
    if not isinstance(library, dict) or not names or any(type(n) is not str for n in names):
        return False
    sheets = [dict.get(library, n) for n in names]
    return all(isinstance(sheet, dict) and key not in dict.keys(sheet) for sheet in sheets)


def _bare(message: str) -> str:
    """Python's bind message without its own prefix."""
    return message[0].lower() + message[1:] if message else message


def _seed_taken(call: ast.expr, cls: type, propagation: Propagation) -> bool:
    """Does numpy's RandomState take the seed the cell gives it (none, None, or an int or a
    list of ints read here)? Tried on a RandomState of its own: numpy's code on plain data."""
    if not isinstance(call, ast.Call) or len(call.args) + len(call.keywords) > 1 or \
            any(k.arg != "seed" for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    given = [*call.args, *(k.value for k in call.keywords)]
    if not given:
        return True
    seed = _literal(given[0])
    if seed is UNRESOLVED:
        seed = propagation.integer(given[0])
    if not (seed is None or type(seed) is int or type(seed) in (list, tuple) and all(type(k) is int for k in seed)):
        return False
    try:
        cls(seed)
    except (ValueError, TypeError, OverflowError):
        return False
    return True


def _random_state_class(cls: type) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and cls is POLICY.module_members(np.random).get("RandomState")


def _written_keys(node: ast.expr) -> list[list[str]] | None:
    """The keys of a dict display of literal string keys (`{"svc__C": [1, 10]}`), or of each of
    a list of them; None for anything else."""
    dicts = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    if not dicts or not all(isinstance(d, ast.Dict) and all(isinstance(k, ast.Constant) and type(k.value) is str
                                                          for k in d.keys) for d in dicts):
        return None                     # (a `**other` key is None)
    return [[k.value for k in d.keys] for d in dicts]


def _grid_keys(grid) -> list[list[str]] | None:
    """The keys of a live grid: a dict of string keys, or a list or tuple of them."""
    dicts = grid if type(grid) in (list, tuple) else [grid]
    if not dicts or not all(type(d) is dict and all(type(k) is str for k in d) for d in dicts):
        return None
    return [list(d) for d in dicts]


def _step_path(node: ast.expr) -> tuple[ast.expr | None, int | str | None]:
    """`pipe` (itself, no key), `pipe[-1]`, `pipe["svc"]`, `pipe.named_steps["svc"]`,
    `pipe.named_steps.svc`, `pipe.steps[-1][1]`: the pipeline's expression and the step's place
    or name; (None, None) for anything else."""
    if isinstance(node, (ast.Name, ast.Call)):
        return node, None
    if isinstance(node, ast.Subscript):
        key, base = _literal(node.slice), node.value
        if isinstance(base, ast.Attribute) and base.attr == "named_steps":
            return (base.value, key) if type(key) is str else (None, None)
        if type(key) is int and key == 1 and isinstance(base, ast.Subscript) and \
                isinstance(base.value, ast.Attribute) and base.value.attr == "steps":
            place = _literal(base.slice)
            return (base.value.value, place) if type(place) is int else (None, None)
        return (base, key) if type(key) in (int, str) else (None, None)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "named_steps":
        return node.value.value, node.attr
    return None, None


# numpy's functions that write into an array they are given
_NUMPY_WRITERS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "shuffle", "put_along_axis",
                            "seed", "set_state", "add", "subtract", "multiply", "divide", "at"})


def _holds_mutable(value) -> bool:
    """Does a display's value hold lists, dicts or sets (what another container of its items shares)?"""
    items = value.values() if type(value) is dict else value
    return any(type(i) in (list, dict, set) for i in items)


def _loaded(x: ast.Import | ast.ImportFrom) -> bool:
    """Is every module the import names loaded already (it runs no code of theirs)?"""
    if isinstance(x, ast.Import):
        return all(a.name in sys.modules for a in x.names)
    module = sys.modules.get(x.module or "") if not x.level else None
    return module is not None and all(f"{x.module}.{a.name}" in sys.modules or
                                      a.name in POLICY.module_members(module) for a in x.names)


# Python's builtins of plain values a cell calls before a figure is drawn (they draw nothing)
_PLAIN_BUILTINS = tuple(getattr(builtins, b) for b in ("len", "range", "abs", "round", "int", "float", "print"))


def _literal_display(node: ast.expr):
    """The value of a list, tuple or dict display of literals (`{"C": [1, 10]}`) or of a literal
    number (`n = 20`), else UNRESOLVED."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if not isinstance(node, (ast.List, ast.Tuple, ast.Dict)):
        return UNRESOLVED
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNRESOLVED
