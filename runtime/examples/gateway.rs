//! One server fronting several: each `--upstream NAME=COMMAND [ARGS…]` runs an MCP server
//! as a child process and serves its tools as `NAME_tool`, through this server's one
//! pipeline (its authorization, limits and logs apply to them all).
//!
//! ```text
//! cargo run -p mcp-tool --example gateway -- \
//!     --upstream everything=npx -y @modelcontextprotocol/server-everything \
//!     --upstream notes=target/debug/examples/http_scoped
//! cargo run -p mcp-tool --example gateway -- --http 127.0.0.1:8000 --upstream …
//! ```
//!
//! An upstream's arguments run to the next `--upstream` or `--http`. It is served over
//! stdio unless `--http ADDR` says to serve Streamable HTTP at `http://ADDR/mcp`.
//! A `NAME=http://…` (or `https://…`) upstream is refused: this gateway runs commands.

use mcp_tool::{Proxy, Server, ServerError};

/// What the command line asks for: the upstreams, and where to serve.
struct Options {
    upstreams: Vec<(String, String, Vec<String>)>,
    http: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        upstreams: Vec::new(),
        http: None,
    };
    let mut words = std::env::args().skip(1).peekable();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--http" => options.http = Some(words.next().ok_or("--http needs an ADDR")?),
            "--upstream" => {
                let spec = words.next().ok_or("--upstream needs NAME=COMMAND")?;
                let (name, command) = spec
                    .split_once('=')
                    .ok_or("write --upstream NAME=COMMAND")?;
                if command.starts_with("http://") || command.starts_with("https://") {
                    return Err(format!("`{name}`: this gateway runs commands, not URLs"));
                }
                let mut args = Vec::new();
                while let Some(arg) = words.next_if(|w| w != "--upstream" && w != "--http") {
                    args.push(arg);
                }
                options
                    .upstreams
                    .push((name.to_owned(), command.to_owned(), args));
            }
            other => {
                return Err(format!(
                    "unknown option `{other}`: use --upstream or --http"
                ));
            }
        }
    }
    if options.upstreams.is_empty() {
        return Err("give at least one --upstream NAME=COMMAND [ARGS…]".to_owned());
    }
    Ok(options)
}

#[tokio::main]
async fn main() -> Result<(), ServerError> {
    let options = options().unwrap_or_else(|problem| {
        eprintln!("gateway: {problem}");
        std::process::exit(2);
    });
    // Logging first: what the upstreams write on stderr as they start goes to the log too.
    if let Err(error) = mcp_tool::logging::init() {
        eprintln!("gateway: {error}");
        std::process::exit(2);
    }
    let mut gateway = Server::new("gateway", env!("CARGO_PKG_VERSION"));
    for (name, command, args) in options.upstreams {
        // Each upstream is started here, once; its tools are listed under its name.
        let upstream = Proxy::stdio(command, args).named(&name).start().await?;
        gateway = gateway.mount(name, upstream);
    }
    match options.http {
        Some(address) => gateway.serve_http(&address).await,
        None => gateway.serve_stdio().await,
    }
}
