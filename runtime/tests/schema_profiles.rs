//! Every schema the runtime generates, shown under every schema profile and checked
//! against that profile's rules (`mcp_tool_tests::profile_rules`): the examples' tools
//! and a set of hard types. The fixture servers' tools are checked by their own crates
//! (`tests/conformance`, `tests/file-search`), where they are defined.
//!
//! The example `http_scoped` is left out: its tools ask for a state whose type is
//! private to it, which no other server can give.

use std::collections::{BTreeMap, HashMap};

use mcp_tool::model::SchemaProfile;
use mcp_tool::testing::TestClient;
use mcp_tool::{Server, ServerError, ToolServer, mcp_tool};
use mcp_tool_tests::profile_check::check_every_profile;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[path = "../examples/asking.rs"]
#[allow(dead_code)]
mod asking;
#[path = "../examples/getting_started.rs"]
#[allow(dead_code)]
mod getting_started;
#[path = "../examples/runtime_tools.rs"]
#[allow(dead_code)]
mod runtime_tools;
#[cfg(feature = "redis")]
#[path = "../examples/tasks_redis.rs"]
#[allow(dead_code)]
mod tasks_redis;

/// The hard types: every shape of serde and schemars that reshaping may trip over.
mod hard {
    use super::*;

    /// A shape, an enum whose variants carry data.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Shape {
        /// A circle.
        Circle {
            /// Its radius.
            radius: f64,
        },
        /// A square by its side.
        Square(f64),
        /// A point.
        Point,
    }

    /// An event, internally tagged.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub(crate) enum Event {
        /// A click at a place.
        Click { x: i32, y: i32 },
        /// A key pressed.
        Key { code: String },
    }

    /// An id, either a number or a name.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub(crate) enum Id {
        Number(u64),
        Name(String),
    }

    /// A tree of names.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub(crate) struct Node {
        /// Its name.
        pub(crate) name: String,
        /// Its children.
        pub(crate) children: Vec<Node>,
    }

    /// What every page has.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub(crate) struct Base {
        /// The page's number, from 1.
        pub(crate) page: u32,
        /// Its size.
        pub(crate) size: Option<u8>,
    }

    /// A page, with `Base` flattened into it.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub(crate) struct Page {
        #[serde(flatten)]
        pub(crate) base: Base,
        /// A filter.
        pub(crate) filter: Option<String>,
        /// How deep to go.
        #[serde(default = "two")]
        pub(crate) depth: u8,
    }

    fn two() -> u8 {
        2
    }

    /// Nested options, within a struct.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub(crate) struct Maybe {
        pub(crate) inner: Option<Option<String>>,
        pub(crate) list: Option<Vec<Option<u8>>>,
    }

    /// Takes an enum with data, an internally tagged one and an untagged one.
    #[mcp_tool]
    fn enums(shape: Shape, event: Event, id: Id, kinds: Option<Vec<Shape>>) -> String {
        format!("{shape:?} {event:?} {id:?} {kinds:?}")
    }

    /// Takes nested options.
    #[mcp_tool]
    fn options(maybe: Maybe, twice: Option<Option<u16>>) -> Option<Maybe> {
        let _ = twice;
        Some(maybe)
    }

    /// Takes a tree, and returns one.
    #[mcp_tool]
    fn tree(root: Node) -> Node {
        root
    }

    /// Takes maps, and returns one.
    #[mcp_tool]
    fn maps(
        counts: HashMap<String, u32>,
        groups: Option<BTreeMap<String, Vec<String>>>,
    ) -> BTreeMap<String, u32> {
        let _ = groups;
        counts.into_iter().collect()
    }

    /// Takes a page with a flattened part, and any JSON value.
    #[mcp_tool]
    fn flattened(page: Page, extra: Option<Value>) -> Page {
        let _ = extra;
        page
    }

    /// Takes constrained arguments: a range, a length, a pattern, a default.
    #[mcp_tool]
    fn constrained(
        /// How many.
        #[arg(range(min = 1, max = 100), default = 10)]
        limit: u32,
        /// A name.
        #[arg(length(min = 1, max = 20), pattern = "^[a-z]+$")]
        name: String,
        /// Ratio.
        ratio: Option<f32>,
    ) -> Vec<String> {
        vec![name; limit.min(3) as usize + usize::from(ratio.is_some())]
    }

    /// Returns an enum with data.
    #[mcp_tool]
    fn shape() -> Shape {
        Shape::Point
    }

    /// Takes and returns named types, kept under `$defs` by the full 2020-12 dialect.
    #[mcp_tool(schema = "2020-12")]
    fn documented(page: Page, shape: Option<Shape>, event: Event) -> Page {
        let _ = (shape, event);
        page
    }
}

