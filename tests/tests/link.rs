//! `link!` keeps the tools of a crate the binary never references.

mcp_tool::link!(linked_tools);

#[tokio::test]
async fn tools_of_a_linked_crate_are_served() {
    let names: Vec<&str> = mcp_tool::registered().iter().map(|e| e.name()).collect();
    assert_eq!(names, ["reverse"]);
    let client = mcp_tool::testing::TestClient::from_registry()
        .await
        .unwrap();
    let result = client
        .call("reverse", serde_json::json!({ "text": "abc" }))
        .await
        .unwrap();
    assert_eq!(result.text(), "cba");
}
