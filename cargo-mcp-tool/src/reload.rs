//! The reloading server of `cargo mcp-tool dev`: a stdio MCP server that passes every
//! message between its client and the crate's server, and swaps that server for the
//! newly built one each time the build's generation file changes, without the client
//! noticing more than a `notifications/*/list_changed`.
//!
//! On a swap it stops the old server, starts the new one, replays the client's
//! `initialize` and `notifications/initialized` (swallowing the answer, which the client
//! already had), and tells the client that the tools, prompts and resources may have
//! changed, each only where the capabilities the client was told at `initialize` declare
//! its `listChanged`. A request the old server had not answered gets an error that says to send it
//! again; a request that arrives while no server runs (the last one exited) gets an
//! error that says why, until the next build.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use crate::failure::{Failure, failure};

/// The id under which `initialize` is replayed to a new server.
const REPLAY_ID: &str = "cargo-mcp-tool-dev-replay";

/// What the reloading server needs: the server to run and the file whose change says
/// that a new build is there.
#[derive(Debug, Clone)]
pub(crate) struct Reload {
    pub(crate) binary: PathBuf,
    pub(crate) args: Vec<String>,
    pub(crate) generation: PathBuf,
}

/// Where the client's messages go (stdout in `dev --stdio` and under the Inspector),
/// shared by the threads that write to it, each message whole.
type ClientOut = Arc<Mutex<Box<dyn Write + Send>>>;

/// The bookkeeping shared by the client's reader, the server's reader and the watcher.
/// No thread holds it while it waits on the server's input, so a server that stops
/// reading while the client floods it cannot stall its own answers.
struct Shared {
    client: ClientOut,
    server: Option<Running>,
    /// The client's `initialize` request and whether it said `initialized`: what a new
    /// server is told first.
    initialize: Option<Value>,
    initialized: bool,
    /// The capabilities of the server's answer to the client's `initialize`: the lists
    /// the client expects `list_changed` of.
    capabilities: Value,
    /// The ids of the client's requests the running server has not answered.
    pending: Vec<Value>,
    /// Counts the servers started, so that a reader of an old one knows it is old.
    started: u64,
    /// Why the last server stopped, for the requests that arrive before the next build.
    stopped: Option<String>,
}

struct Running {
    child: Child,
    stdin: Arc<Mutex<ChildStdin>>,
    number: u64,
}

fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Writes one line; `false` when the other side is gone.
fn write_line(out: &Mutex<impl Write + ?Sized>, line: &str) -> bool {
    let mut out = lock(out);
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

/// A JSON-RPC error answering the request `id`.
fn error_for(id: Value, message: &str) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": -32603, "message": message },
    })
    .to_string()
}

impl Shared {
    /// Answers every request the server will not answer now with an error saying `why`.
    fn drop_pending(&mut self, why: &str) {
        for id in std::mem::take(&mut self.pending) {
            // A client that went away ends the process through its closed input.
            write_line(&self.client, &error_for(id, why));
        }
    }

