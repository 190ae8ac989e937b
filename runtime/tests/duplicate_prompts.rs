//! Two prompts with one name stop the server at start-up, naming both definitions.

mod first {
    /// Asks for a review.
    #[mcp_tool::mcp_prompt]
    fn review() -> &'static str {
        "Review this."
    }
}

mod second {
    /// Asks for another review.
    #[mcp_tool::mcp_prompt(name = "review")]
    fn other_review() -> &'static str {
        "Review that."
    }
}

#[test]
fn duplicate_prompt_names_are_rejected_with_both_locations() {
    let error = mcp_tool::Server::from_registry("dup", "1")
        .build()
        .unwrap_err();
    let message = error.to_string();
    let file = "runtime/tests/duplicate_prompts.rs";
    let expected = |first: u32, second: u32| {
        format!(
            "two prompts are named `review`: one defined at {file}:{first}, the other at \
             {file}:{second}; rename one with `#[mcp_prompt(name = \"...\")]`"
        )
    };
    // Either definition may be met first.
    assert!(
        message == expected(6, 14) || message == expected(14, 6),
        "{message}"
    );
}
