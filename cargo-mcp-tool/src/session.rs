//! A client session with a server started as a child process: newline-delimited JSON-RPC
//! over its stdin and stdout, read by a thread of its own, and its stderr kept for the
//! message that says why it stopped.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use crate::failure::{Failure, failure};
use crate::project::Selection;

/// The protocol version this client asks for.
pub(crate) const PROTOCOL_VERSION: &str = "2025-11-25";

/// How many of the server's stderr lines an error shows.
const SHOWN_LINES: usize = 10;

/// How to get a running server: build it (or take `--binary`), then start it.
#[derive(Debug, Args)]
pub(crate) struct Launch {
    #[command(flatten)]
    pub(crate) selection: Selection,
    /// Build in release.
    #[arg(long)]
    pub(crate) release: bool,
    /// Start this server binary instead of building the crate's.
    #[arg(long, value_name = "PATH")]
    pub(crate) binary: Option<PathBuf>,
    /// Seconds to wait for the server's answer to `initialize` and to each listing.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub(crate) timeout: f64,
    /// Arguments for the server, after `--`.
    #[arg(last = true, value_name = "SERVER_ARGS")]
    pub(crate) server_args: Vec<String>,
}

impl Launch {
    /// Builds or finds the server, starts it and initializes the session.
    pub(crate) fn start(&self) -> Result<Session, Failure> {
        let binary = match &self.binary {
            Some(binary) => binary.clone(),
            None => self.selection.build(self.release)?,
        };
        let timeout = Duration::try_from_secs_f64(self.timeout)
            .map_err(|_| failure!("--timeout takes a number of seconds, not {}", self.timeout))?;
        Session::start(&binary, &self.server_args, &[], timeout)
    }
}

/// What the reader thread saw on the server's stdout.
#[derive(Debug)]
enum Event {
    Message(Value),
    /// A line that is not a JSON-RPC message.
    Stray(String),
    Closed,
}

/// A JSON-RPC error the server answered with.
#[derive(Debug)]
pub(crate) struct ProtocolError {
    pub(crate) code: i64,
    pub(crate) message: String,
}

/// A running server and the session with it.
#[derive(Debug)]
pub(crate) struct Session {
    program: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<Vec<String>>>,
    /// The thread reading stderr, which ends once the server's last words are in.
    stderr_reader: JoinHandle<()>,
    next_id: u64,
    /// Seconds to wait for `initialize` and the listings.
    pub(crate) timeout: Duration,
    /// The server's answer to `initialize`.
    pub(crate) initialized: Value,
}

