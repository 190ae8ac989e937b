//! A call's context: progress and log messages to the client, cancellation, who asked,
//! and questions for the client's model and user, for a tool that takes a `Context`
//! parameter.

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::call::client_request::{self, Client};
use crate::call::form;
use crate::call::session::{Asked, Request, Session};
use crate::model::{
    Auth, ClientInfo, Content, Elicitation, ElicitationRequest, LogLevel, RequestId, Root,
    SamplingRequest, SamplingResponse,
};
use crate::outcome::error::ToolError;
use crate::outcome::log_filter::LogFilter;
use crate::outcome::masking;

mod later;

/// What a tool may do during a call besides returning: report progress, send log
/// messages to the client, notice that the client cancelled the call, see who called,
/// and ask the client's model ([`sample`](Self::sample)) or its user
/// ([`elicit`](Self::elicit)).
///
/// Ask for it with a parameter of this type, under any name (a type alias or a renamed
/// import is recognised too); it is never part of the tool's input schema, and a tool
/// takes at most one. Clones share the call's progress and cancellation.
///
/// ```standalone_crate
/// use mcp_tool::{Context, ToolError, mcp_tool};
///
/// /// Counts the lines of a text, reporting progress every thousand lines.
/// #[mcp_tool]
/// async fn count_lines(ctx: Context, text: String) -> Result<u64, ToolError> {
///     let total = text.lines().count();
///     let mut count = 0;
///     for _ in text.lines() {
///         count += 1;
///         if count % 1000 == 0 {
///             ctx.progress(count, total).await;
///         }
///         if ctx.is_cancelled() {
///             return Err(ToolError::new("cancelled"));
///         }
///     }
///     ctx.info(format!("counted {count} lines")).await;
///     Ok(count)
/// }
/// # fn main() {}
/// ```
///
/// The notification methods are async: they return once the message is written, so
/// every notification reaches the client before the call's reply. A plain `fn` tool runs
/// on a thread of the blocking pool, where
/// `tokio::runtime::Handle::current().block_on(ctx.info("..."))` sends one.
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    tool: &'static str,
    session: Option<Link>,
    cancel: CancellationToken,
    log_filter: LogFilter,
    /// The last progress sent: progress only ever increases.
    last_progress: Mutex<Option<f64>>,
    /// The caller, when the request came with a verified access token.
    auth: Option<Arc<Auth>>,
}

/// What a call made through a session has.
struct Link {
    session: Box<dyn Session>,
    id: RequestId,
    /// Read from `_meta` and the handshake on first use: most tools send no message.
    asked: OnceLock<Asked>,
    /// Made from `_meta` and the handshake on first use: most tools never ask. Boxed,
    /// so that a context that never asks is small to make.
    client: OnceLock<Option<Box<ClientInfo>>>,
}

impl Asked {
    /// Whether the client asked for log messages of `level` in this call.
    fn wants(&self, level: LogLevel, session_filter: &LogFilter) -> bool {
        match self.request_level {
            Some(least) => level >= least,
            None if self.level_per_request => false,
            None => session_filter.level().is_none_or(|least| level >= least),
        }
    }
}

impl Context {
    /// The context of a call of `tool`, made through a session's `request` or directly.
    pub(crate) fn new(
        tool: &'static str,
        request: Option<&dyn Request>,
        log_filter: &LogFilter,
    ) -> Self {
        let session = request.map(|request| {
            let session = request.session();
            Link {
                id: session.request_id(),
                session,
                asked: OnceLock::new(),
                client: OnceLock::new(),
            }
        });
        let cancel = (session.as_ref()).map_or_else(CancellationToken::new, |link| {
            link.session.cancellation().clone()
        });
        Self {
            inner: Arc::new(Inner {
                tool,
                session,
                cancel,
                log_filter: log_filter.clone(),
                last_progress: Mutex::new(None),
                auth: request.and_then(Request::auth),
            }),
        }
    }

