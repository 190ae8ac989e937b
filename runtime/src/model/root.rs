/// A root the client shares with the server (`roots/list`): a directory or a file the
/// server may work in, by its URI (`file:///home/ada/project`), and a name to show.
///
/// ```
/// use mcp_tool::model::Root;
///
/// let root = Root::new("file:///home/ada/project").with_name("project");
/// assert_eq!(root.name.as_deref(), Some("project"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Root {
    /// The root's URI: `file://` for a directory or a file.
    pub uri: String,
    /// A name for people, when the client gave one.
    pub name: Option<String>,
}

impl Root {
    /// The root at `uri`, without a name.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: None,
        }
    }

    /// The same root with a name.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}
