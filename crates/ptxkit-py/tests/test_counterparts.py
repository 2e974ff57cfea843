"""Every `ptx` subcommand has a Python counterpart (issue #29). The
subcommands are read from the CLI's sources, so a new one fails here until
it gets a counterpart (and a test of its own in this folder)."""

import re

import ptxkit
from conftest import ROOT

COUNTERPARTS = {
    "check": [ptxkit.Module.check],
    "check_asm": [ptxkit.check_asm, ptxkit.check_asm_file],
    "fmt": [ptxkit.Module.format],
    "ast": [ptxkit.Module.to_json, ptxkit.Module.to_dict],
    "summary": [ptxkit.Module.summary],
    "functions": [ptxkit.Module.functions, ptxkit.Function.info],
    "show": [ptxkit.Function.format],
    "cfg": [ptxkit.Module.cfg],
    "callgraph": [ptxkit.Module.callgraph],
    "resources": [ptxkit.Module.resources, ptxkit.resource_usage],
    "stats": [ptxkit.Module.stats],
    "grep": [ptxkit.Module.grep],
    "diff": [ptxkit.Module.diff],
    "explain": [ptxkit.explain, ptxkit.explain_dict],
    "extract": [ptxkit.extract, ptxkit.fatbin_entries],
    "compat": [ptxkit.compat],
}

# Subcommands about the command line itself, with nothing to offer Python:
# shell completions, man pages, and the language server (a process an
# editor starts).
CLI_ONLY = {"completions", "man", "lsp"}


def test_every_subcommand_has_a_counterpart():
    mod_rs = (ROOT / "crates" / "ptx-cli" / "src" / "cmd" / "mod.rs").read_text()
    subcommands = set(re.findall(r"^pub mod (\w+);", mod_rs, re.M))
    assert len(subcommands) >= 15
    subcommands -= CLI_ONLY
    assert subcommands <= set(COUNTERPARTS), f"no Python counterpart: {subcommands - set(COUNTERPARTS)}"


def test_counterparts_are_documented():
    for fns in COUNTERPARTS.values():
        for f in fns:
            assert f.__doc__ and len(f.__doc__.strip()) > 20, f


def test_every_public_name_has_a_docstring():
    missing = []
    for name in ptxkit.__all__:
        obj = getattr(ptxkit, name)
        if isinstance(obj, str):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if isinstance(obj, type):
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if not (getattr(member, "__doc__", None) or "").strip():
                    missing.append(f"{name}.{attr}")
    assert missing == []
