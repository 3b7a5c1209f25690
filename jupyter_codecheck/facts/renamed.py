"""Names a library release renamed or removed, and what is written instead.

When a call fails on a keyword, or an object lacks an attribute, that a release of pandas,
numpy, scikit-learn, matplotlib or seaborn renamed or removed, the fact says so and its fix is
the replacement: a word written in the old one's place (`np.float_` -> `float64`, `sparse=` ->
`sparse_output=`), or the whole call rewritten where the change is more than a word
(`df.append(x)` -> `pd.concat([df, x])`, `mean_squared_error(y, p, squared=False)` ->
`root_mean_squared_error(y, p)`). The fact itself is made from the live object first (the
installed library lacks the name); this table only names the replacement. Each entry says where
it comes from: the library's release notes or deprecation note, or ruff's NPY201 rule (the
numpy 2 migration table). tests/test_kernel_facts.py holds every entry to the installed
libraries: the old name absent or rejected, the new one there.
"""
from __future__ import annotations

import ast
import sys
import types
from dataclasses import dataclass, replace

from .read_policy import POLICY

_ANY = object()


@dataclass(frozen=True)
class Renamed:
    owner: str        # where the name was: a module, a class, or the callable a keyword was of
    old: str
    new: str | None   # written in its place (a keyword with "=": replaces `old=value`); None: no one word
    instead: str      # what to write instead, as the message says it
    change: str       # "removed in pandas 2.0"
    source: str       # the release note or rule that records it
    rewrite: str = ""     # the whole call instead (see `rewritten_call`)
    when: object = _ANY   # a keyword's entry: only for this literal value
    beside: tuple = ()    # a keyword's entry: only when the call also has these (keyword, literal) pairs

    @property
    def note(self) -> str:
        return f": {self.change}, use {self.instead}"


def _entries(owner, change, source, rows, **common):
    return [Renamed(owner, old, new, instead or (new or ""), change, source, **common)
            for old, new, instead in rows]


_P10 = "pandas 1.0.0 release notes, removal of prior version deprecations"
_P20 = "pandas 2.0.0 release notes, removal of prior version deprecations"
_P30 = "pandas 3.0.0 release notes, removal of prior version deprecations"
_NPY201 = "ruff NPY201 (numpy2-deprecation), NumPy 2.0 migration guide"
_NPY124 = "numpy 1.24.0 release notes, expired deprecations (aliases of builtin types); ruff NPY001"
_NDARRAY = "NumPy 2.0 migration guide, ndarray and scalar namespace"
_NPY_EXPIRED = "numpy release notes, expired deprecations (1.18: rank; 1.23: asscalar, alen; 2.0: the rest)"
_SK16 = "scikit-learn 1.6 release notes, API changes"
_SK17 = "scikit-learn 1.7 release notes, API changes: n_alphas deprecated for alphas (an int), removed in 1.9"
# a dict (a row) or a list of them is no frame to concat: it is made one
_APPEND = "{module:pandas}.concat([{receiver}, {rows}]{keywords})"

