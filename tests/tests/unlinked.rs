//! Why `link!` exists: without it, the linker drops a dependency crate that nothing
//! references, and its tools with it (rustc 1.95, debug and release).

#[test]
fn tools_of_an_unreferenced_crate_vanish_without_link() {
    assert!(mcp_tool::registered().is_empty());
    let error = mcp_tool::Server::from_registry("unlinked", "1")
        .build()
        .unwrap_err();
    assert!(error.to_string().contains("mcp_tool::link!"));
}
