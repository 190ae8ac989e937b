//! `cargo mcp-tool dev`: builds the crate's server and serves it under the MCP Inspector
//! (or, with `--stdio`, on this process's own stdin and stdout), rebuilding it each time
//! a source file changes and swapping the running server for the new build.
//!
//! The build that serves is copied to `<target>/mcp-tool-dev/<name>`, so that a build in
//! progress, or one that fails, never disturbs it; after each good build the copy is
//! replaced and `<name>.generation` counts up, which the reloading server
//! ([`crate::reload`]) watches. A build that made the same executable as the one serving
//! (a second event of the same save, a file that is no source) swaps nothing. The Inspector is installed with npm under
//! `<target>/mcp-tool-dev/inspector` the first time, saying so.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;
use notify::{EventKind, RecursiveMode, Watcher};

use crate::failure::{Failure, failure};
use crate::project::Selection;
use crate::reload::{self, Reload};

/// The Inspector `dev` installs (the version the project's own tests install too,
/// `scripts/setup-inspector.sh`, from the same file), and the oldest Node it runs on.
const INSPECTOR_VERSION: &str = include_str!("../inspector-version").trim_ascii();
const NODE_MINIMUM: (u32, u32) = (22, 19);

/// How long the files must be quiet after a change before the build starts: an editor's
/// save is often several writes.
const QUIET: Duration = Duration::from_millis(300);

/// `cargo mcp-tool dev`.
#[derive(Debug, Args)]
pub(crate) struct DevOptions {
    #[command(flatten)]
    pub(crate) selection: Selection,
    /// Build in release.
    #[arg(long)]
    pub(crate) release: bool,
    /// Serve on this process's stdin and stdout instead of under the MCP Inspector: the
    /// command for a client's configuration, to try each build in the client itself.
    #[arg(long)]
    pub(crate) stdio: bool,
    /// Arguments for the server, after `--`.
    #[arg(last = true, value_name = "SERVER_ARGS")]
    pub(crate) server_args: Vec<String>,
}

/// `cargo mcp-tool reload`, which the Inspector starts: the reloading server alone.
#[derive(Debug, Args)]
pub(crate) struct ReloadOptions {
    /// The server to run.
    #[arg(long, value_name = "PATH")]
    pub(crate) binary: PathBuf,
    /// The file whose change says that a new build is there.
    #[arg(long, value_name = "PATH")]
    pub(crate) generation: PathBuf,
    /// Arguments for the server: everything after the options above, as it is (the
    /// Inspector passes no `--` on).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "SERVER_ARGS"
    )]
    pub(crate) server_args: Vec<String>,
}

/// Serves the reloading server on this process's stdin and stdout.
pub(crate) fn reload(options: &ReloadOptions) -> Result<(), Failure> {
    let reload = Reload {
        binary: options.binary.clone(),
        args: options.server_args.clone(),
        generation: options.generation.clone(),
    };
    let input = BufReader::new(std::io::stdin());
    reload::serve(&reload, input, Box::new(std::io::stdout()))
}

/// What serves: the copy of the last good build, and its generation file.
struct Served {
    binary: PathBuf,
    generation: PathBuf,
    count: u64,
}

impl Served {
    /// Copies `built` over the served binary (by a rename, which a running server
    /// survives) and counts the generation up; `false` when `built` is the binary that
    /// serves already, which is left alone.
    fn take(&mut self, built: &Path) -> Result<bool, Failure> {
        if self.count > 0 && same_contents(built, &self.binary) {
            return Ok(false);
        }
        let staged = self.binary.with_extension("new");
        std::fs::copy(built, &staged)
            .and_then(|_| std::fs::rename(&staged, &self.binary))
            .map_err(|error| {
                failure!(
                    "cannot copy {} to {}: {error}",
                    built.display(),
                    self.binary.display()
                )
            })?;
        self.count += 1;
        // Renamed into place, so that the reloading server never reads a half-written count.
        let staged = self.generation.with_extension("generation.new");
        std::fs::write(&staged, self.count.to_string())
            .and_then(|()| std::fs::rename(&staged, &self.generation))
            .map_err(|error| failure!("cannot write {}: {error}", self.generation.display()))?;
        Ok(true)
    }
}

