//! Every tool of the server, its saved searches included, shown under every schema
//! profile and checked against that profile's rules.

use std::path::Path;
use std::sync::Arc;

use mcp_tool::Server;
use mcp_tool_tests::profile_check::check_every_profile;

use crate::{Root, saved_searches};

#[tokio::test]
async fn every_tool_holds_the_rules_of_every_profile() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = Arc::new(Root(dir.to_path_buf()));
    let build = |profile, left_out: &[String]| {
        let left_out = left_out.to_vec();
        let mut server = Server::from_registry("file-search", "0.0.0")
            .state(Root(root.0.clone()))
            .schema_profile(profile)
            .profiles_by_client(false);
        let searches = saved_searches::load(&dir.join("searches.toml"), &root).unwrap();
        for tool in searches {
            if !left_out.iter().any(|name| name == tool.name()) {
                server = server.tool(tool);
            }
        }
        server
            .retain_tools(move |entry| !left_out.iter().any(|name| name == entry.name()))
            .build()
    };
    let tools = build(mcp_tool::model::SchemaProfile::Strict, &[])
        .unwrap()
        .tools()
        .len();
    let checked = check_every_profile(&build).await;
    println!("(tool × profile) pairs checked: {}", checked.pairs);
    assert!(tools >= 9, "{tools} tools");
    assert_eq!(checked.pairs, tools * 4);
    assert_eq!(checked.refused, []);
}
