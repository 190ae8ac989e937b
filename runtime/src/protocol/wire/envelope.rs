//! The messages a session sends most, read in one pass: the envelope's own fields as it
//! goes, its `method` before its `params`, and the `params` straight into the types of
//! that method, where `rmcp`'s untagged message types would buffer the message and try
//! one variant after another. What it reads means what `rmcp`'s decoding gives; anything
//! else (another method, a response, a field it does not know, a key twice, `params`
//! before `method`, JSON that is not valid) gives `None`, and `rmcp` decodes the message.

use std::fmt;

use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification,
    ClientRequest, Extensions, GetPromptRequestParams, InitializeRequestParams, JsonObject,
    JsonRpcMessage, Notification, NotificationMetaObject, NotificationNoParam,
    PaginatedRequestParams, ReadResourceRequestParams, Request, RequestId, RequestMetaObject,
    RequestNoParam, RequestOptionalParam,
};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The message, when it is one this module reads.
pub(super) fn read(bytes: &[u8]) -> Option<ClientJsonRpcMessage> {
    let message = serde_json::from_slice::<Envelope>(bytes).ok()?.0?;
    // The fields `params` do not know are read in full as they are skipped (see
    // `Strict`), but `initialize` has objects within, which could skip some of theirs:
    // it is read once more, as `rmcp`'s buffering reads it.
    if let JsonRpcMessage::Request(request) = &message
        && let ClientRequest::InitializeRequest(_) = request.request
    {
        serde_json::from_slice::<Checked>(bytes).ok()?;
    }
    Some(message)
}

/// The methods read here, by `method`.
#[derive(Debug, Clone, Copy)]
enum Method {
    CallTool,
    ListTools,
    Initialize,
    Ping,
    GetPrompt,
    ListPrompts,
    ReadResource,
    ListResources,
    ListResourceTemplates,
    Initialized,
    Cancelled,
}

/// A request or a notification without its id.
#[expect(
    clippy::large_enum_variant,
    reason = "lives on the stack until it is moved into the message"
)]
enum Body {
    Request(ClientRequest),
    Notification(ClientNotification),
}

impl Method {
    fn named(name: &str) -> Option<Self> {
        Some(match name {
            "tools/call" => Self::CallTool,
            "tools/list" => Self::ListTools,
            "initialize" => Self::Initialize,
            "ping" => Self::Ping,
            "prompts/get" => Self::GetPrompt,
            "prompts/list" => Self::ListPrompts,
            "resources/read" => Self::ReadResource,
            "resources/list" => Self::ListResources,
            "resources/templates/list" => Self::ListResourceTemplates,
            "notifications/initialized" => Self::Initialized,
            "notifications/cancelled" => Self::Cancelled,
            _ => return None,
        })
    }

    /// The message of a method whose `params` were left out, as `rmcp` reads it: a
    /// request that needs its `params` gets `None`.
    fn without_params(self) -> Option<Body> {
        Some(match self {
            Self::CallTool | Self::Initialize | Self::GetPrompt | Self::ReadResource => {
                return None;
            }
            Self::ListTools => Body::Request(ClientRequest::ListToolsRequest(listing(None))),
            Self::ListPrompts => Body::Request(ClientRequest::ListPromptsRequest(listing(None))),
            Self::ListResources => {
                Body::Request(ClientRequest::ListResourcesRequest(listing(None)))
            }
            Self::ListResourceTemplates => {
                Body::Request(ClientRequest::ListResourceTemplatesRequest(listing(None)))
            }
            Self::Ping => Body::Request(ClientRequest::PingRequest(RequestNoParam {
                method: Default::default(),
                extensions: Extensions::new(),
            })),
            Self::Initialized => Body::Notification(ClientNotification::InitializedNotification(
                NotificationNoParam {
                    method: Default::default(),
                    extensions: Extensions::new(),
                },
            )),
            // `rmcp` reads absent `params` of a notification as `{}`.
            Self::Cancelled => Body::Notification(ClientNotification::CancelledNotification(
                Notification::new(CancelledNotificationParam::new(None, None)),
            )),
        })
    }
}