impl Session {
    /// Starts `binary` with `args` and the variables `envs` added to this process's own,
    /// and initializes the session.
    pub(crate) fn start(
        binary: &Path,
        args: &[String],
        envs: &[(String, String)],
        timeout: Duration,
    ) -> Result<Self, Failure> {
        let program = binary.display().to_string();
        let mut child = Command::new(binary)
            .args(args)
            .envs(envs.iter().map(|(key, value)| (key, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| failure!("cannot start {program}: {error}"))?;
        let (sender, events) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                let event = match serde_json::from_str::<Value>(&line) {
                    Ok(message) if message.get("jsonrpc") == Some(&json!("2.0")) => {
                        Event::Message(message)
                    }
                    _ => Event::Stray(line),
                };
                if sender.send(event).is_err() {
                    return;
                }
            }
            let _ = sender.send(Event::Closed);
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&stderr);
        let pipe = child.stderr.take().expect("stderr is piped");
        let stderr_reader = thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let mut kept = kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                // The first lines say why a server stopped; later ones are kept up to a bound.
                if kept.len() < 1000 {
                    kept.push(line);
                }
            }
        });
        let stdin = child.stdin.take();
        let mut session = Self {
            program,
            child,
            stdin,
            events,
            stderr,
            stderr_reader,
            next_id: 1,
            timeout,
            initialized: Value::Null,
        };
        let params = json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": { "name": "cargo-mcp-tool", "version": env!("CARGO_PKG_VERSION") },
        });
        let answer = session.request("initialize", params, Some(timeout), &mut |_| {})?;
        session.initialized = answer.map_err(|error| {
            failure!(
                "{} refused `initialize`: {} ({})",
                session.program,
                error.message,
                error.code
            )
        })?;
        session.notify("notifications/initialized", json!({}))?;
        Ok(session)
    }

    /// The server's capability `name`, if it declared it.
    pub(crate) fn has_capability(&self, name: &str) -> bool {
        self.initialized["capabilities"]
            .get(name)
            .is_some_and(|capability| !capability.is_null())
    }

    fn send(&mut self, message: &Value) -> Result<(), Failure> {
        let line = format!("{message}\n");
        let written = match &mut self.stdin {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush())
                .is_ok(),
            None => false,
        };
        if written {
            Ok(())
        } else {
            Err(self.stopped("stopped reading its input"))
        }
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) -> Result<(), Failure> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// Sends a request and waits for its answer, passing each notification that arrives
    /// meanwhile to `on_notification`. The outer error is a failure of the session (the
    /// server stopped, printed something else, or took too long), the inner one the
    /// server's own JSON-RPC error.
    pub(crate) fn request(
        &mut self,
        method: &str,
        params: Value,
        timeout: Option<Duration>,
        on_notification: &mut dyn FnMut(&Value),
    ) -> Result<Result<Value, ProtocolError>, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        let deadline = timeout.map(|timeout| Instant::now() + timeout);
        loop {
            let event = match deadline {
                Some(deadline) => match self
                    .events
                    .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => {
                        let seconds = timeout.unwrap_or_default().as_secs_f64();
                        return Err(self.stopped(&format!(
                            "did not answer `{method}` within {seconds} s (a longer wait: --timeout SECONDS)"
                        )));
                    }
                    Err(RecvTimeoutError::Disconnected) => Event::Closed,
                },
                None => self.events.recv().unwrap_or(Event::Closed),
            };
            let message = match event {
                Event::Message(message) => message,
                Event::Stray(line) => {
                    return Err(self.stopped(&format!(
                        "printed something that is not JSON-RPC on stdout, where only protocol messages may go:\n  {line}"
                    )));
                }
                Event::Closed => {
                    return Err(
                        self.stopped(&format!("closed its output before answering `{method}`"))
                    );
                }
            };
            match (message.get("id"), message.get("method")) {
                (Some(answer_id), None) if answer_id == &json!(id) => {
                    if let Some(error) = message.get("error") {
                        return Ok(Err(ProtocolError {
                            code: error["code"].as_i64().unwrap_or_default(),
                            message: error["message"]
                                .as_str()
                                .unwrap_or("(no message)")
                                .to_owned(),
                        }));
                    }
                    return Ok(Ok(message.get("result").cloned().unwrap_or(Value::Null)));
                }
                (Some(request_id), Some(request)) => {
                    // A request from the server: ping is answered, the rest declined.
                    let answer = if request == "ping" {
                        json!({ "jsonrpc": "2.0", "id": request_id, "result": {} })
                    } else {
                        json!({ "jsonrpc": "2.0", "id": request_id, "error": {
                            "code": -32601, "message": format!("cargo mcp-tool does not answer {request}") } })
                    };
                    self.send(&answer)?;
                }
                (None, Some(_)) => on_notification(&message),
                _ => {}
            }
        }
    }

    /// Every item of a paginated listing (`tools/list` gives `tools`, and so on).
    pub(crate) fn list_all(&mut self, method: &str, key: &str) -> Result<Vec<Value>, Failure> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor
                .as_ref()
                .map_or_else(|| json!({}), |cursor| json!({ "cursor": cursor }));
            let page = self
                .request(method, params, Some(self.timeout), &mut |_| {})?
                .map_err(|error| {
                    failure!(
                        "{} answered `{method}` with an error: {} ({})",
                        self.program,
                        error.message,
                        error.code
                    )
                })?;
            items.extend(page[key].as_array().cloned().unwrap_or_default());
            match page["nextCursor"].as_str() {
                Some(next) if Some(next) != cursor.as_deref() => cursor = Some(next.to_owned()),
                _ => return Ok(items),
            }
        }
    }

    /// The failure of a server that stopped or misbehaved, with its exit status and the
    /// first lines of its stderr.
    fn stopped(&mut self, what: &str) -> Failure {
        // Give a server that is exiting a moment to finish, for its status and last words.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(exit)) = self.child.try_wait() {
                status = Some(exit);
                break;
            }
            thread::sleep(Duration::from_millis(25));
        }
        let mut message = format!("the server {} {what}", self.program);
        if status.is_some() {
            for _ in 0..20 {
                if self.stderr_reader.is_finished() {
                    break;
                }
                thread::sleep(Duration::from_millis(25));
            }
        }
        if let Some(status) = status {
            message.push_str(&format!("\nit exited with {status}"));
        }
        let stderr = self
            .stderr
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if stderr.is_empty() {
            message.push_str("\nit printed nothing on stderr");
        } else {
            message.push_str("\nits stderr began with:");
            for line in stderr.iter().take(SHOWN_LINES) {
                message.push_str(&format!("\n  {line}"));
            }
        }
        failure!("{message}")
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closing stdin is how a stdio server is told to stop; a kill if it does not.
        self.stdin.take();
        for _ in 0..40 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(25));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