    fn stop_server(&mut self) {
        if let Some(mut running) = self.server.take() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

/// Serves the reloading server over `input` and `client` until the client closes its
/// input.
pub(crate) fn serve(
    reload: &Reload,
    input: impl BufRead + Send + 'static,
    client: Box<dyn Write + Send>,
) -> Result<(), Failure> {
    let shared = Arc::new(Mutex::new(Shared {
        client: Arc::new(Mutex::new(client)),
        server: None,
        initialize: None,
        initialized: false,
        capabilities: Value::Null,
        pending: Vec::new(),
        started: 0,
        stopped: None,
    }));
    start(reload, &shared, "")?;
    let watcher = {
        let (reload, shared) = (reload.clone(), Arc::clone(&shared));
        thread::spawn(move || watch(&reload, &shared))
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            // Not JSON: the server answers it with the parse error it owes.
            let stdin = (lock(&shared).server.as_ref()).map(|running| Arc::clone(&running.stdin));
            if let Some(stdin) = stdin {
                write_line(&stdin, &line);
            }
            continue;
        };
        from_client(&shared, &message);
    }
    let mut shared = lock(&shared);
    shared.stop_server();
    drop(shared);
    drop(watcher);
    Ok(())
}

/// Passes one message of the client's on, remembering what a new server must be told.
fn from_client(shared: &Mutex<Shared>, message: &Value) {
    let method = message.get("method").and_then(Value::as_str);
    let request_id = (message.get("id").filter(|id| !id.is_null()))
        .filter(|_| method.is_some())
        .cloned();
    let (stdin, client, stopped) = {
        let mut shared = lock(shared);
        match method {
            Some("initialize") => shared.initialize = Some(message.clone()),
            Some("notifications/initialized") => shared.initialized = true,
            _ => {}
        }
        let stdin = (shared.server.as_ref()).map(|running| Arc::clone(&running.stdin));
        if stdin.is_some()
            && let Some(id) = &request_id
        {
            shared.pending.push(id.clone());
        }
        let stopped =
            (shared.stopped.clone()).unwrap_or_else(|| "the server is not running".into());
        (stdin, Arc::clone(&shared.client), stopped)
    };
    match stdin {
        // A server that stopped reading has exited: its reader answers what is pending.
        Some(stdin) => {
            write_line(&stdin, &message.to_string());
        }
        None => {
            if let Some(id) = request_id {
                let why = format!("{stopped}: save a change to rebuild it, then send this again");
                write_line(&client, &error_for(id, &why));
            }
        }
    }
}

/// Starts the server and, when the client has initialized, replays its handshake. When a
/// server runs already, the new one takes its place in one step: what the old one had
/// not answered gets an error saying `replaced`, and no message falls between the two.
fn start(reload: &Reload, shared: &Arc<Mutex<Shared>>, replaced: &str) -> Result<(), Failure> {
    let mut child = Command::new(&reload.binary)
        .args(&reload.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|error| failure!("cannot start {}: {error}", reload.binary.display()))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stdin = Arc::new(Mutex::new(child.stdin.take().expect("stdin is piped")));
    let number = {
        let mut guard = lock(shared);
        guard.stop_server();
        guard.drop_pending(replaced);
        // Replayed before the server is shared, so that it comes before anything else.
        if let Some(mut initialize) = guard.initialize.clone() {
            initialize["id"] = json!(REPLAY_ID);
            write_line(&stdin, &initialize.to_string());
            if guard.initialized {
                let initialized =
                    json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
                write_line(&stdin, &initialized.to_string());
            }
        }
        guard.started += 1;
        let number = guard.started;
        guard.server = Some(Running {
            child,
            stdin,
            number,
        });
        guard.stopped = None;
        number
    };
    let shared = Arc::clone(shared);
    thread::spawn(move || from_server(&shared, BufReader::new(stdout), number));
    Ok(())
}

/// Passes the server's messages to the client, but the answer to the replayed
/// `initialize`; says why when the server stops on its own.
fn from_server(shared: &Mutex<Shared>, stdout: impl BufRead, number: u64) {
    for line in stdout.lines() {
        let Ok(line) = line else { break };
        let message = serde_json::from_str::<Value>(&line).ok();
        let client = {
            let mut shared = lock(shared);
            if shared.server.as_ref().map(|running| running.number) != Some(number) {
                return;
            }
            if let Some(message) = &message
                && message.get("method").is_none()
                && let Some(id) = message.get("id")
            {
                shared.pending.retain(|pending| pending != id);
                if shared
                    .initialize
                    .as_ref()
                    .map(|initialize| &initialize["id"])
                    == Some(id)
                    && let Some(capabilities) = message["result"].get("capabilities")
                {
                    shared.capabilities = capabilities.clone();
                }
            }
            Arc::clone(&shared.client)
        };
        // Not JSON: passed on as it came, for the client to judge.
        if message.is_none_or(|message| message.get("id") != Some(&json!(REPLAY_ID))) {
            write_line(&client, &line);
        }
    }
    let mut shared = lock(shared);
    if shared.server.as_ref().map(|running| running.number) != Some(number) {
        return;
    }
    let status = match shared.server.as_mut().map(|running| running.child.wait()) {
        Some(Ok(status)) => status.to_string(),
        _ => "an unknown status".to_owned(),
    };
    let why = format!("the server exited ({status})");
    eprintln!("cargo mcp-tool dev: {why}; it starts again after the next build");
    shared.server = None;
    shared.drop_pending(&why);
    shared.stopped = Some(why);
}

/// Swaps the server each time the generation file changes.
fn watch(reload: &Reload, shared: &Arc<Mutex<Shared>>) {
    let mut seen = generation(&reload.generation);
    loop {
        thread::sleep(Duration::from_millis(100));
        let now = generation(&reload.generation);
        if now == seen {
            continue;
        }
        seen = now;
        let replaced = "the server was rebuilt while this request ran: send it again";
        match start(reload, shared, replaced) {
            Ok(()) => {
                let (client, capabilities) = {
                    let shared = lock(shared);
                    (Arc::clone(&shared.client), shared.capabilities.clone())
                };
                for list in changing_lists(&capabilities) {
                    let changed = format!("notifications/{list}/list_changed");
                    write_line(
                        &client,
                        &json!({ "jsonrpc": "2.0", "method": changed }).to_string(),
                    );
                }
                eprintln!("cargo mcp-tool dev: the new build serves");
            }
            Err(failure) => {
                eprintln!("cargo mcp-tool dev: {failure}");
                lock(shared).stopped = Some(failure.to_string());
            }
        }
    }
}

/// The lists whose `list_changed` the client was promised: those whose capability says
/// `listChanged`, as a client ignores (or refuses) the others.
fn changing_lists(capabilities: &Value) -> Vec<&'static str> {
    ["tools", "prompts", "resources"]
        .into_iter()
        .filter(|list| capabilities[*list]["listChanged"] == json!(true))
        .collect()
}

/// The build's generation: the number the builder writes after each good build.
fn generation(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}