/// Whether the two files hold the same bytes (`false` when either cannot be read).
fn same_contents(one: &Path, other: &Path) -> bool {
    let length = |path: &Path| std::fs::metadata(path).map(|metadata| metadata.len()).ok();
    length(one).is_some_and(|length_one| Some(length_one) == length(other))
        && matches!((std::fs::read(one), std::fs::read(other)), (Ok(a), Ok(b)) if a == b)
}

pub(crate) fn dev(options: &DevOptions) -> Result<(), Failure> {
    let selection = &options.selection;
    let target = selection.target()?;
    let package = selection.package()?;
    let root = package["manifest_path"]
        .as_str()
        .and_then(|manifest| Path::new(manifest).parent())
        .map(Path::to_path_buf)
        .ok_or_else(|| failure!("cargo metadata names no manifest for `{}`", target.package))?;
    let target_dir = selection.target_directory()?;
    let folder = target_dir.join("mcp-tool-dev");
    std::fs::create_dir_all(&folder)
        .map_err(|error| failure!("cannot create {}: {error}", folder.display()))?;
    let mut served = Served {
        binary: folder.join(format!("{}{}", target.name, std::env::consts::EXE_SUFFIX)),
        generation: folder.join(format!("{}.generation", target.name)),
        count: 0,
    };
    served.take(&selection.build(options.release)?)?;
    // What the reloading server runs: the copy, and the generation the rebuilds count up.
    let reload = Reload {
        binary: served.binary.clone(),
        args: options.server_args.clone(),
        generation: served.generation.clone(),
    };

    let rebuild = rebuild_on_change(
        selection,
        options.release,
        served,
        &target.name,
        root,
        target_dir,
    )?;
    if options.stdio {
        let input = BufReader::new(std::io::stdin());
        return reload::serve(&reload, input, Box::new(std::io::stdout()));
    }
    let (node, inspector) = inspector(&folder)?;
    let this = std::env::current_exe()
        .map_err(|error| failure!("cannot find this program's own path: {error}"))?;
    let status = Command::new(node)
        .arg(inspector)
        .arg(this)
        .arg("reload")
        .arg("--binary")
        .arg(&reload.binary)
        .arg("--generation")
        .arg(&reload.generation)
        .args(&reload.args)
        .status()
        .map_err(|error| failure!("cannot start the MCP Inspector: {error}"))?;
    drop(rebuild);
    if status.success() {
        Ok(())
    } else {
        Err(failure!("the MCP Inspector stopped ({status})"))
    }
}

/// Watches the crate's folder `root` and, on a thread of its own, rebuilds the server
/// after each change and hands a good build to `served`; the thread lives as long as
/// the process.
fn rebuild_on_change(
    selection: &Selection,
    release: bool,
    mut served: Served,
    name: &str,
    root: PathBuf,
    target_dir: PathBuf,
) -> Result<std::thread::JoinHandle<()>, Failure> {
    let (changes, changed) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(changes)
        .map_err(|error| failure!("cannot watch the crate's files: {error}"))?;
    watcher
        .watch(&root, RecursiveMode::Recursive)
        .map_err(|error| failure!("cannot watch {}: {error}", root.display()))?;
    eprintln!(
        "cargo mcp-tool dev: serving `{name}`; a change under {} rebuilds it",
        root.display()
    );
    let selection = selection.clone();
    Ok(std::thread::spawn(move || {
        // The watcher lives as long as this thread, which lives as long as the process.
        let _watcher = watcher;
        while let Some(path) = next_change(&changed, &root, &target_dir) {
            eprintln!("cargo mcp-tool dev: {} changed: rebuilding", path.display());
            match selection
                .build(release)
                .and_then(|built| served.take(&built))
            {
                Ok(true) => eprintln!("cargo mcp-tool dev: built; swapping the server"),
                Ok(false) => eprintln!(
                    "cargo mcp-tool dev: built the same server as the one serving; nothing to swap"
                ),
                Err(failure) => {
                    eprintln!("cargo mcp-tool dev: {failure}; the last good build serves on")
                }
            }
        }
    }))
}

