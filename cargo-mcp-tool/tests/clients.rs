//! `install` checked by the clients themselves: Gemini CLI's `gemini mcp list` and Claude
//! Code's `claude mcp list` read the configuration `install` wrote, start the server and say
//! whether it answered. They run from the bin folder given as `MCP_CLIENTS_BIN`, or else
//! the one `scripts/setup-clients.sh` installs them into (with npm, once, under `target/`)
//! and prints; where they cannot be installed the test skips saying why, and under CI it
//! fails.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A stdio MCP server of one tool: newline-delimited JSON-RPC, answering `initialize`,
/// `tools/list` and `ping`.
const SERVER: &str = r#"#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    if "id" not in request:
        continue
    method = request.get("method")
    if method == "initialize":
        version = request.get("params", {}).get("protocolVersion", "2025-06-18")
        result = {"protocolVersion": version, "capabilities": {"tools": {}},
                  "serverInfo": {"name": "weather", "version": "0.1.0"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "forecast", "description": "The forecast for a city.",
                             "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}
    elif method == "ping":
        result = {}
    else:
        error = {"code": -32601, "message": "method not found"}
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": error}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
"#;

/// A program that starts but speaks no MCP: the clients must not call it connected.
const NOT_A_SERVER: &str = "#!/bin/sh\necho 'not an MCP server'\n";

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false" | "no"))
}

/// The clients' bin folder: `MCP_CLIENTS_BIN`, or the one `scripts/setup-clients.sh`
/// installs; `None` (after saying why) when they cannot be had.
fn clients_bin() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("MCP_CLIENTS_BIN") {
        return Some(PathBuf::from(bin));
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = Command::new(workspace.join("scripts/setup-clients.sh"))
        .current_dir(workspace)
        .output()
        .unwrap_or_else(|error| panic!("cannot run scripts/setup-clients.sh: {error}"));
    if output.status.success() {
        let bin = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        return Some(PathBuf::from(bin));
    }
    let why = format!(
        "scripts/setup-clients.sh could not install the clients: {}",
        String::from_utf8_lossy(&output.stderr).trim()
    );
    assert!(!under_ci(), "{why}");
    eprintln!("SKIPPED: {why}");
    None
}

/// A home folder of its own, with the server and the non-server to install.
struct Home {
    dir: tempfile::TempDir,
    bin: PathBuf,
}

impl Home {
    fn new(bin: PathBuf) -> Self {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [("weather.py", SERVER), ("silent.sh", NOT_A_SERVER)] {
            let path = dir.path().join("build").join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, text).unwrap();
            make_executable(&path);
        }
        Self { dir, bin }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A command run in this home alone: no configuration of the machine's user is read.
    fn command(&self, program: impl Into<OsString>) -> Command {
        let mut command = Command::new(program.into());
        let path = std::env::join_paths(std::iter::once(self.bin.clone()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .unwrap();
        command
            .current_dir(self.path())
            .env("HOME", self.path())
            .env("PATH", path)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("GEMINI_CLI_HOME")
            // Gemini CLI starts no configured server in a folder it was not told to trust.
            .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
            // Claude Code: no update check, no telemetry.
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        command
    }

    fn install(&self, client: &str, name: &str, file: &str) {
        let binary = self.path().join("build").join(file);
        let output = self
            .command(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
            .args(["mcp-tool", "install", "--client", client, "--name", name])
            .arg("--binary")
            .arg(binary)
            .arg("--create")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "install --client {client} failed: {}",
            text(&output)
        );
    }

    /// What `<program> mcp list` printed, its output and errors together.
    fn mcp_list(&self, program: &str) -> String {
        let output = self
            .command(self.bin.join(program))
            .args(["mcp", "list"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap_or_else(|error| panic!("cannot run {program} from MCP_CLIENTS_BIN: {error}"));
        let listing = text(&output);
        assert!(
            output.status.success(),
            "`{program} mcp list` failed: {listing}"
        );
        listing
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(not(unix))]
fn make_executable(_: &Path) {}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The listing's line for the server `name`.
fn line_of<'a>(listing: &'a str, name: &str) -> &'a str {
    listing
        .lines()
        .find(|line| {
            line.trim_start_matches(|c: char| !c.is_alphanumeric())
                .starts_with(&format!("{name}:"))
        })
        .unwrap_or_else(|| panic!("the listing names no server `{name}`:\n{listing}"))
}

fn connected(line: &str) -> bool {
    line.trim_end().ends_with("Connected") && !line.contains("Disconnected")
}

/// Installs the server and the non-server for `client`, and checks what `program mcp list`
/// says of each.
fn check(client: &str, program: &str) {
    let Some(bin) = clients_bin() else { return };
    let home = Home::new(bin);
    home.install(client, "weather", "weather.py");
    home.install(client, "silent", "silent.sh");
    let listing = home.mcp_list(program);
    let weather = line_of(&listing, "weather");
    assert!(
        connected(weather),
        "`{program} mcp list` did not connect to the installed server:\n{listing}"
    );
    assert!(
        weather.contains(
            &*home
                .path()
                .join(".local")
                .join("share")
                .join("mcp-tool")
                .to_string_lossy()
        ),
        "`{program} mcp list` runs another command than the installed copy:\n{listing}"
    );
    assert!(
        !connected(line_of(&listing, "silent")),
        "`{program} mcp list` called a program that speaks no MCP connected:\n{listing}"
    );
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "the installed copy's folder is Linux's"
)]
fn gemini_cli_connects_to_the_installed_server() {
    check("gemini-cli", "gemini");
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "the installed copy's folder is Linux's"
)]
fn claude_code_connects_to_the_installed_server() {
    check("claude-code", "claude");
}
