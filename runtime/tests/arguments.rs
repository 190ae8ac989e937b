//! Argument errors: tool execution errors (`isError: true`) that list every fault at
//! once, each with its path and what was expected, and never echo what was sent.

use mcp_tool::testing::TestClient;
use mcp_tool::{ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Color {
    Red,
    Green,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Filter {
    /// Smallest size in bytes.
    min_size: u32,
    tags: Vec<String>,
}

/// Paints the files matching a filter in one color and returns how many were painted.
#[mcp_tool]
fn paint(
    /// Directory to paint.
    path: String,
    /// The color.
    color: Color,
    /// How many files at most.
    #[arg(range(min = 1, max = 100))]
    limit: Option<u32>,
    /// Which files.
    filter: Option<Filter>,
    /// A label.
    #[arg(length(min = 2, max = 5), pattern = "^[a-z]+$")]
    label: Option<String>,
    /// A ratio.
    #[arg(range(min = 0.0, max = 1.0), default = 0.5)]
    ratio: f64,
) -> Result<String, ToolError> {
    Ok(format!(
        "{path} {color:?} {limit:?} {filter:?} {label:?} {ratio}"
    ))
}

async fn fail(args: Value) -> String {
    let client = TestClient::from_registry().await.unwrap();
    let result = client.call("paint", args).await.unwrap();
    assert!(result.is_error, "expected a tool error: {result:?}");
    assert!(result.structured.is_none());
    result.text()
}

const PREFIX: &str = "invalid arguments for tool `paint`: ";

#[tokio::test]
async fn valid_arguments_reach_the_function() {
    let client = TestClient::from_registry().await.unwrap();
    let painted = client
        .call(
            "paint",
            json!({ "path": "src", "color": "red", "limit": 7, "label": "abc",
                    "filter": { "min_size": 1, "tags": ["x"] }, "ratio": 0.25 }),
        )
        .await
        .unwrap();
    assert!(!painted.is_error, "{}", painted.text());
    assert_eq!(
        painted.text(),
        r#"src Red Some(7) Some(Filter { min_size: 1, tags: ["x"] }) Some("abc") 0.25"#
    );
}

#[tokio::test]
async fn an_integral_float_is_an_integer_as_json_schema_says() {
    let client = TestClient::from_registry().await.unwrap();
    let painted = client
        .call(
            "paint",
            json!({ "path": "src", "color": "red", "limit": 7.0,
                    "filter": { "min_size": 1e3, "tags": [] } }),
        )
        .await
        .unwrap();
    assert!(!painted.is_error, "{}", painted.text());
    assert_eq!(
        painted.text(),
        "src Red Some(7) Some(Filter { min_size: 1000, tags: [] }) None 0.5"
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "limit": 7.5 })).await,
        format!("{PREFIX}`limit`: expected an integer from 1 to 100")
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "limit": 500.0 })).await,
        format!("{PREFIX}`limit`: expected an integer from 1 to 100")
    );
}

#[tokio::test]
async fn a_missing_argument_is_named() {
    assert_eq!(
        fail(json!({ "color": "red" })).await,
        format!("{PREFIX}missing argument `path`")
    );
}

#[tokio::test]
async fn null_counts_as_missing() {
    assert_eq!(
        fail(json!({ "path": null, "color": "red" })).await,
        format!("{PREFIX}missing argument `path`")
    );
}

#[tokio::test]
async fn a_wrong_type_says_what_was_expected() {
    assert_eq!(
        fail(json!({ "path": 42, "color": "red" })).await,
        format!("{PREFIX}`path`: expected a string")
    );
}

#[tokio::test]
async fn an_unknown_enum_value_lists_the_values() {
    assert_eq!(
        fail(json!({ "path": "a", "color": "mauve" })).await,
        format!("{PREFIX}`color`: expected one of `red`, `green`")
    );
}

#[tokio::test]
async fn out_of_range_numbers_state_the_range() {
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "limit": 500 })).await,
        format!("{PREFIX}`limit`: expected an integer from 1 to 100")
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "limit": -3 })).await,
        format!("{PREFIX}`limit`: expected an integer from 1 to 100")
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "ratio": 1.5 })).await,
        format!("{PREFIX}`ratio`: expected a number from 0.0 to 1.0")
    );
}