    /// The name of the tool called.
    pub fn tool_name(&self) -> &'static str {
        self.inner.tool
    }

    /// The request's id; `None` for a call made outside a session
    /// ([`ToolServer::call`](crate::ToolServer::call)).
    pub fn request_id(&self) -> Option<&RequestId> {
        self.inner.session.as_ref().map(|s| &s.id)
    }

    /// The request's `_meta`, as the client sent it (`progressToken` included); empty
    /// when it sent none.
    pub fn meta(&self) -> &Map<String, Value> {
        static NONE: OnceLock<Map<String, Value>> = OnceLock::new();
        match &self.inner.session {
            Some(link) => link.session.meta(),
            None => NONE.get_or_init(Map::new),
        }
    }

    /// Who called: the identity the request's access token gives, on a server with
    /// [`authorization`](crate::Server::authorization) over HTTP. `None` over stdio (the
    /// client is the process that started the server), on a server without
    /// authorization, and for a call made outside a session.
    ///
    /// ```standalone_crate
    /// use mcp_tool::{Context, mcp_tool};
    ///
    /// /// Says whom the server serves.
    /// #[mcp_tool]
    /// fn whoami(ctx: Context) -> String {
    ///     match ctx.auth() {
    ///         Some(auth) => format!("{} with {}", auth.principal(), auth.scopes().join(" ")),
    ///         None => "the local user".to_owned(),
    ///     }
    /// }
    /// # fn main() {}
    /// ```
    pub fn auth(&self) -> Option<&Auth> {
        self.inner.auth.as_deref()
    }

    /// The client's name, version and capabilities, when it gave them.
    pub fn client(&self) -> Option<&ClientInfo> {
        let session = self.inner.session.as_ref()?;
        self.client_of(session)
    }

    fn client_of<'a>(&'a self, link: &'a Link) -> Option<&'a ClientInfo> {
        (link.client)
            .get_or_init(|| link.session.client_info().map(Box::new))
            .as_deref()
    }

    fn asked<'a>(&'a self, link: &'a Link) -> &'a Asked {
        (link.asked).get_or_init(|| link.session.asked())
    }

    /// Whether the client cancelled the call (or the call has ended).
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancel.is_cancelled()
    }

    /// Completes when the client cancels the call (or the call ends).
    pub async fn cancelled(&self) {
        self.inner.cancel.cancelled().await;
    }

    /// Reports progress, `done` out of `total`, when the client asked for progress
    /// (sent a `progressToken`); otherwise does nothing. A value that is not above the
    /// last one sent is dropped: progress only ever increases.
    pub async fn progress(&self, done: impl ProgressAmount, total: impl ProgressAmount) {
        self.send_progress(done.as_progress(), Some(total.as_progress()), None)
            .await;
    }

    /// Reports progress as [`progress`](Self::progress) does, with a message (masked as
    /// tool errors are).
    pub fn progress_with_message(
        &self,
        done: impl ProgressAmount,
        total: impl ProgressAmount,
        message: impl fmt::Display,
    ) -> impl Future<Output = ()> + Send + '_ {
        // Formatted at once: the future holds a `String`, never the caller's message.
        let message = masking::mask_failure(&message.to_string()).into_owned();
        self.send_progress(done.as_progress(), Some(total.as_progress()), Some(message))
    }

    /// Reports progress as another server sent it, its total and message (masked) if any.
    #[cfg(feature = "proxy")]
    pub(crate) async fn forward_progress(
        &self,
        done: f64,
        total: Option<f64>,
        message: Option<String>,
    ) {
        let message = message.map(|message| masking::mask_failure(&message).into_owned());
        self.send_progress(done, total, message).await;
    }

    async fn send_progress(&self, done: f64, total: Option<f64>, message: Option<String>) {
        let Some(session) = &self.inner.session else {
            return;
        };
        if !self.asked(session).progress || !done.is_finite() || !self.advance(done) {
            return;
        }
        if let Err(error) = session.session.progress(done, total, message).await {
            tracing::debug!(tool = self.inner.tool, %error, "progress not sent");
        }
    }

    /// Records `done` as the last progress, unless it does not increase.
    fn advance(&self, done: f64) -> bool {
        let mut last = self
            .inner
            .last_progress
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if last.is_some_and(|last| done <= last) {
            return false;
        }
        *last = Some(done);
        true
    }

    /// Sends a log message to the client, unless it asked for more severe ones only
    /// (`logging/setLevel`, or the request's own level from protocol 2026-07-28 on, where
    /// a request that names no level gets no message). The message passes the masking
    /// tool errors pass: credentials become `***`, absolute paths their file's name.
    pub fn log(
        &self,
        level: LogLevel,
        message: impl fmt::Display,
    ) -> impl Future<Output = ()> + Send + '_ {
        // Formatted at once: the future holds a `String`, never the caller's message.
        let wanted = (self.inner.session.as_ref())
            .is_some_and(|session| self.asked(session).wants(level, &self.inner.log_filter));
        let text = wanted.then(|| masking::mask_failure(&message.to_string()).into_owned());
        self.send_log(level, text)
    }

    async fn send_log(&self, level: LogLevel, masked: Option<String>) {
        let (Some(session), Some(masked)) = (&self.inner.session, masked) else {
            return;
        };
        let sent = session.session.log(level, self.inner.tool, masked).await;
        if let Err(error) = sent {
            tracing::debug!(tool = self.inner.tool, %error, "log message not sent");
        }
    }

    /// Sends a `debug` message: see [`log`](Self::log).
    pub fn debug(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Debug, message)
    }

    /// Sends an `info` message: see [`log`](Self::log).
    pub fn info(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Info, message)
    }

    /// Sends a `notice` message: see [`log`](Self::log).
    pub fn notice(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Notice, message)
    }

    /// Sends a `warning` message: see [`log`](Self::log).
    pub fn warning(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Warning, message)
    }

    /// Sends an `error` message: see [`log`](Self::log).
    pub fn error(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Error, message)
    }
}

