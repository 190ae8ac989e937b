//! `list` and `call` against the repository's example server, `file_search`, and against
//! programs that are not MCP servers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// The fixture server, `file_search` (tests/file-search): beside this crate's binary when the workspace built it, else built
/// into a target folder of its own (the one `cargo test` runs in stays locked meanwhile).
fn file_search() -> &'static Path {
    static SERVER: OnceLock<PathBuf> = OnceLock::new();
    SERVER.get_or_init(|| {
        if let Some(path) = std::env::var_os("FILE_SEARCH_SERVER") {
            return PathBuf::from(path);
        }
        let debug = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
            .parent()
            .unwrap();
        let beside = debug.join(format!("file_search{}", std::env::consts::EXE_SUFFIX));
        if beside.is_file() {
            return beside;
        }
        let target = debug.parent().unwrap().join("cargo-mcp-tool-tests");
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "-p",
                "mcp-tool-file-search",
                "--bin",
                "file_search",
                "--target-dir",
            ])
            .arg(&target)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(status.success(), "the example server did not build");
        target
            .join("debug")
            .join(format!("file_search{}", std::env::consts::EXE_SUFFIX))
    })
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `cargo mcp-tool <command> --binary file_search ... -- --root <this crate>`.
fn against_example(command: &str, args: &[&str]) -> Output {
    let server = file_search().to_str().unwrap();
    let mut all = vec!["mcp-tool", command, "--binary", server];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "--root", env!("CARGO_MANIFEST_DIR")]);
    run(&all)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn list_prints_tools_parameters_annotations_prompts_and_resources() {
    let output = against_example("list", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    // The example shares the workspace's version with this crate.
    let first = format!(
        "file-search {} (protocol 2025-11-25)",
        env!("CARGO_PKG_VERSION")
    );
    assert!(text.starts_with(&first), "{text}");
    assert!(
        text.contains("  search  [read-only, idempotent]\n"),
        "{text}"
    );
    assert!(
        text.contains("    filter: string, optional — A CEL expression"),
        "{text}"
    );
    assert!(
        text.contains("    max_results: integer, optional"),
        "{text}"
    );
    assert!(text.contains("    path: string, required"), "{text}");
    assert!(
        text.contains("Prompts (1)\n  find_files — Find files"),
        "{text}"
    );
    assert!(text.contains("    description: required"), "{text}");
    assert!(
        text.contains("Resource templates (1)\n  files:///{+path}"),
        "{text}"
    );
}

#[test]
fn list_shows_each_parameter_s_range_and_default() {
    let output = against_example("list", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "    max_results: integer, optional, 1 to 1000, default 100 — The most entries to return.",
        "    pause_ms: integer, optional, 0 to 1000, default 0 — Milliseconds to wait",
        "    confirm: boolean, optional, default false — Whether to ask the user first",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn list_json_is_what_the_server_sent() {
    let output = against_example("list", &["--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listing: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(listing["serverInfo"]["name"], "file-search");
    let tools: Vec<&str> = listing["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"search") && tools.contains(&"read_attributes"),
        "{tools:?}"
    );
    let search = listing["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "search")
        .unwrap();
    assert_eq!(search["annotations"]["readOnlyHint"], true);
    assert_eq!(listing["prompts"][0]["name"], "find_files");
}

#[test]
fn call_converts_arguments_by_the_schema_and_prints_structured_content() {
    let output = against_example(
        "call",
        &["search", "filter=name == \"Cargo.toml\"", "max_results=5"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let result: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(result["matches"][0]["path"], "Cargo.toml", "{result}");

    let output = against_example(
        "call",
        &[
            "search",
            "--json",
            r#"{"filter": "name == \"Cargo.toml\""}"#,
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("\"path\": \"Cargo.toml\""),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_tool_error_exits_1_with_its_message() {
    let output = against_example("call", &["read_attributes", "path=nowhere.rs"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("tool error: tool `read_attributes` failed"),
        "{message}"
    );
    assert!(message.contains("nowhere.rs"), "{message}");
    assert!(stdout(&output).is_empty());

    let output = against_example("call", &["search", "limit=3"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("unknown argument `limit`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_unknown_tool_gets_the_servers_suggestion() {
    let output = against_example("call", &["serch"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("unknown tool `serch`; did you mean `search`?"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_value_that_does_not_fit_its_type_is_refused_before_the_call() {
    let output = against_example("call", &["search", "max_results=many"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(
            "`max_results` takes an integer, written as digits (`max_results=5`), and `many` is not one"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn progress_is_shown_on_stderr() {
    let output = against_example("call", &["index_files", "path=src"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let progress = stderr(&output);
    assert!(
        progress
            .lines()
            .any(|line| line.starts_with("[") && line.contains("indexed src/main.rs")),
        "{progress}"
    );
    let result: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(result["files"].as_u64().unwrap() > 3, "{result}");
}

#[cfg(unix)]
fn script(body: &str) -> (tempfile::TempDir, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("server.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    (dir, path)
}

#[cfg(unix)]
#[test]
fn a_server_that_prints_something_else_is_shown_with_its_stderr() {
    let (_dir, server) =
        script("echo 'Listening on port 8080'\necho 'warning: no config' >&2\nsleep 1");
    let output = run(&["list", "--binary", server.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("not JSON-RPC on stdout"), "{message}");
    assert!(message.contains("Listening on port 8080"), "{message}");
    assert!(message.contains("warning: no config"), "{message}");

    let (_dir, server) = script("echo 'error: missing --root' >&2\nexit 2");
    let output = run(&["list", "--binary", server.to_str().unwrap()]);
    let message = stderr(&output);
    assert!(
        // Gone before `initialize` is written or after it: either way the error says so.
        message.contains("closed its output before answering `initialize`")
            || message.contains("stopped reading its input"),
        "{message}"
    );
    assert!(message.contains("exit status: 2"), "{message}");
    assert!(message.contains("error: missing --root"), "{message}");
}

#[cfg(unix)]
#[test]
fn a_server_that_never_answers_times_out() {
    let (_dir, server) = script("sleep 30");
    let started = std::time::Instant::now();
    let output = run(&[
        "list",
        "--binary",
        server.to_str().unwrap(),
        "--timeout",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("did not answer `initialize` within 1 s"),
        "{}",
        stderr(&output)
    );
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn a_crate_without_a_binary_has_no_server() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"only-lib\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src").join("lib.rs"), "").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "list"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("package `only-lib` has no binary, so no server to run"),
        "{}",
        stderr(&output)
    );
}