ATTRIBUTES: tuple[Renamed, ...] = (
    *[Renamed(f"pandas.{cls}", "append", None, "pd.concat([obj, other])", "removed in pandas 2.0", _P20,
              rewrite=_APPEND) for cls in ("DataFrame", "Series")],
    *[r for cls in ("DataFrame", "Series") for r in _entries(f"pandas.{cls}", "removed in pandas 2.0", _P20, [
        ("iteritems", "items", None)])],
    *_entries("pandas.DataFrame", "removed in pandas 3.0 (deprecated in 2.1)", _P30, [
        ("applymap", "map", None)]),
    *[r for cls in ("Series", "Index") for r in _entries(f"pandas.{cls}", "removed in pandas 2.0", _P20, [
        ("is_monotonic", "is_monotonic_increasing", None)])],
    *[r for cls in ("DataFrame", "Series") for r in _entries(f"pandas.{cls}", "removed in pandas 3.0", _P30, [
        ("pad", "ffill", None), ("backfill", "bfill", None), ("swapaxes", None, ".transpose()"),
        ("bool", None, ".item() (or an explicit any()/all())")])],
    *_entries("pandas.DataFrame", "removed in pandas 1.0", _P10, [("ix", "loc", ".loc (labels) or .iloc (positions)")]),
    *_entries("pandas.DataFrame", "removed in pandas 2.0", _P20, [
        ("lookup", None, ".melt() or .to_numpy()[rows, columns]"),
        ("mad", None, "(df - df.mean()).abs().mean()")]),
    *_entries("pandas.Series", "removed in pandas 3.0", _P30, [
        ("view", None, ".astype(dtype)"), ("ravel", None, ".to_numpy().ravel()")]),
    *_entries("pandas", "removed in pandas 2.0", _P20, [
        ("Int64Index", "Index", None), ("UInt64Index", "Index", None), ("Float64Index", "Index", None),
        ("datetime", None, "the datetime module (import datetime)"), ("np", None, "numpy (import numpy as np)")]),
    *_entries("pandas", "removed in pandas 3.0 (deprecated in 2.1)", _P30, [
        ("value_counts", None, "pd.Series(values).value_counts()")]),
    *_entries("numpy", "removed in NumPy 2.0", _NPY201, [
        ("float_", "float64", None), ("complex_", "complex128", None), ("cfloat", "complex128", None),
        ("clongfloat", "clongdouble", None), ("longcomplex", "clongdouble", None),
        ("longfloat", "longdouble", None), ("singlecomplex", "complex64", None), ("string_", "bytes_", None),
        ("unicode_", "str_", None), ("NaN", "nan", None), ("NAN", "nan", None), ("Inf", "inf", None),
        ("Infinity", "inf", None), ("infty", "inf", None), ("PINF", "inf", None),
        ("NINF", None, "-np.inf"), ("PZERO", None, "0.0"), ("NZERO", None, "-0.0"),
        ("product", "prod", None), ("cumproduct", "cumprod", None), ("sometrue", "any", None),
        ("alltrue", "all", None), ("round_", "round", None), ("mat", "asmatrix", None),
        ("issubsctype", "issubdtype", None), ("trapz", "trapezoid", None),
        ("in1d", None, "np.isin(a, b).ravel()"), ("asfarray", None, "np.asarray(a, dtype=float)"),
        ("cast", None, "np.asarray(a, dtype=dtype)"), ("find_common_type", None, "np.result_type"),
        ("issubclass_", None, "issubclass"), ("safe_eval", None, "ast.literal_eval"),
        ("source", None, "inspect.getsource"), ("set_string_function", None, "np.set_printoptions"),
        ("geterrobj", None, "the np.errstate context manager"), ("seterrobj", None, "the np.errstate context manager"),
        ("byte_bounds", "lib.array_utils.byte_bounds", None), ("DataSource", "lib.npyio.DataSource", None),
        ("add_docstring", "lib.add_docstring", None), ("add_newdoc", "lib.add_newdoc", None),
        ("compare_chararrays", "char.compare_chararrays", None),
        ("format_parser", "rec.format_parser", None), ("AxisError", "exceptions.AxisError", None),
        ("ComplexWarning", "exceptions.ComplexWarning", None), ("RankWarning", "exceptions.RankWarning", None),
        ("VisibleDeprecationWarning", "exceptions.VisibleDeprecationWarning", None),
        ("TooHardError", "exceptions.TooHardError", None)]),
    *_entries("numpy", "removed in NumPy 1.24", _NPY124, [
        ("float", "float64", None), ("int", "int_", None), ("complex", "complex128", None),
        ("object", "object_", None), ("str", "str_", None)]),
    *_entries("numpy.ndarray", "removed in NumPy 2.0", _NDARRAY, [
        ("ptp", None, "np.ptp(arr)"), ("newbyteorder", None, "arr.view(arr.dtype.newbyteorder(order))"),
        ("itemset", None, "arr[index] = value")]),
    *_entries("sklearn.base.BaseEstimator", "removed in scikit-learn 1.2 (deprecated in 1.0)",
              "scikit-learn 1.0 release notes: get_feature_names deprecated for get_feature_names_out", [
                  ("get_feature_names", "get_feature_names_out", None)]),
    *_entries("sklearn.metrics", "removed in scikit-learn 1.2 (deprecated in 1.0)",
              "scikit-learn 1.0 release notes: the plot_* functions deprecated for the Display classes' "
              "from_estimator", [
                  ("plot_confusion_matrix", "ConfusionMatrixDisplay.from_estimator", None),
                  ("plot_roc_curve", "RocCurveDisplay.from_estimator", None),
                  ("plot_precision_recall_curve", "PrecisionRecallDisplay.from_estimator", None)]),
    *_entries("sklearn.metrics", "removed in scikit-learn 1.3 (deprecated in 1.1)",
              "scikit-learn 1.1 release notes: SCORERS deprecated for get_scorer_names", [
                  ("SCORERS", None, "get_scorer_names() (names) and get_scorer(name)")]),
    *[r for cls in ("DataFrame", "Series") for r in _entries(f"pandas.{cls}", "removed in pandas 3.0 (deprecated in 2.1)",
                                                           _P30, [
        ("first", None, ".loc[:obj.index[0] + pd.Timedelta(offset)] (rows within the offset of the first)"),
        ("last", None, ".loc[obj.index[-1] - pd.Timedelta(offset):] (rows within the offset of the last)")])],
    *_entries("pandas.Series", "removed in pandas 1.0", _P10, [("nonzero", None, ".to_numpy().nonzero()")]),
    *[r for cls in ("DataFrameGroupBy", "SeriesGroupBy") for r in [
        *_entries(f"pandas.core.groupby.{cls}", "removed in pandas 3.0 (deprecated in 2.1)", _P30, [
            ("fillna", None, ".ffill() or .bfill()")]),
        *_entries(f"pandas.core.groupby.{cls}", "removed in pandas 2.0", _P20, [
            ("pad", "ffill", None), ("backfill", "bfill", None), ("tshift", None, ".shift(freq=...)")])]],
    *_entries("pandas.io.formats.style.Styler", "removed in pandas 3.0 (deprecated in 2.1)", _P30, [
        ("applymap", "map", None)]),
    *_entries("pandas.io.formats.style.Styler", "removed in pandas 2.0", _P20, [
        ("hide_index", None, '.hide(axis="index")'), ("hide_columns", None, '.hide(axis="columns")'),
        ("set_na_rep", None, ".format(na_rep=...)"), ("render", None, ".to_html()")]),
    *_entries("pandas.ExcelWriter", "removed in pandas 2.0", _P20, [("save", "close", None)]),
    *_entries("pandas.Index", "removed in pandas 3.0 (deprecated in 2.0)", _P30, [
        ("format", None, ".astype(str) or [str(x) for x in index]"),
        ("holds_integer", None, 'pd.api.types.infer_dtype(index) in ("integer", "mixed-integer")')]),
    *_entries("pandas", "removed in pandas 1.0", _P10, [
        ("scatter_matrix", None, "pd.plotting.scatter_matrix"), ("Panel", None, "a DataFrame with a MultiIndex"),
        ("TimeGrouper", "Grouper", None), ("rolling_mean", None, "s.rolling(window).mean()"),
        ("ewma", None, "s.ewm(...).mean()")]),
    *_entries("pandas.api.types", "removed in pandas 2.0", _P20, [
        ("is_categorical", None, "isinstance(dtype, pd.CategoricalDtype)"),
        ("is_extension_type", "is_extension_array_dtype", None)]),
    *_entries("numpy", "removed in NumPy 2.0", _NPY201, [
        ("msort", None, "np.sort(a, axis=0)"), ("recfromcsv", None, "np.genfromtxt(..., delimiter=',', names=True)"),
        ("recfromtxt", None, "np.genfromtxt"), ("fastCopyAndTranspose", None, "arr.T.copy()"),
        ("bool8", "bool_", None), ("int0", "intp", None), ("uint0", "uintp", None), ("object0", "object_", None),
        ("str0", "str_", None), ("bytes0", "bytes_", None), ("void0", "void", None),
        ("maximum_sctype", None, "np.dtype(...) of the largest type you need"),
        ("deprecate", None, "warnings.warn(..., DeprecationWarning)")]),
    *_entries("numpy", "removed (expired deprecations)", _NPY_EXPIRED, [
        ("asscalar", None, "a.item()"), ("alen", None, "len(a)"), ("rank", "ndim", None)]),
    *_entries("numpy.ndarray", "removed in NumPy 2.3 (deprecated in 1.19)",
              "numpy 2.3.0 release notes, expired deprecations: ndarray.tostring", [("tostring", "tobytes", None)]),
    *_entries("sklearn.base.BaseEstimator", "removed in scikit-learn 1.7 (deprecated in 1.6)", _SK16, [
        ("_validate_data", None, "sklearn.utils.validation.validate_data(self, X, ...)"),
        ("_more_tags", None, "__sklearn_tags__"), ("_get_tags", None, "sklearn.utils.get_tags(estimator)")]),
    *_entries("sklearn.utils", "removed in scikit-learn 1.7 (deprecated in 1.5)",
              "scikit-learn 1.5 release notes: parallel_backend and register_parallel_backend deprecated, use joblib's", [
                  ("parallel_backend", None, "joblib.parallel_backend"),
                  ("register_parallel_backend", None, "joblib.register_parallel_backend")]),
    *_entries("matplotlib.cm", "removed in Matplotlib 3.9 (deprecated in 3.7)",
              "Matplotlib 3.9.0 API changes: top-level cmap registration and access functions in mpl.cm", [
                  ("get_cmap", None, "matplotlib.colormaps[name] or plt.get_cmap(name)"),
                  ("register_cmap", None, "matplotlib.colormaps.register(cmap)")]),
    *[r for owner in ("matplotlib.pyplot", "matplotlib.axes.Axes") for r in _entries(
        owner, "removed in Matplotlib 3.11 (deprecated in 3.9)",
        "Matplotlib 3.9.0 API changes: plot_date deprecated, use plot", [("plot_date", "plot", None)])],
    *_entries("matplotlib.backend_bases.FigureCanvasBase", "removed in Matplotlib 3.6 (deprecated in 3.4)",
              "Matplotlib 3.4.0 API changes: FigureCanvasBase.set_window_title deprecated for "
              "FigureManagerBase.set_window_title", [("set_window_title", "manager.set_window_title", None)]),
    *_entries("matplotlib.colorbar.Colorbar", "removed in Matplotlib 3.8 (deprecated in 3.6)",
              "Matplotlib 3.6.0 API changes: Colorbar.draw_all deprecated, use figure.draw_without_rendering", [
                  ("draw_all", None, "fig.draw_without_rendering()")]),
    *_entries("seaborn", "removed in seaborn 0.10 (deprecated in 0.9)",
              "seaborn v0.10.0 release notes: tsplot removed, replaced with lineplot", [("tsplot", "lineplot", None)]),
    *_entries("seaborn", "renamed in seaborn 0.9, the old name since removed",
              "seaborn v0.9.0 release notes: factorplot renamed catplot, lvplot renamed boxenplot", [
                  ("factorplot", "catplot", None), ("lvplot", "boxenplot", None)]),
)