/// A server of the tools defined in module `module` (a path under this test's crate),
/// without those `left_out`, under `profile`.
fn server_of(
    module: &'static str,
    profile: SchemaProfile,
    left_out: &[String],
) -> Result<ToolServer, ServerError> {
    let left_out = left_out.to_vec();
    Server::from_registry("profiles", "1.0.0")
        .retain_tools(move |entry| {
            entry.module_path().ends_with(module) && !left_out.iter().any(|n| n == entry.name())
        })
        .schema_profile(profile)
        .profiles_by_client(false)
        .build()
}

#[tokio::test]
async fn every_schema_generated_holds_the_rules_of_every_profile() {
    let mut modules = vec!["::asking", "::getting_started", "::runtime_tools", "::hard"];
    if cfg!(feature = "redis") {
        modules.push("::tasks_redis");
    }
    let mut pairs = 0;
    let mut refused = Vec::new();
    for module in modules {
        let checked =
            check_every_profile(&|profile, left_out| server_of(module, profile, left_out)).await;
        pairs += checked.pairs;
        refused.extend(checked.refused);
    }
    println!("(tool × profile) pairs checked: {pairs}");
    // Each example and hard tool, under 4 profiles.
    let tools = 1 + 1 + 1 + 8 + usize::from(cfg!(feature = "redis"));
    assert_eq!(pairs, tools * 4);
    // The tree is refused where it cannot be inlined, by its type's name.
    let mut refusals: Vec<(String, SchemaProfile)> = refused
        .iter()
        .map(|(tool, profile, _)| (tool.clone(), *profile))
        .collect();
    refusals.sort_by_key(|(tool, profile)| (tool.clone(), profile.name()));
    assert_eq!(
        refusals,
        [
            ("tree".to_owned(), SchemaProfile::Gemini),
            ("tree".to_owned(), SchemaProfile::Inline)
        ]
    );
    assert!(
        refused
            .iter()
            .all(|(_, _, why)| why.contains("`Node` refers to itself"))
    );
}

/// The tools `server` lists to a client that names itself `client`, over a session of
/// JSON lines.
async fn listed_to(server: ToolServer, client: &str) -> Vec<Value> {
    listed_with(server, client, json!({})).await
}

/// The tools `server` lists to a client that names itself `client` when the session
/// begins, asked with the request's `_meta` `meta`.
async fn listed_with(server: ToolServer, client: &str, meta: Value) -> Vec<Value> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (client_io, server_io) = tokio::io::duplex(256 * 1024);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.serve_lines(read, write));
    let (client_read, mut client_write) = tokio::io::split(client_io);
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": client, "version": "1.0.0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}),
    ];
    for message in messages {
        let line = format!("{message}\n");
        client_write.write_all(line.as_bytes()).await.unwrap();
    }
    let mut lines = BufReader::new(client_read).lines();
    loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server answers");
        let reply: Value = serde_json::from_str(&line).unwrap();
        if reply["id"] == 2 {
            return reply["result"]["tools"].as_array().cloned().unwrap();
        }
    }
}

