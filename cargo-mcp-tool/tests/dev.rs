//! `dev --stdio`: the reloading server a client talks to across rebuilds. A tool added to
//! the source is announced with `notifications/tools/list_changed` and served, in the
//! same session; a change that does not build leaves the last good build serving.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{Value, json};

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// A build of the crate may take minutes on a cold, busy machine.
const BUILD: Duration = Duration::from_secs(600);

struct Dev {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    said: Receiver<String>,
    /// The methods of the notifications heard so far, in order.
    heard: Vec<String>,
}

impl Dev {
    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message the server sends that `wanted` accepts; others are passed over.
    fn until(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + BUILD;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) => {
                    if message.get("id").is_none()
                        && let Some(method) = message["method"].as_str()
                    {
                        self.heard.push(method.to_owned());
                    }
                    if wanted(&message) {
                        return message;
                    }
                }
                Err(_) => panic!(
                    "no {what} within {BUILD:?}; dev said:\n{}",
                    self.said.try_iter().collect::<Vec<_>>().join("\n")
                ),
            }
        }
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.until(&format!("answer to {method}"), |message| {
            message["id"] == id
        })
    }

    fn tool_names(&mut self, id: u64) -> Vec<String> {
        let listed = self.request(id, "tools/list", json!({}));
        let tools = listed["result"]["tools"].as_array().unwrap().clone();
        tools
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Waits until `dev` says something containing `text` on stderr.
    fn says(&self, text: &str) {
        loop {
            match self.said.recv_timeout(BUILD) {
                Ok(line) if line.contains(text) => return,
                Ok(_) => {}
                Err(_) => panic!("dev never said `{text}`"),
            }
        }
    }
}

impl Drop for Dev {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_session_sees_each_build_and_a_broken_one_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "new", "reloading-mcp", "--path"])
        .arg(workspace())
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let folder = dir.path().join("reloading-mcp");
    fs::copy(workspace().join("Cargo.lock"), folder.join("Cargo.lock")).unwrap();
    // The workspace's target folder, where the dependencies are built already.
    let target = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .parent()
        .unwrap()
        .parent()
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "dev", "--stdio"])
        .current_dir(&folder)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_NET_OFFLINE", "true")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (to_test, messages) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let message =
                serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line}"));
            if to_test.send(message).is_err() {
                return;
            }
        }
    });
    let (to_test, said) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = to_test.send(line);
        }
    });
    let stdin = child.stdin.take().unwrap();
    let mut dev = Dev {
        child,
        stdin,
        messages,
        said,
        heard: Vec::new(),
    };

    let initialize = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": { "name": "dev-test", "version": "1" },
    });
    let initialized = dev.request(1, "initialize", initialize);
    assert_eq!(initialized["result"]["serverInfo"]["name"], "reloading-mcp");
    dev.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    assert_eq!(dev.tool_names(2), ["count_words"]);

    // A second tool, saved: the session is told, and serves it.
    let main_rs = folder.join("src/main.rs");
    let source = fs::read_to_string(&main_rs).unwrap();
    let shout = "\n/// Says `text` in capitals.\n#[mcp_tool]\nfn shout(text: String) -> String {\n    \
                 text.to_uppercase()\n}\n";
    fs::write(&main_rs, format!("{source}{shout}")).unwrap();
    // The rest of the save, as an editor's backup file, lands while the build runs: it
    // rebuilds nothing new, and swaps nothing.
    std::thread::sleep(Duration::from_secs(1));
    fs::write(folder.join("src/main.rs~"), &source).unwrap();
    dev.until("notifications/tools/list_changed", |message| {
        message["method"] == "notifications/tools/list_changed"
    });
    let mut names = dev.tool_names(3);
    names.sort();
    assert_eq!(names, ["count_words", "shout"]);
    let called = dev.request(
        4,
        "tools/call",
        json!({ "name": "shout", "arguments": { "text": "hi" } }),
    );
    assert_eq!(called["result"]["content"][0]["text"], "HI", "{called}");

    // A change that does not build: the last good build serves on, in the same session.
    fs::write(&main_rs, format!("{source}{shout}\nfn broken( {{\n")).unwrap();
    dev.says("the last good build serves on");
    let called = dev.request(
        5,
        "tools/call",
        json!({ "name": "shout", "arguments": { "text": "still" } }),
    );
    assert_eq!(called["result"]["content"][0]["text"], "STILL", "{called}");

    // One save, one swap: every change the watcher saw of it was handled before the broken
    // save, whose answer came after whatever a second swap would have said.
    let tools_changed = (dev.heard.iter())
        .filter(|method| *method == "notifications/tools/list_changed")
        .count();
    assert_eq!(tools_changed, 1, "heard: {:?}", dev.heard);
    // The template's server declares no prompts and no resources: nothing is said of them.
    assert!(
        (dev.heard.iter()).all(|method| method == "notifications/tools/list_changed"),
        "heard: {:?}",
        dev.heard
    );
}

/// A stdio MCP server of one tool, `forecast`, in Python, whose description is the
/// server's own arguments: a server `reload` runs.
const SERVER: &str = r#"#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue
    if request["method"] == "initialize":
        result = {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "weather", "version": "1"}}
    elif request["method"] == "tools/list":
        result = {"tools": [{"name": "forecast", "description": " ".join(sys.argv[1:]),
                             "inputSchema": {"type": "object"}}]}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
"#;

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false" | "no"))
}

/// The MCP Inspector, as `scripts/setup-inspector.sh` installs it: node and its launcher.
fn inspector() -> Option<(String, String)> {
    let output = Command::new(workspace().join("scripts/setup-inspector.sh"))
        .current_dir(workspace())
        .output()
        .unwrap();
    if !output.status.success() {
        let why = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!under_ci(), "the Inspector could not be installed: {why}");
        eprintln!("SKIPPED: the Inspector could not be installed: {why}");
        return None;
    }
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    let value = |key: &str| {
        printed
            .lines()
            .find_map(|line| line.strip_prefix(key))
            .map(str::to_owned)
    };
    Some((value("node=")?, value("inspector=")?))
}

/// The command `dev` gives the Inspector, `cargo-mcp-tool reload --binary ... --generation
/// ...` and the server's own arguments with no `--` (the Inspector drops it), started and
/// listed by the Inspector's own CLI.
#[test]
#[cfg(unix)]
fn the_inspector_lists_the_tools_through_the_reloading_server() {
    use std::os::unix::fs::PermissionsExt;
    let Some((node, inspector)) = inspector() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("weather.py");
    fs::write(&server, SERVER).unwrap();
    fs::set_permissions(&server, fs::Permissions::from_mode(0o755)).unwrap();
    let generation = dir.path().join("weather.generation");
    fs::write(&generation, "1").unwrap();
    let output = Command::new(node)
        .arg(inspector)
        .arg("--cli")
        .arg(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .arg("reload")
        .arg("--binary")
        .arg(&server)
        .arg("--generation")
        .arg(&generation)
        .arg("--verbose")
        .args(["--method", "tools/list", "--format", "json"])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed: Value = serde_json::from_str(printed.trim()).unwrap();
    assert_eq!(listed["result"]["tools"][0]["name"], "forecast", "{listed}");
    assert_eq!(
        listed["result"]["tools"][0]["description"], "--verbose",
        "the server's own arguments reach it: {listed}"
    );
}
