//! How a tool's schemas are shown to a client: as generated, or reshaped for a client
//! that cannot read some of JSON Schema.

use std::fmt;
use std::str::FromStr;

/// How the schemas of `tools/list` are shown to a client. A profile changes what a
/// client is shown, never what a call is checked against: a constraint a profile leaves
/// out is still enforced, and an argument that breaks it gets the same argument error
/// under every profile.
///
/// A server shows [`Strict`](Self::Strict) unless
/// [`Server::schema_profile`](crate::Server::schema_profile) chooses another; a client
/// known to need a profile ([`for_client`](Self::for_client)) gets its own.
///
/// ```
/// use mcp_tool::model::SchemaProfile;
///
/// assert_eq!(SchemaProfile::default(), SchemaProfile::Strict);
/// assert_eq!("openai-strict".parse::<SchemaProfile>(), Ok(SchemaProfile::OpenAiStrict));
/// assert_eq!(SchemaProfile::Gemini.to_string(), "gemini");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// The schemas as generated: JSON Schema 2020-12, every type inlined but a
    /// recursive one, which keeps its `$ref`s and `$defs`.
    #[default]
    Strict,
    /// No `$ref` and no `$defs`: every reference expanded where it is used. A recursive
    /// type has no such form; a server that shows it this way is refused when built.
    Inline,
    /// The subset of OpenAPI's schema that Gemini's function declarations read:
    /// inlined, one `type` a schema with `nullable` for `null`, `enum`s of strings, no
    /// `additionalProperties`, `const`, `oneOf` or `allOf`. A constraint with no place
    /// there is said in the schema's `description`.
    Gemini,
    /// What OpenAI's strict function calling requires: every property listed in
    /// `required`, an optional one as `T` or `null`, `additionalProperties: false` on
    /// every object, no `format`, and none of the keywords it does not support; a
    /// constraint left out is said in the `description`. Recursive types keep their
    /// `$defs`, which strict mode reads.
    OpenAiStrict,
}

/// The clients known to need a profile, by the start of their `clientInfo.name`. The
/// guide's page on tools gives the same table with the reason of each row.
const KNOWN_CLIENTS: [(&str, SchemaProfile); 3] = [
    ("gemini-cli-mcp-client", SchemaProfile::Gemini),
    ("github-copilot-developer", SchemaProfile::Inline),
    ("copilot-cli", SchemaProfile::Inline),
];

impl SchemaProfile {
    /// Every profile, [`Strict`](Self::Strict) first.
    pub const ALL: [SchemaProfile; 4] = [
        SchemaProfile::Strict,
        SchemaProfile::Inline,
        SchemaProfile::Gemini,
        SchemaProfile::OpenAiStrict,
    ];

    /// Its name, as [`FromStr`] reads it: `strict`, `inline`, `gemini`, `openai-strict`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SchemaProfile::Strict => "strict",
            SchemaProfile::Inline => "inline",
            SchemaProfile::Gemini => "gemini",
            SchemaProfile::OpenAiStrict => "openai-strict",
        }
    }

    /// The profile a client needs, by its `clientInfo.name`, when it is one known to
    /// need one; `None` for every other client, which gets the server's profile.
    ///
    /// ```
    /// use mcp_tool::model::SchemaProfile;
    ///
    /// assert_eq!(SchemaProfile::for_client("gemini-cli-mcp-client"), Some(SchemaProfile::Gemini));
    /// assert_eq!(SchemaProfile::for_client("copilot-cli"), Some(SchemaProfile::Inline));
    /// assert_eq!(SchemaProfile::for_client("claude-code"), None);
    /// ```
    #[must_use]
    pub fn for_client(name: &str) -> Option<SchemaProfile> {
        (KNOWN_CLIENTS.iter())
            .find(|(prefix, _)| name.starts_with(prefix))
            .map(|(_, profile)| *profile)
    }

    /// Its place in [`ALL`](Self::ALL).
    pub(crate) fn index(self) -> usize {
        match self {
            SchemaProfile::Strict => 0,
            SchemaProfile::Inline => 1,
            SchemaProfile::Gemini => 2,
            SchemaProfile::OpenAiStrict => 3,
        }
    }
}

impl fmt::Display for SchemaProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no profile's, with the names there are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no schema profile is named `{0}`: choose strict, inline, gemini or openai-strict")]
pub struct UnknownSchemaProfile(pub String);

impl FromStr for SchemaProfile {
    type Err = UnknownSchemaProfile;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        (Self::ALL.into_iter())
            .find(|profile| profile.name() == name)
            .ok_or_else(|| UnknownSchemaProfile(name.to_owned()))
    }
}
