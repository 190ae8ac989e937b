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
}

impl Dev {
    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message the server sends that `wanted` accepts; others are passed over.
    fn until(&self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + BUILD;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(_) => {}
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
}
