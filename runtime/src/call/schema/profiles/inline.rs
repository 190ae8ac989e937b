//! The `inline` profile: every `$ref` replaced by the definition it names, and no
//! `$defs` left. A type that refers to itself has no such form and is refused, by name.

use serde_json::{Map, Value};

use super::{ProfileError, each_subschema};

/// `schema` with every reference expanded where it is used.
pub(super) fn inlined(schema: &Map<String, Value>) -> Result<Map<String, Value>, ProfileError> {
    let mut root = schema.clone();
    let mut definitions = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(found)) = root.remove(key) {
            definitions.extend(found);
        }
    }
    if definitions.is_empty() && !mentions_ref(schema) {
        return Ok(root);
    }
    let mut inliner = Inliner {
        definitions: &definitions,
        root: schema,
        open: Vec::new(),
        error: None,
    };
    let mut value = Value::Object(root);
    inliner.expand(&mut value);
    match (inliner.error, value) {
        (Some(error), _) => Err(error),
        (None, Value::Object(root)) => Ok(root),
        (None, _) => unreachable!("an object stays an object"),
    }
}

/// Whether a `$ref` is anywhere in `schema`, the cheap test that spares most schemas.
fn mentions_ref(schema: &Map<String, Value>) -> bool {
    schema.iter().any(|(key, value)| {
        key == "$ref"
            || match value {
                Value::Object(object) => mentions_ref(object),
                Value::Array(items) => {
                    (items.iter()).any(|item| item.as_object().is_some_and(mentions_ref))
                }
                _ => false,
            }
    })
}

struct Inliner<'a> {
    definitions: &'a Map<String, Value>,
    /// The whole schema, for a `$ref` of `#`.
    root: &'a Map<String, Value>,
    /// The definitions being expanded, outermost first: one met again is a cycle.
    open: Vec<String>,
    error: Option<ProfileError>,
}

impl Inliner<'_> {
    fn expand(&mut self, value: &mut Value) {
        if self.error.is_some() {
            return;
        }
        let Value::Object(schema) = value else {
            return;
        };
        if let Some(Value::String(reference)) = schema.get("$ref") {
            let reference = reference.clone();
            let Some((name, definition)) = self.lookup(&reference) else {
                self.error = Some(ProfileError::Unresolved(reference));
                return;
            };
            if self.open.contains(&name) {
                self.error = Some(ProfileError::Recursive(name));
                return;
            }
            schema.remove("$ref");
            // The keywords beside the `$ref` (a description, say) win over the definition's.
            if let Value::Object(definition) = definition {
                for (key, value) in definition {
                    schema.entry(key).or_insert(value);
                }
            }
            self.open.push(name);
            self.expand(value);
            self.open.pop();
            return;
        }
        each_subschema(schema, &mut |child| self.expand(child));
    }

    /// The name and the schema a reference points at.
    fn lookup(&self, reference: &str) -> Option<(String, Value)> {
        if reference == "#" {
            let mut root = self.root.clone();
            root.remove("$defs");
            root.remove("definitions");
            let name = (root.get("title").and_then(Value::as_str))
                .unwrap_or("the tool's arguments")
                .to_owned();
            return Some((name, Value::Object(root)));
        }
        let name = (reference.strip_prefix("#/$defs/"))
            .or_else(|| reference.strip_prefix("#/definitions/"))?;
        let name = name.replace("~1", "/").replace("~0", "~");
        let definition = self.definitions.get(&name)?.clone();
        Some((name, definition))
    }
}
