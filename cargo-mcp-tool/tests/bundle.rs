//! `bundle`: the `.mcpb` it writes for a crate whose build (by a cargo of the test's own,
//! `CARGO`) answers with a small stdio server, its `manifest.json` checked field by field and
//! by `mcpb validate` (npm @anthropic-ai/mcpb, installed under `target/` by
//! scripts/setup-mcpb.sh, or named by `MCPB_CLI`; skipped where it cannot be had, failing
//! under CI), and the targets and settings it refuses.
#![cfg(unix)]

use std::fs::{self, File};
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tempfile::TempDir;

/// A stdio MCP server of two tools and two prompts, one of text and one of an image; it
/// writes the `REGION` it was started with to the file named by its first argument's
/// neighbour, `region.txt`.
const SERVER: &str = r#"#!/usr/bin/env python3
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "region.txt"), "w") as seen:
    seen.write(os.environ.get("REGION", "-"))
def answer(request, result):
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    method = request.get("method")
    if method == "initialize":
        answer(request, {"protocolVersion": request["params"]["protocolVersion"],
                         "capabilities": {"tools": {}, "prompts": {}},
                         "serverInfo": {"name": "weather", "version": "0.4.0"}})
    elif method == "tools/list":
        answer(request, {"tools": [
            {"name": "forecast", "description": "The forecast for a city.", "inputSchema": {"type": "object"}},
            {"name": "alerts", "inputSchema": {"type": "object"}}]})
    elif method == "prompts/list":
        answer(request, {"prompts": [
            {"name": "plan_day", "description": "Plan a day out.",
             "arguments": [{"name": "city", "required": True}]},
            {"name": "radar"}]})
    elif method == "prompts/get":
        params = request["params"]
        if params["name"] == "plan_day":
            text = "Plan a day in " + params["arguments"]["city"] + "."
            answer(request, {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})
        else:
            answer(request, {"messages": [{"role": "user", "content": {"type": "image", "data": "", "mimeType": "image/png"}}]})
    elif "id" in request:
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "no"}}), flush=True)
"#;

fn executable(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false" | "no"))
}

/// A crate `weather`, the cargo that answers its build with [`SERVER`], and where that
/// cargo writes down the builds it was asked for.
struct Crate {
    dir: TempDir,
    manifest: PathBuf,
    server: PathBuf,
    builds: PathBuf,
}

impl Crate {
    fn new(package_lines: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("weather");
        fs::create_dir_all(root.join("src")).unwrap();
        fs::write(
            root.join("Cargo.toml"),
            format!(
                "[package]\nname = \"weather\"\nversion = \"0.4.0\"\nedition = \"2021\"\n{package_lines}\n[workspace]\n"
            ),
        )
        .unwrap();
        fs::write(root.join("src").join("main.rs"), "fn main() {}\n").unwrap();
        let server = dir.path().join("built").join("weather");
        fs::create_dir_all(server.parent().unwrap()).unwrap();
        executable(&server, SERVER);
        let builds = dir.path().join("builds.log");
        let cargo = format!(
            "#!/bin/sh\nif [ \"$1\" = build ]; then\n  echo \"$*\" >> '{}'\n  \
             echo '{{\"reason\":\"compiler-artifact\",\"target\":{{\"name\":\"weather\"}},\"executable\":\"{}\"}}'\n  \
             exit 0\nfi\nexec '{}' \"$@\"\n",
            builds.display(),
            server.display(),
            env!("CARGO")
        );
        executable(&dir.path().join("cargo"), &cargo);
        Self {
            manifest: root.join("Cargo.toml"),
            dir,
            server,
            builds,
        }
    }

    fn described() -> Self {
        Self::new(
            "description = \"Forecasts and alerts.\"\nauthors = [\"Ada Lovelace <ada@example.com>\"]\n\
             license = \"MIT\"\nrepository = \"https://github.com/acme/weather\"\n",
        )
    }

