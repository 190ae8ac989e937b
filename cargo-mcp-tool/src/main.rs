//! `cargo mcp-tool`: the developer's loop for MCP servers written with
//! [mcp-tool](https://crates.io/crates/mcp-tool). `install` writes a server into an MCP
//! client's configuration, `list` and `call` try its tools from the terminal, `dev` serves
//! it under the MCP Inspector and rebuilds it on every change, `new` starts a crate, `bundle`
//! packs it as an MCP Bundle (`.mcpb`), `publish` writes the MCP registry's `server.json` for it.
#![warn(missing_debug_implementations, unreachable_pub)]

mod bundle;
mod call;
mod cli;
mod client;
mod config_file;
mod dev;
mod failure;
mod folder_trust;
mod install;
mod json_text;
mod list;
mod mcpb;
mod new_crate;
mod paths;
mod project;
mod publish;
mod reload;
mod server_json;
mod session;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    // Run as `cargo mcp-tool`, cargo passes the subcommand's name first.
    let mut args: Vec<_> = std::env::args_os().collect();
    if args.get(1).is_some_and(|arg| arg == "mcp-tool") {
        args.remove(1);
    }
    let cli = Cli::parse_from(args);
    let outcome = match &cli.command {
        Command::Install(options) => install::install(options),
        Command::Uninstall(options) => install::uninstall(options),
        Command::List(options) => list::list(options),
        Command::New(options) => new_crate::new(options),
        Command::Dev(options) => dev::dev(options),
        Command::Bundle(options) => bundle::bundle(options),
        Command::Publish(options) => publish::publish(options),
        Command::Reload(options) => dev::reload(options),
        Command::Call(options) => match call::call(options) {
            Ok(call::Outcome::Succeeded) => Ok(()),
            Ok(call::Outcome::ToolFailed) => return ExitCode::FAILURE,
            Err(failure) => Err(failure),
        },
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::FAILURE
        }
    }
}
