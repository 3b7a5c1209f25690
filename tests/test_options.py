"""The options contract (jupyter_codecheck/core/options.py): every view accepts and refuses the same
option values, the schemas agree with it, and the package's imports form no cycle and keep
ARCHITECTURE.md's room rules. No model needed."""
from __future__ import annotations

import argparse
import ast
import json
import re
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

import jupyter_codecheck
from jupyter_codecheck.core.options import CONTEXT_CHARS, OPTIONS, CheckOptions, OptionError, option, parse_text
from jupyter_codecheck.core.result import FINDING_KINDS
from jupyter_codecheck.views import cli, pytest_plugin
from jupyter_codecheck.views.magics import CodecheckMagics
from jupyter_codecheck.views.server.requests import RequestError, parse_options

PACKAGE = Path(jupyter_codecheck.__file__).resolve().parent
REPO = Path(__file__).resolve().parents[1]       # the source tree (the package may be installed)

# (flag, text as typed, accepted?)
CASES = [
    ("prob", "0.2", True), ("prob", "1", True), ("prob", "none", True),
    ("prob", "0", False), ("prob", "1.5", False), ("prob", "-0.1", False), ("prob", "abc", False),
    ("rank", "0", True), ("rank", "9", True), ("rank", "none", True),
    ("rank", "-1", False), ("rank", "2.5", False),
    ("threads", "1", True), ("threads", "none", True), ("threads", "0", False),
    ("mode", "batched", True), ("mode", "sequential", True), ("mode", "fast", False),
    ("exit-policy", "head", True), ("exit-policy", "none", True),
    ("exit-policy", "ref-rank:3+ref-prob:0.1,min:2,every:3", True), ("exit-policy", "bogus", False),
    ("model", "x.gguf", True),
    ("ignore", "key", True), ("ignore", "key,undefined-name", True), ("ignore", "none", True),
    ("ignore", "kye", False), ("ignore", "key,warning", False),
    ("repair-margin", "7.75", True), ("repair-margin", "none", True), ("repair-margin", "high", False),
]


@pytest.fixture(scope="module")
def magics():
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "jupyter_codecheck")
    yield next(m for m in shell.magics_manager.registry.values() if isinstance(m, CodecheckMagics))
    shell.run_line_magic("unload_ext", "jupyter_codecheck")


def _json_value(text):
    """What a JSON client (the panel) sends for a typed text."""
    if text == "none":
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _cli(flag, text):
    try:
        args = cli.build_parser().parse_args([f"--{flag}", text, "x.py"])
    except SystemExit:
        return False
    try:
        cli._options(args)
    except cli.FatalError:
        return False
    return True


def _magic_flag(magics, flag, text):
    try:
        magics.parse_cell_line(f"--{flag} {text}")
    except UsageError:
        return False
    return True


def _magic_set(magics, flag, text):
    before = dict(magics.defaults.options)
    try:
        magics.set_defaults([f"{flag}={text}"])
    except UsageError:
        return False
    finally:
        magics.defaults.options = before
    return True


class _Config:
    """What pytest_configure reads of pytest's config."""
    def __init__(self, option):
        self.option, self.stash = option, {}

    def getoption(self, name):
        return getattr(self.option, name)

    def addinivalue_line(self, *_):
        pass


def _pytest_plugin(flag, text):
    parser = argparse.ArgumentParser(exit_on_error=False)

    class Group:
        addoption = staticmethod(parser.add_argument)
    pytest_plugin.pytest_addoption(type("P", (), {"getgroup": lambda self, *a: Group()})())
    try:
        ns = parser.parse_args(["--codecheck", f"--codecheck-{flag}", text])
    except (argparse.ArgumentError, SystemExit):
        return False
    try:
        pytest_plugin.pytest_configure(_Config(ns))
    except pytest.UsageError:
        return False
    return True


def _server(name, value):
    try:
        parse_options({name: value}, server_model=None, allow_client_model=True)
    except RequestError as e:
        assert e.status == 400
        return False
    return True


