//! A program without tools fails at start-up with a hint about `link!`.

#[test]
fn an_empty_registry_is_an_error_with_a_hint() {
    assert!(mcp_tool::registered().is_empty());
    let error = mcp_tool::Server::from_registry("empty", "1")
        .build()
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with("the server has no tools: "),
        "{message}"
    );
    assert!(
        message.contains("mcp_tool::link!(that_crate);"),
        "{message}"
    );
}

#[test]
fn an_empty_explicit_list_is_an_error_too() {
    let error = mcp_tool::Server::from_tools("empty", "1", [])
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server has no tools: the list of tools given to the server is empty"
    );
}
