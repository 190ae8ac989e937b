//! An HTTP server with authorization and a tool that needs a scope: the guide's
//! "Securing an HTTP server" (`mcp_tool::guide::serving`), runnable without an
//! authorization server.
//!
//! ```text
//! NOTES_TOKEN=dev-secret cargo run -p mcp-tool --example http_scoped -- 127.0.0.1:8000
//! ```
//!
//! Every request needs `Authorization: Bearer dev-secret` (a request without it gets `401`
//! and where the metadata is); `list_notes` needs no scope, `add_note` needs
//! `notes:write`, which the development key grants. A real server verifies its callers'
//! tokens with `JwtVerifier` or `IntrospectionVerifier`; `DevKey` shows the trait they
//! implement. The server prints its endpoint on stdout once it listens.

use std::sync::Mutex;

use mcp_tool::model::Auth;
use mcp_tool::{Context, Server, State, TokenRefused, TokenVerifier, ToolError, mcp_tool};

/// The notes, shared by every call.
#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

/// Lists every note, oldest first.
#[mcp_tool(read_only)]
fn list_notes(notes: State<Notes>) -> Vec<String> {
    notes
        .0
        .lock()
        .map(|notes| notes.clone())
        .unwrap_or_default()
}

/// Adds a note, and says who added it.
#[mcp_tool(scopes = ["notes:write"])]
async fn add_note(
    ctx: Context,
    notes: State<Notes>,
    /// The note's text.
    #[arg(length(min = 1, max = 500))]
    text: String,
) -> Result<String, ToolError> {
    // A client acting for itself has no subject: it is never named as a user.
    let who = (ctx.auth())
        .and_then(|auth| auth.subject())
        .unwrap_or("a client");
    let mut notes = notes
        .0
        .lock()
        .map_err(|_| ToolError::new("the notes are unreadable"))?;
    notes.push(text);
    Ok(format!("note {} added by {who}", notes.len()))
}

/// Accepts one key, as a development server might: the caller `developer`, allowed to
/// write notes.
struct DevKey(String);

impl TokenVerifier for DevKey {
    async fn verify(&self, token: &str) -> Result<Auth, TokenRefused> {
        if token == self.0 {
            Ok(Auth::new("developer").with_scopes(["notes:write"]))
        } else {
            Err(TokenRefused::new("not the development key"))
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8000".to_owned());
    let key = std::env::var("NOTES_TOKEN").map_err(|_| "set NOTES_TOKEN to the key to accept")?;
    let listener = tokio::net::TcpListener::bind(&address).await?;
    let endpoint = format!("http://{}/mcp", listener.local_addr()?);
    let server = Server::from_registry("notes", env!("CARGO_PKG_VERSION"))
        .state(Notes::default())
        .authorization(DevKey(key))
        .resource_url(&endpoint)
        .build()?;
    println!("{endpoint}");
    server
        .serve_http(listener, async {
            tokio::signal::ctrl_c().await.unwrap_or(())
        })
        .await?;
    Ok(())
}
