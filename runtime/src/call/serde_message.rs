//! What serde's messages say, read where serde gives no structured form of it: the field
//! that `missing field` and `unknown field` name, and what `, expected ...` asks for. The
//! tests below feed serde's own messages through, so a rewording upstream fails them.

/// The field a decoding error is about, when serde's message names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NamedField<'a> {
    /// serde's "missing field `name`".
    Missing(&'a str),
    /// serde's "unknown field `name`, expected ...".
    Unknown(&'a str),
}

/// The field that `message` names as missing or unknown, if it names one; serde names
/// fields, never values, in these two messages.
pub(crate) fn named_field(message: &str) -> Option<NamedField<'_>> {
    if let Some(field) = backticked_after(message, "missing field `") {
        return Some(NamedField::Missing(field));
    }
    backticked_after(message, "unknown field `").map(NamedField::Unknown)
}

/// What serde's "invalid type: ..., expected X" message says was expected: X.
pub(crate) fn expected(message: &str) -> Option<&str> {
    message
        .rsplit_once(", expected ")
        .map(|(_, expected)| expected)
}

fn backticked_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(prefix)?;
    rest.split_once('`').map(|(field, _)| field)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::{Value, json};

    use super::{NamedField, expected, named_field};

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Point {
        x: u32,
        y_axis: u32,
    }

    /// serde's message for `value` read as a `Point`, as the runtime reads arguments:
    /// through serde_path_to_error, from a JSON value.
    fn message(value: Value) -> String {
        let error = serde_path_to_error::deserialize::<_, Point>(&value).unwrap_err();
        error.inner().to_string()
    }

    #[test]
    fn serde_names_a_missing_field_as_read() {
        let text = message(json!({"x": 1}));
        assert_eq!(text, "missing field `y_axis`");
        assert_eq!(named_field(&text), Some(NamedField::Missing("y_axis")));
    }

    #[test]
    fn serde_names_an_unknown_field_as_read() {
        let text = message(json!({"x": 1, "y_axis": 2, "z": 3}));
        assert_eq!(text, "unknown field `z`, expected `x` or `y_axis`");
        assert_eq!(named_field(&text), Some(NamedField::Unknown("z")));
    }

    #[test]
    fn serde_says_what_it_expected_as_read() {
        let text = message(json!({"x": "one", "y_axis": 2}));
        assert_eq!(text, "invalid type: string \"one\", expected u32");
        assert_eq!(named_field(&text), None);
        assert_eq!(expected(&text), Some("u32"));

        #[derive(Debug, Deserialize)]
        enum Mode {
            Fast,
            Slow,
        }
        let error = serde_json::from_value::<Mode>(json!("medium")).unwrap_err();
        let text = error.to_string();
        assert_eq!(text, "unknown variant `medium`, expected `Fast` or `Slow`");
        assert_eq!(named_field(&text), None);
        assert_eq!(expected(&text), Some("`Fast` or `Slow`"));
        assert!(matches!(
            serde_json::from_value(json!("Slow")),
            Ok(Mode::Slow | Mode::Fast)
        ));

        let text = message(json!([1, 2, 3]));
        assert_eq!(text, "invalid length 3, expected fewer elements in array");
        assert_eq!(expected(&text), Some("fewer elements in array"));
    }

    #[test]
    fn a_field_named_like_the_prefix_is_read_whole() {
        let text = message(json!({"x": 1, "y_axis": 2, "missing field ": 3}));
        assert_eq!(
            named_field(&text),
            Some(NamedField::Unknown("missing field "))
        );
    }
}