// Questions for the client: its model (sampling) and its user (elicitation).
impl Context {
    /// Asks the client's model to answer `request` (`sampling/createMessage`) and
    /// returns the text it wrote. A prompt alone is a request; a [`SamplingRequest`]
    /// adds a system prompt, a token limit, a temperature and model preferences.
    ///
    /// Fails with a [`ToolError`] that says why, without waiting, when the call has no
    /// client to ask ([`ToolServer::call`](crate::ToolServer::call)), when the client did
    /// not declare the capability `sampling`, or when it speaks a protocol on which a
    /// server may not send requests (2026-07-28); and when the client refuses, or its
    /// model answers with something other than text. The tool's timeout and the
    /// client's cancellation end the wait as they end any other. On protocol 2026-07-28,
    /// a client that did not declare `sampling` gets no result for the call but a
    /// MissingRequiredClientCapability error (`-32021`, status 400 over HTTP), if the tool
    /// returns this error.
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::{ModelPreferences, SamplingRequest};
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    ///
    /// /// Suggests a title for a text, written by the client's model.
    /// #[mcp_tool]
    /// async fn suggest_title(ctx: Context, text: String) -> Result<String, ToolError> {
    ///     let request = SamplingRequest::new(format!("Suggest a title for:\n\n{text}"))
    ///         .with_system_prompt("Answer with the title alone.")
    ///         .with_max_tokens(30)
    ///         .with_model_preferences(ModelPreferences::new().with_speed_priority(0.9));
    ///     ctx.sample(request).await
    /// }
    /// # fn main() {}
    /// ```
    ///
    /// The plain form: `ctx.sample("What is the capital of France?").await?`.
    pub fn sample(
        &self,
        request: impl Into<SamplingRequest>,
    ) -> impl Future<Output = Result<String, ToolError>> + Send + '_ {
        let request = request.into();
        async move {
            let response = self.sample_response(request).await?;
            match response.content {
                Content::Text(text) => Ok(text.text),
                other => Err(ToolError::new(format!(
                    "the client's model answered with {}, not text",
                    kind_of(&other)
                ))),
            }
        }
    }

    /// Asks the client's model as [`sample`](Self::sample) does, and returns the whole
    /// answer: its content (text, an image or a sound), the model that wrote it and why
    /// it stopped.
    ///
    /// ```standalone_crate
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    ///
    /// /// Answers a question, naming the model that answered.
    /// #[mcp_tool]
    /// async fn ask(ctx: Context, question: String) -> Result<String, ToolError> {
    ///     let response = ctx.sample_response(question).await?;
    ///     let text = response.text().unwrap_or("(no text)");
    ///     Ok(format!("{} says: {text}", response.model))
    /// }
    /// # fn main() {}
    /// ```
    pub fn sample_response(
        &self,
        request: impl Into<SamplingRequest>,
    ) -> impl Future<Output = Result<SamplingResponse, ToolError>> + Send + '_ {
        client_request::sample(self.session_client(), request.into())
    }

    /// Asks the client's user to fill in a form of type `T` (`elicitation/create`), with
    /// `message` saying what for, and returns what the user did: [`Elicitation::Accepted`]
    /// with the answer, [`Elicitation::Declined`] or [`Elicitation::Cancelled`].
    ///
    /// `T` is a flat struct: each field a string, a number, an integer, a bool, an enum
    /// of unit variants (a choice), a `Vec` of such an enum (a multiple choice), or an
    /// `Option` of one of these. Doc comments become descriptions and `#[serde(default)]`
    /// values defaults; see [`ElicitationRequest::for_type`] for the whole mapping. A
    /// field of another shape fails the call before anything is sent, naming the field.
    ///
    /// Fails with a [`ToolError`] that says why, without waiting, when the call has no
    /// client to ask, when the client did not declare the capability `elicitation` (or
    /// supports only URL mode), or when it speaks a protocol on which a server may not
    /// send requests (2026-07-28); and when the client refuses, or the answer does not
    /// decode as `T` (the error names the field). On protocol 2026-07-28, a client that
    /// did not declare `elicitation` gets MissingRequiredClientCapability instead of a
    /// result, as for [`sample`](Self::sample).
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::Elicitation;
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    ///
    /// /// How the user wants the report.
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct ReportOptions {
    ///     /// Include the charts.
    ///     #[serde(default)]
    ///     charts: bool,
    ///     /// The format of the file.
    ///     format: Format,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// #[serde(rename_all = "lowercase")]
    /// enum Format { Pdf, Html }
    ///
    /// /// Writes the quarterly report, asking the user how they want it.
    /// #[mcp_tool]
    /// async fn write_report(ctx: Context) -> Result<String, ToolError> {
    ///     match ctx.elicit::<ReportOptions>("How should the report look?").await? {
    ///         Elicitation::Accepted(options) => Ok(match options.format {
    ///             Format::Pdf => format!("report.pdf written (charts: {})", options.charts),
    ///             Format::Html => format!("report.html written (charts: {})", options.charts),
    ///         }),
    ///         Elicitation::Declined | Elicitation::Cancelled => Ok("no report written".into()),
    ///     }
    /// }
    /// # fn main() {}
    /// ```
    pub fn elicit<T>(
        &self,
        message: impl Into<String>,
    ) -> impl Future<Output = Result<Elicitation<T>, ToolError>> + Send + '_
    where
        T: DeserializeOwned + JsonSchema,
    {
        let request = ElicitationRequest::for_type::<T>(message);
        async move { self.elicit_with(request?).await }
    }

    /// Asks the client's user to fill in a form built beforehand (one with a schema
    /// written by hand, say) and decodes the answer as `T`: a struct, or
    /// `serde_json::Map<String, serde_json::Value>` to take it as it comes. Fails as
    /// [`elicit`](Self::elicit) does.
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::{Elicitation, ElicitationRequest};
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    /// use serde_json::{Map, Value, json};
    ///
    /// /// Deletes the cache once the user confirms.
    /// #[mcp_tool(destructive)]
    /// async fn clear_cache(ctx: Context) -> Result<String, ToolError> {
    ///     let schema = json!({
    ///         "type": "object",
    ///         "properties": { "ok": { "type": "boolean", "title": "Delete the cache?" } },
    ///         "required": ["ok"]
    ///     });
    ///     let form = ElicitationRequest::with_schema("Please confirm", schema.as_object().unwrap().clone());
    ///     let answer: Elicitation<Map<String, Value>> = ctx.elicit_with(form).await?;
    ///     let confirmed = answer.accepted().is_some_and(|a| a.get("ok") == Some(&Value::Bool(true)));
    ///     Ok(if confirmed { "cache cleared" } else { "cache kept" }.to_owned())
    /// }
    /// # fn main() {}
    /// ```
    pub fn elicit_with<T: DeserializeOwned>(
        &self,
        request: ElicitationRequest,
    ) -> impl Future<Output = Result<Elicitation<T>, ToolError>> + Send + '_ {
        let form = request.requested_schema.clone();
        let asked = client_request::elicit(self.session_client(), request);
        async move {
            match asked.await? {
                Elicitation::Accepted(answer) => form::decode(answer, &form)
                    .map(Elicitation::Accepted)
                    .map_err(|why| {
                        ToolError::new(format!("the user's answer does not fit the form: {why}"))
                    }),
                Elicitation::Declined => Ok(Elicitation::Declined),
                Elicitation::Cancelled => Ok(Elicitation::Cancelled),
            }
        }
    }

    /// Asks the client for the roots it shares (`roots/list`): the directories and files
    /// it lets the server work in. Fails as [`sample`](Self::sample) does, for the
    /// capability `roots`.
    ///
    /// ```standalone_crate
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    ///
    /// /// Lists the folders the client shares.
    /// #[mcp_tool]
    /// async fn shared_folders(ctx: Context) -> Result<Vec<String>, ToolError> {
    ///     let roots = ctx.roots().await?;
    ///     Ok(roots.into_iter().map(|root| root.uri).collect())
    /// }
    /// # fn main() {}
    /// ```
    pub fn roots(&self) -> impl Future<Output = Result<Vec<Root>, ToolError>> + Send + '_ {
        client_request::roots(self.session_client())
    }

    /// The client the call's requests go to, when the call came through a session.
    fn session_client(&self) -> Option<Client<'_>> {
        let session = self.inner.session.as_ref()?;
        Some(Client {
            session: session.session.as_ref(),
            info: self.client_of(session),
        })
    }
}

/// A content block's kind, in words.
fn kind_of(content: &Content) -> &'static str {
    match content {
        Content::Text(_) => "text",
        Content::Image(_) => "an image",
        Content::Audio(_) => "a sound",
        Content::Resource(_) => "an embedded resource",
        Content::ResourceLink(_) => "a resource link",
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("tool", &self.inner.tool)
            .field("request_id", &self.request_id())
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// A number of work units for [`Context::progress`]: any primitive integer or float.
pub trait ProgressAmount: Copy {
    /// The amount as the protocol carries it.
    fn as_progress(self) -> f64;
}

macro_rules! progress_amount {
    ($($ty:ty),*) => {
        $(
            impl ProgressAmount for $ty {
                #[inline]
                fn as_progress(self) -> f64 {
                    self as f64
                }
            }
        )*
    };
}

progress_amount!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);