def _check_kwargs(name, value):
    try:
        CheckOptions.from_kwargs(**{name: value})
    except (TypeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("flag, text, ok", CASES)
def test_every_view_accepts_and_refuses_the_same_values(magics, flag, text, ok):
    name = option(flag).name
    seen = {"contract": _accepts_text(flag, text), "cli": _cli(flag, text),
            "%%codecheck": _magic_flag(magics, flag, text), "%codecheck set": _magic_set(magics, flag, text),
            "pytest": _pytest_plugin(flag, text),
            "check()": _check_kwargs(name, _json_value(text) if option(flag).kind != "model" else text)}
    if option(flag).scope == "view":         # the server owns the model and the thread count
        seen["server"] = _server(name, _json_value(text))
    assert seen == {view: ok for view in seen}


def _accepts_text(flag, text):
    try:
        parse_text({flag: text})
    except OptionError:
        return False
    return True


def test_one_error_style_names_the_option():
    with pytest.raises(OptionError, match=r"^prob: '0' is not a probability in \(0, 1\], or none$"):
        parse_text("prob=0")
    with pytest.raises(OptionError, match="^accept_prob: 0 is not a probability"):
        CheckOptions.from_kwargs(accept_prob=0)
    with pytest.raises(TypeError, match="unknown option 'acept_prob'"):
        CheckOptions.from_kwargs(acept_prob=0.3)
    with pytest.raises(OptionError, match="enable one"):
        parse_text("prob=none rank=none")


def test_from_kwargs_builds_the_rule_and_the_policy():
    opts = CheckOptions.from_kwargs(accept_prob=0.1, exit_policy="default")
    assert opts.acceptance_rule().prob == 0.1
    assert opts.policy_spec(have_lens=False) == "head"
    assert CheckOptions.from_kwargs(kv_mode="propagate").policy_spec(have_lens=True) == "lens"
    assert CheckOptions.from_text("prob=0.3 rank=none").accept_rank is None


LAB_SCHEMAS = [PACKAGE / "labextension/schemas/jupyter-codecheck/plugin.json",   # the built copy
               REPO / "labextension/schema/plugin.json"]                          # the source tree's


def _lab_schemas():
    found = [path for path in LAB_SCHEMAS if path.exists()]
    assert found, "no lab settings schema beside the package"
    return [(path, json.loads(path.read_text())["properties"]) for path in found]


def test_the_lab_settings_schema_agrees_with_the_contract():
    to_option = {"modelPath": "model", "acceptProb": "accept_prob", "acceptRank": "accept_rank",
                 "exitPolicy": "exit_policy", "mode": "mode", "ignore": "ignore"}
    for path, props in _lab_schemas():
        for key, name in to_option.items():
            o, p = option(name), props[key]
            if o.low is not None:
                bound = "exclusiveMinimum" if o.low_open else "minimum"
                assert p.get(bound) == o.low, (path, key)
            if o.high is not None:
                assert p.get("exclusiveMaximum" if o.high_open else "maximum") == o.high, (path, key)
            if o.kind == "choice":
                assert [c for c in _choices(p) if c is not None] == list(o.choices), (path, key)
            if o.kind == "kinds":
                assert p["items"]["enum"] == list(FINDING_KINDS) and p["default"] == [], (path, key)
        assert set(props) - set(to_option) <= {"contextChars", "autoCheckOnRun", "highlights", "backend"}
        # the panel reads as much earlier code as every other view
        assert props["contextChars"]["default"] == CONTEXT_CHARS, path


def _choices(prop: dict) -> list:
    """The values a settings property offers (an enum, or a oneOf of constants with titles)."""
    return list(prop["enum"]) if "enum" in prop else [alt["const"] for alt in prop["oneOf"]]


def test_the_settings_editor_names_every_choice():
    # the editor shows an enum's values as they are: null read "null" in the Mode dropdown; a
    # choice that may be unset is a oneOf of constants, each with the title the editor shows
    for path, props in _lab_schemas():
        for key, prop in props.items():
            if None in prop.get("enum", ()):
                raise AssertionError(f"{path}: {key} lists null among its choices: the editor shows 'null'")
            for alt in prop.get("oneOf", ()):
                assert "const" in alt and alt.get("title"), (path, key, alt)


@pytest.mark.parametrize("key, name, values", [
    ("acceptProb", "accept_prob", [0, 1e-9, 0.2, 1, 1.0000001, -0.1, "0.2"]),
    ("acceptRank", "accept_rank", [-1, 0, 3, 2.5, "3"]),
    ("mode", "mode", ["batched", "sequential", "fast", 1]),
    ("ignore", "ignore", [[], ["key"], ["key", "change"], ["kye"], [1]]),
])
def test_the_lab_settings_and_the_server_accept_the_same_values(key, name, values):
    # what the settings editor lets through is what the panel sends (null: nothing is sent)
    jsonschema = pytest.importorskip("jsonschema")
    for path, props in _lab_schemas():
        schema = jsonschema.Draft7Validator(props[key])
        for value in values:
            assert schema.is_valid(value) == _server(name, value), (path, key, value)


def test_the_panel_leaves_the_choice_of_context_to_the_core():
    # the panel sends the notebook's cells; core.long_sources.cell_check picks the context (server or
    # kernel), with the panel's budget, whose default is the core's
    settings = (REPO / "labextension/src/settings.ts").read_text()
    assert f"contextChars: {CONTEXT_CHARS}," in settings
    sources = "".join(p.read_text() for p in (REPO / "labextension/src").glob("*.ts"))
    assert "selectContext" not in sources and "2 * budget" not in sources
    # in the kernel, the panel's entry point picks it (views/panel_kernel.py)
    assert "cell_check(" in (PACKAGE / "views/panel_kernel.py").read_text()


def test_every_finding_kind_may_be_ignored_and_has_a_report_rule():
    # the `ignore` option and `# codecheck: ignore[...]` take the kinds findings are made with
    from jupyter_codecheck.core.evidence import KERNEL_KINDS
    from jupyter_codecheck.facts.facts import KINDS
    from jupyter_codecheck.views.report import RULES
    assert set(KINDS) | set(KERNEL_KINDS) <= set(FINDING_KINDS)
    assert set(RULES) == set(FINDING_KINDS)
    assert CheckOptions.from_text("ignore=key,call,key").ignore == ("key", "call")
    assert CheckOptions.from_kwargs(ignore=None).ignore == () == CheckOptions.from_text("ignore=none").ignore
    with pytest.raises(OptionError, match=r"^ignore: unknown finding kind 'kye', 'warning'; kinds: syntax, "):
        parse_text("ignore=kye,warning")


def test_every_option_has_help_and_a_default_it_accepts():
    for o in OPTIONS:
        assert o.help and o.kind
        assert o.check(o.default) == o.default or o.kind == "cancel"


# -- imports ------------------------------------------------------------------------------------

ROOT = "jupyter_codecheck"
# ARCHITECTURE.md's rooms and what each never imports (its table's last column). A module belongs
# to the deepest room that holds it; a rule names a room and its subrooms. The kernel facts (facts/)
# are a room of their own beside engine/ and decoding/: no arrow into the model's check (core/).
NEVER_IMPORTS = {
    "pytext": {"engine", "decoding", "facts", "core", "views", "tools"},
    "engine": {"decoding", "facts", "core", "views", "tools"},
    "decoding": {"engine", "facts", "core", "views", "tools"},
    "facts": {"engine", "decoding", "core", "views", "tools"},
    "core": {"failure", "views", "tools"},
    "failure": {"views", "tools"},
    "views": {"engine", "decoding"},
    "tools": {"views", "failure"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree):
    """Every node but those under `if TYPE_CHECKING:` (imports for annotations only)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _imports(annotations: bool = False) -> dict[str, set[str]]:
    """Every module of the package -> the package's modules it imports (lazily too; with
    `annotations`, under `if TYPE_CHECKING:` too)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text())
        out = set()
        for node in (ast.walk(tree) if annotations else _runtime_nodes(tree)):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    out.add(sub if sub in modules else target)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                out.add(node.args[0].value)      # importlib.import_module("jupyter_codecheck....")
        graph[name] = {m for m in out if m in modules and m != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}
    cycles = []

    def visit(node, stack):
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def _room(module: str) -> str | None:
    """The deepest room of NEVER_IMPORTS that holds `module` (None: the package's root)."""
    inner = module.removeprefix(ROOT + ".")
    rooms = [r for r in NEVER_IMPORTS if inner == r or inner.startswith(r + ".")]
    return max(rooms, key=len) if rooms else None


