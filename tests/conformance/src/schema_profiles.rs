//! Every tool the conformance suite calls, shown under every schema profile and checked
//! against that profile's rules.

use mcp_tool::Server;
use mcp_tool_tests::profile_check::check_every_profile;

#[tokio::test]
async fn every_tool_holds_the_rules_of_every_profile() {
    let build = |profile, left_out: &[String]| {
        let left_out = left_out.to_vec();
        Server::from_registry("mcp-tool-conformance", "0.0.0")
            .retain_tools(move |entry| !left_out.iter().any(|name| name == entry.name()))
            .schema_profile(profile)
            .profiles_by_client(false)
            .build()
    };
    let tools = build(mcp_tool::model::SchemaProfile::Strict, &[])
        .unwrap()
        .tools()
        .len();
    let checked = check_every_profile(&build).await;
    println!("(tool × profile) pairs checked: {}", checked.pairs);
    assert!(tools >= 20, "{tools} tools");
    assert_eq!(checked.pairs, tools * 4);
    assert_eq!(checked.refused, []);
}
