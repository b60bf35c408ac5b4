"""Structural rules of the code base."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def domain_modules() -> list[Path]:
    return sorted(
        p for app in ("tourney", "tables", "clocks") for p in (ROOT / app / "domain").rglob("*.py")
    )


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_there_are_domain_modules():
    assert len(domain_modules()) >= 5


def test_no_domain_module_imports_django_or_the_apps_outside_domain():
    offenders = {}
    for path in domain_modules():
        bad = {
            name
            for name in imported_modules(path)
            if name.split(".")[0] in {"django", "ninja", "celery", "redis"}
            or (name.split(".")[0] in {"tourney", "tables", "clocks"} and ".domain" not in name)
        }
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


# --- The import graph, sizes: ratchets that only tighten (docs/architecture.md) -------------------
#
# Every `import` and `from ... import` counts, at module level or inside a function. The lists
# below are what is left to fix: a module or function may leave them, none may join them. When
# one leaves, take it off the list (and lower the count) so that it cannot come back.

APPS = ("infra", "tourney", "tables", "clocks")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

# Modules that are part of an import cycle: none any more (there were 13 in 2 knots).
CYCLIC_MODULES: set[str] = set()
MAX_IMPORT_CYCLES = 0  # elementary cycles (there were 13)

OVERSIZE_MODULES: set[str] = set()  # none any more

OVERSIZE_FUNCTIONS: set[str] = set()  # none any more


def product_files() -> dict[str, Path]:
    """Module name -> file, for every product module (migrations aside)."""
    files = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if "migrations" in rel.parts:
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def import_names(source: str, package: str) -> list[str]:
    """Every dotted name the imports of `source` (a module of `package`) can mean, anywhere in
    the file: `from a import b` gives `a` and `a.b` (b may be a module), relative imports are
    made absolute."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            names.extend([base, *(f"{base}.{alias.name}" for alias in node.names)])
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the product modules it imports (anywhere in its file)."""
    files = product_files()

    def resolve(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        graph[module] = {
            found
            for name in import_names(path.read_text(), package)
            if name.split(".")[0] in APPS and (found := resolve(name)) and found != module
        }
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one module (the import cycles)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def elementary_cycles(graph: dict[str, set[str]], component: set[str]) -> int:
    """How many distinct elementary cycles run through `component` (each counted once)."""
    order = sorted(component)
    count = 0
    for i, start in enumerate(order):
        allowed = set(order[i:])

        def walk(node: str, seen: set[str], start: str = start, allowed: set[str] = allowed):
            nonlocal count
            for nxt in graph[node] & allowed:
                if nxt == start:
                    count += 1
                elif nxt not in seen:
                    walk(nxt, seen | {nxt})

        walk(start, {start})
    return count


def test_the_import_graph_sees_imports_inside_functions():
    graph = import_graph()
    # tourney/system/api.py mounts the other routers from inside a function.
    assert "tables.seating.api" in graph["tourney.system.api"]


def test_no_module_joins_an_import_cycle():
    graph = import_graph()
    components = strongly_connected(graph)
    cyclic = set().union(*components) if components else set()
    cycles = sum(elementary_cycles(graph, component) for component in components)
    assert cyclic <= CYCLIC_MODULES, f"new modules in an import cycle: {cyclic - CYCLIC_MODULES}"
    assert cycles <= MAX_IMPORT_CYCLES, f"{cycles} import cycles, at most {MAX_IMPORT_CYCLES}"


def oversize() -> tuple[set[str], set[str]]:
    modules, functions = set(), set()
    for path in product_files().values():
        rel = str(path.relative_to(ROOT))
        source = path.read_text()
        if source.count("\n") > MAX_MODULE_LINES:
            modules.add(rel)

        def visit(node: ast.AST, prefix: str, rel: str = rel) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    name = prefix + child.name
                    lines = child.end_lineno - child.lineno + 1
                    if not isinstance(child, ast.ClassDef) and lines > MAX_FUNCTION_LINES:
                        functions.add(f"{rel}:{name}")
                    visit(child, name + ".")
                else:
                    visit(child, prefix)

        visit(ast.parse(source, rel), "")
    return modules, functions


def test_no_module_over_600_lines_and_no_function_over_80():
    modules, functions = oversize()
    assert modules <= OVERSIZE_MODULES, (
        f"over {MAX_MODULE_LINES} lines: {modules - OVERSIZE_MODULES}"
    )
    assert functions <= OVERSIZE_FUNCTIONS, (
        f"over {MAX_FUNCTION_LINES} lines: {functions - OVERSIZE_FUNCTIONS}"
    )


# Test files still named for an issue rather than for what they test (being written to now);
# none may join.
ISSUE_NAMED_TESTS: set[str] = set()  # ("test_*issue<N>*.py")


def test_test_files_are_named_for_what_they_test():
    named = {str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*issue[0-9]*.py")}
    assert named <= ISSUE_NAMED_TESTS, f"name them for what they test: {named - ISSUE_NAMED_TESTS}"


# --- Tests share helpers through helper modules, never through another test module ------------
#
# A test or benchmark module (test_*.py, bench_*.py) takes its fixtures, builders and checks from
# modules named for what they are (tests/factories.py, tests/conftest.py, tests/sse_client.py,
# tests/clocks/level_changes.py, ...), never from another test or benchmark module: a test file
# is then read, moved or deleted on its own, and nothing it defines is collected twice.


def is_test_module(path: Path) -> bool:
    return path.name.startswith(("test_", "bench_"))


def modules_under_tests() -> dict[str, Path]:
    """Module name -> file, for every module under tests/."""
    files = {}
    for path in (ROOT / "tests").rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def imported_test_modules(source: str, package: str, files: dict[str, Path]) -> set[str]:
    """The test and benchmark modules that `source` (a module of `package`) imports, in any
    form (`import a.b`, `from a import b`, `from .b import c`), anywhere in the file."""
    found = set()
    for name in import_names(source, package):
        while name and name not in files:
            name = name.rpartition(".")[0]
        if name and is_test_module(files[name]):
            found.add(name)
    return found


def test_the_check_sees_every_form_of_import():
    files = modules_under_tests()
    source = (
        "import tests.clocks.test_color_ups\n"
        "from tests.tourney import test_event_stream\n"
        "from .test_domain_clock import started\n"
        "def f():\n"
        "    from tests.benchmarks.bench_registration import target_ms\n"
        "from tests.factories import make_players\n"
    )
    assert imported_test_modules(source, "tests.clocks", files) == {
        "tests.clocks.test_color_ups",
        "tests.tourney.test_event_stream",
        "tests.clocks.test_domain_clock",
        "tests.benchmarks.bench_registration",
    }


def test_no_test_module_imports_another_test_module():
    # Helper modules (conftest.py, factories.py, ...) included: through one, a test module
    # would import another all the same.
    files = modules_under_tests()
    offenders = {}
    for module, path in sorted(files.items()):
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        if imported := imported_test_modules(path.read_text(), package, files) - {module}:
            offenders[str(path.relative_to(ROOT))] = sorted(imported)
    assert offenders == {}, f"import from a helper module named for what it is: {offenders}"


# --- One way through: the sub-domains' operations do not call one another ------------------------
#
# A bust-out, a clock change and a hand report cross the floor, the eliminations, hand-for-hand
# and the clock; only their use cases may (docs/architecture.md, "One way through"). An
# operation returns what follows from it (a plan that formed the final table, a winner, a
# hand-for-hand hand's time to take off the clock) and its use case calls the next
# sub-domain's operation. So no operations module imports another sub-domain's operations.

SUBDOMAIN_OPERATIONS: dict[str, set[str]] = {
    "floor": {"tables.floor.operations", "tables.floor_actions.operations"},
    "eliminations": {"tourney.eliminations.operations", "tourney.eliminations.selectors"},
    "hand_for_hand": {"tables.hand_for_hand.operations"},
    "clock": {"clocks.clock.operations"},
    "absence": {"tourney.absence.operations"},
}


def test_the_sub_domains_operations_do_not_import_one_another():
    graph = import_graph()
    crossings = set()
    for domain, modules in SUBDOMAIN_OPERATIONS.items():
        others = set().union(*(m for d, m in SUBDOMAIN_OPERATIONS.items() if d != domain))
        for module in modules:
            assert module in graph, f"{module} is gone: update SUBDOMAIN_OPERATIONS"
            crossings.update(f"{module} -> {target}" for target in graph[module] & others)
    assert crossings == set()


# --- One home per feature: every module is named for its layer ------------------------------------
#
# A feature is `<app>.<feature>` and its modules are named for their layer, so that the contracts
# of pyproject.toml, written with wildcards, place every module without naming it
# (docs/architecture.md, "Where things live").

LAYER_MODULES = {
    "api",
    "views",
    "urls",
    "forms",
    "schemas",
    "tasks",  # faces
    "usecases",
    "follow",
    "operations",
    "selectors",
}
APP_TOP = {"__init__", "apps", "models", "urls", "admin", "tasks"}
PROJECT_TOP = {"settings", "asgi", "wsgi", "celery"}
# Packages placed whole: the kernel, the composition root, the event streams (a face), the
# developer tools (a face), and what Django itself looks for.
WHOLE_PACKAGES = {
    "tourney.core",
    "tourney.system",
    "tourney.streams",
    "tables.devtools",
    "domain",
    "migrations",
    "management",
    "templatetags",
    "formats",
    "models",  # tourney.models: a package (the app's models, a module per topic past 600 lines)
}
KERNEL_LOGS = {"tourney.audit.log", "tourney.events.log"}


def test_nothing_loose_at_an_apps_top_and_no_services_folder():
    loose = []
    for app in ("tourney", "tables", "clocks"):
        allowed = APP_TOP | (PROJECT_TOP if app == "tourney" else set())
        loose += [f"{app}/{p.name}" for p in (ROOT / app).glob("*.py") if p.stem not in allowed]
        loose += [str(p.relative_to(ROOT)) for p in (ROOT / app).rglob("services") if p.is_dir()]
    assert loose == [], "give each module a feature of its own and name it for its layer"


def test_every_feature_module_is_named_for_its_layer():
    unplaced = []
    for module in product_files():
        parts = module.split(".")
        if parts[0] == "infra" or len(parts) < 3 or parts[-1] == "__init__":
            continue
        feature = ".".join(parts[:2])
        if feature in WHOLE_PACKAGES or parts[1] in WHOLE_PACKAGES or module in KERNEL_LOGS:
            continue
        if parts[2] not in LAYER_MODULES:
            unplaced.append(module)
    assert unplaced == [], "outside every layer: name it api, views, ..., operations, selectors"


def test_the_contracts_name_at_most_40_module_expressions():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    named = 0
    for contract in config["contracts"]:
        for key in ("source_modules", "forbidden_modules", "modules", "layers", "containers"):
            named += len(contract.get(key, []))
    assert named <= 40


def test_what_follows_a_bust_out_goes_one_way():
    """The eliminations' follow-up calls the floor's, which calls hand-for-hand's: never back."""
    graph = import_graph()
    order = ["tourney.eliminations.follow", "tables.floor.follow", "tables.hand_for_hand.follow"]
    back = [
        f"{low} -> {high}"
        for i, high in enumerate(order)
        for low in order[i + 1 :]
        if high in graph.get(low, set())
    ]
    assert back == []


def test_transactions_are_the_use_cases_and_durable():
    """A use case is the only transaction, `atomic(durable=True)`: one called inside another's
    fails in tests at once instead of joining it silently (docs/architecture.md)."""
    found = []
    for module, path in product_files().items():
        if ".migrations." in module or module.startswith("infra."):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "transaction.atomic" not in line or line.lstrip().startswith("#"):
                continue
            if not module.endswith(".usecases") or "durable=True" not in line:
                found.append(f"{module}:{number}")
    assert found == []
