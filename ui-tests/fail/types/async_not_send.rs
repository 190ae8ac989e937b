use std::rc::Rc;

use mcp_tool::mcp_tool;

async fn pause() {}

/// Returns the length of a text, after a pause.
#[mcp_tool]
async fn slow_len(text: String) -> usize {
    let shared = Rc::new(text);
    pause().await;
    shared.len()
}

fn main() {}
