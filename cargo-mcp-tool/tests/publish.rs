//! `publish`: the `server.json` it writes for small crates, checked against the rules of the
//! MCP registry's server.json schema for the version its `$schema` names (2025-12-11), the
//! README's `mcp-name:` line, and the crates it refuses.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tempfile::TempDir;

/// The schema version the rules below are the rules of.
const SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// A bundle's bytes, and their SHA-256 as Python's hashlib computes it.
const BUNDLE_BYTES: &[u8] = b"PK not really a zip, but bytes to hash";
const BUNDLE_SHA256: &str = "796851d6c8720dda575bbdf65205e23aad75936b7d3d6bc5bd40a2ce62720c0c";

/// The registry schema's rules, in our words, for one `server.json`: every problem found.
#[path = "support/server_json_rules.rs"]
mod rules;

/// A crate `files-mcp` in a folder of its own, with a Cargo.toml and a README.
struct Crate {
    _dir: TempDir,
    root: PathBuf,
}

impl Crate {
    fn new(package_lines: &str, readme: Option<&str>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("files-mcp");
        fs::create_dir_all(root.join("src")).unwrap();
        let manifest = format!(
            "[package]\nname = \"files-mcp\"\nversion = \"0.3.1\"\nedition = \"2021\"\n{package_lines}\n[workspace]\n"
        );
        fs::write(root.join("Cargo.toml"), manifest).unwrap();
        fs::write(root.join("src").join("main.rs"), "fn main() {}\n").unwrap();
        if let Some(readme) = readme {
            fs::write(root.join("README.md"), readme).unwrap();
        }
        Self { _dir: dir, root }
    }

    fn on_github(readme: Option<&str>) -> Self {
        Self::new(
            "description = \"Search files by name and content.\"\nrepository = \"https://github.com/acme/files-mcp\"\n",
            readme,
        )
    }

    fn publish(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
            .args(["mcp-tool", "publish", "--manifest-path"])
            .arg(self.root.join("Cargo.toml"))
            .args(args)
            // The crate's own target folder, where `bundle` writes its bundle.
            .env("CARGO_TARGET_DIR", self.root.join("target"))
            .output()
            .unwrap()
    }

    /// Writes the bundle `cargo mcp-tool bundle` would have written for this version.
    fn with_bundle(&self) -> PathBuf {
        let path = self.root.join("target/bundle/files-mcp-0.3.1.mcpb");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, BUNDLE_BYTES).unwrap();
        path
    }

    fn server_json(&self) -> Value {
        written(&self.root.join("server.json"))
    }
}

