//! Elicitation: a tool asks the user to fill in a form (`elicitation/create`), through
//! [`Context::elicit`](crate::Context::elicit).
//!
//! [`ElicitationRequest::for_type`] is written in `call/form.rs`, beside the schema rules
//! that flatten a type to a form and decode the answer back: the model holds the data,
//! the call the work.

use serde_json::{Map, Value};

/// A form for the user to fill in: a message, and the schema of the answer.
///
/// [`Context::elicit`](crate::Context::elicit) builds one from a type with
/// [`for_type`](Self::for_type); a test builds one too, to see the schema a type asks
/// with, or receives one in a [`TestClient`](crate::testing::TestClient)'s elicitation
/// handler.
///
/// ```
/// use mcp_tool::model::ElicitationRequest;
///
/// /// Where to ship the order.
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Shipping {
///     /// The street and number.
///     street: String,
///     /// Ship by express.
///     #[serde(default)]
///     express: bool,
/// }
///
/// let request = ElicitationRequest::for_type::<Shipping>("Where should the order go?").unwrap();
/// assert_eq!(
///     serde_json::Value::Object(request.requested_schema),
///     serde_json::json!({
///         "type": "object",
///         "properties": {
///             "street": { "type": "string", "description": "The street and number." },
///             "express": { "type": "boolean", "description": "Ship by express.", "default": false }
///         },
///         "required": ["street"]
///     })
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ElicitationRequest {
    /// What the user is asked, in words.
    pub message: String,
    /// The JSON Schema of the answer: an object whose properties are strings, numbers,
    /// integers, booleans, enums of strings or arrays of such enums (multiple choice).
    pub requested_schema: Map<String, Value>,
    /// The request's name among the inputs a call asks for on protocol 2026-07-28, where
    /// the call ends with them and the client answers each by its name: `None` names it
    /// `elicitation-1`, `elicitation-2`, ... in the order the tool asks.
    pub key: Option<String>,
}

impl ElicitationRequest {
    /// A request with a schema written by hand, sent as it is: the client may refuse a
    /// schema that elicitation does not allow.
    ///
    /// ```
    /// use mcp_tool::model::ElicitationRequest;
    ///
    /// let schema = serde_json::json!({
    ///     "type": "object",
    ///     "properties": { "ok": { "type": "boolean" } },
    ///     "required": ["ok"]
    /// });
    /// let request = ElicitationRequest::with_schema("Please confirm", schema.as_object().unwrap().clone());
    /// assert_eq!(request.message, "Please confirm");
    /// ```
    pub fn with_schema(message: impl Into<String>, requested_schema: Map<String, Value>) -> Self {
        Self {
            message: message.into(),
            requested_schema,
            key: None,
        }
    }

    /// The same request under the name `key` among a call's input requests (protocol
    /// 2026-07-28), for a client or a test that expects a fixed name; see
    /// [`key`](Self::key).
    ///
    /// ```
    /// use mcp_tool::model::ElicitationRequest;
    ///
    /// let request = ElicitationRequest::with_schema("Your name?", Default::default())
    ///     .with_key("user_name");
    /// assert_eq!(request.key.as_deref(), Some("user_name"));
    /// ```
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

/// What the user did with a form: filled it in, declined it, or dismissed it.
///
/// ```
/// use mcp_tool::model::Elicitation;
///
/// let answer: Elicitation<u32> = Elicitation::Accepted(3);
/// assert_eq!(answer.accepted(), Some(3));
/// assert_eq!(Elicitation::<u32>::Declined.accepted(), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user filled in the form and sent it (`accept`).
    Accepted(T),
    /// The user chose not to answer (`decline`).
    Declined,
    /// The user dismissed the form without choosing (`cancel`).
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The answer, if the user sent one.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accepted(answer) => Some(answer),
            Self::Declined | Self::Cancelled => None,
        }
    }

    /// The same outcome with the answer converted by `f`.
    ///
    /// ```
    /// use mcp_tool::model::Elicitation;
    ///
    /// assert_eq!(Elicitation::Accepted(2).map(|n| n * 10), Elicitation::Accepted(20));
    /// ```
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Elicitation<U> {
        match self {
            Self::Accepted(answer) => Elicitation::Accepted(f(answer)),
            Self::Declined => Elicitation::Declined,
            Self::Cancelled => Elicitation::Cancelled,
        }
    }

    /// The protocol's name for the outcome: `"accept"`, `"decline"` or `"cancel"`.
    ///
    /// ```
    /// assert_eq!(mcp_tool::model::Elicitation::<()>::Cancelled.action(), "cancel");
    /// ```
    pub fn action(&self) -> &'static str {
        match self {
            Self::Accepted(_) => "accept",
            Self::Declined => "decline",
            Self::Cancelled => "cancel",
        }
    }
}