/// Reads `params` as the method's type: an object (never an array, which `rmcp`
/// refuses), whose `_meta` goes to the message's extensions, where `rmcp` keeps it.
impl<'de> DeserializeSeed<'de> for Method {
    type Value = Body;

    fn deserialize<D: Deserializer<'de>>(self, params: D) -> Result<Body, D::Error> {
        Ok(match self {
            Self::CallTool => {
                let mut params = Object::<CallToolRequestParams>::deserialize(params)?.0;
                let meta = params.meta.take();
                Body::Request(ClientRequest::CallToolRequest(request(params, meta)))
            }
            Self::Initialize => {
                let mut params = Object::<InitializeRequestParams>::deserialize(params)?.0;
                let meta = params.meta.take();
                Body::Request(ClientRequest::InitializeRequest(request(params, meta)))
            }
            Self::GetPrompt => {
                let mut params = Object::<GetPromptRequestParams>::deserialize(params)?.0;
                let meta = params.meta.take();
                Body::Request(ClientRequest::GetPromptRequest(request(params, meta)))
            }
            Self::ReadResource => {
                let mut params = Object::<ReadResourceRequestParams>::deserialize(params)?.0;
                let meta = params.meta.take();
                Body::Request(ClientRequest::ReadResourceRequest(request(params, meta)))
            }
            Self::ListTools => Body::Request(ClientRequest::ListToolsRequest(listing(
                Option::deserialize(params)?,
            ))),
            Self::ListPrompts => Body::Request(ClientRequest::ListPromptsRequest(listing(
                Option::deserialize(params)?,
            ))),
            Self::ListResources => Body::Request(ClientRequest::ListResourcesRequest(listing(
                Option::deserialize(params)?,
            ))),
            Self::ListResourceTemplates => Body::Request(
                ClientRequest::ListResourceTemplatesRequest(listing(Option::deserialize(params)?)),
            ),
            Self::Ping => {
                let meta = Option::<Object<MetaOnly>>::deserialize(params)?;
                let meta = meta
                    .and_then(|only| only.0.meta)
                    .map(RequestMetaObject::from);
                Body::Request(ClientRequest::PingRequest(RequestNoParam {
                    method: Default::default(),
                    extensions: with_meta(meta),
                }))
            }
            Self::Initialized => {
                let meta = Option::<Object<MetaOnly>>::deserialize(params)?;
                let meta = meta.and_then(|only| only.0.meta);
                Body::Notification(ClientNotification::InitializedNotification(
                    NotificationNoParam {
                        method: Default::default(),
                        extensions: with_meta(meta.map(NotificationMetaObject::from)),
                    },
                ))
            }
            Self::Cancelled => {
                match Option::<Object<CancelledNotificationParam>>::deserialize(params)? {
                    Some(Object(mut params)) => {
                        let meta = params.meta.take();
                        let mut notification = Notification::new(params);
                        notification.extensions = with_meta(meta);
                        Body::Notification(ClientNotification::CancelledNotification(notification))
                    }
                    None => return Self::Cancelled.without_params().ok_or_else(unusual),
                }
            }
        })
    }
}

/// A request whose `params` had `meta` as their `_meta`.
fn request<M: Default, P>(params: P, meta: Option<RequestMetaObject>) -> Request<M, P> {
    let mut request = Request::new(params);
    request.extensions = with_meta(meta);
    request
}

/// A listing request, with its `params` when they were given and not `null`.
fn listing<M: Default>(
    params: Option<Object<PaginatedRequestParams>>,
) -> RequestOptionalParam<M, PaginatedRequestParams> {
    let mut params = params.map(|object| object.0);
    let meta = params.as_mut().and_then(|params| params.meta.take());
    RequestOptionalParam {
        method: Default::default(),
        params,
        extensions: with_meta(meta),
    }
}

/// Extensions holding `_meta`, as `rmcp` makes them: none at all without one.
fn with_meta<T: Clone + Send + Sync + 'static>(meta: Option<T>) -> Extensions {
    let mut extensions = Extensions::new();
    if let Some(meta) = meta {
        extensions.insert(meta);
    }
    extensions
}

/// The `params` of a request or notification that has no others.
#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<JsonObject>,
}

