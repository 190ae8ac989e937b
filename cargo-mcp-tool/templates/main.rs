use mcp_tool::{Server, ServerError, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// How many lines and words a text has.
#[derive(Serialize, JsonSchema)]
struct Counts {
    /// The number of lines.
    lines: usize,
    /// The number of words.
    words: usize,
}

/// Counts the lines and the words of a text, stopping after `max_lines` lines if given.
#[mcp_tool(read_only)]
fn count_words(
    /// The text to count.
    text: String,
    /// Stop after this many lines. Defaults to no limit.
    #[arg(range(min = 1, max = 1_000_000))]
    max_lines: Option<usize>,
) -> Result<Counts, ToolError> {
    if text.is_empty() {
        return Err(ToolError::new(
            "the text is empty: send at least one character",
        ));
    }
    let lines: Vec<&str> = text.lines().take(max_lines.unwrap_or(usize::MAX)).collect();
    let words = lines
        .iter()
        .map(|line| line.split_whitespace().count())
        .sum();
    Ok(Counts {
        lines: lines.len(),
        words,
    })
}

fn main() -> Result<(), ServerError> {
    Server::from_registry("hello-mcp", env!("CARGO_PKG_VERSION")).run_stdio()
}

#[cfg(test)]
mod tests {
    use mcp_tool::testing::TestClient;
    use serde_json::json;

    #[tokio::test]
    async fn count_words_counts_lines_and_words() {
        let client = TestClient::from_registry().await.unwrap();
        let counts: serde_json::Value =
            client.call_as("count_words", json!({ "text": "one two\nthree" })).await.unwrap();
        assert_eq!(counts, json!({ "lines": 2, "words": 3 }));
    }

    #[tokio::test]
    async fn count_words_refuses_an_empty_text() {
        let client = TestClient::from_registry().await.unwrap();
        let result = client.call("count_words", json!({ "text": "" })).await.unwrap();
        assert!(result.is_error);
        assert!(result.text().contains("the text is empty"), "{}", result.text());
    }
}
