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
