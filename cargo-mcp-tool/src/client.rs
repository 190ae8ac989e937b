//! The MCP clients `install` knows: where each keeps its configuration, and the shape of a
//! server's entry in it.

use std::path::PathBuf;

use clap::ValueEnum;
use serde_json::{Map, Value, json};

use crate::json_text::Dialect;
use crate::paths::Places;

/// An MCP client whose configuration file `install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Client {
    /// Claude Desktop: `claude_desktop_config.json`, `mcpServers`.
    ClaudeDesktop,
    /// Claude Code: `~/.claude.json` (in `$CLAUDE_CONFIG_DIR` when set), `mcpServers`.
    ClaudeCode,
    /// Cursor: `~/.cursor/mcp.json`, `mcpServers`.
    Cursor,
    /// VS Code: the user's `mcp.json`, `servers`.
    Vscode,
    /// Gemini CLI: `~/.gemini/settings.json` (`~` being `$GEMINI_CLI_HOME` when set),
    /// `mcpServers`.
    GeminiCli,
    /// Codex: `~/.codex/config.toml` (`$CODEX_HOME/config.toml` when set), `[mcp_servers.NAME]`.
    Codex,
}

/// How a client's configuration file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// A JSON object whose member named here holds one entry per server, in the dialect
    /// the client reads; comments and trailing commas it allows are kept.
    Json {
        servers_key: &'static str,
        dialect: Dialect,
    },
    /// A TOML document with one `[mcp_servers.NAME]` table per server.
    Toml,
}

/// What a server's entry says: the program to start, its arguments and its environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServerEntry {
    pub(crate) command: String,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
}

impl Client {
    /// The name the client goes by.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Self::ClaudeDesktop => "Claude Desktop",
            Self::ClaudeCode => "Claude Code",
            Self::Cursor => "Cursor",
            Self::Vscode => "VS Code",
            Self::GeminiCli => "Gemini CLI",
            Self::Codex => "Codex",
        }
    }

    pub(crate) fn format(self) -> Format {
        match self {
            Self::Vscode => Format::Json {
                servers_key: "servers",
                dialect: Dialect::Jsonc,
            },
            Self::GeminiCli => Format::Json {
                servers_key: "mcpServers",
                dialect: Dialect::Comments,
            },
            Self::Codex => Format::Toml,
            _ => Format::Json {
                servers_key: "mcpServers",
                dialect: Dialect::Json,
            },
        }
    }

    /// The configuration file the client reads its servers from.
    pub(crate) fn config_file(self, places: &Places) -> PathBuf {
        match self {
            Self::ClaudeDesktop => places
                .config_dir()
                .join("Claude")
                .join("claude_desktop_config.json"),
            Self::ClaudeCode => Self::claude_code_folder(places).join(".claude.json"),
            Self::Cursor => places.home().join(".cursor").join("mcp.json"),
            Self::Vscode => places
                .config_dir()
                .join("Code")
                .join("User")
                .join("mcp.json"),
            Self::GeminiCli => places
                .env_folder("GEMINI_CLI_HOME")
                .unwrap_or_else(|| places.home().to_path_buf())
                .join(".gemini")
                .join("settings.json"),
            Self::Codex => places
                .env_folder("CODEX_HOME")
                .unwrap_or_else(|| places.home().join(".codex"))
                .join("config.toml"),
        }
    }

    /// Where Claude Code keeps `.claude.json`: `CLAUDE_CONFIG_DIR`, or the home folder.
    fn claude_code_folder(places: &Places) -> PathBuf {
        places
            .env_folder("CLAUDE_CONFIG_DIR")
            .unwrap_or_else(|| places.home().to_path_buf())
    }

    /// What exists once the client has run on this machine: its configuration folder, or,
    /// for Claude Code, whose file sits in the home folder, that file or `~/.claude`.
    pub(crate) fn traces(self, places: &Places) -> Vec<PathBuf> {
        let file = self.config_file(places);
        match self {
            Self::ClaudeCode => match places.env_folder("CLAUDE_CONFIG_DIR") {
                Some(folder) => vec![file, folder],
                None => vec![file, places.home().join(".claude")],
            },
            _ => file
                .parent()
                .map(|folder| vec![folder.to_path_buf()])
                .unwrap_or_default(),
        }
    }

    /// The server's entry as this client's JSON file writes it.
    pub(crate) fn json_entry(self, entry: &ServerEntry) -> Value {
        let env: Map<String, Value> = entry
            .env
            .iter()
            .map(|(key, value)| (key.clone(), Value::String(value.clone())))
            .collect();
        match self {
            // Both document every field, `type` first, and `claude mcp add` writes them all.
            Self::ClaudeCode | Self::Vscode => json!({
                "type": "stdio",
                "command": entry.command,
                "args": entry.args,
                "env": env,
            }),
            _ => {
                let mut object = Map::new();
                object.insert("command".into(), entry.command.clone().into());
                object.insert("args".into(), entry.args.clone().into());
                if !env.is_empty() {
                    object.insert("env".into(), Value::Object(env));
                }
                Value::Object(object)
            }
        }
    }
}
