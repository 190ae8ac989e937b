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
    assert_eq!(*location, format!("{}:13", file!()));
    assert_eq!(*type_name, "missing_state::Config");
    assert_eq!(
        error.to_string(),
        format!(
            "the tool `root` (at {}:13) asks for `State<missing_state::Config>`, but no \
             `missing_state::Config` was given to the server: add `.state(value)` with a value \
             of that type to the server's builder",
            file!()
        )
    );
}

#[test]
fn a_state_of_another_type_does_not_count() {
    let error = Server::from_registry("missing", "1")
        .state(String::from("not a Config"))
        .build()
        .unwrap_err();
    assert!(
        matches!(
            &error,
            ServerError::MissingState { tool, type_name, .. }
                if tool == "root" && *type_name == "missing_state::Config"
        ),
        "{error:?}"
    );
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
