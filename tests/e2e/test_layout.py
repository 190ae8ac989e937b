"""The runtime's layout keeps to its rules: a few folders at the top, files and functions
of a readable size (in cargo-mcp-tool too), rmcp spoken in runtime/src/protocol/ only, no
import circle, the lints on `Debug` and `pub` kept, and every public item named by a page
a user reads (scripts/layout.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "layout.py"


def check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--list", "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )


def copy_sources(tmp_path: Path) -> Path:
    for crate in ("runtime", "macros", "cargo-mcp-tool"):
        shutil.copytree(ROOT / crate / "src", tmp_path / crate / "src")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copy(ROOT / "Cargo.toml", tmp_path / "Cargo.toml")
    shutil.copy(ROOT / "runtime" / "Cargo.toml", tmp_path / "runtime" / "Cargo.toml")
    shutil.copy(ROOT / "runtime" / "public-api.txt", tmp_path / "runtime" / "public-api.txt")
    return tmp_path


def test_the_checkout_keeps_to_the_layout() -> None:
    run = check(ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "layout: 0 problems"
    folders = [line for line in run.stdout.splitlines() if line.endswith("/")]
    assert folders == [
        "call/",
        "guide/",
        "model/",
        "outcome/",
        "protocol/",
        "registry/",
        "server/",
        "testing/",
    ]


def test_rmcp_above_the_seam_is_named(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    target = root / "runtime" / "src" / "server" / "driver.rs"
    target.write_text(target.read_text() + "\nuse rmcp::model::Tool;\n")
    run = check(root)
    assert run.returncode == 1
    assert "layout: runtime/src/server/driver.rs: uses rmcp, which only runtime/src/protocol/ may" in run.stderr
    assert run.stdout.splitlines()[-1] == "layout: 1 problems"


def test_a_long_function_and_a_new_top_level_file_are_named(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    body = "".join(f"    let _x{i} = {i};\n" for i in range(80))
    (root / "runtime" / "src" / "call" / "long.rs").write_text(f"fn long() {{\n{body}}}\n")
    (root / "runtime" / "src" / "extra.rs").write_text("// one more entry\n")
    run = check(root)
    assert run.returncode == 1
    assert "layout: runtime/src/call/long.rs:1: fn long is 82 lines (at most 80)" in run.stderr
    assert "runtime/src has 9 entries besides lib.rs (at most 8)" in run.stderr


def test_a_long_function_of_cargo_mcp_tool_is_named(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    body = "".join(f"    let _x{i} = {i};\n" for i in range(80))
    (root / "cargo-mcp-tool" / "src" / "long.rs").write_text(f"fn long() {{\n{body}}}\n")
    run = check(root)
    assert run.returncode == 1
    assert "layout: cargo-mcp-tool/src/long.rs:1: fn long is 82 lines (at most 80)" in run.stderr


def test_the_lints_on_debug_and_pub_are_kept(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    lib = root / "runtime" / "src" / "lib.rs"
    attribute = "#![warn(missing_debug_implementations, unreachable_pub)]\n"
    assert attribute in lib.read_text()
    lib.write_text(lib.read_text().replace(attribute, ""))
    # The workspace's `[lints]` warn on both still: enough.
    assert "is not warned on" not in check(root).stderr
    workspace = root / "Cargo.toml"
    workspace.write_text(workspace.read_text().replace('unreachable_pub = "warn"', 'unreachable_pub = "allow"'))
    call = root / "runtime" / "src" / "call" / "mod.rs"
    call.write_text("#![allow(missing_debug_implementations)]\n" + call.read_text())
    run = check(root)
    assert run.returncode == 1
    assert "layout: runtime/src/lib.rs: `unreachable_pub` is not warned on" in run.stderr
    assert "missing_debug_implementations` is not warned on" not in run.stderr
    assert (
        "layout: runtime/src/call/mod.rs:1: allows `missing_debug_implementations`, which the runtime keeps clean"
        in run.stderr
    )


def test_two_modules_of_one_name_are_named_files_and_folders_alike(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    src = root / "runtime" / "src"
    (src / "server" / "lines.rs").write_text("// a second lines.rs\n")
    # A file named after a model/ type is a second module of that name too.
    (src / "call" / "prompt.rs").write_text("// beside model/prompt.rs\n")
    # A folder is the module its mod.rs is: a file of its name elsewhere clashes.
    (src / "server" / "wire.rs").write_text("// beside protocol/wire/\n")
    # A unit-test module is named `tests` wherever it is.
    (src / "server" / "tests.rs").write_text("// unit tests\n")
    run = check(root)
    assert run.returncode == 1
    assert "layout: runtime/src: 2 modules named lines: " in run.stderr
    assert "layout: runtime/src: 2 modules named prompt: " in run.stderr
    assert "layout: runtime/src: 2 modules named wire: protocol/wire, server/wire" in run.stderr
    assert "named tests" not in run.stderr
    assert run.stdout.splitlines()[-1] == "layout: 3 problems"


def test_an_import_circle_inside_a_folder_is_named(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    protocol = root / "runtime" / "src" / "protocol"
    state = protocol / "request_state.rs"
    # handler.rs imports request_state already; request_state importing handler back
    # closes a circle, read from a `use crate::{...}` group.
    text = state.read_text().replace("use crate::", "use crate::protocol::{handler::Nothing};\nuse crate::", 1)
    state.write_text(text)
    run = check(root)
    assert run.returncode == 1
    assert "layout: runtime/src: an import circle in protocol, among " in run.stderr
    assert "handler, request_state" in run.stderr


def test_a_public_item_no_page_names_is_named(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    api = root / "runtime" / "public-api.txt"
    # A type no page names, and a method of a named type, which its type's page reaches.
    api.write_text(api.read_text() + "struct Unheard\nfn Server::unheard_of\nfn ToolError::unheard\n")
    run = check(root)
    assert run.returncode == 1
    assert "layout: struct Unheard: public, and no page names it" in run.stderr
    assert "layout: fn Server::unheard_of: public, and no page names it" in run.stderr
    assert "ToolError::unheard" not in run.stderr