fn hard_server(profile: SchemaProfile, by_client: bool) -> ToolServer {
    Server::from_registry("profiles", "1.0.0")
        .retain_tools(|entry| entry.module_path().ends_with("::hard") && entry.name() != "tree")
        .schema_profile(profile)
        .profiles_by_client(by_client)
        .build()
        .unwrap()
}

fn tool<'a>(tools: &'a [Value], name: &str) -> &'a Value {
    tools.iter().find(|t| t["name"] == name).unwrap()
}

#[tokio::test]
async fn a_client_known_to_need_a_profile_is_shown_its_own() {
    use mcp_tool_tests::profile_rules::breaches;

    let strict = hard_server(SchemaProfile::Strict, true);
    let claude = listed_to(strict.clone(), "claude-code").await;
    let gemini = listed_to(strict.clone(), "gemini-cli-mcp-client").await;
    let copilot = listed_to(strict, "copilot-cli").await;
    let constrained = |tools: &[Value]| tool(tools, "constrained")["inputSchema"].clone();
    assert_eq!(constrained(&claude)["additionalProperties"], false);
    assert_eq!(constrained(&gemini).get("additionalProperties"), None);
    for listed in &gemini {
        assert_eq!(breaches("gemini", listed), Vec::<String>::new());
    }
    for listed in &copilot {
        assert_eq!(breaches("inline", listed), Vec::<String>::new());
    }
    // An unknown client gets the server's profile; without matching, every client does.
    let openai = hard_server(SchemaProfile::OpenAiStrict, true);
    let unknown = listed_to(openai.clone(), "some-agent").await;
    assert_eq!(
        constrained(&unknown)["required"],
        json!(["limit", "name", "ratio"])
    );
    let gemini = listed_to(openai, "gemini-cli-mcp-client").await;
    assert_eq!(constrained(&gemini).get("additionalProperties"), None);
    let fixed = listed_to(
        hard_server(SchemaProfile::Strict, false),
        "gemini-cli-mcp-client",
    )
    .await;
    assert_eq!(constrained(&fixed)["additionalProperties"], false);
}

#[tokio::test]
async fn a_constraint_left_out_of_the_shown_schema_is_still_enforced() {
    let calls = [
        // `additionalProperties: false`, which gemini leaves out.
        json!({"name": "abc", "surplus": 1}),
        // `maxLength`, which openai-strict leaves out.
        json!({"name": "abcdefghijklmnopqrstuvwxyz"}),
        // `pattern` and `minimum` kept, for comparison.
        json!({"name": "ABC", "limit": 0}),
    ];
    let strict = TestClient::connect(hard_server(SchemaProfile::Strict, false))
        .await
        .unwrap();
    for profile in [
        SchemaProfile::Gemini,
        SchemaProfile::OpenAiStrict,
        SchemaProfile::Inline,
    ] {
        let shown = TestClient::connect(hard_server(profile, false))
            .await
            .unwrap();
        for arguments in &calls {
            let today = strict.call("constrained", arguments.clone()).await.unwrap();
            let served = shown.call("constrained", arguments.clone()).await.unwrap();
            assert!(today.is_error, "{arguments}");
            assert_eq!(served.is_error, today.is_error, "{profile}: {arguments}");
            assert_eq!(served.text(), today.text(), "{profile}: {arguments}");
        }
        let fine = shown
            .call("constrained", json!({"name": "abc", "ratio": null}))
            .await
            .unwrap();
        assert!(!fine.is_error, "{profile}: {}", fine.text());
    }
}

#[test]
fn a_server_whose_profile_cannot_show_a_recursive_type_is_refused_by_its_name() {
    let error = Server::from_registry("profiles", "1.0.0")
        .only(["tree"])
        .schema_profile(SchemaProfile::Inline)
        .build()
        .unwrap_err();
    let message = error.to_string();
    assert!(message.contains("`tree`"), "{message}");
    assert!(message.contains("`Node` refers to itself"), "{message}");
    assert!(message.contains("strict or openai-strict"), "{message}");
}
