//! Two resources at one URI stop the server at start-up, naming both definitions.

mod first {
    /// The settings.
    #[mcp_tool::mcp_resource(uri = "config://settings")]
    fn settings() -> &'static str {
        "a = 1"
    }
}

mod second {
    /// The other settings.
    #[mcp_tool::mcp_resource(uri = "config://settings")]
    fn other_settings() -> &'static str {
        "a = 2"
    }
}

#[test]
fn duplicate_resource_uris_are_rejected_with_both_locations() {
    let error = mcp_tool::Server::from_registry("dup", "1")
        .build()
        .unwrap_err();
    let message = error.to_string();
    let file = "runtime/tests/duplicate_resources.rs";
    assert!(
        message.starts_with("two resources are at `config://settings`: one defined at "),
        "{message}"
    );
    assert!(message.contains(&format!("{file}:6")), "{message}");
    assert!(message.contains(&format!("{file}:14")), "{message}");
    assert!(message.ends_with("change the URI of one"), "{message}");
}
