//! `new`: the crate it writes holds the README's Getting started server, depends on this
//! workspace's versions, and builds, tests and serves.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn new_crate(folder: &Path, name: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "new", name, "--path"])
        .arg(workspace())
        .current_dir(folder)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn the_crate_holds_the_getting_started_server_and_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let output = new_crate(dir.path(), "weather-mcp");
    assert!(output.status.success(), "{}", stderr(&output));
    let main_rs = fs::read_to_string(dir.path().join("weather-mcp/src/main.rs")).unwrap();

    let readme = fs::read_to_string(workspace().join("README.md")).unwrap();
    let section = &readme[readme.find("## Getting started").unwrap()..];
    let start = section.find("```rust,no_run\n").unwrap() + "```rust,no_run\n".len();
    let server = &section[start..start + section[start..].find("```").unwrap()];
    assert!(
        main_rs.starts_with(&server.replace("\"hello-mcp\"", "\"weather-mcp\"")),
        "{main_rs}"
    );
    assert!(main_rs.contains("TestClient::from_registry()"), "{main_rs}");
}

#[test]
fn the_crate_depends_on_this_workspaces_versions() {
    let dir = tempfile::tempdir().unwrap();
    assert!(new_crate(dir.path(), "weather-mcp").status.success());
    let manifest: toml_edit::DocumentMut =
        fs::read_to_string(dir.path().join("weather-mcp/Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let workspace_manifest: toml_edit::DocumentMut =
        fs::read_to_string(workspace().join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let version_of = |item: &toml_edit::Item| -> String {
        item.as_str()
            .or_else(|| item.get("version").and_then(|version| version.as_str()))
            .unwrap()
            .to_owned()
    };
    let ours = &workspace_manifest["workspace"]["dependencies"];
    assert_eq!(
        version_of(&manifest["dependencies"]["mcp-tool"]),
        workspace_manifest["workspace"]["package"]["version"]
            .as_str()
            .unwrap()
    );
    assert_eq!(
        manifest["dependencies"]["mcp-tool"]["path"]
            .as_str()
            .map(PathBuf::from),
        Some(fs::canonicalize(workspace().join("runtime")).unwrap())
    );
    for (table, name) in [
        ("dependencies", "schemars"),
        ("dependencies", "serde"),
        ("dev-dependencies", "serde_json"),
        ("dev-dependencies", "tokio"),
    ] {
        assert_eq!(
            version_of(&manifest[table][name]),
            version_of(&ours[name]),
            "{name}"
        );
    }
}

#[test]
fn an_existing_folder_or_a_bad_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("taken")).unwrap();
    let output = new_crate(dir.path(), "taken");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("already exists"),
        "{}",
        stderr(&output)
    );
    let output = new_crate(dir.path(), "2fast");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("cannot name a crate"),
        "{}",
        stderr(&output)
    );
}

/// Builds and tests the new crate, then lists and calls its tool through `cargo build`,
/// in the workspace's target folder, where its dependencies are already built.
#[test]
fn the_crate_builds_tests_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    assert!(new_crate(dir.path(), "weather-mcp").status.success());
    let folder = dir.path().join("weather-mcp");
    // The workspace's lock file: the same versions, so the build can reuse what it built.
    fs::copy(workspace().join("Cargo.lock"), folder.join("Cargo.lock")).unwrap();
    // The workspace's own target folder, offline: with the workspace's versions, the
    // build reuses what the workspace built, as the README's Getting started test does.
    let target = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .parent()
        .unwrap()
        .parent()
        .unwrap();
    let status = Command::new(env!("CARGO"))
        .args(["test", "--offline"])
        .current_dir(&folder)
        .env("CARGO_TARGET_DIR", target)
        .status()
        .unwrap();
    assert!(status.success(), "cargo test of the new crate");

    let output = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "call", "count_words", "text=one two\nthree"])
        .current_dir(&folder)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let counts: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(counts, serde_json::json!({ "lines": 2, "words": 3 }));

    let output = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "list"])
        .current_dir(&folder)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let listing = String::from_utf8_lossy(&output.stdout);
    assert!(listing.contains("  count_words  [read-only]"), "{listing}");
    assert!(
        listing.contains("    max_lines: integer, optional"),
        "{listing}"
    );
}

/// Without `--path`, a cargo-mcp-tool built from this checkout depends the new crate on
/// this checkout's runtime, says so, and the crate resolves (offline: mcp-tool is not on
/// crates.io); the crate goes where a path says, as with `cargo new`.
#[test]
fn without_path_the_crate_depends_on_the_checkout_it_was_built_from() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
        .args(["mcp-tool", "new", "servers/local/plain-mcp"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = String::from_utf8_lossy(&output.stdout);
    let runtime = workspace().join("runtime");
    assert!(
        printed.contains(&format!(
            "mcp-tool from {}, the checkout this cargo-mcp-tool was built from",
            runtime.display()
        )),
        "{printed}"
    );
    let folder = dir.path().join("servers/local/plain-mcp");
    let manifest: toml_edit::DocumentMut = fs::read_to_string(folder.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(manifest["package"]["name"].as_str(), Some("plain-mcp"));
    assert_eq!(
        manifest["dependencies"]["mcp-tool"]["path"].as_str(),
        runtime.to_str()
    );
    // Resolved for this machine's platform: the packages of other platforms (Android's,
    // Windows') are never downloaded by a build here, so an offline resolution of every
    // platform would ask for what no step fetched.
    let host = Command::new("rustc").arg("-vV").output().unwrap();
    let host = String::from_utf8_lossy(&host.stdout);
    let host = host
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let resolved = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", host])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(resolved.status.success(), "{}", stderr(&resolved));
}
