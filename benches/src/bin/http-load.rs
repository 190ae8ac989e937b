//! Load on a Streamable HTTP MCP server: C clients at once, each making N sequential
//! `tools/call add` requests on a keep-alive connection of its own, every call's latency
//! recorded, from sending the request to the end of its response body.
//!
//! Each client is an ordinary one: hyper-util's legacy client with its defaults, HTTP/1.1
//! on one pooled keep-alive connection, Nagle's algorithm on (no `TCP_NODELAY`) and the
//! kernel's delayed acknowledgements (no `TCP_QUICKACK`), as most HTTP clients run.
//! With sessions, a client first sends `initialize` and `notifications/initialized` and
//! ends its session with a DELETE after its calls; stateless, it just POSTs `tools/call`.
//! It reads every response whole, SSE or JSON, and checks the sum.
//!
//! ```text
//! http-load [--clients C] [--calls N] [--warmup W] [--stateless] [--name NAME] [--out FILE]
//!           -- SERVER [ARGS...]
//! ```
//!
//! It starts SERVER, which prints its endpoint on stdout, and ends it by closing its
//! stdin. Each client makes W unrecorded calls first; the recorded calls of all clients
//! start together, and calls/s is every recorded call over the time from that start to
//! the last client's last reply. The summary goes to stdout and, as JSON, to FILE.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use tokio::sync::Barrier;

/// The protocol version a client asks for: the latest with a handshake and sessions.
const PROTOCOL: &str = "2025-11-25";

struct Options {
    clients: usize,
    calls: usize,
    warmup: usize,
    stateless: bool,
    name: String,
    out: Option<PathBuf>,
    server: Vec<String>,
}

const USAGE: &str = "usage: http-load [--clients C] [--calls N] [--warmup W] [--stateless] \
                     [--name NAME] [--out FILE] -- SERVER [ARGS...]";

fn options() -> anyhow::Result<Options> {
    let mut options = Options {
        clients: 1,
        calls: 1000,
        warmup: 10,
        stateless: false,
        name: "server".to_owned(),
        out: None,
        server: vec![],
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--clients" => options.clients = value()?.parse()?,
            "--calls" => options.calls = value()?.parse()?,
            "--warmup" => options.warmup = value()?.parse()?,
            "--name" => options.name = value()?,
            "--out" => options.out = Some(value()?.into()),
            "--stateless" => options.stateless = true,
            "--" => {
                options.server = args.collect();
                if options.server.is_empty() || options.clients == 0 || options.calls == 0 {
                    bail!(USAGE);
                }
                return Ok(options);
            }
            other => bail!("unknown option `{other}`; {USAGE}"),
        }
    }
    bail!(USAGE)
}

/// A response, read whole.
struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Reply {
    /// The JSON-RPC message that answers request `id`, from a JSON body or from the
    /// events of an SSE body.
    fn answer(&self, id: u64) -> anyhow::Result<Value> {
        if self.status != StatusCode::OK {
            bail!("status {} to request {id}: {}", self.status, self.text());
        }
        let sse = self
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let messages = if sse {
            events(&self.text())?
        } else {
            vec![serde_json::from_slice(&self.body)?]
        };
        messages
            .into_iter()
            .find(|m| m.get("id").and_then(Value::as_u64) == Some(id))
            .with_context(|| format!("no answer to request {id} in {}", self.text()))
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// The JSON messages of an SSE body: each event's `data:` lines joined, events without
/// data (a priming event, a keep-alive) skipped.
fn events(text: &str) -> anyhow::Result<Vec<Value>> {
    let mut messages = vec![];
    for event in text.split("\n\n") {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(|data| data.strip_prefix(' ').unwrap_or(data))
            .collect();
        let data = data.join("\n");
        if !data.trim().is_empty() {
            messages.push(serde_json::from_str(&data)?);
        }
    }
    Ok(messages)
}

/// One MCP client on a connection of its own.
struct McpClient {
    http: Client<HttpConnector, Full<Bytes>>,
    url: Uri,
    session: Option<HeaderValue>,
    protocol: HeaderValue,
    next_id: u64,
    /// The first addend of this client's calls, apart from every other client's.
    base: i64,
}

impl McpClient {
    fn new(url: Uri, index: usize) -> Self {
        Self {
            http: Client::builder(TokioExecutor::new()).build_http(),
            url,
            session: None,
            protocol: HeaderValue::from_static(PROTOCOL),
            next_id: 1,
            base: index as i64 * 1_000_000_000,
        }
    }

    fn request(&self, method: Method, body: String, initialize: bool) -> Request<Full<Bytes>> {
        let mut request = Request::builder().method(method).uri(self.url.clone());
        let headers = request.headers_mut().expect("a valid request so far");
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(
            header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        if !initialize {
            headers.insert("mcp-protocol-version", self.protocol.clone());
        }
        if let Some(session) = &self.session {
            headers.insert("mcp-session-id", session.clone());
        }
        request
            .body(Full::new(Bytes::from(body)))
            .expect("a valid request")
    }

    async fn send(&self, request: Request<Full<Bytes>>) -> anyhow::Result<Reply> {
        let response = self.http.request(request).await?;
        let (parts, body) = response.into_parts();
        Ok(Reply {
            status: parts.status,
            headers: parts.headers,
            body: body.collect().await?.to_bytes(),
        })
    }

    /// The handshake: `initialize`, then `notifications/initialized` in the session.
    async fn initialize(&mut self) -> anyhow::Result<()> {
        let body = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": {"name": "http-load", "version": env!("CARGO_PKG_VERSION")},
            },
        });
        let reply = self
            .send(self.request(Method::POST, body.to_string(), true))
            .await?;
        let answer = reply.answer(0)?;
        let version = answer["result"]["protocolVersion"]
            .as_str()
            .with_context(|| format!("initialize failed: {answer}"))?;
        self.protocol = HeaderValue::from_str(version)?;
        self.session = Some(
            reply
                .headers
                .get("mcp-session-id")
                .context("no session id after initialize")?
                .clone(),
        );
        let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let reply = self
            .send(self.request(Method::POST, note.to_owned(), false))
            .await?;
        if reply.status != StatusCode::ACCEPTED {
            bail!(
                "notifications/initialized got {}: {}",
                reply.status,
                reply.text()
            );
        }
        Ok(())
    }

    /// One `tools/call add`, checked; its latency, request sent to response read.
    async fn call(&mut self) -> anyhow::Result<Duration> {
        let id = self.next_id;
        self.next_id += 1;
        let a = self.base + id as i64;
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":1}}}}}}"#
        );
        let request = self.request(Method::POST, body, false);
        let started = Instant::now();
        let reply = self.send(request).await?;
        let latency = started.elapsed();
        let answer = reply.answer(id)?;
        let result = &answer["result"];
        if result["isError"].as_bool() != Some(false)
            || result["structuredContent"]["result"].as_i64() != Some(a + 1)
        {
            bail!("wrong answer to request {id} ({a} + 1): {answer}");
        }
        Ok(latency)
    }

    /// Ends the session, if there is one.
    async fn close(&mut self) -> anyhow::Result<()> {
        if self.session.is_some() {
            let reply = self
                .send(self.request(Method::DELETE, String::new(), false))
                .await?;
            if !reply.status.is_success() {
                bail!("DELETE got {}: {}", reply.status, reply.text());
            }
        }
        Ok(())
    }
}