/// Waits for a change to a file under the crate's folder `root` (not under `target`, not
/// hidden), then for the files to be quiet; `None` once the watcher is gone.
fn next_change(
    changed: &mpsc::Receiver<notify::Result<notify::Event>>,
    root: &Path,
    target: &Path,
) -> Option<PathBuf> {
    let relevant = |event: &notify::Event| -> Option<PathBuf> {
        if !matches!(
            event.kind,
            EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
        ) {
            return None;
        }
        event
            .paths
            .iter()
            .find(|path| {
                // Hidden below the crate's folder (`.git`, an editor's swap file); the
                // folders above it may be hidden themselves.
                let hidden = (path.strip_prefix(root).unwrap_or(path).components())
                    .any(|part| part.as_os_str().to_string_lossy().starts_with('.'));
                !path.starts_with(target) && !hidden
            })
            .cloned()
    };
    let first = loop {
        match changed.recv() {
            Ok(Ok(event)) => {
                if let Some(path) = relevant(&event) {
                    break path;
                }
            }
            Ok(Err(error)) => eprintln!("cargo mcp-tool dev: watching: {error}"),
            Err(_) => return None,
        }
    };
    // Quiet for QUIET before building: the rest of the save arrives meanwhile.
    while changed.recv_timeout(QUIET).is_ok() {}
    Some(first)
}

/// Node and the Inspector's launcher, installed with npm under `folder` when missing.
fn inspector(folder: &Path) -> Result<(PathBuf, PathBuf), Failure> {
    let tools = folder.join("inspector");
    let launcher =
        tools.join("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    let local_node = tools.join("node_modules/node/bin/node");
    let system_node = recent_node(Path::new("node")).then(|| PathBuf::from("node"));
    let mut wanted = String::from("{\n  \"private\": true,\n  \"dependencies\": {\n");
    if system_node.is_none() {
        wanted.push_str(&format!("    \"node\": \"^{}\",\n", NODE_MINIMUM.0));
    }
    wanted.push_str(&format!(
        "    \"@modelcontextprotocol/inspector\": \"{INSPECTOR_VERSION}\"\n  }}\n}}\n"
    ));
    let node = system_node.clone().unwrap_or_else(|| local_node.clone());
    let package_json = tools.join("package.json");
    let installed = std::fs::read_to_string(&package_json).is_ok_and(|kept| kept == wanted)
        && launcher.is_file()
        && (system_node.is_some() || local_node.is_file());
    if !installed {
        let what = match system_node {
            Some(_) => format!("the MCP Inspector {INSPECTOR_VERSION}"),
            None => format!(
                "the MCP Inspector {INSPECTOR_VERSION} and Node {} (this machine's node is \
                 missing or older than {}.{})",
                NODE_MINIMUM.0, NODE_MINIMUM.0, NODE_MINIMUM.1
            ),
        };
        eprintln!(
            "cargo mcp-tool dev: installing {what} with npm into {} (once)",
            tools.display()
        );
        std::fs::create_dir_all(&tools)
            .and_then(|()| std::fs::write(&package_json, &wanted))
            .map_err(|error| failure!("cannot write {}: {error}", package_json.display()))?;
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&tools)
            .status()
            .map_err(|error| {
                failure!(
                    "cannot run npm ({error}): install Node.js, which brings it, and run dev again"
                )
            })?;
        if !status.success() {
            return Err(failure!(
                "`npm install` of {what} failed ({status}): see npm's messages above"
            ));
        }
    }
    Ok((node, launcher))
}

/// Whether `node --version` is at least NODE_MINIMUM.
fn recent_node(node: &Path) -> bool {
    let Ok(output) = Command::new(node).arg("--version").output() else {
        return false;
    };
    let version = String::from_utf8_lossy(&output.stdout);
    let mut parts = version.trim().trim_start_matches('v').split('.');
    let major = parts.next().and_then(|part| part.parse::<u32>().ok());
    let minor = parts.next().and_then(|part| part.parse::<u32>().ok());
    matches!((major, minor), (Some(major), Some(minor)) if (major, minor) >= NODE_MINIMUM)
}
