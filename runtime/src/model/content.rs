//! Content blocks: text, images, audio, embedded resources and links to resources,
//! each with optional annotations for the client.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

/// Who a piece of content is meant for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The human user of the client.
    User,
    /// The model.
    Assistant,
}

/// Hints to the client on how to use a piece of content.
///
/// ```
/// use mcp_tool::model::{Annotations, Role};
///
/// let hints = Annotations::new()
///     .with_audience([Role::User])
///     .with_priority(0.9)
///     .with_last_modified("2026-01-31T12:00:00Z");
/// assert_eq!(hints.audience.as_deref(), Some(&[Role::User][..]));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Annotations {
    /// Who the content is for; `None` leaves it to the client.
    pub audience: Option<Vec<Role>>,
    /// How important the content is, from 0 (least) to 1 (most).
    pub priority: Option<f32>,
    /// When the content last changed, as an ISO 8601 timestamp.
    pub last_modified: Option<String>,
}

impl Annotations {
    /// No hints.
    pub fn new() -> Self {
        Self::default()
    }

    /// Who the content is for.
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// How important the content is; clamped into `0.0..=1.0`, the range the
    /// specification allows (a NaN leaves the priority unset).
    pub fn with_priority(mut self, priority: f32) -> Self {
        self.priority = (!priority.is_nan()).then(|| priority.clamp(0.0, 1.0));
        self
    }

    /// When the content last changed, as an ISO 8601 timestamp
    /// (`"2026-01-31T12:00:00Z"`).
    pub fn with_last_modified(mut self, timestamp: impl Into<String>) -> Self {
        self.last_modified = Some(timestamp.into());
        self
    }
}

/// One block of a tool's result.
///
/// ```
/// use mcp_tool::model::{Content, ResourceContents, ResourceLink};
///
/// let blocks = [
///     Content::text("three files matched"),
///     Content::image(b"\x89PNG\r\n\x1a\n", "image/png"),
///     Content::audio(b"RIFF", "audio/wav"),
///     Content::resource(ResourceContents::text("file:///notes.md", "# Notes")),
///     Content::resource_link(ResourceLink::new("file:///big.csv", "big.csv")),
/// ];
/// assert_eq!(blocks[0].as_text(), Some("three files matched"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Content {
    /// Text for the model.
    Text(Text),
    /// An image.
    Image(Media),
    /// A sound.
    Audio(Media),
    /// A resource's contents, embedded in the result.
    Resource(Resource),
    /// A link to a resource the client may read.
    ResourceLink(ResourceLink),
}

impl Content {
    /// A block of text.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(Text {
            text: text.into(),
            annotations: None,
        })
    }

    /// An image from its bytes and MIME type (`"image/png"`).
    pub fn image(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::Image(Media::from_bytes(bytes.as_ref(), mime_type.into()))
    }

    /// A sound from its bytes and MIME type (`"audio/wav"`).
    pub fn audio(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::Audio(Media::from_bytes(bytes.as_ref(), mime_type.into()))
    }

    /// A resource's contents, embedded.
    pub fn resource(contents: ResourceContents) -> Self {
        Self::Resource(Resource {
            contents,
            annotations: None,
        })
    }

    /// A link to a resource.
    pub fn resource_link(link: ResourceLink) -> Self {
        Self::ResourceLink(link)
    }

    /// The same block with these annotations.
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        *self.annotations_mut() = Some(annotations);
        self
    }

    /// The block's annotations, if it has any.
    pub fn annotations(&self) -> Option<&Annotations> {
        match self {
            Self::Text(text) => text.annotations.as_ref(),
            Self::Image(media) | Self::Audio(media) => media.annotations.as_ref(),
            Self::Resource(resource) => resource.annotations.as_ref(),
            Self::ResourceLink(link) => link.annotations.as_ref(),
        }
    }

    fn annotations_mut(&mut self) -> &mut Option<Annotations> {
        match self {
            Self::Text(text) => &mut text.annotations,
            Self::Image(media) | Self::Audio(media) => &mut media.annotations,
            Self::Resource(resource) => &mut resource.annotations,
            Self::ResourceLink(link) => &mut link.annotations,
        }
    }

    /// The text, if this is a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(&text.text),
            _ => None,
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

/// A text block. Build one with [`Content::text`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Text {
    /// The text.
    pub text: String,
    /// Hints for the client.
    pub annotations: Option<Annotations>,
}