#[tokio::test]
async fn length_and_pattern_are_enforced() {
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "label": "abcdefgh" })).await,
        format!("{PREFIX}`label`: expected a string of 2 to 5 characters matching `^[a-z]+$`")
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "label": "AB" })).await,
        format!("{PREFIX}`label`: expected a string of 2 to 5 characters matching `^[a-z]+$`")
    );
    // Too long and not matching: one fault, which names both constraints.
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "label": "AB-CDEFG" })).await,
        format!("{PREFIX}`label`: expected a string of 2 to 5 characters matching `^[a-z]+$`")
    );
}

#[tokio::test]
async fn nested_faults_carry_their_path() {
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "filter": { "min_size": "big", "tags": [] } }))
            .await,
        format!("{PREFIX}`filter.min_size`: expected an integer from 0 to 4294967295")
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "filter": { "min_size": 1, "tags": [1] } }))
            .await,
        format!("{PREFIX}`filter.tags[0]`: expected a string")
    );
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "filter": { "tags": [] } })).await,
        format!("{PREFIX}missing argument `filter.min_size`")
    );
    assert_eq!(
        fail(
            json!({ "path": "a", "color": "red", "filter": { "min_size": 1, "tags": [], "x": 1 } })
        )
        .await,
        format!("{PREFIX}unknown argument `filter.x`")
    );
}

#[tokio::test]
async fn unknown_arguments_get_a_suggestion() {
    assert_eq!(
        fail(json!({ "path": "a", "color": "red", "limt": 3, "zzz": 1 })).await,
        format!("{PREFIX}unknown argument `limt` (did you mean `limit`?); unknown argument `zzz`")
    );
}

#[tokio::test]
async fn every_fault_is_listed_at_once_in_parameter_order() {
    assert_eq!(
        fail(json!({ "colour": "red", "limit": 0, "label": 7, "ratio": "half" })).await,
        format!(
            "{PREFIX}missing argument `path`; missing argument `color`; \
             `limit`: expected an integer from 1 to 100; \
             `label`: expected a string of 2 to 5 characters matching `^[a-z]+$`; \
             `ratio`: expected a number from 0.0 to 1.0; \
             unknown argument `colour` (did you mean `color`?)"
        )
    );
}

#[tokio::test]
async fn the_value_sent_is_never_echoed() {
    let secret = "hunter2-Sup3rS3cret";
    let replies = [
        (
            fail(json!({ "path": ["x", secret], "color": "red" })).await,
            "`path`: expected a string",
        ),
        (
            fail(json!({ "path": "a", "color": secret })).await,
            "`color`: expected one of `red`, `green`",
        ),
        (
            fail(json!({ "path": "a", "color": "red", "limit": secret })).await,
            "`limit`: expected an integer from 1 to 100",
        ),
        (
            // Breaks the length alone: one constraint, one fault.
            fail(json!({ "path": "a", "color": "red", "label": "hunterzsupersecret" })).await,
            "`label`: expected a string of 2 to 5 characters matching `^[a-z]+$`",
        ),
        (
            fail(json!({ "path": "a", "color": "red", "filter": { "min_size": secret, "tags": [] } }))
                .await,
            "`filter.min_size`: expected an integer from 0 to 4294967295",
        ),
        (
            fail(json!({ "path": "a", "color": "red", "filter": { "min_size": 1, "tags": [{ "k": secret }] } }))
                .await,
            "`filter.tags[0]`: expected a string",
        ),
    ];
    for (reply, fault) in replies {
        assert_eq!(reply, format!("{PREFIX}{fault}"));
        assert!(!reply.contains("Sup3r"), "the value leaked: {reply}");
        assert!(!reply.contains("supersecret"), "the value leaked: {reply}");
    }
}

#[tokio::test]
async fn the_session_goes_on_after_an_argument_error() {
    let client = TestClient::from_registry().await.unwrap();
    let bad = client.call("paint", json!({})).await.unwrap();
    assert!(bad.is_error);
    assert_eq!(
        bad.text(),
        format!("{PREFIX}missing argument `path`; missing argument `color`")
    );
    let good = client
        .call("paint", json!({ "path": "a", "color": "green" }))
        .await
        .unwrap();
    assert!(!good.is_error, "{}", good.text());
    // `ratio` was not sent: the function gets its default.
    assert_eq!(good.text(), "a Green None None None 0.5");
}
