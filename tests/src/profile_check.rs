//! Every tool of a server listed under every schema profile, each listing checked
//! against its profile's [rules](crate::profile_rules).

use mcp_tool::model::SchemaProfile;
use mcp_tool::testing::TestClient;
use mcp_tool::{ServerError, ToolServer};

use crate::profile_rules::{breaches, refuses_recursion};

/// What [`check_every_profile`] checked.
#[derive(Debug, Default)]
pub struct Checked {
    /// The (tool × profile) pairs checked: listed and found right, or refused.
    pub pairs: usize,
    /// The tools a profile refused when the server was built: tool, profile, why.
    pub refused: Vec<(String, SchemaProfile, String)>,
}

/// How a test builds its server under a profile, leaving out the tools named.
pub type Build<'a> = dyn Fn(SchemaProfile, &[String]) -> Result<ToolServer, ServerError> + 'a;

/// Builds a server under each profile with `build`, which leaves out the tools it is
/// given, lists it through `tools/list`, and checks each tool against the profile's
/// rules; a tool the profile refuses to show (a recursive type) is left out and built
/// again without. Panics naming every breach.
pub async fn check_every_profile(build: &Build<'_>) -> Checked {
    let mut checked = Checked::default();
    let mut breached = Vec::new();
    for profile in SchemaProfile::ALL {
        let mut left_out: Vec<String> = Vec::new();
        let server = loop {
            match build(profile, &left_out) {
                Ok(server) => break server,
                Err(ServerError::SchemaProfile { tool, problem, .. }) => {
                    assert!(
                        refuses_recursion(profile.name()),
                        "{profile} refused `{tool}`: {problem}"
                    );
                    assert!(!left_out.contains(&tool), "`{tool}` refused twice");
                    left_out.push(tool.clone());
                    checked.refused.push((tool, profile, problem));
                    checked.pairs += 1;
                }
                Err(other) => panic!("the server under {profile} was not built: {other}"),
            }
        };
        let client = TestClient::connect(server).await.expect("connects");
        for tool in client.list().await.expect("lists") {
            let listed = serde_json::to_value(&tool).expect("serializes");
            for breach in breaches(profile.name(), &listed) {
                breached.push(format!("{} under {profile}: {breach}", tool.name));
            }
            checked.pairs += 1;
        }
        client.close().await;
    }
    assert!(breached.is_empty(), "{}", breached.join("\n"));
    checked
}
