"""Python's own methods of str, bytes, list, tuple, dict, set, int and float asked on the values
themselves (facts/python_types.python_method_claim): a literal, one the cell wrote, or the
kernel's plain value, with arguments known so. Each claim is the exception Python raises running
the cell; no claim where the cell runs, the value is not known, or the work would be large."""
from __future__ import annotations

import pytest

from jupyter_codecheck.core.exact_findings import exact_check


def _ns():
    import re
    return {"re": re, "line": "the quick brown fox jumped over a lazy dog", "pi": 3.14159, "L": [2, 5, 1],
            "d": {"a": 1}, "x": 0.125, "words": ("a", "b")}


def _raised(cell: str):
    try:
        exec(compile(cell, "<cell>", "exec"), _ns())
    except Exception as e:  # noqa: BLE001 - whatever Python raises is compared
        return e
    return None


REFUSED = [
    'num = "000000000000435"\nnum.strip(0)',
    "'435'.rjust('0', 10)",
    "line.index('Fox')",
    "line.endswith(['dog', 'cat'])",
    "line.split('')",
    "'--'.join([1, 2, 3])",
    "'First: {0}. Last: {1}.'.format('A')",
    "'First: {first}. Last: {last}.'.format(last='Z', frist='A')",
    "'pi = {0:.3f}'.format(str(pi))",
    "M = [2, 5, 1, 6]\nM.sort(reversed=True)",
    "L.remove(99)",
    "d.pop('b')",
    "e = {'a': 1}\ne.pop('b')",
    "words.index('c')",
    "'abc'.encode(5)",
    "(255).to_bytes(1, 'middle')",
    # a pattern re refuses to compile
    "regex = re.compile('[aeiou')",
    "re.findall('(a', line)",
    "p = '*x'\nre.sub(p, '', line)",
    # a list's item set past its end
    "L[3] = 100",
    "L[-4] = 0",
]

TAKEN = [
    "line.index('fox')",
    "'pi = {0:.3f}'.format(pi)",
    "L.sort(reverse=True)",
    "'--'.join(['1', '2'])",
    "d.pop('b', None)",
    "'{:>10}'.format('a')",
    "x.as_integer_ratio()",
    "re.compile('[aeiou]')",
    "re.findall(r'(a)', line)",
    "re.compile('(?x) [a', re.X) if False else None",
    "L[2] = 100",
    "e = {'a': 1}\ne.update(b=2)\ne.pop('b')",
    "e = {'a': [1]}\nf = e\nf['b'] = 1\ne.pop('b')",
    "L[-3] = 0",
]


@pytest.mark.parametrize("cell", REFUSED)
def test_a_python_method_python_refuses_is_claimed_and_certain(cell):
    raised = _raised(cell)
    found = exact_check(cell, _ns())
    assert raised is not None and found.findings, (cell, raised)
    fact = found.findings[-1]
    assert fact.message.endswith(f": {type(raised).__name__}"), (fact.message, raised)
    assert [f.line for f in found.certain] == [fact.line]


@pytest.mark.parametrize("cell", TAKEN)
def test_no_claim_where_python_takes_the_call(cell):
    assert _raised(cell) is None
    assert exact_check(cell, _ns()).findings == []


@pytest.mark.parametrize("cell", [
    "'{:100000}'.format(1)",                        # a large width: not asked
    "'a'.center(10**7)",                             # a large argument: not asked
    "s = input_text()\ns.index('x')",                # a value the cell does not know
    "L.append(5)\nL.remove(5)\nL.remove(5)",         # the list the cell changed: not its value now
    "d['b'] = 2\nd.pop('b')",
    "re.compile('[a', flags=0)",                      # flags given: not read
    "s = 'ab' * 1500\nif False:\n    s.replace('', s)",   # what it would build grows with the text: not asked
    "'abc'.encode('no-such-codec')",                  # a codec by name: a search the user registered may run
    "class R:\n    def compile(p):\n        return p\nre = R\nre.compile('[a')",   # the module's name bound again first
])
def test_no_claim_where_the_value_is_not_known_or_the_work_would_be_large(cell):
    assert not any(f.kind == "value" and "()" in f.message for f in exact_check(cell, _ns()).findings
                   if "input_text" not in f.message), cell
