"""The web application never imports the command: no module of src/boardrecords/web imports boardrecords.cli
(it draws with boardrecords.render), but for the JSON objects web/answers.py takes from cli/tables.py."""

from __future__ import annotations

import ast

from ..shared import ROOT, imported_modules, package_modules

WEB = ROOT / "src" / "boardrecords" / "web"
# The one import of the command left: the JSON objects of the stored games, shared with the commands' --json.
ALLOWED = {"boardrecords.web.answers": {"boardrecords.cli.tables"}}


def _cli(name: str) -> bool:
    return name == "boardrecords.cli" or name.startswith("boardrecords.cli.")


def test_no_web_module_imports_the_command():
    found = {}
    for module, path in package_modules(WEB, "boardrecords.web").items():
        allowed = ALLOWED.get(module, set())
        # `from ..cli.tables import row_json` names the module and, as a possible submodule, `...tables.row_json`.
        cli = {name for name in imported_modules(path, module) if _cli(name)
               and name not in allowed and name.rpartition(".")[0] not in allowed}
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
