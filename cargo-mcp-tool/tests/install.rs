//! `install` and `uninstall` against each client's configuration file, as the client's
//! documentation shows it, in a temporary home folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tempfile::TempDir;

/// A home folder of its own, with a server binary to install.
struct Home {
    dir: TempDir,
    binary: PathBuf,
}

impl Home {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("build").join("weather-server");
        fs::create_dir_all(binary.parent().unwrap()).unwrap();
        fs::write(&binary, b"#!/bin/sh\n").unwrap();
        Self { dir, binary }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Where the client keeps its configuration under this home, as the client reads it.
    fn config_file(&self, client: &str) -> PathBuf {
        let home = self.path();
        let config_dir = if cfg!(windows) {
            home.join("AppData").join("Roaming")
        } else if cfg!(target_os = "macos") {
            home.join("Library").join("Application Support")
        } else {
            home.join(".config")
        };
        match client {
            "claude-desktop" => config_dir.join("Claude").join("claude_desktop_config.json"),
            "claude-code" => home.join(".claude.json"),
            "cursor" => home.join(".cursor").join("mcp.json"),
            "vscode" => config_dir.join("Code").join("User").join("mcp.json"),
            "gemini-cli" => home.join(".gemini").join("settings.json"),
            "codex" => home.join(".codex").join("config.toml"),
            _ => unreachable!("{client}"),
        }
    }

    fn write_config(&self, client: &str, text: &str) -> PathBuf {
        let path = self.config_file(client);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        path
    }

    fn installed_binary(&self, name: &str) -> PathBuf {
        let data_dir = if cfg!(windows) {
            self.path().join("AppData").join("Local")
        } else if cfg!(target_os = "macos") {
            self.path().join("Library").join("Application Support")
        } else {
            self.path().join(".local").join("share")
        };
        data_dir
            .join("mcp-tool")
            .join("servers")
            .join(name)
            .join("weather-server")
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    /// Runs with `env` set on top of this home's environment.
    fn run_with(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cargo-mcp-tool"))
            .args(args)
            .current_dir(self.path())
            .env("HOME", self.path())
            .env("USERPROFILE", self.path())
            .env("APPDATA", self.path().join("AppData").join("Roaming"))
            .env("LOCALAPPDATA", self.path().join("AppData").join("Local"))
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("CODEX_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("GEMINI_CLI_HOME")
            .envs(env.iter().copied())
            .output()
            .unwrap()
    }

    fn install(&self, client: &str, extra: &[&str]) -> Output {
        let binary = self.binary.to_str().unwrap();
        let mut args = vec![
            "mcp-tool", "install", "--client", client, "--binary", binary, "--name", "weather",
        ];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    fn uninstall(&self, client: &str, extra: &[&str]) -> Output {
        let mut args = vec![
            "mcp-tool",
            "uninstall",
            "--client",
            client,
            "--name",
            "weather",
        ];
        args.extend_from_slice(extra);
        self.run(&args)
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn succeeded(output: &Output) {
    assert!(
        output.status.success(),
        "failed:\nstdout: {}\nstderr: {}",
        stdout(output),
        stderr(output)
    );
}

const CLAUDE_DESKTOP: &str = r#"{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/Users/username/Desktop",
        "/Users/username/Downloads"
      ]
    }
  },
  "globalShortcut": ""
}
"#;

const CLAUDE_CODE: &str = r#"{
  "numStartups": 12,
  "theme": "dark",
  "mcpServers": {
    "airtable": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "airtable-mcp-server"],
      "env": {
        "AIRTABLE_API_KEY": "YOUR_KEY"
      }
    }
  },
  "projects": {
    "/home/user/app": {
      "allowedTools": [],
      "mcpServers": {}
    }
  }
}"#;

const CURSOR: &str = r#"{
  "mcpServers": {
    "server-name": {
      "command": "npx",
      "args": ["-y", "mcp-server"],
      "env": {
        "API_KEY": "value"
      }
    },
    "remote-server": {
      "url": "https://example.com/mcp"
    }
  }
}
"#;

