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
    let expected = |first: u32, second: u32| {
        format!(
            "two resources are at `config://settings`: one defined at {file}:{first}, the other at \
             {file}:{second}; change the URI of one"
        )
    };
    // Either definition may be met first.
    assert!(
        message == expected(6, 14) || message == expected(14, 6),
        "{message}"
    );
}
