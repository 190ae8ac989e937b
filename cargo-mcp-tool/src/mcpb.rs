//! The `manifest.json` of an MCP Bundle (`.mcpb`, manifest version 0.3 of
//! `@anthropic-ai/mcpb`) for a server built as a binary: the package's name, version,
//! description and author from its Cargo metadata, the tools and prompts the server lists,
//! and the user configuration its `--env`s and `--arg`s need.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::failure::{Failure, failure};

/// The manifest version written, the newest `mcpb validate` takes for a `binary` server.
pub(crate) const MANIFEST_VERSION: &str = "0.3";

/// The platform a target triple runs on, as MCPB names platforms (Node's
/// `process.platform`), or `None` for one MCPB has no name for.
pub(crate) fn platform(triple: &str) -> Option<&'static str> {
    if triple.contains("-apple-darwin") {
        Some("darwin")
    } else if triple.contains("-windows") {
        Some("win32")
    } else if triple.contains("-linux") {
        Some("linux")
    } else {
        None
    }
}

/// Where a platform's binary lives in the bundle, relative to its root.
pub(crate) fn binary_path(platform: &str, binary: &str) -> String {
    let suffix = if platform == "win32" { ".exe" } else { "" };
    format!("server/{platform}/{binary}{suffix}")
}

/// Whether an environment variable's name says it holds a secret: one of its words (split
/// at `_`, `-` and `.`) is a key, token, secret, password, credential and the like.
pub(crate) fn is_secret_name(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "key",
        "apikey",
        "token",
        "secret",
        "secrets",
        "password",
        "passwd",
        "pass",
        "pwd",
        "credential",
        "credentials",
        "auth",
        "bearer",
        "jwt",
        "cookie",
        "session",
        "private",
        "signature",
    ];
    name.split(['_', '-', '.'])
        .any(|word| WORDS.contains(&word.to_ascii_lowercase().as_str()))
}

/// An environment variable the server reads, which each user of the bundle sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserEnv {
    pub(crate) name: String,
    /// The value offered until the user changes it.
    pub(crate) default: Option<String>,
    /// Masked as it is typed, and kept in the system's secret store.
    pub(crate) sensitive: bool,
}

impl UserEnv {
    /// Reads `--env NAME` or `--env NAME=DEFAULT`; `secret` marks it sensitive whatever
    /// its name. A default for a secret is refused: it would ship to every user.
    pub(crate) fn parse(text: &str, secret: bool) -> Result<Self, Failure> {
        let (name, default) = match text.split_once('=') {
            Some((name, default)) => (name, Some(default.to_owned())),
            None => (text, None),
        };
        let fits = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !fits {
            return Err(failure!(
                "`{name}` cannot name an environment variable in a bundle: use letters, digits and `_`, \
                 not starting with a digit"
            ));
        }
        let sensitive = secret || is_secret_name(name);
        if sensitive && default.is_some() {
            return Err(failure!(
                "`{name}` holds a secret, and a value given here would ship inside the bundle to every \
                 user: pass `--env {name}` without a value, and each user enters their own when installing it"
            ));
        }
        Ok(Self {
            name: name.to_owned(),
            default,
            sensitive,
        })
    }

    /// The user configuration's key for it: its name in lower case.
    fn key(&self) -> String {
        self.name.to_ascii_lowercase()
    }
}

/// The `${user_config.KEY}` placeholders in an argument, in order.
fn placeholders(arg: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = arg;
    while let Some(at) = rest.find("${user_config.") {
        let after = &rest[at + "${user_config.".len()..];
        let Some(end) = after.find('}') else { break };
        found.push(&after[..end]);
        rest = &after[end..];
    }
    found
}

/// A prompt as `prompts/list` gave it, with the text `prompts/get` gave for placeholder
/// arguments (`None` for one whose text could not be had).
pub(crate) type PromptText = (Value, Option<String>);

/// Everything the manifest is written from.
#[derive(Debug)]
pub(crate) struct Bundle<'a> {
    /// The package, as `cargo metadata` describes it.
    pub(crate) package: &'a Value,
    /// The author named with `--author`, before the package's `authors`.
    pub(crate) author: Option<&'a str>,
    /// The binary's file name, without `.exe`.
    pub(crate) binary: &'a str,
    /// The platforms the bundle carries a binary for, the host's first.
    pub(crate) platforms: &'a [&'static str],
    pub(crate) envs: &'a [UserEnv],
    pub(crate) args: &'a [String],
    /// The server's tools, as `tools/list` gave them.
    pub(crate) tools: &'a [Value],
    /// Its prompts, each with its text.
    pub(crate) prompts: &'a [PromptText],
}

