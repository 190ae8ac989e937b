//! `#[mcp_prompt]`: prompts listed with their arguments, rendered with arguments read as
//! their types want, completion of arguments; and each failure a JSON-RPC error that says
//! what is wrong: a bad or missing argument, an unknown prompt (with the closest name),
//! a prompt's own error, a panic (masked).

use mcp_tool::model::{Content, PromptMessage, PromptResult, ResourceContents, Role};
use mcp_tool::testing::{TestClient, TestError};
use mcp_tool::{CallError, Context, Server, State, ToolError, mcp_prompt, mcp_tool};
use serde_json::json;

/// Asks for a summary of a text in a given number of sentences.
#[mcp_prompt(title = "Summarise")]
fn summarise(
    /// The text to summarise.
    text: String,
    /// How many sentences. Defaults to 3.
    #[arg(range(min = 1, max = 10), complete = sentence_counts)]
    sentences: Option<u32>,
) -> String {
    format!("Summarise in {} sentences:\n{text}", sentences.unwrap_or(3))
}

fn sentence_counts(typed: &str) -> Vec<String> {
    (1..=10)
        .map(|n| n.to_string())
        .filter(|n| n.starts_with(typed))
        .collect()
}

/// Offers a thousand suggestions, more than one reply may carry.
#[mcp_prompt]
fn many(
    /// Anything.
    #[arg(complete = thousand)]
    word: String,
) -> String {
    word
}

fn thousand(_: &str) -> Vec<String> {
    (0..1000).map(|n| format!("word{n}")).collect()
}

/// Shows an image and a document to the model.
#[mcp_prompt]
async fn show(
    /// The URI of the document.
    uri: String,
) -> PromptResult {
    PromptResult::new([
        PromptMessage::user(Content::image([0x89, b'P', b'N', b'G'], "image/png")),
        PromptMessage::user(Content::resource(
            ResourceContents::text(uri, "the document").with_mime_type("text/plain"),
        )),
        PromptMessage::assistant("I see an image and a document."),
    ])
    .with_description("an image and a document")
}

/// Fails for the model to read.
#[mcp_prompt]
fn refuse(
    /// Why.
    reason: String,
) -> Result<String, ToolError> {
    Err(ToolError::new(format!("cannot help: {reason}")))
}

/// Panics with a secret in its message.
#[mcp_prompt]
fn explode() -> String {
    panic!("token=sk-live-1234567890abcdef failed at /home/alice/secrets/key.pem")
}

/// The greeting the server was given.
struct Greeting(&'static str);

/// Greets in the server's words, and logs that it did.
#[mcp_prompt]
async fn greet(ctx: Context, greeting: State<Greeting>, name: String) -> String {
    ctx.info(format!("greeting {name}")).await;
    format!("{}, {name}!", greeting.0)
}

/// A tool beside the prompts.
#[mcp_tool]
fn noop() {}

async fn client() -> TestClient {
    let server = Server::from_registry("prompts", "1.0.0")
        .state(Greeting("Hello"))
        .build()
        .unwrap();
    TestClient::connect(server).await.unwrap()
}

fn protocol_error(error: TestError) -> (i32, String) {
    match error {
        TestError::Call(CallError::Protocol { code, message, .. }) => (code, message),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn prompts_are_listed_with_their_arguments() {
    let client = client().await;
    let prompts = client.prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["explode", "greet", "many", "refuse", "show", "summarise"]
    );
    let summarise = prompts.iter().find(|p| p.name == "summarise").unwrap();
    assert_eq!(summarise.title.as_deref(), Some("Summarise"));
    assert_eq!(
        summarise.description.as_deref(),
        Some("Asks for a summary of a text in a given number of sentences.")
    );
    let arguments: Vec<(&str, bool, Option<&str>)> = (summarise.arguments.iter())
        .map(|a| (a.name.as_str(), a.required, a.description.as_deref()))
        .collect();
    assert_eq!(
        arguments,
        [
            ("text", true, Some("The text to summarise.")),
            (
                "sentences",
                false,
                Some("How many sentences. Defaults to 3.")
            ),
        ]
    );
    // `Context` and `State<T>` are no arguments.
    let greet = prompts.iter().find(|p| p.name == "greet").unwrap();
    assert_eq!(greet.arguments.len(), 1);
    assert_eq!(greet.arguments[0].name, "name");
}

#[tokio::test]
async fn a_prompt_renders_with_its_arguments_read_as_their_types() {
    let client = client().await;
    let result = (client.get_prompt(
        "summarise",
        json!({ "text": "A long story.", "sentences": "2" }),
    ))
    .await
    .unwrap();
    assert_eq!(result.messages.len(), 1);
    assert_eq!(result.messages[0].role, Role::User);
    assert_eq!(
        result.messages[0].content,
        Content::text("Summarise in 2 sentences:\nA long story.")
    );
    let default = client
        .get_prompt("summarise", json!({ "text": "x" }))
        .await
        .unwrap();
    assert_eq!(
        default.messages[0].content,
        Content::text("Summarise in 3 sentences:\nx")
    );
}

#[tokio::test]
async fn a_prompt_may_give_images_embedded_resources_and_a_description() {
    let client = client().await;
    let result = client
        .get_prompt("show", json!({ "uri": "test://doc" }))
        .await
        .unwrap();
    assert_eq!(
        result.description.as_deref(),
        Some("an image and a document")
    );
    let roles: Vec<Role> = result.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::User, Role::Assistant]);
    assert_eq!(
        result.messages[0].content,
        Content::image([0x89, b'P', b'N', b'G'], "image/png")
    );
    let Content::Resource(resource) = &result.messages[1].content else {
        panic!("expected an embedded resource: {:?}", result.messages[1]);
    };
    assert_eq!(resource.contents.uri(), "test://doc");
    assert_eq!(resource.contents.as_text(), Some("the document"));
}

