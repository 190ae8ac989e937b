//! The builder's options for the schemas clients are shown: the server's schema
//! profile, and whether a client known to need its own gets it.

use crate::model::SchemaProfile;
use crate::server::builder::Server;

impl Server {
    /// Shows every client the tools' schemas under `profile`, unless the client is one
    /// known to need its own ([`SchemaProfile::for_client`]); [`SchemaProfile::Strict`]
    /// unless set. The arguments a call is checked against stay the same under every
    /// profile. A tool the profile cannot show (a recursive type under `inline` or
    /// `gemini`) makes [`build`](Self::build) fail, naming the tool and the type.
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::SchemaProfile;
    ///
    /// /// Returns its input, `times` times (1 unless given).
    /// #[mcp_tool::mcp_tool]
    /// fn echo(text: String, times: Option<u8>) -> String {
    ///     text.repeat(times.unwrap_or(1).into())
    /// }
    ///
    /// # fn main() -> Result<(), mcp_tool::ServerError> {
    /// let server = mcp_tool::Server::from_registry("echo", "1.0.0")
    ///     .schema_profile(SchemaProfile::OpenAiStrict)
    ///     .build()?;
    /// // `tools()` holds the schemas as generated, which calls are checked against.
    /// assert_eq!(server.tools()[0].input_schema["required"], serde_json::json!(["text"]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.settings.profiles.server = profile;
        self
    }

    /// Whether a client known to need a schema profile of its own (by its
    /// `clientInfo.name`, see [`SchemaProfile::for_client`]) gets it; `true` unless
    /// set. With `false`, every client is shown the server's profile.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("echo", "1.0.0").profiles_by_client(false);
    /// # drop(server);
    /// ```
    pub fn profiles_by_client(mut self, by_client: bool) -> Self {
        self.settings.profiles.by_client = by_client;
        self
    }
}
