//! `install` and `uninstall`: a server's entry written into, or taken out of, a client's
//! configuration file, with its binary copied where the entry can keep pointing at it.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::Value;

use crate::client::{Client, ServerEntry};
use crate::config_file::ConfigFile;
use crate::failure::{Failure, failure};
use crate::folder_trust;
use crate::paths::Places;
use crate::project::Selection;

/// Where and how to write: the client, the entry's name, and what to change.
#[derive(Debug, Args)]
pub(crate) struct Destination {
    /// The client whose configuration to change.
    #[arg(long, value_enum)]
    pub(crate) client: Client,
    /// The entry's name (default: the package's name).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Print the change and write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Read every client's configuration, and keep servers, under this folder instead of
    /// the home folder.
    #[arg(long, value_name = "DIR", hide = true)]
    pub(crate) config_home: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) selection: Selection,
}

/// `install`'s own options.
#[derive(Debug, Args)]
pub(crate) struct InstallOptions {
    #[command(flatten)]
    pub(crate) destination: Destination,
    /// An environment variable for the server, as KEY=VALUE (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = parse_env)]
    pub(crate) env: Vec<(String, String)>,
    /// An argument for the server (repeatable).
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub(crate) args: Vec<String>,
    /// Install this server binary instead of building the crate's.
    #[arg(long, value_name = "PATH")]
    pub(crate) binary: Option<PathBuf>,
    /// Write the configuration even if the client's folder does not exist.
    #[arg(long)]
    pub(crate) create: bool,
}

/// `uninstall`'s own options.
#[derive(Debug, Args)]
pub(crate) struct UninstallOptions {
    #[command(flatten)]
    pub(crate) destination: Destination,
    /// Remove the entry even if `install` did not write it.
    #[arg(long)]
    pub(crate) force: bool,
}

fn parse_env(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("expected KEY=VALUE, got `{text}`")),
    }
}

fn check_name(name: &str) -> Result<(), Failure> {
    let fits = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if fits {
        Ok(())
    } else {
        Err(failure!(
            "`{name}` cannot name a server entry: use letters, digits, `_`, `-` and `.` (pass --name NAME)"
        ))
    }
}

