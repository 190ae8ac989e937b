//! Why a call failed: the one type every failure of a tool becomes, before it is
//! reported (see `failure_report`).

use std::any::Any;
use std::fmt::Display;

use crate::outcome::argument_errors::ArgumentErrors;
use crate::outcome::error::ToolError;

/// Why a call failed.
#[doc(hidden)]
#[derive(Debug)]
pub enum Failure {
    /// The arguments did not fit the schema.
    Arguments(ArgumentErrors),
    /// The tool returned a [`ToolError`].
    Tool(ToolError),
    /// The tool returned another error: its `{:#}` text and, for a
    /// `std::error::Error`, the texts of its sources.
    Internal {
        message: String,
        sources: Vec<String>,
    },
    /// The tool panicked: its payload (when it was a string) and where.
    Panic {
        message: String,
        location: Option<String>,
    },
    /// The tool did not finish in time.
    Timeout(std::time::Duration),
    /// The call asked the client a question it has no answer to yet, on a protocol
    /// where the call then ends with the questions (2026-07-28): not a failure, and
    /// never reported as one.
    InputRequired,
}

/// Error types a tool may return in `Err`: every type that implements
/// [`Display`](std::fmt::Display), through a blanket implementation. A
/// [`ToolError`](crate::ToolError)'s message is written for the model; any other error
/// is an internal error of the tool, masked, and hidden entirely with
/// [`Server::hide_internal_errors`](crate::Server::hide_internal_errors).
///
/// ```
/// /// Returns the number a text holds.
/// #[mcp_tool::mcp_tool]
/// fn parse(text: String) -> Result<i64, std::num::ParseIntError> {
///     text.trim().parse()
/// }
/// # assert_eq!(parse(" 42 ".into()), Ok(42));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's error type",
    label = "this error type does not implement `Display`",
    note = "return `mcp_tool::ToolError` for messages meant for the model, or any error type that implements `std::fmt::Display`"
)]
pub trait IntoFailure {
    #[doc(hidden)]
    fn into_failure(self) -> Failure;
}

impl<E: Display + 'static> IntoFailure for E {
    fn into_failure(self) -> Failure {
        match (&self as &dyn Any).downcast_ref::<ToolError>() {
            Some(error) => Failure::Tool(error.clone()),
            None => Failure::internal(format!("{self:#}")),
        }
    }
}

impl Failure {
    /// Unreachable: every missing argument was reported by `ArgReader::finish`.
    pub fn inconsistent_arguments() -> Self {
        Failure::internal("the arguments were read inconsistently".to_owned())
    }

    pub(crate) fn internal(message: String) -> Self {
        Failure::Internal {
            message,
            sources: Vec::new(),
        }
    }

    /// A `std::error::Error`, with its chain of sources kept for the log.
    pub(crate) fn from_error<E: std::error::Error + 'static>(error: E) -> Self {
        if let Some(error) = (&error as &dyn Any).downcast_ref::<ToolError>() {
            return Failure::Tool(error.clone());
        }
        let mut sources = Vec::new();
        let mut source = error.source();
        while let Some(cause) = source {
            sources.push(cause.to_string());
            source = cause.source();
        }
        Failure::Internal {
            message: format!("{error:#}"),
            sources,
        }
    }
}
