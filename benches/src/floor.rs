//! The floor of a stdio call: a minimal correct MCP server written as one loop, with no
//! framework and no runtime. It reads a line, decodes the request with serde_json into
//! typed structs, calls `add` or `summarize`, encodes the reply and writes and flushes
//! it. It answers `initialize`, ignores notifications, and answers anything else with
//! `method not found`: enough for `load-client`, and what any framework adds to.

use std::fmt;
use std::io::{BufRead, Write};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::payload::{self, AddArgs, SummarizeArgs};

/// A request's id, as sent.
#[derive(Deserialize, Serialize)]
#[serde(untagged)]
enum Id {
    Number(i64),
    Text(String),
}

/// A message read, decoded in one pass: `params` is read as the `method` before it says.
struct Incoming {
    id: Option<Id>,
    method: String,
    call: Option<Call>,
}

/// The call `tools/call` asks for, its arguments read as the `name` before them says.
enum Call {
    Add(AddArgs),
    Summarize(SummarizeArgs),
    Unknown,
}

impl<'de> Deserialize<'de> for Incoming {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(MessageVisitor)
    }
}

struct MessageVisitor;

impl<'de> Visitor<'de> for MessageVisitor {
    type Value = Incoming;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Incoming, A::Error> {
        let mut message = Incoming {
            id: None,
            method: String::new(),
            call: None,
        };
        while let Some(key) = map.next_key::<&str>()? {
            match key {
                "id" => message.id = Some(map.next_value()?),
                "method" => message.method = map.next_value()?,
                "params" if message.method == "tools/call" => {
                    message.call = Some(map.next_value_seed(CallSeed)?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(message)
    }
}

struct CallSeed;

impl<'de> DeserializeSeed<'de> for CallSeed {
    type Value = Call;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Call, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for CallSeed {
    type Value = Call;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the parameters of tools/call")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Call, A::Error> {
        let mut name = String::new();
        let mut call = None;
        while let Some(key) = map.next_key::<&str>()? {
            match key {
                "name" => name = map.next_value()?,
                "arguments" => {
                    call = Some(match name.as_str() {
                        "add" => Call::Add(map.next_value()?),
                        "summarize" => Call::Summarize(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            Call::Unknown
                        }
                    });
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        call.ok_or_else(|| de::Error::custom("tools/call without its name before its arguments"))
    }
}

/// A reply with a result.
#[derive(Serialize)]
struct Reply<'a, R> {
    jsonrpc: &'static str,
    id: &'a Id,
    result: R,
}

/// A tool's result: its value as text and as structured content.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult<S> {
    content: [Text; 1],
    structured_content: S,
    is_error: bool,
}

#[derive(Serialize)]
struct Text {
    r#type: &'static str,
    text: String,
}

/// `add`'s structured result.
#[derive(Serialize)]
struct Sum {
    result: i64,
}

/// An error reply.
#[derive(Serialize)]
struct Failed<'a> {
    jsonrpc: &'static str,
    id: &'a Id,
    error: Error,
}

#[derive(Serialize)]
struct Error {
    code: i32,
    message: &'static str,
}

/// What `initialize` is answered with.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Initialized {
    protocol_version: &'static str,
    capabilities: Capabilities,
    server_info: Info,
}

#[derive(Serialize)]
struct Capabilities {
    tools: Empty,
}

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
struct Info {
    name: &'static str,
    version: &'static str,
}

/// Serves stdin and stdout until the input ends.
pub fn serve() -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = stdout.lock();
    let mut line = String::new();
    let mut reply = Vec::with_capacity(512);
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let message: Incoming = serde_json::from_str(&line)?;
        let Some(id) = &message.id else {
            continue;
        };
        reply.clear();
        answer(message.method.as_str(), message.call, id, &mut reply)?;
        reply.push(b'\n');
        output.write_all(&reply)?;
        output.flush()?;
    }
}

/// Writes the reply to the request `id` into `reply`.
fn answer(method: &str, call: Option<Call>, id: &Id, reply: &mut Vec<u8>) -> anyhow::Result<()> {
    match (method, call) {
        ("initialize", _) => {
            let result = Initialized {
                protocol_version: "2025-11-25",
                capabilities: Capabilities { tools: Empty {} },
                server_info: Info {
                    name: "floor",
                    version: "0.1.0",
                },
            };
            write(reply, id, result)
        }
        ("tools/call", Some(Call::Add(args))) => {
            let result = args.a.wrapping_add(args.b);
            write(reply, id, tool_result(Sum { result })?)
        }
        ("tools/call", Some(Call::Summarize(args))) => {
            write(reply, id, tool_result(payload::summarize(&args.report))?)
        }
        _ => fail(reply, id),
    }
}

/// A tool's result for `value`: its JSON as the text, and as structured content.
fn tool_result<S: Serialize>(value: S) -> anyhow::Result<CallResult<S>> {
    let text = serde_json::to_string(&value)?;
    Ok(CallResult {
        content: [Text {
            r#type: "text",
            text,
        }],
        structured_content: value,
        is_error: false,
    })
}

fn write<R: Serialize>(reply: &mut Vec<u8>, id: &Id, result: R) -> anyhow::Result<()> {
    let message = Reply {
        jsonrpc: "2.0",
        id,
        result,
    };
    serde_json::to_writer(reply, &message)?;
    Ok(())
}

fn fail(reply: &mut Vec<u8>, id: &Id) -> anyhow::Result<()> {
    let message = Failed {
        jsonrpc: "2.0",
        id,
        error: Error {
            code: -32601,
            message: "Method not found",
        },
    };
    serde_json::to_writer(reply, &message)?;
    Ok(())
}
