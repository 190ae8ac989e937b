//! `server.json`: the official MCP registry's description of a server, written from the
//! crate's Cargo metadata with the crate on crates.io as its package.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::failure::{Failure, failure};

/// The schema version `server.json` is written for, as its `$schema` names it.
pub(crate) const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The registry's limit on a description, in characters.
const DESCRIPTION_LIMIT: usize = 100;

/// The registry's limits on a server's name, in characters.
const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=200;

/// Where the source of a server lives, as the registry records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repository {
    /// `github` or `gitlab`, the hosts the registry knows.
    pub(crate) source: &'static str,
    pub(crate) owner: String,
    pub(crate) name: String,
}

impl Repository {
    /// Reads `https://github.com/OWNER/NAME` (or gitlab.com), with or without `.git`, a
    /// trailing slash or a path inside the repository.
    pub(crate) fn parse(url: &str) -> Option<Self> {
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))?;
        let (host, path) = rest.split_once('/')?;
        let source = match host
            .trim_start_matches("www.")
            .to_ascii_lowercase()
            .as_str()
        {
            "github.com" => "github",
            "gitlab.com" => "gitlab",
            _ => return None,
        };
        let mut segments = path.split('/').filter(|segment| !segment.is_empty());
        let owner = segments.next()?.to_owned();
        let name = segments.next()?;
        let name = name.strip_suffix(".git").unwrap_or(name).to_owned();
        let valid = |part: &str| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        };
        (valid(&owner) && valid(&name)).then_some(Self {
            source,
            owner,
            name,
        })
    }

    fn url(&self) -> String {
        format!("https://{}.com/{}/{}", self.source, self.owner, self.name)
    }

    /// Where a GitHub release `v{version}` of the repository serves the file `file`.
    pub(crate) fn release_asset(&self, version: &str, file: &str) -> Option<String> {
        (self.source == "github").then(|| {
            format!(
                "https://github.com/{}/{}/releases/download/v{version}/{file}",
                self.owner, self.name
            )
        })
    }

    /// The name the registry lets the repository's owner publish: `io.github.OWNER/NAME`,
    /// whose namespace a GitHub login of OWNER is granted.
    pub(crate) fn server_name(&self) -> Option<String> {
        (self.source == "github").then(|| format!("io.github.{}/{}", self.owner, self.name))
    }
}

/// Whether `name` is a server name the registry takes: `NAMESPACE/NAME`, the namespace
/// reverse-DNS (letters, digits, `.` and `-`), the name letters, digits, `.`, `_` and `-`.
pub(crate) fn is_server_name(name: &str) -> bool {
    let Some((namespace, server)) = name.split_once('/') else {
        return false;
    };
    let in_set = |part: &str, extra: &[u8]| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || extra.contains(&b))
    };
    NAME_LENGTH.contains(&name.chars().count())
        && in_set(namespace, b".-")
        && in_set(server, b"._-")
}

/// A bundle (`.mcpb`) of the server, as the registry's `mcpb` package names it: where it
/// is downloaded from, and the SHA-256 of its bytes, which clients check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BundleFile {
    pub(crate) url: String,
    pub(crate) sha256: String,
}

/// What `server.json` is made of: the package as `cargo metadata` describes it, the
/// server's name in the registry, and its bundle where one was built.
#[derive(Debug)]
pub(crate) struct Server<'a> {
    pub(crate) package: &'a Value,
    pub(crate) name: &'a str,
    pub(crate) repository: Option<&'a Repository>,
    pub(crate) bundle: Option<&'a BundleFile>,
}

impl Server<'_> {
    fn text(&self, key: &str) -> Option<&str> {
        self.package[key]
            .as_str()
            .filter(|text| !text.trim().is_empty())
    }

    fn crate_name(&self) -> &str {
        self.text("name").unwrap_or_default()
    }

    /// The description, refused where the registry would refuse it.
    fn description(&self) -> Result<&str, Failure> {
        let crate_name = self.crate_name();
        let description = self.text("description").map(str::trim).ok_or_else(|| {
            failure!(
                "the package `{crate_name}` has no description, which the registry requires: add \
                 `description = \"...\"` (at most {DESCRIPTION_LIMIT} characters) under [package] in its Cargo.toml"
            )
        })?;
        let length = description.chars().count();
        if length > DESCRIPTION_LIMIT {
            return Err(failure!(
                "the description of `{crate_name}` is {length} characters, and the registry takes at most \
                 {DESCRIPTION_LIMIT}: shorten `description` in its Cargo.toml"
            ));
        }
        Ok(description)
    }

    /// The document, as the registry's schema of [`SCHEMA`] describes it.
    pub(crate) fn document(&self) -> Result<Value, Failure> {
        let version = self.text("version").unwrap_or_default();
        let mut document = Map::new();
        document.insert("$schema".into(), SCHEMA.into());
        document.insert("name".into(), self.name.into());
        document.insert("description".into(), self.description()?.into());
        document.insert("version".into(), version.into());
        if let Some(repository) = self.repository {
            document.insert(
                "repository".into(),
                json!({ "url": repository.url(), "source": repository.source }),
            );
        }
        if let Some(homepage) = self
            .text("homepage")
            .filter(|url| url.starts_with("https://") || url.starts_with("http://"))
        {
            document.insert("websiteUrl".into(), homepage.into());
        }
        let mut packages = vec![json!({
            "registryType": "cargo",
            "identifier": self.crate_name(),
            "version": version,
            "transport": { "type": "stdio" },
        })];
        if let Some(bundle) = self.bundle {
            packages.push(json!({
                "registryType": "mcpb",
                "identifier": bundle.url,
                "version": version,
                "fileSha256": bundle.sha256,
                "transport": { "type": "stdio" },
            }));
        }
        document.insert("packages".into(), packages.into());
        Ok(Value::Object(document))
    }
}

/// The README that crates.io shows for the package: its `readme`, or the file cargo picks
/// when it names none.
pub(crate) fn readme(package: &Value) -> Option<PathBuf> {
    let folder = Path::new(package["manifest_path"].as_str()?).parent()?;
    if let Some(named) = package["readme"].as_str() {
        return Some(folder.join(named));
    }
    ["README.md", "README.txt", "README"]
        .into_iter()
        .map(|name| folder.join(name))
        .find(|path| path.is_file())
}

/// Whether `text` holds `mcp-name: NAME` with nothing of a name right after it, as the
/// registry looks for it (so `io.github.a/b` is not found in `io.github.a/b-c`).
pub(crate) fn declares_name(text: &str, name: &str) -> bool {
    let marker = format!("mcp-name: {name}");
    text.match_indices(&marker).any(|(at, _)| {
        text[at + marker.len()..]
            .bytes()
            .next()
            .is_none_or(|b| !(b.is_ascii_alphanumeric() || b"._-/".contains(&b)))
    })
}
