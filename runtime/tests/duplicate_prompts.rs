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
    assert!(
        message.starts_with("two prompts are named `review`: one defined at "),
        "{message}"
    );
    assert!(message.contains(&format!("{file}:6")), "{message}");
    assert!(message.contains(&format!("{file}:14")), "{message}");
    assert!(
        message.ends_with("rename one with `#[mcp_prompt(name = \"...\")]`"),
        "{message}"
    );
}
