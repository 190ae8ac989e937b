//! The crate being worked on: its package and server binary, as `cargo metadata` describes
//! them, chosen as `cargo run` chooses, and built with `cargo build`.

use std::env;
use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clap::Args;
use serde_json::Value;

use crate::failure::{Failure, failure};

/// Which binary of which package, as `cargo run` takes them.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct Selection {
    /// The package to build, in a workspace of several.
    #[arg(short = 'p', long = "package", value_name = "NAME")]
    pub(crate) package: Option<String>,
    /// The binary target to serve (default: the package's only binary, or its `default-run`).
    #[arg(long, value_name = "NAME", conflicts_with = "example")]
    pub(crate) bin: Option<String>,
    /// An example target to serve instead of a binary.
    #[arg(long, value_name = "NAME")]
    pub(crate) example: Option<String>,
    /// The manifest of the crate (default: the one `cargo` finds from the current folder).
    #[arg(long, value_name = "PATH")]
    pub(crate) manifest_path: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) cargo: CargoFlags,
}

/// The options of `cargo build` passed on as given.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct CargoFlags {
    /// Features to activate, space- or comma-separated (repeatable).
    #[arg(short = 'F', long, value_name = "FEATURES")]
    pub(crate) features: Vec<String>,
    /// Activate all available features.
    #[arg(long)]
    pub(crate) all_features: bool,
    /// Do not activate the `default` feature.
    #[arg(long)]
    pub(crate) no_default_features: bool,
    /// Build with this profile (in place of `--release` where a command builds in release).
    #[arg(long, value_name = "NAME")]
    pub(crate) profile: Option<String>,
    /// The folder for everything cargo builds.
    #[arg(long, value_name = "DIR")]
    pub(crate) target_dir: Option<PathBuf>,
    /// Require Cargo.lock to be up to date.
    #[arg(long)]
    pub(crate) locked: bool,
    /// Run without accessing the network.
    #[arg(long)]
    pub(crate) offline: bool,
    /// Cargo's verbose output (-vv very verbose).
    #[arg(short = 'v', long, action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub(crate) verbose: u8,
    /// No cargo output.
    #[arg(short = 'q', long)]
    pub(crate) quiet: bool,
}

impl CargoFlags {
    /// The flags every cargo command takes: the lock file and the network.
    fn for_any(&self) -> Vec<OsString> {
        let mut args = Vec::new();
        if self.locked {
            args.push("--locked".into());
        }
        if self.offline {
            args.push("--offline".into());
        }
        args
    }

    /// The flags for `cargo build`, `--release` among them where `release` and no
    /// `--profile` says otherwise (cargo refuses both).
    fn for_build(&self, release: bool) -> Vec<OsString> {
        let mut args = self.for_any();
        if !self.features.is_empty() {
            args.push("--features".into());
            args.push(self.features.join(",").into());
        }
        if self.all_features {
            args.push("--all-features".into());
        }
        if self.no_default_features {
            args.push("--no-default-features".into());
        }
        match &self.profile {
            Some(profile) => {
                args.push("--profile".into());
                args.push(profile.into());
            }
            None if release => args.push("--release".into()),
            None => {}
        }
        if let Some(target_dir) = &self.target_dir {
            args.push("--target-dir".into());
            args.push(target_dir.into());
        }
        if self.verbose > 0 {
            args.push(format!("-{}", "v".repeat(usize::from(self.verbose))).into());
        }
        if self.quiet {
            args.push("--quiet".into());
        }
        args
    }
}

/// The target chosen: `--bin` or `--example`, by name, in a package.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub(crate) package: String,
    pub(crate) name: String,
    pub(crate) example: bool,
}

