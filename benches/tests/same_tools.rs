//! The three styles serve the same tools with the same wire output, so that the
//! benchmarks compare like with like.

use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use mcp_tool_benches::session::Session;
use mcp_tool_benches::{descriptions, ours};
use rmcp::ServerHandler;
use rmcp::model::CallToolResult;

struct Seen {
    tools: Vec<(String, Option<String>, bool)>,
    add: CallToolResult,
    summarize: CallToolResult,
}

async fn observe<S: ServerHandler>(server: S) -> Seen {
    let session = Session::connect(server).await.expect("connects");
    let mut tools: Vec<_> = session
        .list()
        .await
        .expect("lists")
        .tools
        .into_iter()
        .map(|t| {
            (
                t.name.to_string(),
                t.description.map(|d| d.to_string()),
                t.output_schema.is_some(),
            )
        })
        .collect();
    tools.sort();
    let add = session.call("add", add_arguments(2, 3)).await.expect("add");
    let summarize = session
        .call("summarize", summarize_arguments())
        .await
        .expect("summarize");
    session.close().await;
    Seen {
        tools,
        add,
        summarize,
    }
}

#[tokio::test(flavor = "current_thread")]
async fn every_style_lists_and_answers_alike() {
    let reference = observe(ours::server().expect("builds")).await;
    assert_eq!(
        reference.tools,
        vec![
            ("add".into(), Some(descriptions::ADD.into()), true),
            (
                "summarize".into(),
                Some(descriptions::SUMMARIZE.into()),
                true
            ),
        ]
    );
    assert_eq!(
        reference.add.structured_content,
        Some(serde_json::json!({ "result": 5 }))
    );
    let summary = reference
        .summarize
        .structured_content
        .clone()
        .expect("structured");
    assert_eq!(summary["sections"], 4);
    for other in [
        observe(RmcpDefault).await,
        observe(RmcpStored::new()).await,
        observe(HandServer::new()).await,
    ] {
        assert_eq!(other.tools, reference.tools);
        assert_eq!(other.add, reference.add);
        assert_eq!(other.summarize, reference.summarize);
    }
}
