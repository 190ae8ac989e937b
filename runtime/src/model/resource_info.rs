//! Resources as clients list them, and the suggestions of a completion.

/// A resource with a fixed URI, as clients list it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ResourceInfo {
    /// Its URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it holds.
    pub description: Option<String>,
    /// Its MIME type.
    pub mime_type: Option<String>,
}

/// A resource template (RFC 6570), as clients list it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ResourceTemplateInfo {
    /// The template, such as `file:///{+path}`.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What its resources hold.
    pub description: Option<String>,
    /// Its resources' MIME type.
    pub mime_type: Option<String>,
}

/// The values a server suggests for an argument being typed (`completion/complete`).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Completion {
    /// The suggestions, at most 100, best first.
    pub values: Vec<String>,
    /// How many suggestions there are in all, when known.
    pub total: Option<u32>,
    /// Whether there are more than `values` holds.
    pub has_more: bool,
}
