//! Starts a stdio MCP server and makes sequential `tools/call` requests, one at a time:
//! write a request line, read the reply line, check it, repeat. Plain newline-delimited
//! JSON over the child's pipes, so the client costs the same whichever server it drives.
//! `compare.sh` times it with the server (hyperfine) and counts the instructions of both
//! (callgrind, `--trace-children=yes`).
//!
//! ```text
//! load-client [--calls N] [--tool add|summarize] -- SERVER [ARGS...]
//! ```

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, bail};
use serde_json::Value;

struct Options {
    calls: u64,
    tool: String,
    server: Vec<String>,
}

fn options() -> anyhow::Result<Options> {
    let mut calls = 10_000;
    let mut tool = "add".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--calls" => calls = args.next().context("--calls needs a number")?.parse()?,
            "--tool" => tool = args.next().context("--tool needs a name")?,
            "--" => {
                let server: Vec<String> = args.collect();
                if server.is_empty() {
                    bail!("no server command after `--`");
                }
                return Ok(Options {
                    calls,
                    tool,
                    server,
                });
            }
            other => bail!("unknown option `{other}`"),
        }
    }
    bail!("usage: load-client [--calls N] [--tool add|summarize] -- SERVER [ARGS...]")
}

fn request(tool: &str, id: u64, summarize_args: &str) -> String {
    match tool {
        "add" => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{id},"b":1}}}}}}"#
        ),
        _ => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"summarize","arguments":{summarize_args}}}}}"#
        ),
    }
}

fn check(tool: &str, id: u64, reply: &Value) -> anyhow::Result<()> {
    if reply.get("id").and_then(Value::as_u64) != Some(id) {
        bail!("reply to request {id} has another id: {reply}");
    }
    let result = reply.get("result").context("reply without a result")?;
    if result.get("isError").and_then(Value::as_bool) != Some(false) {
        bail!("the tool failed: {reply}");
    }
    let structured = result
        .get("structuredContent")
        .context("no structured content")?;
    let good = match tool {
        "add" => structured.get("result").and_then(Value::as_u64) == Some(id + 1),
        _ => structured.get("sections").and_then(Value::as_u64) == Some(4),
    };
    if !good {
        bail!("wrong answer to request {id}: {structured}");
    }
    Ok(())
}

fn run(options: &Options) -> anyhow::Result<()> {
    let mut child = Command::new(&options.server[0])
        .args(&options.server[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting `{}`", options.server[0]))?;
    let mut input = BufWriter::new(child.stdin.take().context("no stdin")?);
    let mut output = BufReader::new(child.stdout.take().context("no stdout")?);
    let mut line = String::new();

    let mut send = |text: &str| -> anyhow::Result<()> {
        input.write_all(text.as_bytes())?;
        input.write_all(b"\n")?;
        input.flush()?;
        Ok(())
    };
    let mut receive = |line: &mut String| -> anyhow::Result<Value> {
        loop {
            line.clear();
            if output.read_line(line)? == 0 {
                bail!("the server closed its output");
            }
            let message: Value = serde_json::from_str(line)?;
            // Notifications carry no id; only replies count.
            if message.get("id").is_some() {
                return Ok(message);
            }
        }
    };

    send(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load-client","version":"0.1.0"}}}"#,
    )?;
    let reply = receive(&mut line)?;
    if reply.get("result").is_none() {
        bail!("initialize failed: {reply}");
    }
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;

    let summarize_args =
        Value::Object(mcp_tool_benches::payload::summarize_arguments()).to_string();
    for id in 1..=options.calls {
        send(&request(&options.tool, id, &summarize_args))?;
        let reply = receive(&mut line)?;
        check(&options.tool, id, &reply)?;
    }
    drop(input);
    let status = child.wait()?;
    if !status.success() {
        bail!("the server exited with {status}");
    }
    Ok(())
}

fn main() -> ExitCode {
    match options().and_then(|options| run(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("load-client: {error:#}");
            ExitCode::FAILURE
        }
    }
}