    fn bundle(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
            .args(["mcp-tool", "bundle", "--manifest-path"])
            .arg(&self.manifest)
            .args(args)
            .current_dir(self.dir.path())
            .env("CARGO", self.dir.path().join("cargo"))
            .output()
            .unwrap()
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("weather.mcpb")
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Each file of the zip at `path`: its name, its Unix mode and its bytes.
fn entries(path: &Path) -> Vec<(String, u32, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(File::open(path).unwrap()).unwrap();
    (0..archive.len())
        .map(|index| {
            let mut file = archive.by_index(index).unwrap();
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).unwrap();
            (
                file.name().unwrap().into_owned(),
                file.unix_mode().unwrap_or(0) & 0o777,
                bytes,
            )
        })
        .collect()
}

/// The MCPB CLI's script: `MCPB_CLI`, or the one scripts/setup-mcpb.sh installs; `None`
/// (after saying why) when it cannot be had.
fn mcpb_cli() -> Option<PathBuf> {
    if let Some(cli) = std::env::var_os("MCPB_CLI") {
        return Some(PathBuf::from(cli));
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = Command::new(workspace.join("scripts/setup-mcpb.sh"))
        .current_dir(workspace)
        .output()
        .unwrap_or_else(|error| panic!("cannot run scripts/setup-mcpb.sh: {error}"));
    let printed = String::from_utf8_lossy(&output.stdout);
    if let (true, Some(cli)) = (
        output.status.success(),
        printed.lines().find_map(|line| line.strip_prefix("mcpb=")),
    ) {
        return Some(PathBuf::from(cli.trim()));
    }
    let why = format!(
        "scripts/setup-mcpb.sh could not install the MCPB CLI: {}",
        stderr(&output).trim()
    );
    assert!(!under_ci(), "{why}");
    eprintln!("SKIPPED: {why}");
    None
}

fn host_platform() -> &'static str {
    if cfg!(target_os = "macos") {
        "darwin"
    } else {
        "linux"
    }
}

#[test]
fn the_bundle_holds_the_manifest_and_the_release_build_of_the_server() {
    let krate = Crate::described();
    let out = krate.out();
    let output = krate.bundle(&[
        "--out",
        out.to_str().unwrap(),
        "--features",
        "fast",
        "--env",
        "WEATHER_API_KEY",
        "--env",
        "REGION=eu",
        "--secret-env",
        "STATION",
        "--arg",
        "--units",
        "--arg",
        "${user_config.units}",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("2 tools, 1 prompts"), "{stdout}");

    let build = fs::read_to_string(&krate.builds).unwrap();
    assert!(
        build.contains("--features fast --release"),
        "built in release with the cargo flags given: {build}"
    );
    assert_eq!(
        fs::read_to_string(krate.server.with_file_name("region.txt")).unwrap(),
        "eu",
        "the server was listed with the defaults of its settings"
    );

    let platform = host_platform();
    let files = entries(&out);
    let names: Vec<&str> = files.iter().map(|(name, _, _)| name.as_str()).collect();
    let binary = format!("server/{platform}/weather");
    assert_eq!(names, ["manifest.json", binary.as_str()]);
    let (_, mode, bytes) = &files[1];
    assert_eq!(*mode, 0o755, "the server is executable once unpacked");
    assert_eq!(bytes, &fs::read(&krate.server).unwrap());

    let manifest: Value = serde_json::from_slice(&files[0].2).unwrap();
    assert_eq!(manifest["manifest_version"], "0.3");
    assert_eq!(manifest["name"], "weather");
    assert_eq!(manifest["version"], "0.4.0");
    assert_eq!(manifest["description"], "Forecasts and alerts.");
    assert_eq!(
        manifest["author"],
        json!({ "name": "Ada Lovelace", "email": "ada@example.com" })
    );
    assert_eq!(
        manifest["repository"],
        json!({ "type": "git", "url": "https://github.com/acme/weather" })
    );
    assert_eq!(manifest["license"], "MIT");
    assert_eq!(
        manifest["server"],
        json!({
            "type": "binary",
            "entry_point": binary,
            "mcp_config": {
                "command": format!("${{__dirname}}/{binary}"),
                "args": ["--units", "${user_config.units}"],
                "env": {
                    "WEATHER_API_KEY": "${user_config.weather_api_key}",
                    "REGION": "${user_config.region}",
                    "STATION": "${user_config.station}",
                },
            },
        })
    );
    assert_eq!(
        manifest["tools"],
        json!([{ "name": "forecast", "description": "The forecast for a city." }, { "name": "alerts" }])
    );
    assert_eq!(
        manifest["prompts"],
        json!([{
            "name": "plan_day",
            "description": "Plan a day out.",
            "text": "Plan a day in ${arguments.city}.",
            "arguments": ["city"],
        }])
    );
    assert_eq!(manifest["prompts_generated"], true, "`radar` has no text");
    let config = &manifest["user_config"];
    assert_eq!(
        config["weather_api_key"]["sensitive"], true,
        "a key, by its name"
    );
    assert_eq!(config["station"]["sensitive"], true, "--secret-env");
    assert_eq!(config["region"]["default"], "eu");
    assert_eq!(config["region"].get("sensitive"), None);
    assert_eq!(config["units"]["required"], true);
    assert_eq!(manifest["compatibility"]["platforms"], json!([platform]));

    let Some(cli) = mcpb_cli() else { return };
    let unpacked = krate.dir.path().join("unpacked");
    let run = |args: &[&std::ffi::OsStr]| {
        let output = Command::new("node").arg(&cli).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "mcpb {args:?}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            stderr(&output)
        );
    };
    run(&["unpack".as_ref(), out.as_os_str(), unpacked.as_os_str()]);
    run(&[
        "validate".as_ref(),
        unpacked.join("manifest.json").as_os_str(),
    ]);
    let mode = fs::metadata(unpacked.join(&binary))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o777,
        0o755,
        "mcpb unpack keeps the server executable"
    );
}

