//! `Server::mount`: a server's tools, prompts and resources served in another under a
//! namespace, on stdio, on HTTP with sessions and on stateless HTTP, through both servers'
//! pipelines; the mounts `build` refuses are in `mount_conflicts.rs`.

#![cfg(feature = "http")]

mod common;

use std::pin::Pin;
use std::sync::{Arc, Mutex};

use mcp_tool::middleware::{self, Next, Request, Response};
use mcp_tool::{Arguments, Context, RuntimeTool, Server, State, ToolError, mcp_tool};
use serde_json::json;

use common::transport::Transport;

mod notes;

use notes::{Greeting, fixed, notes};

/// Greets a person by name, with the server's greeting.
#[mcp_tool]
fn greet(greeting: State<Greeting>, name: String) -> String {
    format!("{}, {name}", greeting.0)
}

/// Says which tool the call reached, by the name its server knows it by.
#[mcp_tool]
fn whoami(ctx: Context) -> String {
    ctx.tool_name().to_owned()
}

/// Fails, always.
#[mcp_tool]
fn broken() -> Result<String, ToolError> {
    Err(ToolError::new("the disk is full"))
}

/// The targets a layer saw, in order.
type Seen = Arc<Mutex<Vec<String>>>;

/// A layer's answer, boxed.
type Answering = Pin<Box<dyn Future<Output = Response> + Send>>;

/// A layer that writes down the target of every call of a tool, get of a prompt and read
/// of a resource into `seen`.
fn recording(
    seen: &Seen,
) -> middleware::FromFnLayer<impl Fn(Request, Next) -> Answering + Clone + Send + Sync + 'static> {
    let seen = Arc::clone(seen);
    middleware::from_fn(move |request: Request, next: Next| {
        let seen = Arc::clone(&seen);
        Box::pin(async move {
            if ["tools/call", "prompts/get", "resources/read"].contains(&request.method()) {
                let target = request.target().unwrap_or("-").to_owned();
                seen.lock().unwrap().push(target);
            }
            next.run(request).await
        }) as Answering
    })
}

/// The server mounted as `files`: two attribute tools with its own state, and its own layer.
fn files(seen: &Seen) -> mcp_tool::ToolServer {
    Server::from_registry("files", "1")
        .only(["greet", "whoami", "broken"])
        .state(Greeting("Hello"))
        .layer(recording(seen))
        .build()
        .unwrap()
}

/// A gateway with a tool of its own, `files` mounted, and its own layer.
fn gateway(parent: &Seen, child: &Seen) -> Server {
    Server::new("gateway", "1")
        .tool(fixed("ping", "pong"))
        .mount("files", files(child))
        .layer(recording(parent))
}

#[tokio::test]
async fn mounted_tools_are_listed_and_called_under_the_namespace_on_every_transport() {
    for (transport, mut client) in
        Transport::all(|| gateway(&Seen::default(), &Seen::default())).await
    {
        let listed = client.request(1, "tools/list", json!({})).await;
        let mut names: Vec<&str> = (listed["result"]["tools"].as_array().unwrap().iter())
            .map(|tool| tool["name"].as_str().unwrap())
            .collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["files_broken", "files_greet", "files_whoami", "ping"],
            "{transport}"
        );
        let greeted = client.call(2, "files_greet", json!({"name": "Ada"})).await;
        assert_eq!(
            greeted["result"]["content"][0]["text"], "Hello, Ada",
            "{transport}: {greeted}"
        );
        let own = client.call(3, "files_whoami", json!({})).await;
        assert_eq!(
            own["result"]["content"][0]["text"], "whoami",
            "{transport}: {own}"
        );
        let local = client.call(4, "ping", json!({})).await;
        assert_eq!(
            local["result"]["content"][0]["text"], "pong",
            "{transport}: {local}"
        );
    }
}

