//! Prompt arguments and URI template variables travel as strings: each is read as the
//! JSON value its parameter's type expects (`"5"` as `5` for an integer, `"true"` as
//! `true`), so that one reader, with its argument errors, serves tools, prompts and
//! resources alike.

use serde_json::{Map, Value};

use crate::call::param::ParamSpec;
use crate::call::schema;

/// For each parameter, whether its text is read as JSON: every argument whose schema is
/// not a plain string. Worked out once, when the server is built.
pub(crate) fn parsed_as_json(params: &[ParamSpec]) -> Vec<bool> {
    let mut generator = schema::generator(schemars::generate::Contract::Deserialize);
    params
        .iter()
        .map(|param| {
            param.kind.is_argument()
                && schema::param_schema(param, &mut generator).get("type")
                    != Some(&Value::from("string"))
        })
        .collect()
}

/// The arguments with each text that its parameter reads as JSON replaced by that JSON,
/// where it parses; where it does not, the text stays, and the reader reports the
/// argument's type.
pub(crate) fn typed(
    mut arguments: Map<String, Value>,
    params: &[ParamSpec],
    as_json: &[bool],
) -> Map<String, Value> {
    for (param, _) in params.iter().zip(as_json).filter(|(_, json)| **json) {
        if let Some(value) = arguments.get_mut(param.name)
            && let Value::String(text) = value
            && let Ok(parsed) = serde_json::from_str::<Value>(text)
        {
            *value = parsed;
        }
    }
    arguments
}
