//! Writes a workspace of three crates with the same N tools, one per style (`gen-ours`,
//! `gen-rmcp`, `gen-hand`), each a stdio server depending on this workspace by path, for
//! the build-time comparison.
//!
//! ```text
//! gen-crates --out DIR --workspace ROOT [--tools 200]
//! gen-crates --edit FILE
//! ```
//!
//! `--edit` changes the marked line of one tool's body in a generated `tools.rs`, for the
//! incremental-build benchmark.

#[path = "tools.rs"]
#[allow(dead_code)]
mod tools;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

struct Options {
    out: PathBuf,
    workspace: PathBuf,
    tools: usize,
}

fn options() -> anyhow::Result<Options> {
    let mut out = None;
    let mut workspace = None;
    let mut tools = 200;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--out" => out = Some(PathBuf::from(value()?)),
            "--workspace" => workspace = Some(PathBuf::from(value()?)),
            "--tools" => tools = value()?.parse()?,
            other => bail!("unknown option `{other}`"),
        }
    }
    match (out, workspace) {
        (Some(out), Some(workspace)) => Ok(Options {
            out,
            workspace: workspace.canonicalize()?,
            tools,
        }),
        _ => bail!("usage: gen-crates --out DIR --workspace ROOT [--tools N]"),
    }
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn member(out: &Path, name: &str, deps: &[&str], main: &str, tools: &str) -> anyhow::Result<()> {
    let deps: String = deps
        .iter()
        .map(|d| format!("{d}.workspace = true\n"))
        .collect();
    write(
        &out.join(name).join("Cargo.toml"),
        &format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\n{deps}"
        ),
    )?;
    write(&out.join(name).join("src/main.rs"), main)?;
    write(&out.join(name).join("src/tools.rs"), tools)
}

const HAND_HELPERS: &str = r#"/// A tool whose input schema is written as JSON text.
fn tool(name: &'static str, description: &'static str, schema: &str) -> Tool {
    let schema = match serde_json::from_str(schema) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => rmcp::model::JsonObject::new(),
    };
    Tool::new(name, description, schema)
}

/// An integer argument; `None` if it is missing or not an integer.
fn integer(arguments: &rmcp::model::JsonObject, name: &str) -> Option<i64> {
    arguments.get(name).and_then(serde_json::Value::as_i64)
}

/// An optional string argument; `None` if it is there but not a string.
fn optional_string(arguments: &rmcp::model::JsonObject, name: &str) -> Option<Option<String>> {
    match arguments.get(name) {
        None | Some(serde_json::Value::Null) => Some(None),
        Some(serde_json::Value::String(text)) => Some(Some(text.clone())),
        Some(_) => None,
    }
}

/// The tool error for arguments that do not fit the schema.
fn invalid(tool: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "invalid arguments for tool `{tool}`"
    ))])
}

"#;

fn generate(options: &Options) -> anyhow::Result<()> {
    let out = &options.out;
    let root = options.workspace.display();
    write(
        &out.join("Cargo.toml"),
        &format!(
            "[workspace]\nresolver = \"3\"\nmembers = [\"gen-ours\", \"gen-rmcp\", \"gen-hand\"]\n\n\
             [workspace.dependencies]\n\
             mcp-tool = {{ path = \"{root}/runtime\" }}\n\
             rmcp = {{ version = \"3.11\", default-features = false, features = [\"server\", \"transport-io\", \"macros\"] }}\n\
             serde = {{ version = \"1\", features = [\"derive\"] }}\n\
             serde_json = \"1\"\n\
             schemars = \"1.2\"\n\
             tokio = {{ version = \"1\", features = [\"rt-multi-thread\", \"macros\", \"io-std\"] }}\n"
        ),
    )?;
    // The workspace's lock file, so that the crates build against the same versions.
    std::fs::copy(options.workspace.join("Cargo.lock"), out.join("Cargo.lock"))?;

    let main = |style: &str, serve: &str| {
        format!(
            "//! {n} tools {style}, served over stdio.\n\n\
             mod tools;\n\n\
             #[tokio::main]\n\
             async fn main() -> Result<(), Box<dyn std::error::Error>> {{\n\
             {serve}    Ok(())\n\
             }}\n",
            n = options.tools,
        )
    };
    let n = options.tools;
    member(
        out,
        "gen-ours",
        &["mcp-tool", "tokio"],
        &main(
            "with `#[mcp_tool]`",
            "    mcp_tool::Server::from_registry(\"gen-ours\", \"0.1.0\")\n        .serve_stdio()\n        .await?;\n",
        ),
        &format!("use mcp_tool::mcp_tool;\n\n{}", tools::ours(n)),
    )?;
    let rmcp_serve = |server: &str| {
        format!(
            "    use rmcp::ServiceExt as _;\n    {server}\n        .serve(rmcp::transport::stdio())\n        .await?\n        .waiting()\n        .await?;\n"
        )
    };
    member(
        out,
        "gen-rmcp",
        &["rmcp", "serde", "schemars", "tokio"],
        &main("with rmcp's macros", &rmcp_serve("tools::GenServer")),
        &tools::rmcp_server(n),
    )?;
    let hand = tools::hand(n);
    // The helpers go after the `use` lines that the generated module starts with.
    let split = hand.find("\n\n").map_or(0, |i| i + 2);
    member(
        out,
        "gen-hand",
        &["rmcp", "serde_json", "tokio"],
        &main(
            "as a hand-written `ServerHandler`",
            &rmcp_serve("tools::HandMany::new(usize::MAX)"),
        ),
        &format!("{}{HAND_HELPERS}{}", &hand[..split], &hand[split..]),
    )?;
    println!(
        "{}: gen-ours, gen-rmcp, gen-hand with {n} tools; the edited line is marked `{}` (tool {})",
        out.display(),
        tools::EDIT_MARKER,
        tools::EDITED_TOOL
    );
    Ok(())
}

/// Changes the constant on the marked line, so that every edit is a real change.
fn edit(path: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let mut edited = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let Some(rest) = line.strip_suffix(tools::EDIT_MARKER) else {
                return line.to_owned();
            };
            let Some((head, number)) = rest.trim_end().trim_end_matches(';').rsplit_once("= ")
            else {
                return line.to_owned();
            };
            edited = true;
            let next = number.parse::<i64>().unwrap_or(0) + 1;
            format!("{head}= {next}; {}", tools::EDIT_MARKER)
        })
        .collect();
    if !edited {
        bail!(
            "no line of {} ends with `{}`",
            path.display(),
            tools::EDIT_MARKER
        );
    }
    std::fs::write(path, lines.join("\n") + "\n")?;
    Ok(())
}

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let outcome = match (args.next().as_deref(), args.next()) {
        (Some("--edit"), Some(path)) => edit(Path::new(&path)),
        _ => options().and_then(|options| generate(&options)),
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gen-crates: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
