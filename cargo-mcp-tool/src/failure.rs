//! `Failure`: what went wrong, said so that a person can act on it, and the exit code.

use std::fmt;

/// A command's failure: a message for the person who ran it.
#[derive(Debug)]
pub(crate) struct Failure {
    message: String,
}

impl Failure {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Shorthand for a failure built with `format!`.
macro_rules! failure {
    ($($arg:tt)*) => {
        $crate::failure::Failure::new(format!($($arg)*))
    };
}
pub(crate) use failure;