_READ = ("pandas.read_csv", "pandas.read_table")
_SQUARED = "scikit-learn 1.4 release notes: squared deprecated for root_mean_squared_error (removed in 1.6)"
_BASE_ESTIMATOR = "scikit-learn 1.2 release notes: base_estimator renamed estimator (removed in 1.4)"
_NORMALIZE = "scikit-learn 1.0 release notes: normalize deprecated (removed in 1.2)"

KEYWORDS: tuple[Renamed, ...] = (
    *[r for f in _READ for r in [
        Renamed(f, "error_bad_lines", 'on_bad_lines="skip"', 'on_bad_lines="skip"', "removed in pandas 2.0", _P20,
                when=False),
        Renamed(f, "error_bad_lines", 'on_bad_lines="error"', 'on_bad_lines="error"', "removed in pandas 2.0", _P20,
                when=True),
        Renamed(f, "warn_bad_lines", 'on_bad_lines="warn"', 'on_bad_lines="warn"', "removed in pandas 2.0", _P20,
                when=True),
        Renamed(f, "delim_whitespace", 'sep=r"\\s+"', 'sep=r"\\s+"', "removed in pandas 3.0 (deprecated in 2.2)",
                _P30, when=True),
        *_entries(f, "removed in pandas 2.0", _P20, [
            ("squeeze", None, '.squeeze("columns") on the result'), ("prefix", None, "names=[...]"),
            ("mangle_dupe_cols", None, "nothing: duplicate names are always mangled")]),
        *_entries(f, "removed in pandas 3.0 (deprecated in 2.0)", _P30, [
            ("date_parser", "date_format", "date_format= (a format string)"),
            ("infer_datetime_format", None, "nothing: the format is always inferred")])]],
    *[r for cls in ("DataFrame", "Series") for r in [
        *_entries(f"pandas.{cls}.to_csv", "removed in pandas 2.0", _P20, [("line_terminator", "lineterminator", None)]),
        *[Renamed(f"pandas.{cls}.fillna", "method", None, f".{new}()", "removed in pandas 3.0 (deprecated in 2.1)",
                  _P30, rewrite=f"{{receiver}}.{new}({{arguments}})", when=value)
          for value, new in (("ffill", "ffill"), ("pad", "ffill"), ("bfill", "bfill"), ("backfill", "bfill"))]]],
    *_entries("pandas.DataFrame.groupby", "removed in pandas 3.0 (deprecated in 2.1)", _P30, [
        ("axis", None, "df.T.groupby(...)")]),
    *_entries("sklearn.preprocessing.OneHotEncoder", "renamed in scikit-learn 1.2, the old name removed in 1.4",
              "scikit-learn 1.2 release notes: sparse renamed sparse_output", [("sparse", "sparse_output", None)]),
    *[r for name in ("mean_squared_error", "mean_squared_log_error") for r in [
        Renamed(f"sklearn.metrics.{name}", "squared", None, f"root_{name}(y_true, y_pred)",
                "removed in scikit-learn 1.6 (deprecated in 1.4)", _SQUARED,
                rewrite=f"{{qualifier}}root_{name}({{arguments}})", when=False),
        Renamed(f"sklearn.metrics.{name}", "squared", None, f"{name}(y_true, y_pred)",
                "removed in scikit-learn 1.6 (deprecated in 1.4)", _SQUARED,
                rewrite=f"{{qualifier}}{name}({{arguments}})", when=True)]],
    *[r for cls in ("AdaBoostClassifier", "AdaBoostRegressor", "BaggingClassifier", "BaggingRegressor")
      for r in _entries(f"sklearn.ensemble.{cls}", "renamed in scikit-learn 1.2, the old name removed in 1.4",
                        _BASE_ESTIMATOR, [("base_estimator", "estimator", None)])],
    *_entries("sklearn.manifold.TSNE", "renamed in scikit-learn 1.5, the old name removed in 1.7",
              "scikit-learn 1.5 release notes: n_iter renamed max_iter", [("n_iter", "max_iter", None)]),
    # liblinear fits two classes only: dropping the argument leaves three failing
    Renamed("sklearn.linear_model.LogisticRegression", "multi_class", None,
            'OneVsRestClassifier(LogisticRegression(solver="liblinear")) (liblinear fits two classes only: '
            "without multi_class it raises ValueError on three or more)",
            "removed in scikit-learn 1.8 (deprecated in 1.5)", "scikit-learn 1.5 release notes: multi_class "
            "deprecated; 1.8: liblinear raises on n_classes >= 3", beside=(("solver", "liblinear"),)),
    *_entries("sklearn.linear_model.LogisticRegression", "removed in scikit-learn 1.8 (deprecated in 1.5)",
              "scikit-learn 1.5 release notes: multi_class deprecated", [
                  ("multi_class", None, "nothing for multinomial (the default), OneVsRestClassifier for ovr")]),
    *[r for cls in ("LinearRegression", "Ridge", "Lasso", "ElasticNet") for r in _entries(
        f"sklearn.linear_model.{cls}", "removed in scikit-learn 1.2 (deprecated in 1.0)", _NORMALIZE, [
            ("normalize", None, "make_pipeline(StandardScaler(), model)")])],
    *[r for cls in ("LassoCV", "ElasticNetCV", "MultiTaskLassoCV", "MultiTaskElasticNetCV") for r in _entries(
        f"sklearn.linear_model.{cls}", "removed in scikit-learn 1.9 (deprecated in 1.7)", _SK17, [
            ("n_alphas", "alphas", "alphas= (an int: how many)")])],
    *_entries("sklearn.ensemble.AdaBoostClassifier", "removed in scikit-learn 1.8 (deprecated in 1.6)",
              _SK16 + ": AdaBoostClassifier's algorithm deprecated (SAMME only)", [
                  ("algorithm", None, "nothing: SAMME is the only algorithm")]),
    *[r for f in ("cross_validate", "cross_val_score", "cross_val_predict") for r in _entries(
        f"sklearn.model_selection.{f}", "removed in scikit-learn 1.6 (deprecated in 1.4)",
        "scikit-learn 1.4 release notes: fit_params deprecated for params", [("fit_params", "params", None)])],
    *[r for f in ("check_array", "check_X_y") for r in _entries(
        f"sklearn.utils.validation.{f}", "renamed in scikit-learn 1.6, the old name removed in 1.8",
        _SK16 + ": force_all_finite renamed ensure_all_finite", [("force_all_finite", "ensure_all_finite", None)])],
    *_entries("sklearn.linear_model.RidgeCV", "renamed in scikit-learn 1.5, the old name removed in 1.7",
              "scikit-learn 1.5 release notes: store_cv_values renamed store_cv_results", [
                  ("store_cv_values", "store_cv_results", None)]),
    *[r for cls in ("GridSearchCV", "RandomizedSearchCV") for r in _entries(
        f"sklearn.model_selection.{cls}", "removed in scikit-learn 0.24 (deprecated in 0.22)",
        "scikit-learn 0.22 release notes: iid deprecated", [("iid", None, "nothing: scores are averaged over folds")])],
    *_entries("sklearn.cluster.KMeans", "removed in scikit-learn 1.0 (deprecated in 0.23)",
              "scikit-learn 0.23 release notes: KMeans n_jobs and precompute_distances deprecated", [
                  ("n_jobs", None, "nothing (threads follow OMP_NUM_THREADS)"), ("precompute_distances", None, "nothing")]),
    *_entries("sklearn.linear_model.SGDClassifier", "removed in scikit-learn 0.21 (deprecated in 0.19)",
              "scikit-learn 0.19 release notes: n_iter deprecated for max_iter", [("n_iter", "max_iter", None)]),
    *_entries("sklearn.decomposition.MiniBatchSparsePCA", "removed in scikit-learn 1.4 (deprecated in 1.2)",
              "scikit-learn 1.2 release notes: n_iter deprecated for max_iter", [("n_iter", "max_iter", None)]),
    *[r for owner in ("matplotlib.pyplot.boxplot", "matplotlib.axes.Axes.boxplot") for r in _entries(
        owner, "renamed in Matplotlib 3.9, the old name removed in 3.11",
        "Matplotlib 3.9.0 API changes: boxplot's labels renamed tick_labels",
        [("labels", "tick_labels", None)])],
    *[r for owner in ("seaborn.FacetGrid", "seaborn.lmplot") for r in _entries(
        owner, "renamed in seaborn 0.9, the old name since removed",
        "seaborn v0.9.0 release notes: size renamed height", [("size", "height", None)])],
)


