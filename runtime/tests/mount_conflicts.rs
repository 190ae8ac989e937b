//! The mounts `Server::build` refuses: two items that would share a name or a URI, a
//! namespace a tool's name cannot begin with, a server that serves tasks.

use mcp_tool::{Server, ServerError};

mod notes;

use notes::{Greeting, fixed, notes};

#[test]
fn two_mounts_whose_prompts_or_resources_meet_are_refused_naming_both() {
    let error = (Server::new("gateway", "1")
        .mount("a", notes("Hi"))
        .mount("a", notes("Yo")))
    .build()
    .unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ServerError::MountConflict { kind: "prompt", .. }),
        "{message}"
    );
    assert!(
        message.starts_with("two prompts would be named `a_welcome`"),
        "{message}"
    );
    assert_eq!(
        message
            .matches("in the server `notes` mounted as `a`")
            .count(),
        2,
        "{message}"
    );

    // Under two namespaces, the prompts part, and the resources' URIs still meet.
    let error = (Server::new("gateway", "1")
        .mount("a", notes("Hi"))
        .mount("b", notes("Yo")))
    .build()
    .unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with("two resources would be named `config://greeting`"),
        "{message}"
    );
    assert!(
        message.contains("mounted as `a`") && message.contains("mounted as `b`"),
        "{message}"
    );

    // A server's own resource and a mounted one at one URI.
    let own = Server::from_registry("gateway", "1").state(Greeting("Hi"));
    let error = own.mount("n", notes("Yo")).build().unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("`config://greeting`: runtime/tests/notes/mod.rs:"),
        "{message}"
    );
    assert!(message.contains("mounted as `n`"), "{message}");
}

#[test]
fn two_mounts_that_give_one_name_are_refused_naming_both() {
    let one = Server::new("one", "1")
        .tool(fixed("search", "1"))
        .build()
        .unwrap();
    let two = Server::new("two", "1")
        .tool(fixed("search", "2"))
        .build()
        .unwrap();
    let error = Server::new("gateway", "1")
        .mount("files", one)
        .mount("files", two)
        .build()
        .unwrap_err();
    assert!(
        matches!(error, ServerError::MountConflict { kind: "tool", .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("two tools would be named `files_search`"),
        "{message}"
    );
    assert!(
        message.contains("in the server `one` mounted as `files`"),
        "{message}"
    );
    assert!(
        message.contains("in the server `two` mounted as `files`"),
        "{message}"
    );
    assert!(message.contains("tests/notes/mod.rs"), "{message}");
}

#[test]
fn a_mount_that_gives_the_name_of_a_tool_of_the_server_is_refused_naming_both() {
    let files = Server::new("files", "1")
        .tool(fixed("search", "1"))
        .build()
        .unwrap();
    let error = Server::new("gateway", "1")
        .tool(fixed("files_search", "local"))
        .mount("files", files)
        .build()
        .unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ServerError::MountConflict { .. }),
        "{message}"
    );
    assert!(message.contains("`files_search`"), "{message}");
    assert!(message.contains("(added at run time)"), "{message}");
    assert!(message.contains("mounted as `files`"), "{message}");
}

#[test]
fn a_namespace_a_tools_name_cannot_begin_with_is_refused() {
    let files = || {
        Server::new("files", "1")
            .tool(fixed("search", "1"))
            .build()
            .unwrap()
    };
    for (namespace, problem) in [
        ("my files", "it holds ` `"),
        ("", "it is empty"),
        ("fichiers/", "it holds `/`"),
    ] {
        let error = Server::new("gateway", "1")
            .mount(namespace, files())
            .build()
            .unwrap_err();
        assert!(
            matches!(error, ServerError::InvalidNamespace { .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().contains(problem),
            "{namespace:?}: {error}"
        );
    }
    let long = "n".repeat(124);
    let error = Server::new("gateway", "1")
        .mount(&long, files())
        .build()
        .unwrap_err();
    assert!(
        error.to_string().contains("longer than the 128 characters"),
        "{error}"
    );
    // Every character a tool's name may hold is a namespace's too.
    let server = Server::new("gateway", "1")
        .mount("Team-1.files", files())
        .build()
        .unwrap();
    assert_eq!(server.tools()[0].name, "Team-1.files_search");
}

#[test]
fn a_server_that_serves_tasks_is_not_mounted_yet() {
    let tasks = Server::new("tasks", "1")
        .tool(fixed("search", "1"))
        .serve_tasks()
        .build()
        .unwrap();
    let error = Server::new("gateway", "1")
        .mount("tasks", tasks)
        .build()
        .unwrap_err();
    assert!(error.to_string().contains("serves tasks"), "{error}");
}
