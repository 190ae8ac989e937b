//! Every tool, prompt and resource of the crate is registered, and answers through a
//! server as its attribute says.

use mcp_tool::Server;
use mcp_tool::testing::TestClient;
use mcp_tool_clippy_pedantic::{Notebook, SearchReport};
use serde_json::json;

fn server() -> mcp_tool::ToolServer {
    Server::from_registry("notes", "1.0.0")
        .state(Notebook::with_notes([
            ("groceries", "eggs and milk"),
            ("ideas", "a notebook that lints"),
        ]))
        .build()
        .expect("the server builds")
}

#[test]
fn every_tool_prompt_and_resource_is_registered() {
    let server = server();
    let mut tools: Vec<String> = server.tools().iter().map(|t| t.name.clone()).collect();
    tools.sort();
    assert_eq!(
        tools,
        [
            "archive",
            "calibrate",
            "clear",
            "count",
            "greet",
            "list_notes",
            "note_blocks",
            "read-note",
            "search",
            "trace",
            "word_count",
            "write_note",
        ]
    );
    let mut prompts: Vec<&str> = server.prompts().iter().map(|p| p.name.as_str()).collect();
    prompts.sort_unstable();
    assert_eq!(prompts, ["suggest-title", "summarize"]);
    let fixed = server.resources().iter().map(|r| r.uri.as_str());
    let templates = (server.resource_templates().iter()).map(|r| r.uri_template.as_str());
    let mut uris: Vec<&str> = fixed.chain(templates).collect();
    uris.sort_unstable();
    assert_eq!(
        uris,
        [
            "attachments://{+path}",
            "notes://index",
            "notes://sizes",
            "notes://{title}"
        ]
    );
}

#[tokio::test]
async fn tools_prompts_and_resources_answer() {
    let client = TestClient::connect(server())
        .await
        .expect("the client connects");
    let report: SearchReport = client
        .call_as("search", json!({ "word": "milk" }))
        .await
        .expect("the search succeeds");
    assert_eq!(
        report,
        SearchReport {
            titles: vec!["groceries".to_owned()],
            searched: 2,
        }
    );
    let greeting = client
        .call("greet", json!({ "name": "Ada" }))
        .await
        .expect("the call is answered");
    assert_eq!(greeting.text(), "Hello, Ada");
    let refused = client
        .call("write_note", json!({ "title": "Not A Title", "text": "x" }))
        .await
        .expect("the call is answered");
    assert!(refused.is_error, "a title off its pattern is refused");

    let prompt = client
        .get_prompt("summarize", json!({ "title": "ideas", "sentences": "2" }))
        .await
        .expect("the prompt renders");
    assert_eq!(prompt.messages.len(), 2);
    let completion = client
        .complete_prompt_argument("summarize", "title", "gr")
        .await
        .expect("the completion is answered");
    assert_eq!(completion.values, ["groceries"]);

    let note = client
        .read_resource("notes://groceries")
        .await
        .expect("the note is read");
    assert_eq!(note[0].as_text(), Some("eggs and milk"));
    let attachment = client
        .read_resource("attachments://a/b.txt")
        .await
        .expect("the attachment is read");
    assert_eq!(attachment[0].bytes(), Some(b"a/b.txt".to_vec()));
}