impl Bundle<'_> {
    fn text(&self, key: &str) -> Option<&str> {
        self.package[key]
            .as_str()
            .map(str::trim)
            .filter(|text| !text.is_empty())
    }

    fn author(&self) -> Result<Value, Failure> {
        let crate_name = self.text("name").unwrap_or_default();
        let given = self.author.map(str::to_owned).or_else(|| {
            self.package["authors"]
                .as_array()
                .and_then(|authors| authors.first())
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let Some(author) = given.filter(|author| !author.trim().is_empty()) else {
            return Err(failure!(
                "the package `{crate_name}` names no author, whom a bundle must name: add \
                 `authors = [\"Your Name <you@example.com>\"]` under [package] in its Cargo.toml, \
                 or pass --author NAME"
            ));
        };
        // `Name <email>`, as Cargo writes authors.
        Ok(match author.split_once('<') {
            Some((name, rest)) if rest.ends_with('>') && rest.contains('@') => {
                json!({ "name": name.trim(), "email": rest.trim_end_matches('>').trim() })
            }
            _ => json!({ "name": author.trim() }),
        })
    }

    fn user_config(&self) -> Result<Map<String, Value>, Failure> {
        let mut config = Map::new();
        for env in self.envs {
            let mut entry = json!({
                "type": "string",
                "title": env.name,
                "description": format!("The server's environment variable {}.", env.name),
                "required": env.default.is_none(),
            });
            if env.sensitive {
                entry["sensitive"] = true.into();
            }
            if let Some(default) = &env.default {
                entry["default"] = default.as_str().into();
            }
            if config.insert(env.key(), entry).is_some() {
                return Err(failure!(
                    "`--env {}` is given twice: give it once",
                    env.name
                ));
            }
        }
        for key in self.args.iter().flat_map(|arg| placeholders(arg)) {
            if config.contains_key(key) {
                continue;
            }
            let fits =
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !fits {
                return Err(failure!(
                    "`${{user_config.{key}}}` in an --arg names no setting a bundle can hold: use letters, \
                     digits and `_` after `user_config.`"
                ));
            }
            config.insert(
                key.to_owned(),
                json!({
                    "type": "string",
                    "title": key,
                    "description": format!("Passed to the server as an argument ({key})."),
                    "required": true,
                }),
            );
        }
        Ok(config)
    }

    fn server(&self) -> Value {
        let host = self.platforms.first().copied().unwrap_or("linux");
        let entry_point = binary_path(host, self.binary);
        let env: Map<String, Value> = self
            .envs
            .iter()
            .map(|env| {
                let value = format!("${{user_config.{}}}", env.key());
                (env.name.clone(), value.into())
            })
            .collect();
        let mut config = json!({
            "command": format!("${{__dirname}}/{entry_point}"),
            "args": self.args,
            "env": env,
        });
        if self.platforms.len() > 1 {
            let overrides: Map<String, Value> = self
                .platforms
                .iter()
                .map(|platform| {
                    let command = format!("${{__dirname}}/{}", binary_path(platform, self.binary));
                    ((*platform).to_owned(), json!({ "command": command }))
                })
                .collect();
            config["platform_overrides"] = overrides.into();
        }
        json!({ "type": "binary", "entry_point": entry_point, "mcp_config": config })
    }

    fn tools(&self) -> Vec<Value> {
        self.tools.iter().map(|tool| named(tool, None)).collect()
    }

    /// The prompts whose text the server gave, and whether any was left out.
    fn prompts(&self) -> (Vec<Value>, bool) {
        let mut listed = Vec::new();
        let mut left_out = false;
        for (prompt, text) in self.prompts {
            let Some(text) = text else {
                left_out = true;
                continue;
            };
            let mut entry = named(prompt, Some(text));
            let arguments: Vec<&str> = (prompt["arguments"].as_array().into_iter().flatten())
                .filter_map(|argument| argument["name"].as_str())
                .collect();
            if !arguments.is_empty() {
                entry["arguments"] = arguments.into();
            }
            listed.push(entry);
        }
        (listed, left_out)
    }

    /// The manifest, as version [`MANIFEST_VERSION`] of the MCPB spec describes it.
    pub(crate) fn manifest(&self) -> Result<Value, Failure> {
        let crate_name = self.text("name").unwrap_or_default();
        let description = self.text("description").ok_or_else(|| {
            failure!(
                "the package `{crate_name}` has no description, which a bundle shows to whoever installs it: \
                 add `description = \"...\"` under [package] in its Cargo.toml"
            )
        })?;
        let mut manifest = Map::new();
        manifest.insert("manifest_version".into(), MANIFEST_VERSION.into());
        manifest.insert("name".into(), crate_name.into());
        manifest.insert(
            "version".into(),
            self.text("version").unwrap_or_default().into(),
        );
        manifest.insert("description".into(), description.into());
        manifest.insert("author".into(), self.author()?);
        if let Some(url) = self.url("repository") {
            manifest.insert("repository".into(), json!({ "type": "git", "url": url }));
        }
        for (from, to) in [("homepage", "homepage"), ("documentation", "documentation")] {
            if let Some(url) = self.url(from) {
                manifest.insert(to.into(), url.into());
            }
        }
        manifest.insert("server".into(), self.server());
        manifest.insert("tools".into(), self.tools().into());
        let (prompts, left_out) = self.prompts();
        if !prompts.is_empty() {
            manifest.insert("prompts".into(), prompts.into());
        }
        if left_out {
            manifest.insert("prompts_generated".into(), true.into());
        }
        let keywords: Vec<&str> = (self.package["keywords"].as_array().into_iter().flatten())
            .filter_map(Value::as_str)
            .collect();
        if !keywords.is_empty() {
            manifest.insert("keywords".into(), keywords.into());
        }
        if let Some(license) = self.text("license") {
            manifest.insert("license".into(), license.into());
        }
        let platforms: BTreeSet<&str> = self.platforms.iter().copied().collect();
        manifest.insert(
            "compatibility".into(),
            json!({ "platforms": platforms.into_iter().collect::<Vec<_>>() }),
        );
        let user_config = self.user_config()?;
        if !user_config.is_empty() {
            manifest.insert("user_config".into(), user_config.into());
        }
        Ok(Value::Object(manifest))
    }

    fn url(&self, key: &str) -> Option<&str> {
        self.text(key)
            .filter(|url| url.starts_with("https://") || url.starts_with("http://"))
    }
}

/// A tool's or prompt's name and description, and a prompt's text.
fn named(item: &Value, text: Option<&str>) -> Value {
    let mut entry = json!({ "name": item["name"].as_str().unwrap_or_default() });
    if let Some(description) = item["description"].as_str().filter(|text| !text.is_empty()) {
        entry["description"] = description.into();
    }
    if let Some(text) = text {
        entry["text"] = text.into();
    }
    entry
}

/// The text of a `prompts/get` result whose messages are all text, joined by blank lines.
pub(crate) fn prompt_text(result: &Value) -> Option<String> {
    let messages = result["messages"].as_array()?;
    let texts: Option<Vec<&str>> = messages
        .iter()
        .map(|message| {
            (message["content"]["type"] == "text")
                .then(|| message["content"]["text"].as_str())
                .flatten()
        })
        .collect();
    texts
        .filter(|texts| !texts.is_empty())
        .map(|texts| texts.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package() -> Value {
        json!({
            "name": "weather",
            "version": "0.2.0",
            "description": "Forecasts.",
            "authors": ["Ada Lovelace <ada@example.com>"],
            "repository": "https://github.com/acme/weather",
            "license": "MIT",
        })
    }

    #[test]
    fn a_secret_is_told_by_a_word_of_its_name() {
        for name in [
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "DB_PASSWORD",
            "client-secret",
            "AUTH",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["REGION", "LOG_LEVEL", "KEYBOARD", "TOKENIZER_PATH"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn a_secret_with_a_value_is_refused_and_one_without_is_sensitive() {
        let error = UserEnv::parse("API_KEY=sk-live", false)
            .unwrap_err()
            .to_string();
        assert!(error.contains("would ship inside the bundle"), "{error}");
        assert!(
            !error.contains("sk-live"),
            "the value is not echoed: {error}"
        );
        let env = UserEnv::parse("API_KEY", false).unwrap();
        assert!(env.sensitive && env.default.is_none());
        let env = UserEnv::parse("PLAIN", true).unwrap();
        assert!(env.sensitive, "--secret-env marks any name");
        let env = UserEnv::parse("REGION=eu", false).unwrap();
        assert_eq!((env.sensitive, env.default.as_deref()), (false, Some("eu")));
        assert!(UserEnv::parse("1BAD", false).is_err());
    }

    #[test]
    fn the_manifest_names_the_binary_the_settings_and_what_the_server_lists() {
        let package = package();
        let envs = [
            UserEnv::parse("API_KEY", false).unwrap(),
            UserEnv::parse("REGION=eu", false).unwrap(),
        ];
        let args = ["--root".to_owned(), "${user_config.root}".to_owned()];
        let tools =
            [json!({ "name": "forecast", "description": "The forecast.", "inputSchema": {} })];
        let prompts = [
            (
                json!({ "name": "plan", "arguments": [{ "name": "city" }] }),
                Some("Plan a day in ${arguments.city}.".to_owned()),
            ),
            (json!({ "name": "picture" }), None),
        ];
        let manifest = Bundle {
            package: &package,
            author: None,
            binary: "weather",
            platforms: &["linux", "win32"],
            envs: &envs,
            args: &args,
            tools: &tools,
            prompts: &prompts,
        }
        .manifest()
        .unwrap();
        assert_eq!(
            manifest["author"],
            json!({ "name": "Ada Lovelace", "email": "ada@example.com" })
        );
        assert_eq!(manifest["server"]["entry_point"], "server/linux/weather");
        let config = &manifest["server"]["mcp_config"];
        assert_eq!(config["command"], "${__dirname}/server/linux/weather");
        assert_eq!(
            config["platform_overrides"]["win32"]["command"],
            "${__dirname}/server/win32/weather.exe"
        );
        assert_eq!(config["env"]["API_KEY"], "${user_config.api_key}");
        assert_eq!(config["args"], json!(["--root", "${user_config.root}"]));
        let user_config = &manifest["user_config"];
        assert_eq!(user_config["api_key"]["sensitive"], true);
        assert_eq!(user_config["api_key"]["required"], true);
        assert_eq!(user_config["region"]["default"], "eu");
        assert_eq!(user_config["region"].get("sensitive"), None);
        assert_eq!(user_config["root"]["required"], true);
        assert_eq!(
            manifest["tools"],
            json!([{ "name": "forecast", "description": "The forecast." }])
        );
        assert_eq!(
            manifest["prompts"],
            json!([{ "name": "plan", "text": "Plan a day in ${arguments.city}.", "arguments": ["city"] }])
        );
        assert_eq!(
            manifest["prompts_generated"], true,
            "`picture` was left out"
        );
        assert_eq!(
            manifest["compatibility"]["platforms"],
            json!(["linux", "win32"])
        );
    }

    #[test]
    fn a_package_without_author_or_description_is_refused_saying_what_to_add() {
        let mut package = package();
        package["authors"] = json!([]);
        fn refusal(package: &Value) -> String {
            let bundle = Bundle {
                package,
                author: None,
                binary: "weather",
                platforms: &["linux"],
                envs: &[],
                args: &[],
                tools: &[],
                prompts: &[],
            };
            bundle.manifest().unwrap_err().to_string()
        }
        let error = refusal(&package);
        assert!(
            error.contains("authors = [") && error.contains("--author"),
            "{error}"
        );
        package["authors"] = json!(["Ada"]);
        package["description"] = Value::Null;
        let error = refusal(&package);
        assert!(error.contains("description = "), "{error}");
    }

    #[test]
    fn a_prompt_of_text_messages_has_their_text() {
        let result = json!({ "messages": [
            { "role": "user", "content": { "type": "text", "text": "a" } },
            { "role": "assistant", "content": { "type": "text", "text": "b" } },
        ]});
        assert_eq!(prompt_text(&result).as_deref(), Some("a\n\nb"));
        let image = json!({ "messages": [{ "role": "user", "content": { "type": "image" } }] });
        assert_eq!(prompt_text(&image), None);
    }
}