const VSCODE: &str = r#"{
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true
    }
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "${input:perplexity-key}"
      }
    },
    "Fetch": {
      "type": "stdio",
      "command": "uvx",
      "args": ["mcp-server-fetch"]
    }
  }
}
"#;

const GEMINI_CLI: &str = r#"{
  "theme": "GitHub",
  "mcpServers": {
    "pythonTools": {
      "command": "python",
      "args": ["-m", "my_mcp_server", "--port", "8080"],
      "cwd": "./mcp-servers/python",
      "env": {
        "DATABASE_URL": "$DB_CONNECTION_STRING",
        "API_KEY": "${EXTERNAL_API_KEY}"
      },
      "timeout": 15000
    }
  }
}
"#;

const CODEX: &str = r#"# Codex configuration
model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_OAUTH_TOKEN"
http_headers = { "X-Figma-Region" = "us-east-1" }

[mcp_servers.docs]
command = "docs-server"
startup_timeout_sec = 20
env = { "API_KEY" = "value" }   # the docs server's key

[features]
web_search_request = true
"#;

/// The file as a JSON value, TOML included.
fn parse(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap();
    if path.to_string_lossy().contains(".toml") {
        let document: toml_edit::DocumentMut = text.parse().unwrap();
        serde_json::from_str(&toml_json(&document)).unwrap()
    } else {
        serde_json::from_str(&text).unwrap()
    }
}

fn toml_json(document: &toml_edit::DocumentMut) -> String {
    fn item(item: &toml_edit::Item) -> Value {
        match item {
            toml_edit::Item::Value(value) => scalar(value),
            toml_edit::Item::Table(table) => table
                .iter()
                .map(|(key, value)| (key.to_owned(), item_of(value)))
                .collect(),
            _ => Value::Null,
        }
    }
    fn item_of(value: &toml_edit::Item) -> Value {
        item(value)
    }
    fn scalar(value: &toml_edit::Value) -> Value {
        match value {
            toml_edit::Value::String(text) => json!(text.value()),
            toml_edit::Value::Integer(number) => json!(number.value()),
            toml_edit::Value::Boolean(flag) => json!(flag.value()),
            toml_edit::Value::Array(array) => array.iter().map(scalar).collect(),
            toml_edit::Value::InlineTable(table) => table
                .iter()
                .map(|(key, value)| (key.to_owned(), scalar(value)))
                .collect(),
            other => json!(other.to_string()),
        }
    }
    item(document.as_item()).to_string()
}

/// The one scenario every client goes through: install into the documented file, only the
/// new entry changed; install again, nothing changed; uninstall, the file as it was.
fn round_trip(
    client: &str,
    original: &str,
    servers_key: &str,
    expected_entry: impl Fn(&str) -> Value,
) {
    let home = Home::new();
    let path = home.write_config(client, original);

    let output = home.install(client, &["--arg", "--verbose", "--env", "UNITS=metric"]);
    succeeded(&output);
    assert!(
        stdout(&output).contains("added the server `weather`"),
        "{}",
        stdout(&output)
    );
    let installed = home.installed_binary("weather");
    assert_eq!(
        fs::read(&installed).unwrap(),
        fs::read(&home.binary).unwrap()
    );
    let backup = PathBuf::from(format!("{}.bak", path.display()));
    assert_eq!(fs::read_to_string(&backup).unwrap(), original);

    let mut after = parse(&path);
    let entry = after[servers_key]
        .as_object_mut()
        .unwrap()
        .shift_remove("weather")
        .unwrap();
    assert_eq!(
        entry,
        expected_entry(installed.to_str().unwrap()),
        "the new entry"
    );
    let mut before = parse(&backup);
    // Only the new entry changed: everything else, order included, is as it was.
    assert_eq!(after, before, "the rest of the file");
    assert_eq!(
        serde_json::to_string(&after).unwrap(),
        serde_json::to_string(&before.take()).unwrap(),
        "the order of the rest"
    );

    let installed_text = fs::read_to_string(&path).unwrap();
    let again = home.install(client, &["--arg", "--verbose", "--env", "UNITS=metric"]);
    succeeded(&again);
    assert!(
        stdout(&again).contains("nothing changed"),
        "{}",
        stdout(&again)
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), installed_text);

    let output = home.uninstall(client, &[]);
    succeeded(&output);
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        original,
        "uninstall gives back the file byte for byte"
    );
    assert!(
        !installed.exists(),
        "the copied server is removed once no client uses it"
    );
}