def renamed_attribute(obj, attr: str) -> Renamed | None:
    """The entry for `obj.attr`, where `obj` is (an instance of) its owner; its replacement only
    where the object has it (`get_feature_names_out` is not every estimator's)."""
    for r in ATTRIBUTES:
        if r.old == attr and _is_owned(obj, _owner(r.owner)):
            return r if r.new is None or POLICY.has_attribute(obj, r.new.split(".")[0]) else replace(r, new=None)
    return None


def renamed_keyword(func, keyword: str, value: ast.expr, keywords=()) -> Renamed | None:
    """The entry for `func(..., keyword=value)`, where `func` is its owner (a subclass of it, or
    a method of an instance); `keywords`: the call's (ast.keyword), for entries that depend on
    another argument."""
    given = {k.arg: k.value.value for k in keywords if isinstance(k.value, ast.Constant)}
    for r in KEYWORDS:
        if r.old != keyword or any(given.get(k, _ANY) != v for k, v in r.beside):
            continue
        if r.when is not _ANY and not (isinstance(value, ast.Constant) and value.value == r.when
                                       and type(value.value) is type(r.when)):
            continue
        owner = _owner(r.owner)
        if owner is not None and (func is owner or getattr(func, "__func__", None) is owner or
                                  (isinstance(func, type) and isinstance(owner, type) and issubclass(func, owner))):
            return r
    return None


