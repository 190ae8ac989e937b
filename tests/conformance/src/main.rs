//! The server the official MCP conformance suite (`@modelcontextprotocol/conformance`)
//! tests, run by `scripts/conformance.sh`: every tool, prompt and resource its server
//! scenarios use, written with `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` and
//! served by `mcp_tool::Server` alone.
//!
//! ```text
//! conformance-server --port 3001            # serves http://127.0.0.1:3001/mcp
//! conformance-server --host ::1 --port 0    # any free port; the URL is printed on stderr
//! ```

mod asking;
mod catalog;
mod rounds;
#[cfg(test)]
mod schema_profiles;
mod tasks;
mod tools;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use lexopt::ValueExt as _;

const USAGE: &str = "\
conformance-server: the MCP server that the official conformance suite tests.

Usage: conformance-server [--host ADDR] [--port PORT]

Options:
  --host ADDR   the address to listen on; 127.0.0.1 unless given
  --port PORT   the port to listen on; 3001 unless given, 0 for any free port
                (the URL served is printed on stderr)
  -h, --help    print this help";

/// What the command line asks for.
#[derive(Debug)]
struct Options {
    addr: SocketAddr,
}

fn parse_options() -> Result<Option<Options>, lexopt::Error> {
    let mut host = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut port = 3001;
    let mut args = lexopt::Parser::from_env();
    while let Some(arg) = args.next()? {
        match arg {
            lexopt::Arg::Long("host") => host = args.value()?.parse()?,
            lexopt::Arg::Long("port") => port = args.value()?.parse()?,
            lexopt::Arg::Short('h') | lexopt::Arg::Long("help") => return Ok(None),
            other => return Err(other.unexpected()),
        }
    }
    Ok(Some(Options {
        addr: SocketAddr::new(host, port),
    }))
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("conformance-server: {error}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let server = mcp_tool::Server::from_registry("mcp-tool-conformance", env!("CARGO_PKG_VERSION"));
    match server.serve_http(&options.addr.to_string()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("conformance-server: {error}");
            ExitCode::FAILURE
        }
    }
}
