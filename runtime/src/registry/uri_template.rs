//! URI templates (RFC 6570) as resources use them: `{name}` (simple expansion, one path
//! segment's worth, percent-decoded) and `{+name}` (reserved expansion, which may span
//! `/`). Matching a URI against a template binds each variable to its text. The grammar
//! is `mcp_tool_uri_template`'s, the one `#[mcp_resource]` checks templates with.

use mcp_tool_uri_template::Part;
use regex::Regex;

/// A parsed template, ready to match URIs.
#[derive(Debug)]
pub(crate) struct UriTemplate {
    /// The template as written.
    source: &'static str,
    /// The variables, in order.
    variables: Vec<Variable>,
    matcher: Regex,
}

#[derive(Debug)]
struct Variable {
    name: String,
    /// `{+name}`: taken as sent, `/` included.
    reserved: bool,
}

impl UriTemplate {
    /// Parses `source` with the grammar the attribute checked it with; the message says
    /// what is wrong with a hand-made entry's template.
    pub(crate) fn parse(source: &'static str) -> Result<Self, String> {
        let template = mcp_tool_uri_template::parse(source).map_err(|e| e.to_string())?;
        let mut pattern = String::from("^");
        let mut variables = Vec::new();
        for part in template.parts() {
            match part {
                Part::Literal(text) => pattern.push_str(&regex::escape(text)),
                Part::Variable(variable) => {
                    pattern.push_str(if variable.reserved {
                        "(.*)"
                    } else {
                        "([^/?#]*)"
                    });
                    variables.push(Variable {
                        name: variable.name.to_owned(),
                        reserved: variable.reserved,
                    });
                }
            }
        }
        pattern.push('$');
        let matcher = Regex::new(&pattern).map_err(|e| e.to_string())?;
        Ok(Self {
            source,
            variables,
            matcher,
        })
    }

    pub(crate) fn source(&self) -> &'static str {
        self.source
    }

    /// Each variable's text in `uri`, when `uri` matches; a simple variable is
    /// percent-decoded, and one that does not decode to UTF-8 fails the match.
    pub(crate) fn matches(&self, uri: &str) -> Option<Vec<(&str, String)>> {
        let captures = self.matcher.captures(uri)?;
        let mut bound = Vec::with_capacity(self.variables.len());
        for (variable, text) in self.variables.iter().zip(captures.iter().skip(1)) {
            let text = text?.as_str();
            let value = if variable.reserved {
                text.to_owned()
            } else {
                percent_decode(text)?
            };
            bound.push((variable.name.as_str(), value));
        }
        Some(bound)
    }
}

/// `%XX` sequences decoded; `None` for a broken one or for bytes that are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            decoded.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_simple_and_reserved_variables() {
        let template = UriTemplate::parse("test://template/{id}/data").unwrap();
        assert_eq!(
            template.matches("test://template/123/data"),
            Some(vec![("id", "123".to_owned())])
        );
        assert_eq!(template.matches("test://template/1/2/data"), None);
        assert_eq!(template.matches("test://template/123/datum"), None);

        let files = UriTemplate::parse("files:///{+path}").unwrap();
        assert_eq!(
            files.matches("files:///src/main.rs"),
            Some(vec![("path", "src/main.rs".to_owned())])
        );
    }

    #[test]
    fn decodes_percent_escapes_of_simple_variables() {
        let template = UriTemplate::parse("notes://{title}").unwrap();
        assert_eq!(
            template.matches("notes://caf%C3%A9%20menu"),
            Some(vec![("title", "café menu".to_owned())])
        );
        assert_eq!(template.matches("notes://%ZZ"), None);
        assert_eq!(template.matches("notes://%FF"), None);
    }

    /// The server judges each template of the table shared with the grammar and the
    /// attribute as the table says: the same templates bound, the same refused.
    #[test]
    fn judges_the_shared_table_of_templates() {
        let table = include_str!("../../../uri-template/tests/cases.txt");
        let mut cases = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (template, expected) = line.split_once('\t').unwrap();
            let source: &'static str = String::leak(template.to_owned());
            let judged = match UriTemplate::parse(source) {
                Ok(parsed) => {
                    let names: Vec<String> = (parsed.variables.iter())
                        .map(|v| format!("{}{}", if v.reserved { "+" } else { "" }, v.name))
                        .collect();
                    format!("= {}", names.join(","))
                }
                Err(problem) => format!("! {problem}"),
            };
            assert_eq!(judged, expected, "{template}");
            cases += 1;
        }
        assert!(cases >= 30, "the table holds {cases} cases");
    }

    #[test]
    fn binds_dotted_and_adjacent_variables() {
        let template = UriTemplate::parse("q://{a.b}-{c}").unwrap();
        assert_eq!(
            template.matches("q://x-y"),
            Some(vec![("a.b", "x".to_owned()), ("c", "y".to_owned())])
        );
    }
}
