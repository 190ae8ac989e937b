//! The server card the builder is given ([`ServerCard`]) and its check against the rules
//! of SEP-2127 ("MCP Server Cards", a draft:
//! <https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127>);
//! `protocol::http` makes the document and serves it.

use crate::outcome::error::ServerError;

/// A server card to serve over HTTP (SEP-2127, a draft): the server's name in the
/// registry's reverse-DNS form, a one-line description, and optionally the public URL of
/// its endpoint. Given to [`Server::server_card`](crate::Server::server_card); the rest of
/// the card (version, title, protocol versions, transport, whether a bearer token is
/// needed) is taken from the server.
///
/// ```
/// let card = mcp_tool::ServerCard::new("io.github.example/search", "Searches the team's notes.")
///     .url("https://mcp.example.com/mcp");
/// let server = mcp_tool::Server::from_registry("search", "1.0.0").server_card(card);
/// # drop(server);
/// ```
#[derive(Debug, Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub struct ServerCard {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) url: Option<String>,
    pub(crate) website: Option<String>,
}

impl ServerCard {
    /// A card for the server named `name` (reverse-DNS, with one `/`: `com.example/search`,
    /// as in the MCP registry) and described by `description` (1 to 100 characters).
    /// Both are checked when the server is built.
    ///
    /// ```
    /// let card = mcp_tool::ServerCard::new("com.example/weather", "Forecasts by city.");
    /// # drop(card);
    /// ```
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            url: None,
            website: None,
        }
    }

    /// The URL clients connect to, `http://` or `https://` and the endpoint's path. Unset,
    /// it is the authorization's resource URI on a server with authorization, else
    /// `http://<Host>/mcp` from the request the card answers.
    ///
    /// ```
    /// let card = mcp_tool::ServerCard::new("com.example/weather", "Forecasts by city.")
    ///     .url("https://weather.example.com/mcp");
    /// # drop(card);
    /// ```
    pub fn url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// The server's home page or documentation, shown as the card's `websiteUrl`.
    ///
    /// ```
    /// let card = mcp_tool::ServerCard::new("com.example/weather", "Forecasts by city.")
    ///     .website("https://example.com/weather");
    /// # drop(card);
    /// ```
    pub fn website(mut self, url: impl Into<String>) -> Self {
        self.website = Some(url.into());
        self
    }

    /// Checks the card against the SEP's rules for what the builder was given.
    pub(crate) fn check(&self, version: &str) -> Result<(), ServerError> {
        let refuse = |reason: String| Err(ServerError::ServerCard { reason });
        if !valid_name(&self.name) {
            return refuse(format!(
                "its name `{}` is not in reverse-DNS form with one `/`, 3 to 200 characters \
                 (letters, digits, `.` and `-` before the slash, also `_` after it), \
                 as `com.example/search`",
                self.name
            ));
        }
        let length = self.description.chars().count();
        if !(1..=100).contains(&length) {
            return refuse(format!(
                "its description has {length} characters; a card's takes 1 to 100: \
                 say in one line what the server does"
            ));
        }
        if version.chars().count() > 255 || version.starts_with(['^', '~', '>', '<', '=']) {
            return refuse(format!(
                "the server's version `{version}` is not one version (at most 255 characters, \
                 no range)"
            ));
        }
        for (what, url) in [("url", &self.url), ("website", &self.website)] {
            if let Some(url) = url
                && !valid_url(url)
            {
                return refuse(format!(
                    "its {what} `{url}` does not begin with `http://` or `https://` \
                     or holds white space"
                ));
            }
        }
        Ok(())
    }
}

/// Whether `name` is reverse-DNS with exactly one `/`, as the SEP's `name` pattern says.
fn valid_name(name: &str) -> bool {
    let Some((namespace, server)) = name.split_once('/') else {
        return false;
    };
    let length = name.chars().count();
    (3..=200).contains(&length)
        && !namespace.is_empty()
        && !server.is_empty()
        && (namespace.chars()).all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
        && (server.chars()).all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn valid_url(url: &str) -> bool {
    let rest = (url.strip_prefix("https://")).or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|rest| !rest.is_empty() && !rest.contains(char::is_whitespace))
}