fn stdio_entry(command: &str) -> Value {
    json!({"type": "stdio", "command": command, "args": ["--verbose"], "env": {"UNITS": "metric"}})
}

fn plain_entry(command: &str) -> Value {
    json!({"command": command, "args": ["--verbose"], "env": {"UNITS": "metric"}})
}

#[test]
fn claude_desktop() {
    round_trip("claude-desktop", CLAUDE_DESKTOP, "mcpServers", plain_entry);
}

#[test]
fn claude_code() {
    round_trip("claude-code", CLAUDE_CODE, "mcpServers", stdio_entry);
}

#[test]
fn cursor() {
    round_trip("cursor", CURSOR, "mcpServers", plain_entry);
}

#[test]
fn vscode() {
    round_trip("vscode", VSCODE, "servers", stdio_entry);
}

#[test]
fn gemini_cli() {
    round_trip("gemini-cli", GEMINI_CLI, "mcpServers", plain_entry);
}

#[test]
fn codex() {
    round_trip("codex", CODEX, "mcp_servers", plain_entry);
    // The table is written as Codex's documentation writes it.
    let home = Home::new();
    let path = home.write_config("codex", CODEX);
    succeeded(&home.install("codex", &["--env", "UNITS=metric"]));
    let text = fs::read_to_string(path).unwrap();
    let command = home.installed_binary("weather");
    let table = format!(
        "[mcp_servers.weather]\ncommand = \"{}\"\nargs = []\nenv = {{ UNITS = \"metric\" }}\n",
        command.display()
    );
    assert!(text.contains(&table), "{text}");
    assert!(
        text.starts_with(CODEX.trim_end()) || text.contains("[features]"),
        "{text}"
    );
}

#[test]
fn a_client_file_written_in_the_usual_two_space_json_round_trips() {
    for client in [
        "claude-desktop",
        "claude-code",
        "cursor",
        "vscode",
        "gemini-cli",
    ] {
        let home = Home::new();
        let value: Value = serde_json::from_str(match client {
            "claude-desktop" => CLAUDE_DESKTOP,
            "claude-code" => CLAUDE_CODE,
            "cursor" => CURSOR,
            "vscode" => VSCODE,
            _ => GEMINI_CLI,
        })
        .unwrap();
        let original = serde_json::to_string_pretty(&value).unwrap();
        let path = home.write_config(client, &original);
        succeeded(&home.install(client, &[]));
        succeeded(&home.uninstall(client, &[]));
        assert_eq!(fs::read_to_string(path).unwrap(), original, "{client}");
    }
}

#[test]
fn a_new_servers_object_and_an_empty_one_are_filled() {
    let home = Home::new();
    let path = home.write_config("cursor", "{\n  \"mcpServers\": {}\n}\n");
    succeeded(&home.install("cursor", &[]));
    succeeded(&home.uninstall("cursor", &[]));
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "{\n  \"mcpServers\": {}\n}\n"
    );

    let path = home.write_config("gemini-cli", "{\n  \"theme\": \"GitHub\"\n}\n");
    succeeded(&home.install("gemini-cli", &[]));
    let value = parse(&path);
    assert_eq!(value["theme"], "GitHub");
    assert!(value["mcpServers"]["weather"].is_object());
}