def _in(room: str | None, rule: str) -> bool:
    return room is not None and (room == rule or room.startswith(rule + "."))


def test_the_package_has_no_import_cycles():
    cycles = _cycles(_imports())
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_engine_imports_go_one_way():
    """Inside the engine not even an import for annotations goes back (Model.session() makes
    sessions, so a session names what it uses of its model instead of importing it)."""
    engine = f"{ROOT}.engine"
    graph = {name: {d for d in deps if d.startswith(engine)}
             for name, deps in _imports(annotations=True).items() if name.startswith(engine)}
    assert len(graph) > 5
    cycles = _cycles(graph)
    assert not cycles, "engine import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_no_room_imports_what_architecture_md_says_it_never_imports():
    broken = []
    for name, deps in _imports().items():
        room = _room(name)
        for dep in deps:
            if room is not None and any(_in(_room(dep), rule) for rule in NEVER_IMPORTS[room]):
                broken.append(f"{name} -> {dep}")
    assert not broken, "imports across the rooms' rules: " + "; ".join(sorted(broken))


def test_architecture_md_states_the_rules_the_imports_are_held_to():
    rows = re.findall(r"^\| `jupyter_codecheck/([\w/]+)/` \|.*\| ([^|]+) \|$",
                      (REPO / "ARCHITECTURE.md").read_text(), re.M)
    table = {folder.replace("/", "."): set(never.split("(")[0].replace(",", " ").split())
             for folder, never in rows}
    assert table == NEVER_IMPORTS


