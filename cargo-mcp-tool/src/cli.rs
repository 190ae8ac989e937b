//! The command line: `cargo mcp-tool <command>`.

use clap::{Parser, Subcommand};

use crate::bundle::BundleOptions;
use crate::call::CallOptions;
use crate::dev::{DevOptions, ReloadOptions};
use crate::install::{InstallOptions, UninstallOptions};
use crate::list::ListOptions;
use crate::new_crate::NewOptions;
use crate::publish::PublishOptions;

/// Install, list, call and start MCP servers written with mcp-tool.
#[derive(Debug, Parser)]
#[command(name = "cargo-mcp-tool", bin_name = "cargo mcp-tool", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Build the server in release, copy it to a folder of its own, and add it to a
    /// client's configuration.
    Install(InstallOptions),
    /// Remove the server that `install` added from a client's configuration.
    Uninstall(UninstallOptions),
    /// Build and start the server, and print its tools, prompts and resources.
    List(ListOptions),
    /// Build and start the server, call one tool, and print its result.
    Call(CallOptions),
    /// Create a crate with a server of one tool and its tests.
    New(NewOptions),
    /// Build the server and serve it under the MCP Inspector, rebuilding and swapping it
    /// each time a source file changes.
    Dev(DevOptions),
    /// Build the server in release for the host (and each --target) and pack it as an MCP
    /// Bundle (`.mcpb`), with the manifest written from the tools and prompts it lists.
    Bundle(BundleOptions),
    /// Write the MCP registry's `server.json` for the crate's server, check the README's
    /// `mcp-name:` line, and print the commands that publish it.
    Publish(PublishOptions),
    /// The reloading server that `dev` starts under the Inspector.
    #[command(hide = true)]
    Reload(ReloadOptions),
}
