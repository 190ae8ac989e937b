//! The arguments of a call of a tool defined at run time, read by name: every fault is
//! collected and reported at once, in the words attribute tools use, and never echoes
//! the value that was sent (it may be a secret).

use std::sync::{Arc, OnceLock};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::call::arguments::reader::{FEW, decode_fault, invalid_fault};
use crate::call::param::ToolParam;
use crate::call::schema;
use crate::outcome::argument_errors::{ArgumentErrors, Fault};
use crate::outcome::error::ToolError;
use crate::outcome::suggest;

/// The arguments of one call of a [`RuntimeTool`](crate::RuntimeTool), read by name.
///
/// Each accessor reads one argument and checks its type; a fault (missing, of the wrong
/// type, out of bounds) is recorded, and the accessor returns a placeholder (`""`, `0`,
/// `false`) or `None`. Read every argument first, then call [`finish`](Self::finish):
/// it fails with every fault at once, and with each argument sent that nothing read and
/// the input schema does not list, in the same words `#[mcp_tool]` tools use
/// (``invalid arguments for tool `x`: missing argument `pattern`; `limit`: expected an
/// integer from 1 to 100``). No message echoes a value the client sent.
///
/// A handler that returns without calling `finish` still fails with the faults its
/// reads recorded; `finish` is what keeps it from acting on a placeholder.
///
/// ```
/// use mcp_tool::{Arguments, ToolError};
///
/// fn greeting(mut args: Arguments) -> Result<String, ToolError> {
///     let name = args.required_str("name");
///     let times = args.optional_bounded_i64("times", 1, 3).unwrap_or(1);
///     args.finish()?;
///     Ok(format!("hello, {name}").repeat(times as usize))
/// }
///
/// let args = serde_json::json!({ "name": "Ada", "times": 2 });
/// let args = mcp_tool::Arguments::new(args.as_object().unwrap().clone());
/// assert_eq!(greeting(args)?, "hello, Adahello, Ada");
///
/// let args = serde_json::json!({ "times": 7, "nmae": "Ada" });
/// let args = mcp_tool::Arguments::new(args.as_object().unwrap().clone());
/// assert_eq!(
///     greeting(args).unwrap_err().message(),
///     "missing argument `name`; `times`: expected an integer from 1 to 3; \
///      unknown argument `nmae` (did you mean `name`?)"
/// );
/// # Ok::<(), ToolError>(())
/// ```
#[derive(Debug)]
pub struct Arguments {
    call: Arc<CallArguments>,
    /// Which arguments sent were read, by position, when at most [`FEW`] were sent.
    read_sent: u64,
    /// The properties of the tool's input schema: sent and unread, they are not unknown.
    declared: Arc<[String]>,
    /// How many of the arguments sent were read: when all were, none is unknown.
    found: usize,
    /// What reading recorded beyond `read_sent`, made when first needed: a call that
    /// reads a few arguments, all sent and sound, never needs it.
    noted: Option<Box<Noted>>,
    finished: bool,
}

/// The names and the faults a call's reading recorded.
#[derive(Debug, Default)]
struct Noted {
    /// The names read, each once, that no bit of `read_sent` records and the input
    /// schema does not list: read but not sent, or sent among more than [`FEW`].
    read: Vec<String>,
    faults: Vec<Fault>,
}

/// A call's arguments as sent, shared by its [`Arguments`] and the server, which logs
/// them if the call fails (however the handler ends: it may panic or run out of time
/// while it holds them); and where the faults go that no `finish` reported.
pub(crate) struct CallArguments {
    args: Map<String, Value>,
    unreported: OnceLock<ArgumentErrors>,
}

impl std::fmt::Debug for CallArguments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The names only: the values are the client's, and may be secret.
        f.debug_struct("CallArguments")
            .field("arg_names", &self.args.keys().collect::<Vec<_>>())
            .field("unreported", &self.unreported.get().is_some())
            .finish()
    }
}

impl CallArguments {
    /// The arguments as sent.
    pub(crate) fn args(&self) -> &Map<String, Value> {
        &self.args
    }

    /// The faults of arguments dropped without `finish`.
    #[inline]
    pub(crate) fn unreported(&self) -> Option<&ArgumentErrors> {
        self.unreported.get()
    }
}