fn cargo() -> OsString {
    // Cargo tells its subcommands which cargo runs them.
    env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

fn run_cargo(
    args: &[&str],
    manifest_path: Option<&Path>,
    flags: &CargoFlags,
) -> Result<String, Failure> {
    let mut command = Command::new(cargo());
    command.args(args).args(flags.for_any());
    if let Some(manifest_path) = manifest_path {
        command.arg("--manifest-path").arg(manifest_path);
    }
    let output = command
        .output()
        .map_err(|error| failure!("cannot run cargo: {error}"))?;
    if !output.status.success() {
        return Err(failure!(
            "`cargo {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    String::from_utf8(output.stdout)
        .map_err(|_| failure!("`cargo {}` printed text that is not UTF-8", args.join(" ")))
}

impl Selection {
    /// The workspace as `cargo metadata --no-deps` describes it.
    fn metadata(&self) -> Result<Value, Failure> {
        let metadata = run_cargo(
            &["metadata", "--no-deps", "--format-version", "1"],
            self.manifest_path.as_deref(),
            &self.cargo,
        )?;
        serde_json::from_str(&metadata)
            .map_err(|error| failure!("cannot read cargo metadata: {error}"))
    }

    /// Where cargo puts what it builds for this workspace (`target/`, or
    /// `CARGO_TARGET_DIR`).
    pub(crate) fn target_directory(&self) -> Result<PathBuf, Failure> {
        if let Some(target_dir) = &self.cargo.target_dir {
            // As cargo takes it: relative to the current folder.
            return std::path::absolute(target_dir).map_err(|error| {
                failure!("cannot find the folder {}: {error}", target_dir.display())
            });
        }
        self.metadata()?["target_directory"]
            .as_str()
            .map(PathBuf::from)
            .ok_or_else(|| failure!("cargo metadata names no target directory"))
    }

    /// The package named with `-p`, or the one whose folder this is.
    pub(crate) fn package(&self) -> Result<Value, Failure> {
        let metadata = self.metadata()?;
        let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
        let names = || {
            packages
                .iter()
                .filter_map(|package| package["name"].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(wanted) = &self.package {
            return packages
                .iter()
                .find(|package| package["name"] == wanted.as_str())
                .cloned()
                .ok_or_else(|| {
                    failure!(
                        "no package `{wanted}` in this workspace; its packages: {}",
                        names()
                    )
                });
        }
        let located = run_cargo(
            &["locate-project", "--message-format", "plain"],
            self.manifest_path.as_deref(),
            &self.cargo,
        )?;
        let located = Path::new(located.trim());
        if let Some(package) = packages.iter().find(|package| {
            package["manifest_path"]
                .as_str()
                .is_some_and(|path| Path::new(path) == located)
        }) {
            return Ok(package.clone());
        }
        match packages.as_slice() {
            [package] => Ok(package.clone()),
            _ => Err(failure!(
                "this workspace has several packages: choose one with -p NAME ({})",
                names()
            )),
        }
    }

    /// The target to build, chosen as `cargo run` chooses it.
    pub(crate) fn target(&self) -> Result<Target, Failure> {
        let package = self.package()?;
        let package_name = package["name"].as_str().unwrap_or_default().to_owned();
        let targets = package["targets"].as_array().cloned().unwrap_or_default();
        let of_kind = |kind: &str| -> Vec<String> {
            targets
                .iter()
                .filter(|target| {
                    target["kind"]
                        .as_array()
                        .is_some_and(|kinds| kinds.iter().any(|k| k == kind))
                })
                .filter_map(|target| target["name"].as_str().map(str::to_owned))
                .collect()
        };
        let binaries = of_kind("bin");
        let (name, example) = if let Some(example) = &self.example {
            let examples = of_kind("example");
            if !examples.contains(example) {
                return Err(failure!(
                    "package `{package_name}` has no example `{example}`; its examples: {}",
                    listed(&examples)
                ));
            }
            (example.clone(), true)
        } else if let Some(bin) = &self.bin {
            if !binaries.contains(bin) {
                return Err(failure!(
                    "package `{package_name}` has no binary `{bin}`; its binaries: {}",
                    listed(&binaries)
                ));
            }
            (bin.clone(), false)
        } else if let Some(default) = package["default_run"].as_str() {
            (default.to_owned(), false)
        } else {
            match binaries.as_slice() {
                [only] => (only.clone(), false),
                [] => {
                    return Err(failure!(
                        "package `{package_name}` has no binary, so no server to run: add `src/main.rs` that serves its tools \
                         (`cargo mcp-tool new NAME` shows one), choose an example with --example NAME, \
                         or pass a built server with --binary PATH"
                    ));
                }
                _ => {
                    return Err(failure!(
                        "package `{package_name}` has several binaries: choose one with --bin NAME ({})",
                        listed(&binaries)
                    ));
                }
            }
        };
        Ok(Target {
            package: package_name,
            name,
            example,
        })
    }

    /// Builds the chosen target and returns its executable.
    pub(crate) fn build(&self, release: bool) -> Result<PathBuf, Failure> {
        self.build_for(release, None)
    }

    /// Builds the chosen target for the platform `triple` (the host's where `None`) and
    /// returns its executable.
    pub(crate) fn build_for(
        &self,
        release: bool,
        triple: Option<&str>,
    ) -> Result<PathBuf, Failure> {
        let target = self.target()?;
        let mut command = Command::new(cargo());
        command.args([
            "build",
            "--message-format",
            "json-render-diagnostics",
            "-p",
            &target.package,
        ]);
        command
            .arg(if target.example { "--example" } else { "--bin" })
            .arg(&target.name);
        command.args(self.cargo.for_build(release));
        if let Some(triple) = triple {
            command.args(["--target", triple]);
        }
        if let Some(manifest_path) = &self.manifest_path {
            command.arg("--manifest-path").arg(manifest_path);
        }
        // Cargo's progress and diagnostics go to the person; its JSON messages to us.
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| failure!("cannot run cargo: {error}"))?;
        let mut executable = None;
        if let Some(stdout) = child.stdout.take() {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if message["reason"] == "compiler-artifact"
                    && message["target"]["name"] == target.name.as_str()
                    && let Some(path) = message["executable"].as_str()
                {
                    executable = Some(PathBuf::from(path));
                }
            }
        }
        let status = child
            .wait()
            .map_err(|error| failure!("cannot run cargo: {error}"))?;
        if !status.success() {
            return Err(failure!(
                "the build of `{}` failed (see cargo's messages above)",
                target.name
            ));
        }
        executable.ok_or_else(|| {
            failure!(
                "cargo built `{}` but named no executable for it",
                target.name
            )
        })
    }
}

fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}
