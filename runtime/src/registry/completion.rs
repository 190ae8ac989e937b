//! Completion (`completion/complete`): the functions that `#[arg(complete = ...)]` names,
//! and the suggestions they give, cut to what one reply may hold.

use crate::model::Completion;

/// The completion function of one argument of a prompt or one variable of a resource
/// template.
#[doc(hidden)]
#[derive(Debug)]
pub struct Completer {
    /// The argument's (or the variable's) name.
    pub argument: &'static str,
    /// Gives the suggestions for what the user typed so far.
    pub complete: fn(&str) -> Vec<String>,
}

/// The most values one reply may carry (the specification's limit).
const MAX_VALUES: usize = 100;

/// Generated code's conversion of a completion function's suggestions.
#[doc(hidden)]
pub fn suggestions<I>(values: I) -> Vec<String>
where
    I: IntoIterator,
    I::Item: Into<String>,
{
    values.into_iter().map(Into::into).collect()
}

/// The suggestions of `argument`'s completer for `prefix`, or none when it has none.
pub(crate) fn complete(completers: &[Completer], argument: &str, prefix: &str) -> Completion {
    let Some(completer) = completers.iter().find(|c| c.argument == argument) else {
        return Completion::default();
    };
    let mut values = match crate::outcome::panics::catch(|| (completer.complete)(prefix)) {
        Ok(values) => values,
        Err(_) => {
            tracing::warn!(argument, "the completion function panicked: no suggestions");
            Vec::new()
        }
    };
    let total = u32::try_from(values.len()).ok();
    let has_more = values.len() > MAX_VALUES;
    values.truncate(MAX_VALUES);
    Completion {
        values,
        total,
        has_more,
    }
}