#[tokio::test]
async fn a_mounted_tools_failure_names_it_as_the_client_called_it() {
    for (transport, mut client) in
        Transport::all(|| gateway(&Seen::default(), &Seen::default())).await
    {
        let failed = client.call(1, "files_broken", json!({})).await;
        assert_eq!(failed["result"]["isError"], true, "{transport}: {failed}");
        assert_eq!(
            failed["result"]["content"][0]["text"], "tool `files_broken` failed: the disk is full",
            "{transport}"
        );
        let invalid = client.call(2, "files_greet", json!({})).await;
        let text = invalid["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("invalid arguments for tool `files_greet`"),
            "{transport}: {text}"
        );
    }
}

#[tokio::test]
async fn an_unknown_namespaced_name_is_answered_as_an_unknown_tool() {
    for (transport, mut client) in
        Transport::all(|| gateway(&Seen::default(), &Seen::default())).await
    {
        let unknown = client.call(1, "files_gret", json!({"name": "Ada"})).await;
        assert_eq!(unknown["error"]["code"], -32602, "{transport}: {unknown}");
        let message = unknown["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("unknown tool `files_gret`"),
            "{transport}: {message}"
        );
        assert_eq!(
            unknown["error"]["data"]["suggestions"][0], "files_greet",
            "{transport}"
        );
    }
}

#[tokio::test]
async fn the_parents_layers_see_the_namespaced_call_and_the_mounted_servers_its_own() {
    for transport in ["stdio", "HTTP session", "stateless HTTP"] {
        let (parent, child) = (Seen::default(), Seen::default());
        let mut client = Transport::one(transport, gateway(&parent, &child)).await;
        client.call(1, "files_greet", json!({"name": "Ada"})).await;
        client.call(2, "ping", json!({})).await;
        assert_eq!(
            *parent.lock().unwrap(),
            ["files_greet", "ping"],
            "{transport}"
        );
        // The mounted server's layer sees its own tools' calls, by their own names.
        assert_eq!(*child.lock().unwrap(), ["greet"], "{transport}");
    }
}

#[tokio::test]
async fn a_mounted_tool_is_called_outside_any_session_too() {
    let server = gateway(&Seen::default(), &Seen::default()).build().unwrap();
    let arguments = json!({"name": "Ada"}).as_object().unwrap().clone();
    let result = server.call("files_greet", arguments).await.unwrap();
    assert_eq!(result.text(), "Hello, Ada");
    let failed = server
        .call("files_broken", serde_json::Map::new())
        .await
        .unwrap();
    assert_eq!(
        failed.text(),
        "tool `files_broken` failed: the disk is full"
    );
}

#[tokio::test]
async fn mounted_prompts_and_resources_are_served_with_their_servers_state_on_every_transport() {
    let make = || Server::new("gateway", "1").mount("notes", notes("Hello"));
    for (transport, mut client) in Transport::all(make).await {
        let prompts = client.request(1, "prompts/list", json!({})).await;
        assert_eq!(
            prompts["result"]["prompts"][0]["name"], "notes_welcome",
            "{transport}: {prompts}"
        );
        let params = json!({"name": "notes_welcome", "arguments": {"name": "Ada"}});
        let got = client.request(2, "prompts/get", params).await;
        let text = &got["result"]["messages"][0]["content"]["text"];
        assert_eq!(text, "Say Hello to Ada", "{transport}: {got}");
        let invalid = client
            .request(3, "prompts/get", json!({"name": "notes_welcome"}))
            .await;
        let message = invalid["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("prompt `notes_welcome`"),
            "{transport}: {invalid}"
        );
        let unknown = client
            .request(4, "prompts/get", json!({"name": "welcome"}))
            .await;
        assert_eq!(unknown["error"]["code"], -32602, "{transport}: {unknown}");

        let resources = client.request(5, "resources/list", json!({})).await;
        assert_eq!(
            resources["result"]["resources"][0]["uri"], "config://greeting",
            "{transport}"
        );
        let templates = client
            .request(6, "resources/templates/list", json!({}))
            .await;
        let template = &templates["result"]["resourceTemplates"][0]["uriTemplate"];
        assert_eq!(template, "notes://{name}", "{transport}: {templates}");
        let read = client
            .request(7, "resources/read", json!({"uri": "config://greeting"}))
            .await;
        assert_eq!(
            read["result"]["contents"][0]["text"], "Hello",
            "{transport}: {read}"
        );
        let read = client
            .request(8, "resources/read", json!({"uri": "notes://todo"}))
            .await;
        assert_eq!(
            read["result"]["contents"][0]["text"], "Hello: the note todo",
            "{transport}"
        );
    }
}