impl Arguments {
    /// The arguments of a call, as a JSON object; for tests of a handler, and for running
    /// one outside a server.
    pub fn new(args: Map<String, Value>) -> Self {
        Self::for_call(args, Arc::from([]))
    }

    /// The arguments of a call of a tool whose input schema lists `declared`.
    pub(crate) fn for_call(args: Map<String, Value>, declared: Arc<[String]>) -> Self {
        Self {
            call: Arc::new(CallArguments {
                args,
                unreported: OnceLock::new(),
            }),
            read_sent: 0,
            declared,
            found: 0,
            noted: None,
            finished: false,
        }
    }

    /// The call's arguments as sent, and the faults these arguments leave unreported
    /// when dropped.
    pub(crate) fn call(&self) -> Arc<CallArguments> {
        Arc::clone(&self.call)
    }

    /// The arguments as the client sent them.
    pub fn as_map(&self) -> &Map<String, Value> {
        &self.call.args
    }

    /// A string that must be sent; `""` after a fault.
    #[inline]
    pub fn required_str(&mut self, name: &str) -> String {
        self.required::<String>(name).unwrap_or_default()
    }

    /// An integer that must be sent; `0` after a fault. `5.0` counts as `5`, as JSON
    /// Schema has it.
    #[inline]
    pub fn required_i64(&mut self, name: &str) -> i64 {
        self.required::<i64>(name).unwrap_or_default()
    }

    /// A number that must be sent; `0.0` after a fault.
    #[inline]
    pub fn required_f64(&mut self, name: &str) -> f64 {
        self.required::<f64>(name).unwrap_or_default()
    }

    /// A boolean that must be sent; `false` after a fault.
    #[inline]
    pub fn required_bool(&mut self, name: &str) -> bool {
        self.required::<bool>(name).unwrap_or_default()
    }

    /// A string, if sent (absent and `null` are `None`, as is a fault).
    #[inline]
    pub fn optional_str(&mut self, name: &str) -> Option<String> {
        self.optional::<String>(name)
    }

    /// An integer, if sent.
    #[inline]
    pub fn optional_i64(&mut self, name: &str) -> Option<i64> {
        self.optional::<i64>(name)
    }

    /// A number, if sent.
    #[inline]
    pub fn optional_f64(&mut self, name: &str) -> Option<f64> {
        self.optional::<f64>(name)
    }

    /// A boolean, if sent.
    #[inline]
    pub fn optional_bool(&mut self, name: &str) -> Option<bool> {
        self.optional::<bool>(name)
    }

    /// An integer from `min` to `max` (both included), if sent: one outside is a fault
    /// (``"`limit`: expected an integer from 1 to 100"``), as
    /// `#[arg(range(min = 1, max = 100))]` makes it for an attribute tool.
    ///
    /// ```
    /// let args = serde_json::json!({ "limit": 500 });
    /// let mut args = mcp_tool::Arguments::new(args.as_object().unwrap().clone());
    /// assert_eq!(args.optional_bounded_i64("limit", 1, 100), None);
    /// assert_eq!(args.finish().unwrap_err().message(), "`limit`: expected an integer from 1 to 100");
    /// ```
    pub fn optional_bounded_i64(&mut self, name: &str, min: i64, max: i64) -> Option<i64> {
        let value = self.optional::<i64>(name)?;
        if (min..=max).contains(&value) {
            return Some(value);
        }
        let fault = invalid_fault(name, None, |generator| {
            let mut value = (<i64 as ToolParam>::PARAM_TYPE.schema)(generator).to_value();
            schema::normalize(&mut value);
            if let Value::Object(object) = &mut value {
                object.insert("minimum".into(), min.into());
                object.insert("maximum".into(), max.into());
            }
            value
        });
        self.fault(fault);
        None
    }

