//! URI templates (RFC 6570) as resources use them: `{name}` (simple expansion, one path
//! segment's worth, percent-decoded) and `{+name}` (reserved expansion, which may span
//! `/`). Matching a URI against a template binds each variable to its text.

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
    /// Parses `source`; the message says what is wrong. The attribute checked its
    /// templates at compile time; a hand-made entry may still be wrong.
    pub(crate) fn parse(source: &'static str) -> Result<Self, String> {
        let mut pattern = String::from("^");
        let mut variables = Vec::new();
        let mut rest = source;
        while let Some(open) = rest.find('{') {
            pattern.push_str(&regex::escape(&rest[..open]));
            let after = &rest[open + 1..];
            let close = after
                .find('}')
                .ok_or_else(|| format!("`{source}` opens a `{{` that it never closes"))?;
            let expression = &after[..close];
            let (reserved, name) = match expression.strip_prefix('+') {
                Some(name) => (true, name),
                None => (false, expression),
            };
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            {
                return Err(format!(
                    "`{{{expression}}}` in `{source}` is not a variable mcp-tool can match: \
                     write `{{name}}` or `{{+name}}`"
                ));
            }
            pattern.push_str(if reserved { "(.*)" } else { "([^/?#]*)" });
            variables.push(Variable {
                name: name.to_owned(),
                reserved,
            });
            rest = &after[close + 1..];
        }
        if rest.contains('}') {
            return Err(format!("`{source}` closes a `}}` that it never opened"));
        }
        pattern.push_str(&regex::escape(rest));
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

    #[test]
    fn refuses_what_it_cannot_match() {
        assert_eq!(
            UriTemplate::parse("q://{?x,y}").unwrap_err(),
            "`{?x,y}` in `q://{?x,y}` is not a variable mcp-tool can match: write `{name}` or \
             `{+name}`"
        );
        assert_eq!(
            UriTemplate::parse("q://{x").unwrap_err(),
            "`q://{x` opens a `{` that it never closes"
        );
        assert_eq!(
            UriTemplate::parse("q://x}").unwrap_err(),
            "`q://x}` closes a `}` that it never opened"
        );
    }
}