/// A value of `T` read from a JSON object only: serde's derived structs would also take
/// an array, which `rmcp` refuses as `params`.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(ObjectOnly(deserializer)).map(Object)
    }
}

/// A deserializer that gives its visitor a map or fails.
struct ObjectOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Strict(visitor))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A visitor of `params` whose fields skipped are read in full, as `rmcp`'s buffering
/// reads them: a number out of range or a lone surrogate there fails the message, where
/// serde_json would skip it unread.
struct Strict<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for Strict<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(formatter)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Strict(map))
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        key: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(key)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, value: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(value))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A field's value, read by its own type or, skipped, in full.
struct StrictSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Skipping(deserializer))
    }
}

/// A deserializer that reads a value it is asked to skip.
struct Skipping<D>(D);

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Skipping<D> {
    type Error = D::Error;

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        Checked::deserialize(self.0)?;
        visitor.visit_unit()
    }

    forward! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
        deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_bytes() deserialize_byte_buf() deserialize_option()
        deserialize_unit() deserialize_seq() deserialize_map() deserialize_identifier()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The failure that hands a message to `rmcp`'s decoding; never shown.
fn unusual<E: de::Error>() -> E {
    E::custom("not read by the envelope")
}

/// A message, when it is one of those read here.
struct Envelope(Option<ClientJsonRpcMessage>);

impl<'de> Deserialize<'de> for Envelope {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EnvelopeVisitor)
    }
}

struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope, A::Error> {
        let (mut version, mut id, mut method, mut body) = (false, None, None, None);
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Version if !version => version = map.next_value::<Version>().map(|_| true)?,
                Key::Id if id.is_none() => id = Some(map.next_value::<Id>()?.0),
                Key::Method if method.is_none() => method = Some(map.next_value::<Named>()?.0),
                // `params` before `method` would have to be kept aside: `rmcp` reads it.
                Key::Params if body.is_none() => {
                    body = Some(map.next_value_seed(method.ok_or_else(unusual)?)?);
                }
                _ => return Err(unusual()),
            }
        }
        let Some(method) = method.filter(|_| version) else {
            return Err(unusual());
        };
        let body = body.or_else(|| method.without_params());
        Ok(Envelope(match (body, id) {
            (Some(Body::Request(request)), Some(id)) => Some(JsonRpcMessage::request(request, id)),
            (Some(Body::Notification(notification)), None) => {
                Some(JsonRpcMessage::notification(notification))
            }
            _ => None,
        }))
    }
}

/// A key of the envelope; any other key makes the message unusual.
enum Key {
    Version,
    Id,
    Method,
    Params,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(Str(|key| match key {
            "jsonrpc" => Some(Key::Version),
            "id" => Some(Key::Id),
            "method" => Some(Key::Method),
            "params" => Some(Key::Params),
            _ => None,
        }))
    }
}

/// `"jsonrpc": "2.0"`.
struct Version;

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(Str(|version| (version == "2.0").then_some(Version)))
    }
}

/// A method read here.
struct Named(Method);

impl<'de> Deserialize<'de> for Named {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(Str(|name| Method::named(name).map(Named)))
    }
}

/// A visitor of a string, borrowed or unescaped, that `read` maps to a value or refuses.
struct Str<T>(fn(&str) -> Option<T>);

impl<'de, T> Visitor<'de> for Str<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        (self.0)(text).ok_or_else(unusual)
    }
}

/// An id as `rmcp` reads it, when it is an integer that fits an `i64` or a string.
struct Id(RequestId);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

struct IdVisitor;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = Id;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an integer or a string")
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Id, E> {
        Ok(Id(RequestId::Number(number)))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Id, E> {
        let number = i64::try_from(number).map_err(|_| unusual::<E>())?;
        Ok(Id(RequestId::Number(number)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Id, E> {
        Ok(Id(RequestId::String(text.into())))
    }
}

/// Any JSON value, read in full as `rmcp`'s buffering reads it.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Checked)
    }
}

impl<'de> Visitor<'de> for Checked {
    type Value = Checked;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_key::<Checked>()?.is_some() {
            map.next_value::<Checked>()?;
        }
        Ok(Checked)
    }
}
