//! The envelope means what `rmcp`'s decoding means: for every message of the corpus
//! (`runtime/tests/wire-messages.jsonl`), for edge cases made here and for messages
//! generated and mutated at random, `decode` and `rmcp`'s decoding with this module's
//! checks give the same message (same JSON, same `_meta` in the same place) or the same
//! reply, byte for byte.

use proptest::prelude::*;
use rmcp::model::{
    ClientJsonRpcMessage, GetExtensions, JsonRpcMessage, NotificationMetaObject, RequestMetaObject,
};

use super::{BOM, Inbound, decode, decode_generic, envelope};

const CORPUS: &[u8] = include_bytes!("../../../tests/wire-messages.jsonl");

fn corpus() -> Vec<&'static [u8]> {
    CORPUS
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.is_empty() && !line.starts_with(b"#"))
        .collect()
}

/// Everything a decoded message says, in a form to compare: its JSON, its `Debug` (which
/// names the variants and shows a `_meta` left in `params`) and the `_meta` its
/// extensions hold.
fn meaning(inbound: &Inbound) -> String {
    match inbound {
        Inbound::Message(message) => format!(
            "message {}\n{message:?}\n{}",
            serde_json::to_string(message).unwrap_or_else(|error| error.to_string()),
            extension_meta(message)
        ),
        Inbound::Ignored => "ignored".to_owned(),
        Inbound::Rejected(reply) => format!("rejected {}", String::from_utf8_lossy(reply)),
    }
}

fn extension_meta(message: &ClientJsonRpcMessage) -> String {
    match message {
        JsonRpcMessage::Request(request) => {
            format!(
                "{:?}",
                request.request.extensions().get::<RequestMetaObject>()
            )
        }
        JsonRpcMessage::Notification(notification) => format!(
            "{:?}",
            notification
                .notification
                .extensions()
                .get::<NotificationMetaObject>()
        ),
        _ => String::new(),
    }
}

/// Whether the envelope read `bytes` itself, after checking that it means what `rmcp`
/// means.
fn agrees(bytes: &[u8]) -> Result<bool, String> {
    let stripped = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let ours = meaning(&decode(bytes));
    let theirs = meaning(&decode_generic(stripped));
    if ours != theirs {
        return Err(format!(
            "{}\n  envelope: {ours}\n  rmcp:     {theirs}",
            String::from_utf8_lossy(bytes)
        ));
    }
    Ok(envelope::read(stripped).is_some())
}

#[test]
fn every_message_of_the_corpus_means_the_same() {
    let corpus = corpus();
    assert_eq!(corpus.len(), 201, "the corpus's size, as the docs state it");
    let mut read = 0;
    let mut failures = Vec::new();
    for line in corpus {
        match agrees(line) {
            Ok(true) => read += 1,
            Ok(false) => {}
            Err(failure) => failures.push(failure),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most of the corpus is what a session sends most; the rest is rmcp's to read.
    assert!(read >= 60, "the envelope read only {read} messages");
}

#[test]
fn the_messages_a_session_sends_most_are_read_by_the_envelope() {
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#,
        r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"_meta":{"progressToken":1},"name":"add"}}"#,
        r#"{"method":"tools/call","params":{"name":"add"},"jsonrpc":"2.0","id":3}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"c"}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"r"}}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"p","arguments":{"a":"b"}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///a"}}"#,
    ] {
        assert_eq!(agrees(line.as_bytes()), Ok(true), "{line}");
    }
}

#[test]
fn what_the_envelope_leaves_is_read_by_rmcp_alone() {
    for line in [
        // `params` before `method`, an unknown key, a key twice, another method, a response.
        r#"{"jsonrpc":"2.0","id":1,"params":{"name":"add"},"method":"tools/call"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"x":1}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"add"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        // What rmcp refuses or reads otherwise.
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["add"]}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","x":1e400}}"#,
        r#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"add"}}"#,
    ] {
        assert_eq!(agrees(line.as_bytes()), Ok(false), "{line}");
    }
}

