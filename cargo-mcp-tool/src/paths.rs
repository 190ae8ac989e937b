//! The folders a client's configuration and an installed server live in, read from the
//! environment (`HOME`, `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `APPDATA`, `LOCALAPPDATA`, and
//! each client's own override, such as `CLAUDE_CONFIG_DIR`), so that a test can point them
//! at a temporary folder.

use std::env;
use std::path::{Path, PathBuf};

use crate::failure::{Failure, failure};

/// Where the user's folders are: the environment's, or all under one folder given with
/// `--config-home`.
#[derive(Debug, Clone)]
pub(crate) struct Places {
    home: PathBuf,
    /// Set by `--config-home`: every folder is taken under it, the environment ignored.
    pinned: bool,
}

impl Places {
    pub(crate) fn new(config_home: Option<&Path>) -> Result<Self, Failure> {
        if let Some(home) = config_home {
            return Ok(Self {
                home: home.to_path_buf(),
                pinned: true,
            });
        }
        let home = env_path("HOME")
            .or_else(|| env_path("USERPROFILE"))
            .ok_or_else(|| {
                failure!("cannot find your home folder: neither HOME nor USERPROFILE is set")
            })?;
        Ok(Self {
            home,
            pinned: false,
        })
    }

    pub(crate) fn home(&self) -> &Path {
        &self.home
    }

    /// The folder applications keep their settings in: `%APPDATA%` on Windows,
    /// `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` or `~/.config` elsewhere.
    pub(crate) fn config_dir(&self) -> PathBuf {
        if cfg!(windows) {
            self.env_folder("APPDATA")
                .unwrap_or_else(|| self.home.join("AppData").join("Roaming"))
        } else if cfg!(target_os = "macos") {
            self.home.join("Library").join("Application Support")
        } else {
            self.env_folder("XDG_CONFIG_HOME")
                .unwrap_or_else(|| self.home.join(".config"))
        }
    }

    /// The folder applications keep their data in: `%LOCALAPPDATA%` on Windows,
    /// `~/Library/Application Support` on macOS, `$XDG_DATA_HOME` or `~/.local/share` elsewhere.
    pub(crate) fn data_dir(&self) -> PathBuf {
        if cfg!(windows) {
            self.env_folder("LOCALAPPDATA")
                .unwrap_or_else(|| self.home.join("AppData").join("Local"))
        } else if cfg!(target_os = "macos") {
            self.home.join("Library").join("Application Support")
        } else {
            self.env_folder("XDG_DATA_HOME")
                .unwrap_or_else(|| self.home.join(".local").join("share"))
        }
    }

    /// A variable of the environment naming a folder, unless `--config-home` pinned them all.
    pub(crate) fn env_folder(&self, name: &str) -> Option<PathBuf> {
        if self.pinned { None } else { env_path(name) }
    }

    /// The folder installed servers are copied to, one folder per server name.
    pub(crate) fn servers_dir(&self) -> PathBuf {
        self.data_dir().join("mcp-tool").join("servers")
    }
}

fn env_path(name: &str) -> Option<PathBuf> {
    // An empty or relative value is not a usable folder (the XDG rules say to ignore it).
    env::var_os(name)
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
}