impl Destination {
    fn name(&self, binary: Option<&Path>) -> Result<String, Failure> {
        let name = match (&self.name, binary) {
            (Some(name), _) => name.clone(),
            // A binary built elsewhere takes the crate's name if there is a crate here.
            (None, Some(binary)) => match self.selection.package() {
                Ok(package) => package["name"].as_str().unwrap_or_default().to_owned(),
                Err(_) => binary
                    .file_stem()
                    .map(|stem| stem.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            },
            (None, None) => self.selection.package()?["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        };
        check_name(&name)?;
        Ok(name)
    }

    fn config(&self, places: &Places, create: bool) -> Result<ConfigFile, Failure> {
        let client = self.client;
        let path = client.config_file(places);
        let traces = client.traces(places);
        if !create && !traces.iter().any(|trace| trace.exists()) {
            let folder = traces
                .first()
                .map_or_else(String::new, |trace| trace.display().to_string());
            return Err(failure!(
                "{} is probably not installed: {folder} does not exist (pass --create to write {} anyway)",
                client.title(),
                path.display()
            ));
        }
        ConfigFile::read(&path, client.format())
    }
}

/// `install`: copies the server, writes its entry, says what changed.
pub(crate) fn install(options: &InstallOptions) -> Result<(), Failure> {
    let destination = &options.destination;
    let client = destination.client;
    let places = Places::new(destination.config_home.as_deref())?;
    // Read first: a file that cannot be parsed stops everything before a build.
    let mut config = destination.config(&places, options.create)?;
    let name = destination.name(options.binary.as_deref())?;
    let built = match &options.binary {
        Some(binary) if binary.is_file() => binary.clone(),
        Some(binary) => return Err(failure!("{} is not a file", binary.display())),
        None => destination.selection.build(true)?,
    };
    let file_name = built
        .file_name()
        .ok_or_else(|| failure!("{} names no file", built.display()))?;
    let installed = places.servers_dir().join(&name).join(file_name);
    let entry = client.json_entry(&ServerEntry {
        command: command(&installed)?,
        args: options.args.clone(),
        env: options.env.clone(),
    });

    let before = config.entry_text(&name);
    let unchanged = config.entry(&name).as_ref() == Some(&entry);
    config.set_entry(&name, &entry);
    let binary_changed = fs::read(&installed).ok() != Some(read(&built)?);

    if destination.dry_run {
        if binary_changed {
            println!("would copy {} to {}", built.display(), installed.display());
        }
        if unchanged {
            println!(
                "{} already has the server `{name}` as it would be written; nothing would change",
                config.path().display()
            );
        } else {
            print_change(
                &config,
                &name,
                before.as_deref(),
                config.entry_text(&name).as_deref(),
            );
        }
        println!("dry run: nothing written");
        return Ok(());
    }
    if binary_changed {
        copy_binary(&built, &installed)?;
        println!("copied {} to {}", built.display(), installed.display());
    }
    if unchanged {
        println!(
            "{}: {} already has the server `{name}` as this install writes it; nothing changed",
            client.title(),
            config.path().display()
        );
        gemini_trust_note(client, &places, &config);
        return Ok(());
    }
    let backup = config.write(options.create)?;
    let verb = if before.is_some() { "updated" } else { "added" };
    println!(
        "{}: {verb} the server `{name}` in {}",
        client.title(),
        config.path().display()
    );
    if let Some(backup) = backup {
        println!("the file as it was is kept in {}", backup.display());
    }
    println!("restart {} to load it", client.title());
    gemini_trust_note(client, &places, &config);
    Ok(())
}

/// The command a client's configuration runs: the installed binary's path, as UTF-8.
fn command(installed: &Path) -> Result<String, Failure> {
    installed.to_str().map(str::to_owned).ok_or_else(|| {
        failure!(
            "{} is not UTF-8, which the configuration file needs",
            installed.display()
        )
    })
}

/// For Gemini CLI, a note when the current folder is one it would not start servers in.
fn gemini_trust_note(client: Client, places: &Places, config: &ConfigFile) {
    if client != Client::GeminiCli {
        return;
    }
    let Ok(folder) = std::env::current_dir() else {
        return;
    };
    if let Some(note) = folder_trust::gemini_note(places, config, &folder) {
        println!("note: {note}");
    }
}

/// `uninstall`: takes out the entry `install` wrote, and the copied server once no client
/// uses it.
pub(crate) fn uninstall(options: &UninstallOptions) -> Result<(), Failure> {
    let destination = &options.destination;
    let client = destination.client;
    let places = Places::new(destination.config_home.as_deref())?;
    let path = client.config_file(&places);
    let mut config = ConfigFile::read(&path, client.format())?;
    let name = destination.name(None)?;
    if !config.exists() {
        println!(
            "{}: {} does not exist; nothing to remove",
            client.title(),
            path.display()
        );
        return Ok(());
    }
    let Some(entry) = config.entry(&name) else {
        println!(
            "{}: {} has no server `{name}` under `{}`; nothing changed",
            client.title(),
            path.display(),
            config.servers_key()
        );
        return Ok(());
    };
    let folder = places.servers_dir().join(&name);
    let ours = entry
        .get("command")
        .and_then(Value::as_str)
        .is_some_and(|command| Path::new(command).starts_with(&folder));
    if !ours && !options.force {
        return Err(failure!(
            "the server `{name}` in {} was not written by `cargo mcp-tool install` (its command is not under {}); \
             remove it by hand, or pass --force",
            path.display(),
            folder.display()
        ));
    }
    let before = config.entry_text(&name);
    config.remove_entry(&name);
    if destination.dry_run {
        print_change(&config, &name, before.as_deref(), None);
        println!("dry run: nothing written");
        return Ok(());
    }
    let backup = config.write(false)?;
    println!(
        "{}: removed the server `{name}` from {}",
        client.title(),
        path.display()
    );
    if let Some(backup) = backup {
        println!("the file as it was is kept in {}", backup.display());
    }
    if ours && !used_elsewhere(&places, &folder) && folder.exists() {
        fs::remove_dir_all(&folder)
            .map_err(|error| failure!("cannot remove {}: {error}", folder.display()))?;
        println!("removed {}, which no other client uses", folder.display());
    }
    Ok(())
}

/// Whether another client's entry still starts the server copied into `folder`.
fn used_elsewhere(places: &Places, folder: &Path) -> bool {
    [
        Client::ClaudeDesktop,
        Client::ClaudeCode,
        Client::Cursor,
        Client::Vscode,
        Client::GeminiCli,
        Client::Codex,
    ]
    .into_iter()
    .filter_map(|client| ConfigFile::read(&client.config_file(places), client.format()).ok())
    .any(|config| {
        config
            .commands()
            .iter()
            .any(|(_, command)| Path::new(command).starts_with(folder))
    })
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    fs::read(path).map_err(|error| failure!("cannot read {}: {error}", path.display()))
}

fn copy_binary(from: &Path, to: &Path) -> Result<(), Failure> {
    let folder = to
        .parent()
        .ok_or_else(|| failure!("{} has no folder", to.display()))?;
    fs::create_dir_all(folder)
        .map_err(|error| failure!("cannot create {}: {error}", folder.display()))?;
    // A copy beside it, then a rename: a running copy of the old binary is never overwritten.
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    fs::copy(from, &partial).map_err(|error| {
        failure!(
            "cannot copy {} to {}: {error}",
            from.display(),
            partial.display()
        )
    })?;
    fs::rename(&partial, to).map_err(|error| {
        failure!(
            "cannot move {} to {}: {error}",
            partial.display(),
            to.display()
        )
    })
}

/// The entry before and after, as a unified diff shows lines.
fn print_change(config: &ConfigFile, name: &str, before: Option<&str>, after: Option<&str>) {
    let path = config.path().display();
    println!("--- {path}");
    println!("+++ {path}");
    println!("@@ {}.{name} @@", config.servers_key());
    for line in before.into_iter().flat_map(str::lines) {
        println!("-{line}");
    }
    for line in after.into_iter().flat_map(str::lines) {
        println!("+{line}");
    }
}