def test_architecture_md_draws_the_engine_imports_as_they_are():
    blocks = (REPO / "ARCHITECTURE.md").read_text().split("```")[1::2]
    block = next(b for b in blocks if "session -> " in b)
    drawn = {name: set(deps.replace(",", " ").split())
             for name, deps in re.findall(r"(\w+) +-> +([\w, ]+?)(?= {2,}|$)", block, re.M)}
    engine = f"{ROOT}.engine."
    actual = {name.removeprefix(engine): {d.removeprefix(engine) for d in deps if d.startswith(engine)}
              for name, deps in _imports(annotations=True).items() if name.startswith(engine)}
    assert drawn == {name: deps for name, deps in actual.items() if deps}


def test_views_use_only_the_core_api():
    graph = _imports()
    allowed = {ROOT, f"{ROOT}._version", f"{ROOT}.core.machine", f"{ROOT}.core.check", f"{ROOT}.core.options", f"{ROOT}.core.result",
               f"{ROOT}.core.long_sources", f"{ROOT}.pytext.sources", f"{ROOT}.core.errors",
               f"{ROOT}.facts",    # kernel facts, read where the objects are
               f"{ROOT}.core.exact_findings",     # the exact part alone, before a cell runs (auto mode)
               f"{ROOT}.pytext.automagic",     # what IPython runs as a line magic without its `%`
               f"{ROOT}.failure"}     # a failed cell's cause and repair, by its API (failure/__init__.py)
    # the CLI's `calibrate` subcommand hands its arguments to the tool's own command line
    subcommands = {f"{ROOT}.views.cli": {f"{ROOT}.tools.calibrate"}}
    for name, deps in graph.items():
        if name.startswith(f"{ROOT}.views"):
            outside = ({d for d in deps if not d.startswith(f"{ROOT}.views")} - allowed
                       - subcommands.get(name, set()))
            assert not outside, f"{name} reaches past the core's API: {sorted(outside)}"


