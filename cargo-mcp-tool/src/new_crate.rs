//! `new`: a crate holding the README's Getting started server and its tests.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::failure::{Failure, failure};

/// The Getting started server of the repository's README, with tests of its tool.
const MAIN_RS: &str = include_str!("../templates/main.rs");

/// The name the template's server goes by, replaced with the crate's.
const TEMPLATE_NAME: &str = "\"hello-mcp\"";

/// The versions the new crate depends on: this workspace's own and those of its
/// `[workspace.dependencies]` (a test checks that they agree).
pub(crate) const MCP_TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");
pub(crate) const SCHEMARS_VERSION: &str = "1.2";
pub(crate) const SERDE_VERSION: &str = "1";
pub(crate) const SERDE_JSON_VERSION: &str = "1";
pub(crate) const TOKIO_VERSION: &str = "1";

/// `new`'s options.
#[derive(Debug, Args)]
pub(crate) struct NewOptions {
    /// The crate's folder, created with its parents as `cargo new` does; its last part
    /// names the crate.
    #[arg(value_name = "PATH")]
    pub(crate) folder: PathBuf,
    /// Depend on the mcp-tool of a local checkout (its root or its `runtime` folder).
    /// Without it, a cargo-mcp-tool built from a checkout of mcp-tool depends on that
    /// checkout, and one installed from crates.io on mcp-tool from crates.io.
    #[arg(long, value_name = "DIR")]
    pub(crate) path: Option<PathBuf>,
}

/// The runtime crate of the checkout this program was built from, if that checkout still
/// holds it: a cargo-mcp-tool built from crates.io has none, and mcp-tool is published
/// with it, so its presence says offline which source a new crate can resolve.
fn built_from_checkout() -> Option<PathBuf> {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()?
        .join("runtime");
    let manifest = fs::read_to_string(runtime.join("Cargo.toml")).ok()?;
    let manifest = manifest.parse::<toml_edit::DocumentMut>().ok()?;
    let name = (manifest.get("package")).and_then(|package| package.get("name"));
    (name.and_then(toml_edit::Item::as_str) == Some("mcp-tool")).then_some(runtime)
}

/// The dependency on the runtime crate at `runtime`, with this program's version.
fn path_dependency(runtime: &Path) -> Result<String, Failure> {
    let runtime = runtime
        .to_str()
        .ok_or_else(|| failure!("{} is not UTF-8", runtime.display()))?;
    Ok(format!(
        "{{ version = \"{MCP_TOOL_VERSION}\", path = {} }}",
        toml_edit::Value::from(runtime)
    ))
}

pub(crate) fn new(options: &NewOptions) -> Result<(), Failure> {
    let folder = options.folder.as_path();
    let name = (folder.file_name())
        .and_then(|name| name.to_str())
        .ok_or_else(|| {
            failure!(
                "{} names no crate: end it with the crate's name",
                folder.display()
            )
        })?;
    let fits = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !fits {
        return Err(failure!(
            "`{name}` cannot name a crate: start with a letter, then letters, digits, `-` and `_`"
        ));
    }
    if folder.exists() {
        return Err(failure!("{} already exists", folder.display()));
    }
    let (mcp_tool, source) = match (&options.path, built_from_checkout()) {
        (Some(path), _) => {
            let path = fs::canonicalize(path)
                .map_err(|error| failure!("cannot find {}: {error}", path.display()))?;
            let runtime = if path.join("runtime").join("Cargo.toml").is_file() {
                path.join("runtime")
            } else {
                path
            };
            let source = format!("mcp-tool from {} (--path)", runtime.display());
            (path_dependency(&runtime)?, source)
        }
        (None, Some(runtime)) => {
            let source = format!(
                "mcp-tool from {}, the checkout this cargo-mcp-tool was built from \
                 (--path DIR for another)",
                runtime.display()
            );
            (path_dependency(&runtime)?, source)
        }
        (None, None) => (
            format!("\"{MCP_TOOL_VERSION}\""),
            format!("mcp-tool {MCP_TOOL_VERSION} from crates.io"),
        ),
    };
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nmcp-tool = {mcp_tool}\nschemars = \"{SCHEMARS_VERSION}\"\n\
         serde = {{ version = \"{SERDE_VERSION}\", features = [\"derive\"] }}\n\n\
         [dev-dependencies]\nserde_json = \"{SERDE_JSON_VERSION}\"\n\
         tokio = {{ version = \"{TOKIO_VERSION}\", features = [\"macros\", \"rt\"] }}\n"
    );
    let main_rs = MAIN_RS.replace(TEMPLATE_NAME, &format!("\"{name}\""));
    let write = |path: PathBuf, text: &str| {
        fs::write(&path, text).map_err(|error| failure!("cannot write {}: {error}", path.display()))
    };
    fs::create_dir_all(folder.join("src"))
        .map_err(|error| failure!("cannot create {}: {error}", folder.display()))?;
    write(folder.join("Cargo.toml"), &manifest)?;
    write(folder.join("src").join("main.rs"), &main_rs)?;
    write(folder.join(".gitignore"), "/target\n")?;
    println!("created the MCP server `{name}` in {}", folder.display());
    println!("  depending on {source}");
    println!("  cd {}", folder.display());
    println!(
        "  cargo test                                   # its tool, called through a test client"
    );
    println!("  cargo mcp-tool list                          # its tools, as a client sees them");
    println!("  cargo mcp-tool call count_words text='a b c'");
    println!("  cargo mcp-tool install --client claude-desktop");
    Ok(())
}
