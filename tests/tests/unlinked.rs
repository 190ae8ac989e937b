//! Why `link!` exists: without it, the linker drops a dependency crate that nothing
//! references, and its tools with it (rustc 1.95, debug and release).

#[test]
fn tools_of_an_unreferenced_crate_vanish_without_link() {
    assert!(mcp_tool::registered().is_empty());
    let error = mcp_tool::Server::from_registry("unlinked", "1")
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server has no tools: no function carries `#[mcp_tool]`, or the crate that \
         defines the tools is never referenced; add `mcp_tool::link!(that_crate);` to the binary"
    );
}