#[test]
fn bytes_that_are_not_text_and_nesting_at_the_limit_mean_the_same() {
    let call = |arguments: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add","arguments":{arguments}}}}}"#
        )
    };
    let mut lines: Vec<Vec<u8>> = vec![
        [BOM, call("{}").as_bytes()].concat(),
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\"}}".to_vec(),
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"x\":\"\xc3\"}}".to_vec(),
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\x01\"}}".to_vec(),
        call(&format!(r#"{{"text":"{}"}}"#, "x".repeat(1024))).into_bytes(),
    ];
    for depth in 124..=130 {
        let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        lines.push(call(&format!(r#"{{"a":{nested}}}"#)).into_bytes());
        let unknown = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add","x":{nested}}}}}"#
        );
        lines.push(unknown.into_bytes());
    }
    for line in lines {
        agrees(&line).unwrap();
    }
}

/// Raw JSON values for the fields of generated messages: the ones a client sends, and
/// the ones at the edges.
fn pick(values: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(values).prop_map(str::to_owned)
}

fn field(key: &'static str, values: &'static [&'static str]) -> BoxedStrategy<String> {
    pick(values)
        .prop_map(move |value| format!(r#""{key}":{value}"#))
        .boxed()
}

fn object(fields: Vec<BoxedStrategy<String>>) -> impl Strategy<Value = String> {
    prop::sample::subsequence(fields.clone(), 0..=fields.len())
        .prop_flat_map(|chosen| chosen)
        .prop_shuffle()
        .prop_map(|fields| format!("{{{}}}", fields.join(",")))
}

const META: &[&str] = &[
    r#"{"progressToken":1}"#,
    r#"{"progressToken":"t","io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#,
    "{}",
    "null",
    "5",
    "[]",
];
const ANY: &[&str] = &[
    "1",
    "-1",
    "1.5",
    "1e400",
    "1e-400",
    "null",
    "true",
    r#""s""#,
    r#""\ud800""#,
    r#""\ud83d\ude00""#,
    r#""\u00e9""#,
    "[]",
    "{}",
    r#"{"a":[1,{"b":null}]}"#,
];

fn params() -> impl Strategy<Value = String> {
    let fields = vec![
        field("_meta", META),
        field("_meta", META),
        field("name", &[r#""add""#, r#""\u0061dd""#, "5", "null"]),
        field(
            "arguments",
            &[
                r#"{"a":1,"b":2}"#,
                r#"{"a":1,"a":"x"}"#,
                "{}",
                "null",
                "[1]",
                r#""a""#,
            ],
        ),
        field("cursor", &[r#""c""#, "5", "null"]),
        field("uri", &[r#""file:///a""#, "1"]),
        field("requestId", &["1", r#""r""#, "1.0", "null", "{}"]),
        field("reason", &[r#""why""#, "5"]),
        field(
            "protocolVersion",
            &[r#""2025-11-25""#, r#""2026-07-28""#, "5"],
        ),
        field(
            "capabilities",
            &["{}", r#"{"roots":{"listChanged":true},"x":1}"#, "[]"],
        ),
        field(
            "clientInfo",
            &[r#"{"name":"c","version":"1"}"#, r#"{"name":"c"}"#, "[]"],
        ),
        field("inputResponses", &[r#"{"q":{"action":"accept"}}"#, "[]"]),
        field("requestState", &[r#""s""#, "1"]),
        field("extra", ANY),
    ];
    prop_oneof![
        6 => object(fields),
        1 => pick(&["null", "[]", r#"["add"]"#, "5", r#""x""#]),
    ]
}

fn message() -> impl Strategy<Value = String> {
    let fields = vec![
        field(
            "jsonrpc",
            &[r#""2.0""#, r#""2.0""#, r#""1.0""#, "2.0", r#""2.\u0030""#],
        ),
        field(
            "id",
            &[
                "1",
                "-5",
                r#""a""#,
                r#""""#,
                "9223372036854775807",
                "9223372036854775808",
                "1.0",
                "1.5",
                "null",
                "true",
                "[]",
            ],
        ),
        field("id", &["2"]),
        field(
            "method",
            &[
                r#""tools/call""#,
                r#""tools/list""#,
                r#""initialize""#,
                r#""ping""#,
                r#""prompts/get""#,
                r#""prompts/list""#,
                r#""resources/read""#,
                r#""resources/list""#,
                r#""resources/templates/list""#,
                r#""notifications/initialized""#,
                r#""notifications/cancelled""#,
                r#""notifications/progress""#,
                r#""tasks/get""#,
                r#""tools\/call""#,
                r#""x/y""#,
                "7",
            ],
        ),
        params()
            .prop_map(|params| format!(r#""params":{params}"#))
            .boxed(),
        field("extra", ANY),
        field("result", &["{}"]),
    ];
    // Mostly the four fields of a message, in any order; sometimes others.
    let usual = (
        fields[0].clone(),
        fields[1].clone(),
        fields[3].clone(),
        fields[4].clone(),
    )
        .prop_map(|(a, b, c, d)| vec![a, b, c, d])
        .prop_shuffle()
        .prop_map(|fields| format!("{{{}}}", fields.join(",")));
    prop_oneof![3 => usual, 2 => object(fields)]
}

/// A message of the corpus with a few bytes changed, left out or repeated.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let edit = (any::<prop::sample::Index>(), 0..4u8, any::<u8>(), 0..8usize);
    (
        prop::sample::select(corpus()),
        prop::collection::vec(edit, 1..4),
    )
        .prop_map(|(line, edits)| {
            let mut bytes = line.to_vec();
            for (at, kind, byte, len) in edits {
                let at = at.index(bytes.len() + 1);
                let end = (at + len).min(bytes.len());
                match kind {
                    0 => bytes.insert(at, byte),
                    1 => drop(bytes.drain(at..end)),
                    2 => {
                        let repeated = bytes[at..end].to_vec();
                        bytes.splice(at..at, repeated);
                    }
                    _ => {
                        let token: &[u8] = [b"\"", b"{", b"}", b"[", b",", b":", b"0", b"\\"]
                            [usize::from(byte) % 8];
                        bytes.splice(at..at, token.iter().copied());
                    }
                }
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn generated_messages_mean_the_same(message in message()) {
        prop_assert_eq!(agrees(message.as_bytes()).map(|_| ()), Ok(()));
    }

    #[test]
    fn mutated_messages_mean_the_same(bytes in mutated()) {
        prop_assert_eq!(agrees(&bytes).map(|_| ()), Ok(()));
    }
}