def rewritten_call(r: Renamed, call: ast.Call, source_lines: list[str], namespace) -> str | None:
    """The call written as the entry says (`{receiver}`, `{qualifier}`, `{arguments}` without the
    old keyword, `{positional}`, `{keywords}`, `{module:NAME}`: the name a module is bound to);
    None when the call spans lines or a part is missing."""
    if not r.rewrite or call.lineno != call.end_lineno:
        return None
    line = source_lines[call.lineno - 1] if call.lineno <= len(source_lines) else ""

    def text(node):
        return _segment(line, node)
    kept = [k for k in call.keywords if k.arg != r.old]
    arguments = [text(a) for a in call.args] + [text(k) for k in kept]
    func = call.func
    fields = {
        "receiver": text(func.value) if isinstance(func, ast.Attribute) else None,
        "qualifier": text(func.value) + "." if isinstance(func, ast.Attribute) else "",
        "arguments": ", ".join(arguments),
        "positional": ", ".join(text(a) for a in call.args),
        "rows": _as_frame(call.args[0], text, namespace) if len(call.args) == 1 else None,
        "keywords": "".join(", " + text(k) for k in kept),
    }
    out = r.rewrite
    for module in {part.split("}")[0] for part in out.split("{module:")[1:]}:
        bound = next((k for k, v in namespace.items() if isinstance(v, types.ModuleType)
                      and getattr(v, "__name__", None) == module and k.isidentifier()), None)
        if bound is None:
            return None
        out = out.replace("{module:" + module + "}", bound)
    if any(v is None and "{" + k + "}" in out for k, v in fields.items()) or None in arguments:
        return None
    if "{positional}" in out and not call.args:
        return None
    for k, v in fields.items():
        out = out.replace("{" + k + "}", v or "")
    return out