fn written(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_valid(document: &Value) {
    assert_eq!(
        document["$schema"], SCHEMA,
        "the rules here are this version's"
    );
    let problems = rules::check(document);
    assert!(problems.is_empty(), "{problems:#?}\n{document:#}");
}

#[test]
fn a_github_crate_whose_readme_names_the_server_gets_a_valid_server_json() {
    let krate = Crate::on_github(Some("# files-mcp\n\nmcp-name: io.github.acme/files-mcp\n"));
    let output = krate.publish(&["--dry-run"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let document = krate.server_json();
    assert_valid(&document);
    let printed: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(printed, document, "--dry-run prints the file it writes");
    let expected = json!({
        "$schema": SCHEMA,
        "name": "io.github.acme/files-mcp",
        "description": "Search files by name and content.",
        "version": "0.3.1",
        "repository": { "url": "https://github.com/acme/files-mcp", "source": "github" },
        "packages": [{
            "registryType": "cargo",
            "identifier": "files-mcp",
            "version": "0.3.1",
            "transport": { "type": "stdio" },
        }],
    });
    assert_eq!(document, expected);
}

#[test]
fn the_bundle_built_for_the_version_is_added_as_an_mcpb_package_with_its_sha256() {
    let krate = Crate::on_github(Some("mcp-name: io.github.acme/files-mcp\n"));
    let bundle = krate.with_bundle();
    let output = krate.publish(&["--dry-run"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let document = krate.server_json();
    assert_valid(&document);
    assert_eq!(
        document["packages"][1],
        json!({
            "registryType": "mcpb",
            "identifier": "https://github.com/acme/files-mcp/releases/download/v0.3.1/files-mcp-0.3.1.mcpb",
            "version": "0.3.1",
            "fileSha256": BUNDLE_SHA256,
            "transport": { "type": "stdio" },
        })
    );

    let output = krate.publish(&[]);
    let text = stdout(&output);
    assert!(
        text.contains(&format!("upload {}", bundle.display())),
        "says where to upload it:\n{text}"
    );

    krate.publish(&["--dry-run", "--no-bundle"]);
    let packages = krate.server_json()["packages"].clone();
    assert_eq!(packages.as_array().unwrap().len(), 1, "{packages}");
}

#[test]
fn a_bundle_off_github_needs_its_url_given() {
    let lines =
        "description = \"Search files.\"\nrepository = \"https://gitlab.com/acme/files-mcp\"\n";
    let krate = Crate::new(lines, Some("mcp-name: com.example/files-mcp\n"));
    krate.with_bundle();
    let name = ["--dry-run", "--name", "com.example/files-mcp"];
    let message = stderr(&krate.publish(&name));
    assert!(message.contains("pass --bundle-url URL"), "{message}");

    let url = "https://gitlab.com/acme/files-mcp/-/releases/v0.3.1/downloads/files.mcpb";
    let output = krate.publish(&[&name[..], &["--bundle-url", url]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let document = krate.server_json();
    assert_valid(&document);
    assert_eq!(document["packages"][1]["identifier"], url);
    assert_eq!(document["packages"][1]["fileSha256"], BUNDLE_SHA256);

    let message =
        stderr(&krate.publish(&[&name[..], &["--bundle-url", "http://x/y.mcpb"]].concat()));
    assert!(message.contains("is not an https URL"), "{message}");
}

#[test]
fn without_dry_run_it_writes_the_file_and_prints_the_commands_that_publish_it() {
    let krate = Crate::on_github(Some("mcp-name: io.github.acme/files-mcp"));
    let out = krate.root.join("registry").join("files.json");
    fs::create_dir_all(out.parent().unwrap()).unwrap();
    let output = krate.publish(&["--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_valid(&written(&out));
    assert!(
        !krate.root.join("server.json").exists(),
        "--out replaces the default path"
    );
    let text = stdout(&output);
    for command in [
        "cargo publish -p files-mcp",
        "mcp-publisher login github",
        &format!("mcp-publisher publish {}", out.display()),
    ] {
        assert!(text.contains(command), "{command} missing from:\n{text}");
    }
}

#[test]
fn a_readme_without_the_line_fails_saying_which_line_to_add_where() {
    // A longer name that merely begins with the server's is not the server's.
    let krate = Crate::on_github(Some(
        "# files-mcp\n\nmcp-name: io.github.acme/files-mcp-extra\n",
    ));
    let output = krate.publish(&["--dry-run"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("add the line `mcp-name: io.github.acme/files-mcp`"),
        "{message}"
    );
    assert!(
        message.contains(&krate.root.join("README.md").display().to_string()),
        "{message}"
    );
    assert_valid(&krate.server_json());

    let bare = Crate::on_github(None);
    let message = stderr(&bare.publish(&["--dry-run"]));
    assert!(
        message.contains(
            "add README.md beside Cargo.toml with the line `mcp-name: io.github.acme/files-mcp`"
        ),
        "{message}"
    );
}

#[test]
fn a_crate_without_repository_is_told_what_to_add_to_cargo_toml() {
    let krate = Crate::new("description = \"Search files.\"\n", Some("x"));
    let output = krate.publish(&["--dry-run"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("add `repository = \"https://github.com/OWNER/files-mcp\"` under [package] in its Cargo.toml"),
        "{message}"
    );
    assert!(!krate.root.join("server.json").exists());
}

#[test]
fn a_repository_off_github_needs_a_name_given_and_then_passes() {
    let lines =
        "description = \"Search files.\"\nrepository = \"https://gitlab.com/acme/files-mcp.git\"\n";
    let krate = Crate::new(lines, Some("mcp-name: com.example/files-mcp\n"));
    let message = stderr(&krate.publish(&["--dry-run"]));
    assert!(message.contains("is not a GitHub repository"), "{message}");
    assert!(message.contains("pass --name"), "{message}");

    let output = krate.publish(&["--dry-run", "--name", "com.example/files-mcp"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let document = krate.server_json();
    assert_valid(&document);
    assert_eq!(document["name"], "com.example/files-mcp");
    assert_eq!(
        document["repository"],
        json!({ "url": "https://gitlab.com/acme/files-mcp", "source": "gitlab" })
    );

    let message = stderr(&krate.publish(&["--dry-run", "--name", "files-mcp"]));
    assert!(
        message.contains("is not a name the registry takes"),
        "{message}"
    );
}

#[test]
fn a_description_over_the_registrys_limit_is_refused() {
    let lines = format!(
        "description = \"{}\"\nrepository = \"https://github.com/acme/files-mcp\"\n",
        "a".repeat(101)
    );
    let message = stderr(&Crate::new(&lines, Some("x")).publish(&["--dry-run"]));
    assert!(
        message.contains("is 101 characters, and the registry takes at most 100"),
        "{message}"
    );
}

/// The rules find what the registry refuses, so that passing them means something.
#[test]
fn the_rules_refuse_what_the_schema_refuses() {
    let valid = json!({
        "$schema": SCHEMA, "name": "io.github.acme/x", "description": "d", "version": "1.0.0",
        "packages": [{ "registryType": "cargo", "identifier": "x", "version": "1.0.0", "transport": { "type": "stdio" },
            "packageArguments": [{ "type": "positional", "valueHint": "root" }, { "type": "named", "name": "--port" }],
            "environmentVariables": [{ "name": "TOKEN", "isSecret": true, "format": "string" }] }],
        "remotes": [{ "type": "streamable-http", "url": "https://example.com/mcp" }],
        "icons": [{ "src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48", "any"] }],
    });
    assert_valid(&valid);
    let broken = |pointer: &str, value: Value| {
        let mut document = valid.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let parent = document.pointer_mut(parent).unwrap();
        match parent {
            Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
            _ => drop(parent.as_object_mut().unwrap().insert(key.into(), value)),
        }
        rules::check(&document)
    };
    let refused = [
        broken("/name", json!("no-slash")),
        broken("/name", json!("a/b/c")),
        broken(
            "/name",
            json!(format!("io.github.acme/{}", "n".repeat(190))),
        ),
        broken("/description", json!("d".repeat(101))),
        broken("/description", json!("")),
        broken("/version", json!("^1.2.3")),
        broken("/packages/0/version", json!("latest")),
        broken("/packages/0/transport", json!({ "type": "carrier-pigeon" })),
        broken("/packages/0/fileSha256", json!("ABC")),
        broken(
            "/packages/0/packageArguments/0",
            json!({ "type": "positional" }),
        ),
        broken("/packages/0/packageArguments/1", json!({ "type": "named" })),
        broken(
            "/packages/0/environmentVariables/0",
            json!({ "format": "date" }),
        ),
        broken("/remotes/0", json!({ "type": "stdio" })),
        broken("/remotes/0/url", json!("ftp://example.com")),
        broken("/icons/0/sizes", json!(["big"])),
        broken("/websiteUrl", json!("not a url")),
        broken("/repository", json!({ "url": "https://github.com/acme/x" })),
    ];
    for (index, problems) in refused.iter().enumerate() {
        assert!(
            !problems.is_empty(),
            "broken document {index} passed the rules"
        );
    }
    let mut without = valid.clone();
    without.as_object_mut().unwrap().remove("description");
    assert!(
        !rules::check(&without).is_empty(),
        "a missing description passed the rules"
    );
}

/// The rules applied to the `server.json` that `SERVER_JSON` names: how
/// tests/e2e/test_bundle.py checks the file `publish --dry-run` wrote for a crate of
/// `cargo mcp-tool new` (`SERVER_JSON=FILE cargo test -p cargo-mcp-tool --test publish --
/// --exact the_server_json_named_by_server_json_passes_the_rules`); without it, to the
/// file written here for a crate on GitHub.
#[test]
fn the_server_json_named_by_server_json_passes_the_rules() {
    let document = match std::env::var_os("SERVER_JSON") {
        Some(path) => written(Path::new(&path)),
        None => {
            let krate = Crate::on_github(Some("mcp-name: io.github.acme/files-mcp\n"));
            let output = krate.publish(&["--dry-run"]);
            assert!(output.status.success(), "{}", stderr(&output));
            krate.server_json()
        }
    };
    assert_valid(&document);
}
