//! The cargo flags `list`, `call`, `dev`, `install` and `bundle` take, passed on to cargo: a cargo of
//! the test's own (`CARGO`) writes down each `build` it is asked for and answers with a
//! built server, and runs every other command with the real cargo.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// A crate `weather`, the cargo that writes down its builds, and where it writes them.
struct Crate {
    dir: TempDir,
    manifest: PathBuf,
    builds: PathBuf,
    others: PathBuf,
}

fn executable(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

impl Crate {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("weather");
        fs::create_dir_all(root.join("src")).unwrap();
        fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"weather\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
             description = \"Forecasts.\"\nauthors = [\"Ada\"]\n\n[workspace]\n",
        )
        .unwrap();
        fs::write(root.join("src").join("main.rs"), "fn main() {}\n").unwrap();
        let server = dir.path().join("built-weather");
        executable(&server, "#!/bin/sh\nexit 0\n");
        let builds = dir.path().join("builds.log");
        let others = dir.path().join("others.log");
        let cargo = format!(
            "#!/bin/sh\nif [ \"$1\" = build ]; then\n  echo \"$*\" >> '{}'\n  \
             echo '{{\"reason\":\"compiler-artifact\",\"target\":{{\"name\":\"weather\"}},\"executable\":\"{}\"}}'\n  \
             exit 0\nfi\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            builds.display(),
            server.display(),
            others.display(),
            env!("CARGO")
        );
        executable(&dir.path().join("cargo"), &cargo);
        Self {
            manifest: root.join("Cargo.toml"),
            dir,
            builds,
            others,
        }
    }

    /// Runs `cargo mcp-tool <args> --manifest-path <the crate>` for at most a minute (`dev`
    /// serves until its input ends), and returns the build it asked for.
    fn build_of(&self, args: &[&str]) -> (String, Output) {
        let _ = fs::remove_file(&self.builds);
        let mut child = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
            .args(args)
            .arg("--manifest-path")
            .arg(&self.manifest)
            .current_dir(self.dir.path())
            .env("CARGO", self.dir.path().join("cargo"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let output = child.wait_with_output().unwrap();
        let build = fs::read_to_string(&self.builds).unwrap_or_default();
        (build.trim().to_owned(), output)
    }
}

#[test]
fn list_call_dev_and_install_pass_the_cargo_flags_on() {
    let krate = Crate::new();
    let manifest = krate.manifest.display().to_string();
    let target_dir = krate.dir.path().join("elsewhere");
    let target = target_dir.to_str().unwrap();

    let (build, output) = krate.build_of(&[
        "list",
        "-F",
        "a,b",
        "--features",
        "c",
        "--no-default-features",
        "--profile",
        "dist",
        "--target-dir",
        target,
        "--locked",
        "--offline",
        "-vv",
    ]);
    assert_eq!(
        build,
        format!(
            "build --message-format json-render-diagnostics -p weather --bin weather --locked --offline \
             --features a,b,c --no-default-features --profile dist --target-dir {target} -vv --manifest-path {manifest}"
        ),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let others = fs::read_to_string(&krate.others).unwrap();
    assert!(
        others
            .lines()
            .all(|line| line.contains("--locked --offline")),
        "{others}"
    );

    let (build, _) = krate.build_of(&["call", "forecast", "--all-features", "--release", "-q"]);
    assert!(
        build.ends_with(&format!(
            "--all-features --release --quiet --manifest-path {manifest}"
        )),
        "{build}"
    );

    let install = [
        "install",
        "--client",
        "cursor",
        "--create",
        "--dry-run",
        "--config-home",
    ];
    let home = krate.dir.path().join("home");
    let home = home.to_str().unwrap();
    let (build, output) = krate.build_of(&[&install[..], &[home]].concat());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(build.contains(" --release "), "{build}");
    let (build, _) = krate.build_of(&[&install[..], &[home, "--profile", "dist", "-v"]].concat());
    assert!(build.contains(" --profile dist -v "), "{build}");
    assert!(!build.contains("--release"), "cargo refuses both: {build}");

    let (build, output) = krate.build_of(&["dev", "--stdio", "--target-dir", target, "--offline"]);
    assert!(
        build.contains(&format!(" --offline --target-dir {target} ")),
        "{build}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        target_dir.join("mcp-tool-dev").join("weather").is_file(),
        "dev keeps its copy in the target folder given"
    );

    // The built server here speaks no MCP, so the bundle stops after the build it asked for.
    let (build, _) = krate.build_of(&["bundle", "-F", "a", "--locked", "-q"]);
    assert!(
        build.contains(" --locked --features a --release --quiet "),
        "{build}"
    );
    let (build, _) = krate.build_of(&[
        "bundle",
        "--all-features",
        "--profile",
        "dist",
        "--target-dir",
        target,
    ]);
    assert!(
        build.contains(&format!(
            " --all-features --profile dist --target-dir {target} "
        )),
        "{build}"
    );
    assert!(!build.contains("--release"), "cargo refuses both: {build}");
}
