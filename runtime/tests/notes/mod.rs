//! The prompts and resources of a server the mount tests mount: registered by the test
//! binary that includes this module, with the state they read and a tool of run time.

use mcp_tool::{Arguments, RuntimeTool, Server, State, ToolError};
use mcp_tool::{mcp_prompt, mcp_resource};

pub(crate) struct Greeting(pub(crate) &'static str);

/// Asks the model to greet a person, with the server's greeting.
#[mcp_prompt]
fn welcome(greeting: State<Greeting>, name: String) -> String {
    format!("Say {} to {name}", greeting.0)
}

/// The server's greeting.
#[mcp_resource(uri = "config://greeting")]
fn greeting_text(greeting: State<Greeting>) -> String {
    greeting.0.to_owned()
}

/// A note, by its name.
#[mcp_resource(template = "notes://{name}")]
fn note(greeting: State<Greeting>, name: String) -> String {
    format!("{}: the note {name}", greeting.0)
}

/// A server of the prompts and resources alone, whose greeting is `greeting`.
pub(crate) fn notes(greeting: &'static str) -> mcp_tool::ToolServer {
    let no_tools: [&str; 0] = [];
    Server::from_registry("notes", "1")
        .only(no_tools)
        .state(Greeting(greeting))
        .build()
        .unwrap()
}

/// A run-time tool `name` that answers `answer`.
pub(crate) fn fixed(name: &str, answer: &'static str) -> RuntimeTool {
    RuntimeTool::new(name, "Answers a fixed text.").handler(move |args: Arguments| async move {
        args.finish()?;
        Ok::<_, ToolError>(answer)
    })
}