    /// An argument of any type that must be sent, decoded with serde; `None` after a
    /// fault, which names the path inside the argument where decoding failed
    /// (`` `span.end`: expected an integer of at least 0 ``).
    ///
    /// ```
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Span {
    ///     start: u32,
    ///     end: u32,
    /// }
    ///
    /// let args = serde_json::json!({ "span": { "start": 1, "end": -4 } });
    /// let mut args = mcp_tool::Arguments::new(args.as_object().unwrap().clone());
    /// assert!(args.required::<Span>("span").is_none());
    /// assert_eq!(
    ///     args.finish().unwrap_err().message(),
    ///     "`span.end`: expected an integer from 0 to 4294967295"
    /// );
    /// ```
    #[inline]
    pub fn required<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Option<T> {
        match self.read(name) {
            Read::Value(value) => Some(value),
            Read::Absent => {
                self.fault(Fault::Missing(name.to_owned()));
                None
            }
            Read::Faulty => None,
        }
    }

    /// An argument of any type, if sent, decoded with serde; `None` when absent, `null`
    /// or faulty.
    #[inline]
    pub fn optional<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Option<T> {
        match self.read(name) {
            Read::Value(value) => Some(value),
            Read::Absent | Read::Faulty => None,
        }
    }

    /// Ends reading: fails with every fault the reads recorded, and each argument sent
    /// that nothing read and the tool's input schema does not list, at once. Its error
    /// reaches the client as an argument error, as an attribute tool's does.
    #[inline]
    pub fn finish(mut self) -> Result<(), ToolError> {
        self.finished = true;
        match self.errors() {
            Some(errors) => Err(ToolError::from_arguments(errors)),
            None => Ok(()),
        }
    }

    /// Every fault, unknown arguments last; `None` without any.
    #[inline]
    fn errors(&mut self) -> Option<ArgumentErrors> {
        // Keys are distinct: when each was read, none is unknown.
        if self.noted.is_none() && self.found == self.call.args.len() {
            return None;
        }
        self.faults_and_unknown()
    }

    /// What reading recorded beyond `read_sent`, made on first use.
    fn noted(&mut self) -> &mut Noted {
        self.noted.get_or_insert_with(Box::default)
    }

    /// Records a fault, reported by `finish`.
    #[cold]
    fn fault(&mut self, fault: Fault) {
        self.noted().faults.push(fault);
    }

    /// [`errors`](Self::errors) once a fault was recorded or an argument sent is unread.
    #[cold]
    #[inline(never)]
    fn faults_and_unknown(&mut self) -> Option<ArgumentErrors> {
        let Noted { read, mut faults } =
            (self.noted.take()).map(|noted| *noted).unwrap_or_default();
        let args = &self.call.args;
        let read_sent = |index: usize| args.len() <= FEW && self.read_sent & (1 << index) != 0;
        let known = || {
            let sent_and_read = (args.keys().enumerate())
                .filter(|(index, _)| read_sent(*index))
                .map(|(_, key)| key);
            (read.iter())
                .chain(self.declared.iter())
                .chain(sent_and_read)
                .map(String::as_str)
        };
        for (index, key) in args.keys().enumerate() {
            if read_sent(index) || known().any(|known| known == key) {
                continue;
            }
            faults.push(Fault::Unknown {
                name: key.clone(),
                suggestion: suggest::closest(key, known()).map(str::to_owned),
            });
        }
        (!faults.is_empty()).then(|| ArgumentErrors::new(faults))
    }

    /// The argument `name`, decoded; a fault is recorded. `name` counts as read.
    #[inline]
    fn read<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Read<T> {
        let Some(value) = self.find(name) else {
            self.remember(name);
            return Read::Absent;
        };
        if value.is_null() {
            return Read::Absent;
        }
        let param = <T as ToolParam>::PARAM_TYPE;
        match (param.decode)(value) {
            Ok(decoded) => Read::Value(decoded),
            Err((path, message)) => {
                let fault = decode_fault(name, &path, &message, |generator| {
                    let mut value = (param.schema)(generator).to_value();
                    schema::normalize(&mut value);
                    value
                });
                self.fault(fault);
                Read::Faulty
            }
        }
    }

    /// The argument `name` as sent, if it was, counted as read.
    #[inline]
    fn find(&mut self, name: &str) -> Option<&Value> {
        let args = &self.call.args;
        if args.len() > FEW {
            let value = args.get(name)?;
            let read = &mut self.noted.get_or_insert_with(Box::default).read;
            if !read.iter().any(|read| read == name) {
                read.push(name.to_owned());
                self.found += 1;
            }
            return Some(value);
        }
        // Found by comparing names, and recorded by position.
        let (index, value) = (args.iter().enumerate())
            .find_map(|(index, (key, value))| (key == name).then_some((index, value)))?;
        let bit = 1 << index;
        self.found += usize::from(self.read_sent & bit == 0);
        self.read_sent |= bit;
        Some(value)
    }

    /// Remembers a name read and not sent, for the suggestions of unknown arguments.
    #[cold]
    fn remember(&mut self, name: &str) {
        let read = &mut self.noted.get_or_insert_with(Box::default).read;
        if !(read.iter())
            .chain(self.declared.iter())
            .any(|known| known == name)
        {
            read.push(name.to_owned());
        }
    }
}

/// What reading one argument gave.
enum Read<T> {
    Value(T),
    /// Not sent, or `null`.
    Absent,
    /// Sent, and recorded as a fault.
    Faulty,
}

impl Drop for Arguments {
    #[inline]
    fn drop(&mut self) {
        if !self.finished {
            self.unfinished();
        }
    }
}

impl Arguments {
    /// Dropped without `finish`: the faults go where the server finds them.
    #[cold]
    #[inline(never)]
    fn unfinished(&mut self) {
        if let Some(errors) = self.errors() {
            // Arguments are dropped once: the slot is empty.
            let _ = self.call.unreported.set(errors);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments(args: Value, declared: &[&str]) -> Arguments {
        let Value::Object(args) = args else {
            unreachable!("the arguments are an object")
        };
        let declared = declared.iter().map(|name| (*name).to_owned()).collect();
        Arguments::for_call(args, declared)
    }

    #[test]
    fn debug_shows_the_names_of_the_arguments_never_their_values() {
        let secret = "sk-live-4f9a8b7c6d5e4f3a2b1c";
        let mut args = arguments(
            serde_json::json!({ "api_key": secret, "nested": { "token": secret } }),
            &["api_key"],
        );
        let _ = args.optional_str("missing");
        for shown in [format!("{args:?}"), format!("{:?}", args.call())] {
            assert!(!shown.contains(secret), "{shown}");
            assert!(!shown.contains("4f9a8b"), "{shown}");
            assert!(
                shown.contains("api_key") && shown.contains("nested"),
                "{shown}"
            );
        }
    }

    #[test]
    fn a_name_read_twice_leaves_no_other_argument_unread() {
        let mut args = arguments(serde_json::json!({ "a": 1, "z": 2 }), &["a"]);
        assert_eq!(args.required_i64("a"), 1);
        assert_eq!(args.required_i64("a"), 1);
        let error = args.finish().unwrap_err();
        assert_eq!(error.message(), "unknown argument `z`");

        let mut args = arguments(serde_json::json!({ "x": 1, "z": 2 }), &[]);
        assert_eq!(args.optional_i64("x"), Some(1));
        assert_eq!(args.optional_i64("x"), Some(1));
        assert_eq!(args.optional_i64("y"), None);
        let error = args.finish().unwrap_err();
        assert_eq!(error.message(), "unknown argument `z`");
    }

    #[test]
    fn every_argument_among_many_counts_once() {
        let names: Vec<String> = (0..70).map(|i| format!("p{i}")).collect();
        let declared: Vec<&str> = names.iter().map(String::as_str).collect();
        let sent: Map<String, Value> = (names.iter().skip(60))
            .map(|name| (name.clone(), Value::from(1)))
            .collect();
        let mut args = arguments(Value::Object(sent.clone()), &declared);
        for name in names.iter().skip(60) {
            assert_eq!(args.required_i64(name), 1);
            assert_eq!(args.required_i64(name), 1);
        }
        assert!(args.finish().is_ok());

        // Unread, a listed argument is not unknown either.
        let mut args = arguments(Value::Object(sent.clone()), &declared);
        assert_eq!(args.required_i64("p69"), 1);
        assert!(args.finish().is_ok());

        // Unlisted and unread, one is, however many were sent.
        let mut args = arguments(Value::Object(sent), &declared[..65]);
        for name in names.iter().skip(60).take(9) {
            assert_eq!(args.optional_i64(name), Some(1));
        }
        let error = args.finish().unwrap_err();
        // One fault, with the closest declared name.
        assert_eq!(
            error.message(),
            "unknown argument `p69` (did you mean `p6`?)"
        );
    }

    #[test]
    fn a_name_read_and_sent_is_suggested_for_an_unknown_one() {
        let mut args = arguments(serde_json::json!({ "limit": 1, "limt": 2 }), &[]);
        assert_eq!(args.optional_i64("limit"), Some(1));
        assert_eq!(args.optional_i64("offset"), None);
        let error = args.finish().unwrap_err();
        assert_eq!(
            error.message(),
            "unknown argument `limt` (did you mean `limit`?)"
        );
    }
}
