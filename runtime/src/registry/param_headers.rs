//! The arguments of a run-time tool mirrored in `Mcp-Param-*` HTTP headers (protocol
//! 2026-07-28, SEP-2243): `x-mcp-header` written into its input schema, by the rules
//! `#[arg(header = "...")]` checks at compile time.

use serde_json::{Map, Value};

/// Writes `x-mcp-header` on each argument of `headers` (`(argument, header)`) in the
/// object schema `schema`; what is wrong, if anything.
pub(crate) fn mirror(
    schema: &mut Map<String, Value>,
    headers: &[(String, String)],
) -> Result<(), String> {
    let mut seen: Vec<String> = Vec::new();
    for (argument, header) in headers {
        let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if header.is_empty() || !header.chars().all(token) {
            return Err(format!(
                "`{header}` cannot be an HTTP header name: a header takes letters, digits and \
                 `-` (an RFC 9110 token), such as `.header(\"region\", \"Region\")`, which the \
                 client sends as `Mcp-Param-Region`"
            ));
        }
        let folded = header.to_ascii_lowercase();
        if seen.contains(&folded) {
            return Err(format!(
                "another argument is already mirrored in `Mcp-Param-{header}`: each header \
                 carries one argument"
            ));
        }
        seen.push(folded);
        let property = (schema.get_mut("properties"))
            .and_then(Value::as_object_mut)
            .and_then(|properties| properties.get_mut(argument))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| {
                format!(
                    "its header `Mcp-Param-{header}` mirrors the argument `{argument}`, which its \
                     input schema has no property for: add `{argument}` under \"properties\", \
                     or name one it has"
                )
            })?;
        let primitive = matches!(
            property.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "boolean")
        );
        if !primitive {
            return Err(format!(
                "its argument `{argument}` is mirrored in `Mcp-Param-{header}`, but only a \
                 string, an integer or a boolean travels in a header: give it `\"type\": \
                 \"string\"`, `\"integer\"` or `\"boolean\"`, or mirror another argument"
            ));
        }
        property.insert("x-mcp-header".into(), header.clone().into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::mirror;

    fn schema() -> serde_json::Map<String, serde_json::Value> {
        json!({
            "type": "object",
            "properties": {
                "region": { "type": "string" },
                "zone": { "type": "integer" },
                "filter": { "type": "object" }
            }
        })
        .as_object()
        .unwrap()
        .clone()
    }

    fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, h)| ((*a).to_owned(), (*h).to_owned()))
            .collect()
    }

    #[test]
    fn a_mirrored_argument_carries_x_mcp_header() {
        let mut schema = schema();
        mirror(
            &mut schema,
            &headers(&[("region", "Region"), ("zone", "Zone")]),
        )
        .unwrap();
        assert_eq!(schema["properties"]["region"]["x-mcp-header"], "Region");
        assert_eq!(schema["properties"]["zone"]["x-mcp-header"], "Zone");
        assert!(schema["properties"]["filter"].get("x-mcp-header").is_none());
    }

    #[test]
    fn a_header_is_refused_when_it_cannot_carry_its_argument() {
        for (pairs, told) in [
            (
                &[("region", "Re gion")][..],
                "cannot be an HTTP header name",
            ),
            (&[("region", "")][..], "cannot be an HTTP header name"),
            (
                &[("region", "Region"), ("zone", "region")][..],
                "already mirrored",
            ),
            (&[("nowhere", "Nowhere")][..], "has no property for"),
            (
                &[("filter", "Filter")][..],
                "only a string, an integer or a boolean",
            ),
        ] {
            let error = mirror(&mut schema(), &headers(pairs)).unwrap_err();
            assert!(error.contains(told), "{pairs:?}: {error}");
        }
    }
}