#[test]
fn dry_run_writes_nothing() {
    let home = Home::new();
    let path = home.write_config("cursor", CURSOR);
    let output = home.install("cursor", &["--dry-run"]);
    succeeded(&output);
    let shown = stdout(&output);
    assert!(shown.contains("+    \"weather\": {"), "{shown}");
    assert!(shown.contains("dry run: nothing written"), "{shown}");
    assert_eq!(fs::read_to_string(&path).unwrap(), CURSOR);
    assert!(!home.installed_binary("weather").exists());
    assert!(!PathBuf::from(format!("{}.bak", path.display())).exists());

    succeeded(&home.install("cursor", &[]));
    let installed = fs::read_to_string(&path).unwrap();
    let output = home.uninstall("cursor", &["--dry-run"]);
    succeeded(&output);
    assert!(
        stdout(&output).contains("-    \"weather\": {"),
        "{}",
        stdout(&output)
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), installed);
    assert!(home.installed_binary("weather").exists());
}

/// Installs into `client`'s file holding `text`, which it cannot parse: the install
/// fails, names the file and the fault's place `at` (`LINE:COLUMN`) once, as
/// `FILE:LINE:COLUMN:`, and leaves the file as it was. Returns the error's text.
fn refused(home: &Home, client: &str, text: &str, at: &str) -> String {
    let path = home.write_config(client, text);
    let output = home.install(client, &[]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains(&format!("{}:{at}: ", path.display())),
        "{message}"
    );
    assert!(
        !message.contains("line "),
        "the place said twice: {message}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    message
}

#[test]
fn an_unparsable_file_is_left_untouched() {
    let home = Home::new();
    let broken = "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\" },\n  }\n}\n";
    let message = refused(&home, "claude-desktop", broken, "4:3");
    assert!(message.contains("trailing comma"), "{message}");
    assert!(!home.installed_binary("weather").exists());

    // serde_json places the end of a text after a line break in column 0; editors count from 1.
    let cut_short = "{\n  \"mcpServers\": {\n";
    let message = refused(&home, "cursor", cut_short, "3:1");
    assert!(message.contains("EOF while parsing an object"), "{message}");

    let broken = "model = \"gpt-5\"\n[mcp_servers.a\ncommand = \"x\"\n";
    refused(&home, "codex", broken, "2:15");
}

/// VS Code reads `mcp.json` as JSONC: its comments and trailing commas are read, kept
/// where they are, and the file is as it was once the server is uninstalled. Claude
/// Desktop reads plain JSON, so a comment there is a fault that leaves the file untouched.
#[test]
fn vscode_comments_and_trailing_commas_are_kept_where_a_plain_json_client_refuses_them() {
    let home = Home::new();
    let jsonc = "{\n  // Keys are asked for when a server starts.\n  \"inputs\": [],\n  \"servers\": {\n    /* Search, with the key above. */\n    \"Perplexity\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\", // from npm\n    },\n  },\n}\n";
    let path = home.write_config("vscode", jsonc);
    succeeded(&home.install("vscode", &[]));
    let installed = fs::read_to_string(&path).unwrap();
    // The entry goes in after the last one, before its trailing comma; nothing else moves.
    let command = Value::String(home.installed_binary("weather").display().to_string());
    let entry = format!(
        ",\n    \"weather\": {{\n      \"type\": \"stdio\",\n      \"command\": {command},\n      \"args\": [],\n      \"env\": {{}}\n    }}"
    );
    let after_perplexity = jsonc.find("    },\n  },").unwrap() + "    }".len();
    let mut expected = jsonc.to_owned();
    expected.insert_str(after_perplexity, &entry);
    assert_eq!(installed, expected);
    succeeded(&home.install("vscode", &[]));
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        installed,
        "a second install changes nothing"
    );
    succeeded(&home.uninstall("vscode", &[]));
    assert_eq!(fs::read_to_string(&path).unwrap(), jsonc);

    let commented = "{\n  // Claude Desktop reads no comments.\n  \"mcpServers\": {}\n}\n";
    refused(&home, "claude-desktop", commented, "2:3");
}

