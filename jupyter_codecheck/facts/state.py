"""What a check knows of the notebook's kernel, as one typed value: the names it defines, its live
objects (where the check runs beside them) or none (away from them), the facts read on the cell
where the objects are, and of which state they were read.

    state = kernel_state(shell.user_ns)                                  # %%codecheck: the objects
    state = kernel_state(["df", "np"], facts=[...], when="before-run")   # the server: what the kernel sent
    check(cell, namespace=state)

`kernel_state` is the one maker: the magics, the server, the panel's kernel side and the
benchmarks call it, and the `namespace` option turns a plain mapping or list of names into one
through it, so the option always holds a KernelState.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .facts import KernelFact

# when the facts were read, as the panel says it (views/panel_kernel.py):
#   before-run  just before the cell ran (the objects it runs on)
#   now         the objects as they are (a cell that has not run in this kernel)
#   ran         the cell's text already ran: the objects hold the state after it, no facts read
WHEN = ("before-run", "now", "ran")


@dataclass(frozen=True, eq=False)
class KernelState:
    names: frozenset              # every name the kernel defines (never undefined in a check)
    objects: Mapping | None       # the live objects by name (read, never copied or run); None: names only
    facts: tuple | None           # KernelFacts read on the cell where the objects are; None: not read
    when: str | None              # one of WHEN; None: not said

    @property
    def defined(self) -> Mapping | frozenset:
        """What Python's checks and the fact readers take: the live objects where there are,
        else the names."""
        return self.objects if self.objects is not None else self.names

    def with_facts(self, facts, when: str | None = None) -> KernelState:
        """The same kernel, its names and objects as they are (never copied), with the facts read
        on a cell where the objects are, and when (auto mode hands the exact check's facts to the
        model's check so they are not read twice)."""
        return kernel_state(self.objects if self.objects is not None else self.names, facts=facts, when=when)

    def to_dict(self) -> dict:
        """The JSON the panel's kernel side sends (no objects: they stay in the kernel)."""
        return {"names": sorted(self.names), "objects": self.when,
                "facts": None if self.facts is None else [f.to_dict() for f in self.facts]}


def kernel_state(namespace: Mapping | Iterable[str] | None = None, *, facts=None,
                 when: str | None = None) -> KernelState:
    """The one maker of a KernelState. `namespace`: the kernel's objects by name (its user_ns;
    kept as given, never copied) or the names alone; `facts`: KernelFacts or their dicts, read
    where the objects are (None: not read); `when`: one of WHEN. Bad input raises TypeError or
    ValueError naming the argument ("namespace:", "facts:", "when:") without formatting any
    object."""
    if namespace is None:
        namespace = ()
    if isinstance(namespace, Mapping):
        objects, names = namespace, frozenset(k for k in namespace if isinstance(k, str))
    elif isinstance(namespace, str) or not isinstance(namespace, Iterable):
        raise TypeError(f"namespace: a mapping of names to objects or a list of names, "
                        f"not {type(namespace).__name__}")
    else:
        names, objects = tuple(namespace), None
        if not all(isinstance(n, str) for n in names):
            raise TypeError("namespace: the names are not all strings")
        names = frozenset(names)
    if facts is not None:
        if isinstance(facts, (str, Mapping)) or not isinstance(facts, Iterable):
            raise TypeError(f"facts: a list of KernelFacts or their dicts, not {type(facts).__name__}")
        try:
            facts = tuple(f if isinstance(f, KernelFact) else KernelFact.from_dict(f) for f in facts)
        except (TypeError, KeyError, ValueError, AttributeError) as e:
            raise ValueError(f"facts: not KernelFacts or their dicts ({type(e).__name__}: {e})") from None
    if when is not None and when not in WHEN:
        raise ValueError(f"when: {when!r} is none of {', '.join(WHEN)}")
    return KernelState(names, objects, facts, when)


__all__ = ["WHEN", "KernelState", "kernel_state"]