#[test]
fn mcpb_validate_refuses_a_manifest_without_its_author() {
    // The check above can fail: the same CLI refuses a manifest that lacks a required field.
    let Some(cli) = mcpb_cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("manifest.json");
    let manifest = json!({
        "manifest_version": "0.3", "name": "weather", "version": "0.4.0", "description": "x",
        "server": { "type": "binary", "entry_point": "server/linux/weather",
                    "mcp_config": { "command": "${__dirname}/server/linux/weather" } },
    });
    fs::write(&path, manifest.to_string()).unwrap();
    let output = Command::new("node")
        .arg(&cli)
        .arg("validate")
        .arg(&path)
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("author")
            || stderr(&output).contains("author"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_secret_given_a_value_is_refused_without_showing_it() {
    let krate = Crate::described();
    let output = krate.bundle(&["--env", "GITHUB_TOKEN=ghp_1234567890abcdef"]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(
        error.contains("would ship inside the bundle") && error.contains("--env GITHUB_TOKEN"),
        "{error}"
    );
    assert!(!error.contains("ghp_1234567890abcdef"), "{error}");
    assert!(!krate.builds.exists(), "refused before any build");
}

#[test]
fn targets_the_toolchain_lacks_or_that_share_a_platform_are_refused() {
    let krate = Crate::described();
    let other_os = if cfg!(target_os = "macos") {
        "x86_64-unknown-linux-gnu"
    } else {
        "aarch64-apple-darwin"
    };
    let libdir = Command::new("rustc")
        .args(["--print", "target-libdir", "--target", other_os])
        .output()
        .unwrap();
    let libdir = PathBuf::from(String::from_utf8_lossy(&libdir.stdout).trim());
    if !libdir.is_dir() {
        let output = krate.bundle(&["--target", other_os]);
        assert!(!output.status.success());
        let error = stderr(&output);
        assert!(
            error.contains(&format!("rustup target add {other_os}")),
            "{error}"
        );
    }

    let same_os = if cfg!(target_os = "macos") {
        "x86_64-apple-darwin"
    } else {
        "x86_64-unknown-linux-musl"
    };
    let output = krate.bundle(&["--target", same_os, "--target", "aarch64-unknown-linux-gnu"]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(error.contains("one binary per platform"), "{error}");

    let output = krate.bundle(&["--target", "wasm32-unknown-unknown"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("none of the platforms a bundle names"),
        "{}",
        stderr(&output)
    );
    assert!(!krate.builds.exists(), "refused before any build");
}

#[test]
fn a_package_without_an_author_is_refused_saying_what_to_add() {
    let krate = Crate::new("description = \"Forecasts.\"\n");
    let output = krate.bundle(&[]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(
        error.contains("authors = [") && error.contains("--author NAME"),
        "{error}"
    );
    let output = krate.bundle(&["--author", "Ada", "--out", krate.out().to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
}