#[tokio::test]
async fn every_bad_argument_is_named_in_one_invalid_params_error() {
    let client = client().await;
    let error = (client.get_prompt("summarise", json!({ "sentences": "eleven", "extra": "x" })))
        .await
        .unwrap_err();
    let (code, message) = protocol_error(error);
    assert_eq!(code, -32602);
    // Every fault, and never the value sent.
    assert_eq!(
        message,
        "invalid arguments for prompt `summarise`: missing argument `text`; `sentences`: \
         expected an integer from 1 to 10; unknown argument `extra`"
    );

    let error = (client.get_prompt("summarise", json!({ "text": "x", "sentences": "11" })))
        .await
        .unwrap_err();
    let (code, message) = protocol_error(error);
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "invalid arguments for prompt `summarise`: `sentences`: expected an integer from 1 to 10"
    );
}

#[tokio::test]
async fn an_unknown_prompt_gets_the_closest_name() {
    let client = client().await;
    let (code, message) =
        protocol_error(client.get_prompt("sumarise", json!({})).await.unwrap_err());
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "unknown prompt `sumarise`; did you mean `summarise`?"
    );
}

#[tokio::test]
async fn a_prompt_error_reaches_the_client_and_a_panic_is_masked() {
    let client = client().await;
    let (code, message) = protocol_error(
        client
            .get_prompt("refuse", json!({ "reason": "no" }))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32603);
    assert_eq!(message, "prompt `refuse` failed: cannot help: no");

    let (code, message) =
        protocol_error(client.get_prompt("explode", json!({})).await.unwrap_err());
    assert_eq!(code, -32603);
    // The payload's credential and directories are masked.
    assert_eq!(
        message,
        "prompt `explode` failed: it panicked: token=*** failed at key.pem"
    );
    // The session goes on.
    let greeted = client
        .get_prompt("greet", json!({ "name": "Ada" }))
        .await
        .unwrap();
    assert_eq!(greeted.messages[0].content, Content::text("Hello, Ada!"));
}

#[tokio::test]
async fn context_and_state_reach_a_prompt() {
    let client = client().await;
    let result = client
        .get_prompt("greet", json!({ "name": "Ada" }))
        .await
        .unwrap();
    assert_eq!(result.messages[0].content, Content::text("Hello, Ada!"));
}

#[tokio::test]
async fn arguments_are_completed_by_their_function() {
    let client = client().await;
    let completion = (client.complete_prompt_argument("summarise", "sentences", "1"))
        .await
        .unwrap();
    assert_eq!(completion.values, ["1", "10"]);
    assert_eq!(completion.total, Some(2));
    assert!(!completion.has_more);

    // An argument without a completion function gets no suggestion.
    let none = client
        .complete_prompt_argument("summarise", "text", "a")
        .await
        .unwrap();
    assert!(none.values.is_empty());

    // A reply carries at most 100 values, and says there are more.
    let many = client
        .complete_prompt_argument("many", "word", "")
        .await
        .unwrap();
    assert_eq!(many.values.len(), 100);
    assert_eq!(many.total, Some(1000));
    assert!(many.has_more);

    let error = client
        .complete_prompt_argument("sumarise", "text", "")
        .await
        .unwrap_err();
    let (code, message) = protocol_error(error);
    assert_eq!(
        (code, message.as_str()),
        (
            -32602,
            "unknown prompt `sumarise`; did you mean `summarise`?"
        )
    );
}

#[tokio::test]
async fn a_server_made_with_new_has_no_prompts_of_the_attribute() {
    let noop = mcp_tool::RuntimeTool::new("noop", "Does nothing.").handler(
        |args: mcp_tool::Arguments| async move {
            args.finish()?;
            Ok::<_, ToolError>("")
        },
    );
    let server = Server::new("tools", "1.0.0").tool(noop).build().unwrap();
    assert!(server.prompts().is_empty());
    let client = TestClient::connect(server).await.unwrap();
    let (code, _) = protocol_error(client.prompts().await.unwrap_err());
    assert_eq!(code, -32601);
}

#[tokio::test]
async fn a_prompt_renders_outside_a_session() {
    let server = Server::from_registry("prompts", "1.0.0")
        .state(Greeting("Hi"))
        .build()
        .unwrap();
    let arguments = json!({ "name": "Bo" }).as_object().unwrap().clone();
    let result = server.get_prompt("greet", arguments).await.unwrap();
    assert_eq!(result.messages[0].content, Content::text("Hi, Bo!"));
}
