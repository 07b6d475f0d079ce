"""The web application never imports the command: no module of src/boardrecords/web imports boardrecords.cli (it
draws with boardrecords.render and answers with the archive's answers)."""

from __future__ import annotations

import ast

from ..shared import ROOT, imported_modules, package_modules

WEB = ROOT / "src" / "boardrecords" / "web"


def _cli(name: str) -> bool:
    return name == "boardrecords.cli" or name.startswith("boardrecords.cli.")


def test_no_web_module_imports_the_command():
    found = {}
    for module, path in package_modules(WEB, "boardrecords.web").items():
        cli = {name for name in imported_modules(path, module) if _cli(name)}
        if cli:
            found[module] = sorted(cli)
    assert found == {}


def test_no_web_module_loads_a_package_of_the_command_by_name():
    """A package named in a string (importlib.resources.files, importlib.import_module) is imported too."""
    found = []
    for module, path in package_modules(WEB, "boardrecords.web").items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found += [(module, a.value) for a in node.args
                          if isinstance(a, ast.Constant) and isinstance(a.value, str) and _cli(a.value)]
    assert found == []


def test_the_scan_resolves_relative_imports(tmp_path):
    """The scan itself: a relative import of the command, at any depth, is seen as boardrecords.cli."""
    source = tmp_path / "pages.py"
    source.write_text("from . import answers\n\ndef page():\n    from ..cli.views import svg\n"
                      "    from .. import cli\n")
    names = imported_modules(source, "boardrecords.web.pages")
    assert {"boardrecords.web.answers", "boardrecords.cli.views", "boardrecords.cli.views.svg",
            "boardrecords.cli"} <= names
