//! A program without tools fails at start-up with a hint about `link!`.

#[test]
fn an_empty_registry_is_an_error_with_a_hint() {
    assert!(mcp_tool::registered().is_empty());
    let error = mcp_tool::Server::from_registry("empty", "1")
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server has no tools: no function carries `#[mcp_tool]`, or the crate that \
         defines the tools is never referenced; add `mcp_tool::link!(that_crate);` to the \
         binary"
    );
}

#[test]
fn a_server_made_with_new_and_given_no_tool_is_an_error_too() {
    let error = mcp_tool::Server::new("empty", "1").build().unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server has no tools: `Server::new` serves only the tools that `.tool(..)` adds, \
         and none was added"
    );
}
