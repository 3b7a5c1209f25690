"""What the kernel holds, read without running the user's code: the facts a cell will crash on.

    facts = kernel_facts(cell, namespace)        # [KernelFact(kind="key", line=3, ...), ...]

Inside a kernel the objects a cell uses are there to read. A fact is an exact prediction with
its place in the cell and the exact alternatives there (near attribute names, columns,
parameters); the model only ranks those as fixes (core/evidence.py). The modules:

    namespace    a name's object through names, attributes and literal keys, never through a call
    items        an item read of a library's own container among plain labels (no user code runs)
    attributes   does an object have an attribute, read statically
    keys         does a dict, DataFrame or Series have a literal key or column
    columns      the column names a DataFrame method is given (`df.sort_values("a")`)
    signatures   do a call's arguments bind to the callable's signature
    estimators   is a scikit-learn estimator fitted, and fitted on X's columns
    parameters   the parameters scikit-learn's fit rejects before it reads the data
    displays     a ConfusionMatrixDisplay's display_labels against its matrix's classes
    renamed      names a library release renamed or removed, and their replacement (with sources)
    values       does a library's rule on its inputs' shapes reject the inputs (numpy's
                 products, broadcasting, reshape, joins, axes, indices; scikit-learn's 2-D X)
    abstract     what a known library call in the cell makes (kind, shape, dtype kind,
                 columns), for the value rules on values the cell itself makes; numpy's calls
                 read in it, pandas', scikit-learn's and matplotlib's rules functions of their
                 own (abstract_pandas, abstract_sklearn, abstract_matplotlib), the values and
                 their shape rules in abstract_value
    flow         what the cell itself rebinds or may change before a use, followed by the
                 objects' identity through aliases, containers and attributes (then no fact)
    facts        the walk over a cell that makes the facts
    run_order    names only a later cell, a failed cell or a `del` explains
    reruns       a cell run again right after it ran: the labels its first run dropped are gone
    notebook_facts  `facts_for`: the kernel's facts, the re-run's and the undefined names' reasons
                 of a cell, the one pipeline every check of a notebook cell calls
    modules      the modules a cell's imports stand for (already imported, or installed ones)
    state        KernelState: the kernel's names, live objects or none, the facts read and when

Nothing here imports the user's modules, calls their functions or reads a property; anything
unsure is no fact. `pytext/` (pycheck's AST helpers) is used, never the other way round; nothing of
`core/` (the model's check) is: the facts are a room of their own.
"""
from .attributes import attribute_names
from .facts import KernelFact, kernel_facts
from .libraries import is_library_module, is_library_path
from .modules import module_namespace, module_resolver
from .reruns import rerun_facts, with_rerun_facts
from .run_order import NotebookCells, undefined_reason, undefined_reasons
from .state import WHEN, KernelState, kernel_state
from .notebook_facts import NotebookFacts, facts_for

__all__ = ["KernelFact", "kernel_facts", "KernelState", "kernel_state", "WHEN", "NotebookCells", "undefined_reason",
           "undefined_reasons", "module_namespace", "module_resolver", "rerun_facts", "with_rerun_facts",
           "is_library_module", "is_library_path", "NotebookFacts", "facts_for", "attribute_names"]
