//! A tool that asks for a `State<T>` never given fails `build()`, naming the tool and
//! the type; giving it fixes that.

use mcp_tool::{Server, ServerError, State, mcp_tool};

/// Where the server's files are.
struct Config {
    root: String,
}

/// Returns the root the server searches under.
#[mcp_tool]
fn root(config: State<Config>) -> String {
    config.root.clone()
}

#[test]
fn a_state_never_given_fails_the_build() {
    let error = Server::from_registry("missing", "1").build().unwrap_err();
    let ServerError::MissingState {
        kind,
        tool,
        location,
        type_name,
    } = &error
    else {
        panic!("expected MissingState, got {error:?}");
    };
    assert_eq!((*kind, tool.as_str()), ("tool", "root"));
    assert!(location.ends_with("missing_state.rs:13"), "{location}");
    assert!(type_name.ends_with("Config"), "{type_name}");
    let message = error.to_string();
    assert!(message.contains("`root`"), "{message}");
    assert!(message.contains(".state("), "{message}");
    assert!(message.contains(location.as_str()), "{message}");
}

#[test]
fn a_state_of_another_type_does_not_count() {
    let error = Server::from_registry("missing", "1")
        .state(String::from("not a Config"))
        .build()
        .unwrap_err();
    assert!(matches!(error, ServerError::MissingState { .. }), "{error}");
}

#[tokio::test]
async fn the_given_state_reaches_the_tool() {
    let server = Server::from_registry("missing", "1")
        .state(Config {
            root: "/srv".into(),
        })
        .build()
        .unwrap();
    let result = server.call("root", serde_json::Map::new()).await.unwrap();
    assert_eq!(result.text(), "/srv");
}
