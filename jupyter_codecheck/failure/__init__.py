"""When a cell fails: the failure as input, its cause, and a repair re-checked before it is shown.

    from jupyter_codecheck.failure import repair_failure
    fix = repair_failure(cell, exc, context=earlier_cells, namespace=shell.user_ns)

    failure   the failure read from a live exception, a traceback's text or a notebook's stored
              error output: what was raised, and the notebook's own frames
    cause     the lines that can explain it, from the text: the raising line, the lines that made
              what it reads (back through its cell and the earlier cells), the calling frames
    repair    the candidates (the facts' exact fixes, Python's near names, the model's lines
              written again between the code before and after them) and their re-check
"""
from .cause import Place, cause_lines
from .failure import Failure, Frame
from .repair import FailureRepair, Repair, hold_context, repair_failure

__all__ = ["Failure", "FailureRepair", "Frame", "Place", "Repair", "cause_lines", "hold_context", "repair_failure"]