/// An image or a sound: bytes with their MIME type. Build one with [`Content::image`]
/// or [`Content::audio`].
///
/// ```
/// use mcp_tool::model::Content;
///
/// let Content::Image(image) = Content::image([1, 2, 3], "image/png") else { unreachable!() };
/// assert_eq!(image.bytes().as_deref(), Some(&[1, 2, 3][..]));
/// assert_eq!(image.base64(), "AQID");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Media {
    /// The bytes, base64-encoded, as they travel.
    data: String,
    /// The MIME type (`"image/png"`, `"audio/wav"`).
    pub mime_type: String,
    /// Hints for the client.
    pub annotations: Option<Annotations>,
}

impl Media {
    fn from_bytes(bytes: &[u8], mime_type: String) -> Self {
        Self::from_base64(BASE64.encode(bytes), mime_type)
    }

    pub(crate) fn from_base64(data: String, mime_type: String) -> Self {
        Self {
            data,
            mime_type,
            annotations: None,
        }
    }

    /// The bytes; `None` if they arrived as something other than base64.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        BASE64.decode(&self.data).ok()
    }

    /// The bytes, base64-encoded, as they travel.
    pub fn base64(&self) -> &str {
        &self.data
    }

    /// The base64 text, the MIME type and the annotations, moved out.
    pub(crate) fn into_parts(self) -> (String, String, Option<Annotations>) {
        (self.data, self.mime_type, self.annotations)
    }
}

/// An embedded resource. Build one with [`Content::resource`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Resource {
    /// What the resource holds.
    pub contents: ResourceContents,
    /// Hints for the client.
    pub annotations: Option<Annotations>,
}

/// The contents of a resource: text or bytes, under a URI.
///
/// ```
/// use mcp_tool::model::ResourceContents;
///
/// let notes = ResourceContents::text("file:///notes.md", "# Notes").with_mime_type("text/markdown");
/// assert_eq!(notes.uri(), "file:///notes.md");
/// assert_eq!(notes.mime_type(), Some("text/markdown"));
/// assert_eq!(notes.as_text(), Some("# Notes"));
///
/// let logo = ResourceContents::blob("file:///logo.png", [0x89, b'P']);
/// assert_eq!(logo.bytes().as_deref(), Some(&[0x89, b'P'][..]));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ResourceContents {
    /// Text contents.
    #[non_exhaustive]
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Binary contents.
    #[non_exhaustive]
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        mime_type: Option<String>,
        /// The bytes, base64-encoded, as they travel.
        base64: String,
    },
}

impl ResourceContents {
    /// Text under `uri`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        Self::Text {
            uri: uri.into(),
            mime_type: None,
            text: text.into(),
        }
    }

    /// Bytes under `uri`.
    pub fn blob(uri: impl Into<String>, bytes: impl AsRef<[u8]>) -> Self {
        Self::blob_base64(uri.into(), BASE64.encode(bytes), None)
    }

    pub(crate) fn blob_base64(uri: String, base64: String, mime_type: Option<String>) -> Self {
        Self::Blob {
            uri,
            mime_type,
            base64,
        }
    }

    pub(crate) fn text_with(uri: String, text: String, mime_type: Option<String>) -> Self {
        Self::Text {
            uri,
            mime_type,
            text,
        }
    }

    /// The same contents with a MIME type.
    pub fn with_mime_type(mut self, mime: impl Into<String>) -> Self {
        match &mut self {
            Self::Text { mime_type, .. } | Self::Blob { mime_type, .. } => {
                *mime_type = Some(mime.into());
            }
        }
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        match self {
            Self::Text { uri, .. } | Self::Blob { uri, .. } => uri,
        }
    }

    /// The resource's MIME type.
    pub fn mime_type(&self) -> Option<&str> {
        match self {
            Self::Text { mime_type, .. } | Self::Blob { mime_type, .. } => mime_type.as_deref(),
        }
    }

    /// The text, for text contents.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text { text, .. } => Some(text),
            Self::Blob { .. } => None,
        }
    }

    /// The bytes, for binary contents that are valid base64.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            Self::Blob { base64, .. } => BASE64.decode(base64).ok(),
            Self::Text { .. } => None,
        }
    }
}

/// A link to a resource, which the client may read when it needs it.
///
/// ```
/// use mcp_tool::model::{Content, ResourceLink};
///
/// let link = ResourceLink::new("file:///data/big.csv", "big.csv")
///     .with_description("Every measurement of 2026")
///     .with_mime_type("text/csv")
///     .with_size(48_213_004);
/// let block = Content::resource_link(link);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it holds.
    pub description: Option<String>,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// Its size in bytes.
    pub size: Option<u64>,
    /// Hints for the client.
    pub annotations: Option<Annotations>,
}

impl ResourceLink {
    /// A link to `uri`, named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
        }
    }

    /// A title for people.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the resource holds.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Its MIME type.
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Its size in bytes.
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }
}
