//! Two tools with one name stop the server at start-up, naming both definitions.

mod first {
    /// Returns the first answer.
    #[mcp_tool::mcp_tool]
    fn answer() -> u8 {
        1
    }
}

mod second {
    /// Returns the second answer.
    #[mcp_tool::mcp_tool(name = "answer")]
    fn other_answer() -> u8 {
        2
    }
}

#[test]
fn duplicate_names_are_rejected_with_both_locations() {
    let error = mcp_tool::Server::from_registry("dup", "1")
        .build()
        .unwrap_err();
    let message = error.to_string();
    let file = "runtime/tests/duplicate_names.rs";
    let expected = |first: u32, second: u32| {
        format!(
            "two tools are named `answer`: one defined at {file}:{first}, the other at \
             {file}:{second}; rename one with `#[mcp_tool(name = \"...\")]`"
        )
    };
    // Either definition may be met first.
    assert!(
        message == expected(6, 14) || message == expected(14, 6),
        "{message}"
    );
}

#[test]
fn filtering_both_out_leaves_a_server_without_them() {
    let error = mcp_tool::Server::from_registry("dup", "1")
        .only(["answr"])
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "no registered tool is named `answr` (did you mean `answer`?)"
    );
}