#[tokio::test]
async fn the_mounted_servers_layers_see_its_prompts_and_resources_by_their_own_names() {
    for transport in ["stdio", "HTTP session", "stateless HTTP"] {
        let (parent, child) = (Seen::default(), Seen::default());
        let no_tools: [&str; 0] = [];
        let notes = (Server::from_registry("notes", "1").only(no_tools))
            .state(Greeting("Hello"))
            .layer(recording(&child))
            .build()
            .unwrap();
        let gateway = (Server::new("gateway", "1").mount("notes", notes)).layer(recording(&parent));
        let mut client = Transport::one(transport, gateway).await;
        let params = json!({"name": "notes_welcome", "arguments": {"name": "Ada"}});
        let got = client.request(1, "prompts/get", params).await;
        assert_eq!(
            got["result"]["messages"][0]["content"]["text"], "Say Hello to Ada",
            "{transport}"
        );
        let read = client
            .request(2, "resources/read", json!({"uri": "notes://todo"}))
            .await;
        assert_eq!(
            read["result"]["contents"][0]["text"], "Hello: the note todo",
            "{transport}"
        );
        assert_eq!(
            *parent.lock().unwrap(),
            ["notes_welcome", "notes://todo"],
            "{transport}"
        );
        assert_eq!(
            *child.lock().unwrap(),
            ["welcome", "notes://todo"],
            "{transport}"
        );
    }
}

#[cfg(feature = "auth")]
#[tokio::test]
async fn a_mounted_tools_scopes_are_checked_by_the_server_it_is_mounted_into() {
    use common::authorized::{call, list_tools, setup};

    let purge = fixed("purge", "purged").scopes(["cache:admin"]);
    let admin = Server::new("admin", "1").tool(purge).build().unwrap();
    let setup = setup(|server| server.state(Greeting("Hi")).mount("admin", admin)).await;
    let url = setup.server.url();
    let weak = setup.token("");
    let reply = call(&url, Some(&weak), "admin_purge", json!({})).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.challenge.unwrap().contains("scope=\"cache:admin\""));
    assert!(
        !list_tools(&url, &weak)
            .await
            .contains(&"admin_purge".to_owned())
    );

    let strong = setup.token("cache:admin");
    let reply = call(&url, Some(&strong), "admin_purge", json!({})).await;
    assert_eq!(reply.json()["result"]["content"][0]["text"], "purged");
    assert!(
        list_tools(&url, &strong)
            .await
            .contains(&"admin_purge".to_owned())
    );
    setup.server.stop().await;
}

#[tokio::test]
async fn a_tool_added_to_or_removed_from_a_mounted_server_changes_the_list_it_is_mounted_into() {
    use std::time::Duration;

    use mcp_tool::testing::TestClient;

    let files = Server::new("files", "1")
        .tool(fixed("search", "found"))
        .build()
        .unwrap();
    let gateway = Server::new("gateway", "1")
        .tool(fixed("files_find", "the gateway's own"))
        .mount("files", files.clone())
        .build()
        .unwrap();
    let client = TestClient::connect(gateway.clone()).await.unwrap();
    let names = async || -> Vec<String> {
        let mut names: Vec<String> = client
            .list()
            .await
            .unwrap()
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        names.sort_unstable();
        names
    };
    assert_eq!(names().await, ["files_find", "files_search"]);

    files.add_tool(fixed("count", "3")).unwrap();
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert_eq!(names().await, ["files_count", "files_find", "files_search"]);
    assert_eq!(
        client.call("files_count", json!({})).await.unwrap().text(),
        "3"
    );

    assert!(files.remove_tool("search"));
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert_eq!(names().await, ["files_count", "files_find"]);
    assert!(client.call("files_search", json!({})).await.is_err());

    // A tool whose namespaced name the gateway has already is left out: the gateway's stays.
    files.add_tool(fixed("find", "the mounted one")).unwrap();
    assert_eq!(names().await, ["files_count", "files_find"]);
    let own = client.call("files_find", json!({})).await.unwrap();
    assert_eq!(own.text(), "the gateway's own");
}