def test_the_panel_calls_one_public_entry_point_in_the_kernel():
    """The Python the panel runs in the kernel is one call of a public function by name, in a
    module of the views that these rules hold: no source of the package's internals in the
    TypeScript, where no import test would see it."""
    import importlib
    from jupyter_codecheck.views.auto_mode import PANEL_CALL
    sources = {p.name: p.read_text() for p in (REPO / "labextension/src").glob("*.ts")}
    calls = {m for text in sources.values()
             for m in re.findall(r'__import__\("(jupyter_codecheck[\w.]*)", fromlist=\["(\w+)"\]\)\.(\w+)\(', text)}
    assert len(calls) == 1, calls
    (module, imported, called), = calls
    assert imported == called and module in _imports() and _room(module) == "views"
    assert called in importlib.import_module(module).__all__
    for name, text in sources.items():     # nothing else of the package's Python in the panel
        assert not re.search(r"\b(from|import) jupyter_codecheck", text), name
        assert "get_ipython()" not in text and "def __codecheck" not in text, name
    # auto mode tells the panel's code from the user's cells by how the call starts
    assert PANEL_CALL == f'__import__("{module}"'


def test_the_kernel_state_has_one_maker():
    """A KernelState is made by facts.kernel_state() alone: no other place in the package or the
    benchmarks calls the class, and the option holds one whatever it was given."""
    makers = []
    for path in [*PACKAGE.rglob("*.py"), *(REPO / "bench").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "KernelState":
                makers.append(path.name)
    assert makers == ["state.py"]
    callers = {p.relative_to(REPO).as_posix() for p in [*PACKAGE.rglob("*.py"), *(REPO / "bench").glob("*.py")]
               if re.search(r"\bkernel_state\(", p.read_text())}
    for room in ("views/magics.py", "views/server/requests.py", "views/panel_kernel.py", "bench/"):
        assert any(room in c for c in callers), room


def test_what_the_text_says_never_imports_what_the_kernel_holds():
    graph = _imports()
    text_rooms = [n for n in graph if n in (f"{ROOT}.pytext.pycheck", f"{ROOT}.pytext.pysource")]
    assert text_rooms
    for name in text_rooms:
        assert not {d for d in graph[name] if d.startswith(f"{ROOT}.facts")}, name


def test_architecture_md_names_only_files_that_exist():
    root = REPO
    text = (root / "ARCHITECTURE.md").read_text()
    named = set(re.findall(r"`((?:core|decoding|engine|facts|pytext|views|tools)/[\w/]+\.py)`", text))
    named |= set(re.findall(r"`((?:native|tests)/[\w/.]+\.(?:py|cpp|h))`", text))
    assert named
    missing = sorted(p for p in named
                     if not (PACKAGE / p).exists() and not (root / p).exists())
    assert not missing, f"ARCHITECTURE.md names files that do not exist: {missing}"


def test_the_namespace_is_always_a_kernel_state_and_names_is_gone():
    from jupyter_codecheck.facts import KernelState, kernel_state
    from jupyter_codecheck.core.options import validate
    with pytest.raises(OptionError, match="'names' is now 'namespace'"):
        validate({"names": ["df"]})
    live = {"df": object()}
    state = validate({"namespace": live})["namespace"]
    assert isinstance(state, KernelState) and state.objects is live     # objects: never copied
    assert state.names == {"df"} and state.facts is None
    names = validate({"namespace": ["a", "b"]})["namespace"]
    assert (names.names, names.objects, names.defined) == ({"a", "b"}, None, {"a", "b"})
    given = kernel_state(["a"], facts=[], when="before-run")
    assert validate({"namespace": given})["namespace"] is given
    for bad in ("df", [1], 3):
        with pytest.raises(OptionError, match="^namespace: "):
            validate({"namespace": bad})
    with pytest.raises(ValueError, match="^when: 'later' is none of before-run, now, ran"):
        kernel_state(["a"], when="later")
    with pytest.raises(ValueError, match="^facts: not KernelFacts"):
        kernel_state(["a"], facts=[{"kind": "key"}])


def test_a_namespace_is_taken_without_the_repr_of_its_objects():
    """A kernel's namespace is every object the user has: validating it runs none of their code
    and formats none of their data (an error message is made only when one is raised)."""
    ran = []

    class Loud:
        def __repr__(self):
            ran.append("__repr__")
            return "Loud()"
    namespace = {"loud": Loud(), "rows": list(range(5))}
    assert CheckOptions.from_kwargs(namespace=namespace).namespace.objects is namespace
    assert ran == []