/// Gemini CLI strips `//` and `/* */` comments from `settings.json` and parses the rest as
/// JSON: the comments are read and kept, and a trailing comma, which Gemini CLI refuses too,
/// is a fault that leaves the file untouched.
#[test]
fn gemini_cli_comments_are_kept_and_a_trailing_comma_refused() {
    let home = Home::new();
    let commented = "{\n  // Picked in /theme.\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {\n    /* Local tools. */\n    \"pythonTools\": {\n      \"command\": \"python\" // from the venv\n    }\n  }\n}\n";
    let path = home.write_config("gemini-cli", commented);
    succeeded(&home.install("gemini-cli", &[]));
    let installed = fs::read_to_string(&path).unwrap();
    let command = Value::String(home.installed_binary("weather").display().to_string());
    let entry = format!(
        ",\n    \"weather\": {{\n      \"command\": {command},\n      \"args\": []\n    }}"
    );
    let after_python = commented.find("    }\n  }\n}").unwrap() + "    }".len();
    let mut expected = commented.to_owned();
    expected.insert_str(after_python, &entry);
    assert_eq!(installed, expected);
    succeeded(&home.uninstall("gemini-cli", &[]));
    assert_eq!(fs::read_to_string(&path).unwrap(), commented);

    let trailing = "{\n  // A comment is fine.\n  \"mcpServers\": {},\n}\n";
    let message = refused(&home, "gemini-cli", trailing, "4:1");
    assert!(message.contains("trailing comma"), "{message}");
}

/// Gemini CLI shows a server as Disabled in a folder `trustedFolders.json` does not trust:
/// `install` says so, and how to trust it, unless the longest rule covering the folder
/// trusts it or folder trust is off in `settings.json`.
#[test]
fn gemini_cli_install_says_when_the_folder_is_not_trusted() {
    let home = Home::new();
    home.write_config("gemini-cli", GEMINI_CLI);
    let folder = home.path().display().to_string();
    let rules = home.path().join(".gemini").join("trustedFolders.json");
    let note = |output: &Output| {
        succeeded(output);
        let shown = stdout(output);
        shown
            .lines()
            .find(|line| line.starts_with("note: Gemini CLI shows its servers as Disabled"))
            .map(str::to_owned)
    };

    let untrusted = note(&home.install("gemini-cli", &[])).expect("a note without trust rules");
    assert!(
        untrusted.contains(&format!("{folder} is not trusted in {}", rules.display())),
        "{untrusted}"
    );
    assert!(untrusted.contains("TRUST_FOLDER"), "{untrusted}");
    assert!(untrusted.contains("/permissions"), "{untrusted}");

    let cases = [
        (format!("{{\"{folder}\": \"TRUST_FOLDER\"}}"), false),
        (format!("{{\"{folder}/project\": \"TRUST_PARENT\"}}"), false),
        (
            format!(
                "{{\n  // Every project.\n  \"{}\": \"TRUST_FOLDER\"\n}}",
                home.path().parent().unwrap().display()
            ),
            false,
        ),
        (
            format!("{{\"{folder}/elsewhere\": \"TRUST_FOLDER\"}}"),
            true,
        ),
        (
            format!(
                "{{\"{}\": \"TRUST_FOLDER\", \"{folder}\": \"DO_NOT_TRUST\"}}",
                home.path().parent().unwrap().display()
            ),
            true,
        ),
    ];
    for (text, shown) in cases {
        fs::write(&rules, &text).unwrap();
        // The second install changes nothing, and still says it.
        assert_eq!(
            note(&home.install("gemini-cli", &[])).is_some(),
            shown,
            "{text}"
        );
    }

    fs::remove_file(&rules).unwrap();
    let trust_off = GEMINI_CLI.replacen(
        "{\n",
        "{\n  \"security\": { \"folderTrust\": { \"enabled\": false } },\n",
        1,
    );
    home.write_config("gemini-cli", &trust_off);
    assert_eq!(note(&home.install("gemini-cli", &[])), None);
    assert_eq!(note(&home.install("cursor", &["--create"])), None);
}