#[tokio::test]
async fn a_server_mounted_into_a_mounted_server_is_served_under_both_namespaces() {
    use std::time::Duration;

    use mcp_tool::testing::TestClient;

    let inner = Server::new("inner", "1")
        .tool(fixed("x", "deep"))
        .build()
        .unwrap();
    let middle = Server::new("middle", "1")
        .mount("b", inner.clone())
        .build()
        .unwrap();
    let top = Server::new("top", "1").mount("a", middle).build().unwrap();
    let client = TestClient::connect(top).await.unwrap();
    assert_eq!(client.list().await.unwrap()[0].name, "a_b_x");
    assert_eq!(
        client.call("a_b_x", json!({})).await.unwrap().text(),
        "deep"
    );
    let invalid = client.call("a_b_x", json!({"extra": 1})).await.unwrap();
    assert!(
        invalid
            .text()
            .starts_with("invalid arguments for tool `a_b_x`"),
        "{}",
        invalid.text()
    );

    inner.add_tool(fixed("y", "deeper")).unwrap();
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert_eq!(
        client.call("a_b_y", json!({})).await.unwrap().text(),
        "deeper"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_mounted_calls_span_names_the_tool_as_called_and_its_servers_span_its_own_name() {
    use tracing_subscriber::fmt::format::FmtSpan;

    let log = common::log::Captured::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(mcp_tool::logging::masked(move || writer.clone()))
        .with_ansi(false)
        .with_span_events(FmtSpan::CLOSE)
        .with_env_filter(tracing_subscriber::EnvFilter::new("mcp_tool::request=info"))
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let mut client = Transport::one("stdio", gateway(&Seen::default(), &Seen::default())).await;
    client.call(1, "files_greet", json!({"name": "Ada"})).await;
    let text = log.text();
    let closed: Vec<&str> = (text.lines())
        .filter(|line| line.contains(r#"mcp.method.name="tools/call""#))
        .collect();
    // The mounted server's span closes first, inside the one of the request.
    assert_eq!(closed.len(), 2, "{text}");
    let (inner, outer) = (closed[0], closed[1]);
    assert!(
        outer.contains(r#"gen_ai.tool.name="files_greet""#),
        "{outer}"
    );
    assert!(!outer.contains(r#"gen_ai.tool.name="greet""#), "{outer}");
    assert!(inner.contains(r#"gen_ai.tool.name="greet""#), "{inner}");
}

#[tokio::test]
async fn the_call_limit_of_the_server_holds_its_mounted_servers_calls_too() {
    use std::time::{Duration, Instant};

    use mcp_tool::testing::TestClient;

    let nap = RuntimeTool::new("nap", "Sleeps 200 ms.").handler(|args: Arguments| async move {
        args.finish()?;
        tokio::time::sleep(Duration::from_millis(200)).await;
        Ok::<_, ToolError>("rested")
    });
    let naps = Server::new("naps", "1").tool(nap).build().unwrap();
    let gateway = Server::new("gateway", "1")
        .mount("naps", naps)
        .max_concurrent_calls(1);
    let client = TestClient::connect(gateway.build().unwrap()).await.unwrap();
    let started = Instant::now();
    let (one, two) = tokio::join!(
        client.call("naps_nap", json!({})),
        client.call("naps_nap", json!({}))
    );
    assert_eq!(
        (one.unwrap().text(), two.unwrap().text()),
        ("rested".into(), "rested".into())
    );
    // One at a time: the second waited for the first.
    assert!(
        started.elapsed() >= Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
}