def _as_frame(arg: ast.expr, text, namespace) -> str | None:
    """`arg` as something pandas' concat takes: a dict (one row) as `DataFrame([row])`, a list of
    dicts as `DataFrame(rows)`; a frame or Series as it is."""
    frame = next((k for k, v in namespace.items() if isinstance(v, types.ModuleType)
                  and getattr(v, "__name__", None) == "pandas" and k.isidentifier()), None)
    written = text(arg)
    if written is None or frame is None:
        return written
    if isinstance(arg, ast.Dict) or isinstance(arg, ast.Name) and type(namespace.get(arg.id)) is dict:
        return f"{frame}.DataFrame([{written}])"
    if isinstance(arg, (ast.List, ast.Tuple)) and arg.elts and all(isinstance(e, ast.Dict) for e in arg.elts) or \
            isinstance(arg, ast.Name) and type(namespace.get(arg.id)) is list and \
            namespace[arg.id] and all(type(e) is dict for e in namespace[arg.id]):
        return f"{frame}.DataFrame({written})"
    return written


def _segment(line: str, node) -> str | None:
    if node.lineno != node.end_lineno:
        return None
    data = line.encode("utf-8")
    return data[node.col_offset:node.end_col_offset].decode("utf-8", "replace")


def _owner(path: str):
    """The installed object an entry names, reached through modules already imported and their
    attributes read statically (nothing is imported or run)."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        obj = sys.modules.get(".".join(parts[:i]))
        if obj is None:
            continue
        for name in parts[i:]:
            try:
                obj = POLICY.static(obj, name)
            except AttributeError:
                return None
        return obj
    return None


def _is_owned(obj, owner) -> bool:
    if owner is None:
        return False
    if isinstance(owner, types.ModuleType):
        return obj is owner
    if isinstance(owner, type):
        return isinstance(obj, owner) or (isinstance(obj, type) and issubclass(obj, owner))
    return False