#[test]
fn a_client_without_its_folder_is_probably_not_installed() {
    let home = Home::new();
    for client in [
        "claude-desktop",
        "claude-code",
        "cursor",
        "vscode",
        "gemini-cli",
        "codex",
    ] {
        let output = home.install(client, &[]);
        assert!(!output.status.success(), "{client}");
        let message = stderr(&output);
        assert!(
            message.contains("is probably not installed"),
            "{client}: {message}"
        );
        assert!(message.contains("--create"), "{client}: {message}");
        assert!(!home.config_file(client).exists(), "{client}");
    }
    let output = home.install("cursor", &["--create"]);
    succeeded(&output);
    let value = parse(&home.config_file("cursor"));
    assert_eq!(
        value["mcpServers"]["weather"]["command"],
        home.installed_binary("weather").to_str().unwrap()
    );
}

/// Each client's own override of where it keeps its configuration is where `install`
/// writes and `uninstall` reads: Claude Code's `CLAUDE_CONFIG_DIR` holds `.claude.json`,
/// Gemini CLI's `GEMINI_CLI_HOME` stands for the home folder, Codex's `CODEX_HOME` holds
/// `config.toml`. The folder the variable names is trace enough that the client ran.
#[test]
fn each_client_s_override_of_its_config_folder_is_honoured() {
    let home = Home::new();
    let elsewhere = home.path().join("elsewhere");
    for (client, variable, file) in [
        (
            "claude-code",
            "CLAUDE_CONFIG_DIR",
            elsewhere.join(".claude.json"),
        ),
        (
            "gemini-cli",
            "GEMINI_CLI_HOME",
            elsewhere.join(".gemini").join("settings.json"),
        ),
        ("codex", "CODEX_HOME", elsewhere.join("config.toml")),
    ] {
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        let env = [(variable, elsewhere.as_path())];
        let binary = home.binary.to_str().unwrap();
        let install = [
            "mcp-tool", "install", "--client", client, "--binary", binary, "--name", "weather",
        ];
        let output = home.run_with(&install, &env);
        succeeded(&output);
        assert!(
            stdout(&output).contains(&file.display().to_string()),
            "{client}: {}",
            stdout(&output)
        );
        let written = parse(&file);
        let servers = if client == "codex" {
            "mcp_servers"
        } else {
            "mcpServers"
        };
        assert_eq!(
            written[servers]["weather"]["command"],
            home.installed_binary("weather").to_str().unwrap(),
            "{client}"
        );
        assert!(!home.config_file(client).exists(), "{client}");
        let uninstall = [
            "mcp-tool",
            "uninstall",
            "--client",
            client,
            "--name",
            "weather",
        ];
        succeeded(&home.run_with(&uninstall, &env));
        assert!(parse(&file)[servers].get("weather").is_none(), "{client}");
    }
}

#[test]
fn uninstall_keeps_an_entry_it_did_not_write() {
    let home = Home::new();
    let mine = CURSOR.replace("server-name", "weather");
    let path = home.write_config("cursor", &mine);
    let output = home.uninstall("cursor", &[]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("was not written by `cargo mcp-tool install`"),
        "{}",
        stderr(&output)
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), mine);
}

#[test]
fn a_server_installed_for_two_clients_stays_until_both_uninstall() {
    let home = Home::new();
    home.write_config("cursor", CURSOR);
    home.write_config("codex", CODEX);
    succeeded(&home.install("cursor", &[]));
    succeeded(&home.install("codex", &[]));
    succeeded(&home.uninstall("cursor", &[]));
    assert!(home.installed_binary("weather").exists());
    succeeded(&home.uninstall("codex", &[]));
    assert!(!home.installed_binary("weather").exists());
}

#[test]
fn runs_as_a_cargo_subcommand_and_alone() {
    let home = Home::new();
    home.write_config("cursor", CURSOR);
    let binary = home.binary.to_str().unwrap();
    let alone = home.run(&[
        "install",
        "--client",
        "cursor",
        "--binary",
        binary,
        "--name",
        "weather",
        "--dry-run",
    ]);
    succeeded(&alone);
    let output = home.install("cursor", &["--dry-run"]);
    assert_eq!(stdout(&alone), stdout(&output));
}