/// What one run measured.
struct Measured {
    /// Every recorded call's latency, sorted.
    latencies: Vec<Duration>,
    /// From the start of the recorded calls to the last reply.
    wall: Duration,
}

impl Measured {
    /// The `q` quantile by nearest rank.
    fn quantile(&self, q: f64) -> Duration {
        let rank = (q * self.latencies.len() as f64).ceil() as usize;
        self.latencies[rank.clamp(1, self.latencies.len()) - 1]
    }

    fn calls_per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.wall.as_secs_f64()
    }
}

async fn load(options: &Options, url: Uri) -> anyhow::Result<Measured> {
    let start = Arc::new(Barrier::new(options.clients + 1));
    let mut clients = vec![];
    for index in 0..options.clients {
        let (url, start) = (url.clone(), start.clone());
        let (stateless, warmup, calls) = (options.stateless, options.warmup, options.calls);
        clients.push(tokio::spawn(async move {
            let mut client = McpClient::new(url, index);
            let ready = async {
                if !stateless {
                    client.initialize().await?;
                }
                for _ in 0..warmup {
                    client.call().await?;
                }
                anyhow::Ok(())
            }
            .await;
            // Every client waits here, ready or not, so that none waits forever.
            start.wait().await;
            ready?;
            let mut latencies = Vec::with_capacity(calls);
            for _ in 0..calls {
                latencies.push(client.call().await?);
            }
            let finished = Instant::now();
            client.close().await?;
            anyhow::Ok((latencies, finished))
        }));
    }
    start.wait().await;
    let started = Instant::now();
    let mut latencies = Vec::with_capacity(options.clients * options.calls);
    let mut last = started;
    for client in clients {
        let (some, finished) = client.await??;
        latencies.extend(some);
        last = last.max(finished);
    }
    latencies.sort();
    Ok(Measured {
        latencies,
        wall: last - started,
    })
}

/// The server under load, started by this program.
struct Served {
    child: Child,
    url: Uri,
}

impl Served {
    fn start(command: &[String]) -> anyhow::Result<Self> {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting `{}`", command[0]))?;
        let mut line = String::new();
        let stdout = child.stdout.take().context("no stdout")?;
        BufReader::new(stdout).read_line(&mut line)?;
        let url = line
            .trim()
            .parse()
            .with_context(|| format!("the server printed `{}`, not its endpoint", line.trim()));
        match url {
            Ok(url) => Ok(Self { child, url }),
            Err(error) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(error)
            }
        }
    }

    /// Closes the server's stdin and waits for it to end, ten seconds at most.
    fn stop(mut self) -> anyhow::Result<()> {
        drop(self.child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait()? {
                if !status.success() {
                    bail!("the server exited with {status}");
                }
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        bail!("the server did not end within 10 s of its stdin closing")
    }
}

fn run(options: &Options) -> anyhow::Result<()> {
    let served = Served::start(&options.server)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let measured = runtime.block_on(load(options, served.url.clone()));
    drop(runtime);
    let stopped = served.stop();
    let measured = measured?;
    stopped?;

    let mode = if options.stateless {
        "stateless"
    } else {
        "stateful"
    };
    let (p50, p99) = (measured.quantile(0.50), measured.quantile(0.99));
    println!(
        "{} {mode}, {} client(s): {:.0} calls/s, p50 {:.3} ms, p99 {:.3} ms ({} calls in {:.3} s)",
        options.name,
        options.clients,
        measured.calls_per_second(),
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        measured.latencies.len(),
        measured.wall.as_secs_f64(),
    );
    if let Some(out) = &options.out {
        let summary = json!({
            "name": options.name,
            "mode": mode,
            "clients": options.clients,
            "calls": measured.latencies.len(),
            "seconds": measured.wall.as_secs_f64(),
            "calls_per_second": measured.calls_per_second(),
            "p50": p50.as_secs_f64(),
            "p99": p99.as_secs_f64(),
        });
        std::fs::write(out, format!("{summary:#}\n"))
            .with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    match options().and_then(|options| run(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("http-load: {error:#}");
            ExitCode::FAILURE
        }
    }
}
