//! The rules a run-time tool's name is held to: snake_case, as `#[mcp_tool]` holds a
//! function's name, or, for a tool another server named, the specification's rule alone.

/// The longest tool name the MCP specification allows.
const MAX_NAME_LEN: usize = 128;

/// What is wrong with a tool's name: the attribute's rule for a function's name.
pub(crate) fn problem(name: &str) -> Option<String> {
    let snake_case = name.starts_with(|c: char| c.is_ascii_lowercase())
        && (name.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_');
    if !snake_case {
        let snake = to_snake_case(name);
        let suggestion = if snake.is_empty() || snake == name {
            String::new()
        } else {
            format!(": call it `{snake}`")
        };
        // The name is the program's, not a client's: shown whole.
        return Some(format!(
            "its name must be snake_case (lowercase letters, digits and `_`, starting with a \
             letter), and `{name}` is not{suggestion}"
        ));
    }
    (name.len() > MAX_NAME_LEN).then(|| {
        format!(
            "a tool's name has at most {MAX_NAME_LEN} characters, and `{name}` has {}: \
             shorten it",
            name.len()
        )
    })
}

/// `searchFiles` → `search_files`, `read-file` → `read_file`.
/// `name` in snake_case, as the attribute suggests it (`HTTPServer` is `http_server`):
/// `heck`'s word boundaries, kept only when they make a valid name.
fn to_snake_case(name: &str) -> String {
    let snake = heck::ToSnakeCase::to_snake_case(name);
    let valid = snake.starts_with(|c: char| c.is_ascii_lowercase())
        && (snake.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if valid { snake } else { String::new() }
}

/// What is wrong with a name another server gave its tool, by the specification's rule
/// (2025-11-25): one to 128 of `A-Z a-z 0-9 _ . -`.
pub(crate) fn foreign_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if name.is_empty() || name.len() > MAX_NAME_LEN || !name.chars().all(allowed) {
        return Some(format!(
            "its name `{}` is not one the specification allows: 1 to {MAX_NAME_LEN} of \
             A-Z, a-z, 0-9, `_`, `.` and `-`",
            name.escape_debug()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_snake_case() {
        assert_eq!(problem("search_files"), None);
        assert_eq!(problem("find2"), None);
        let rule = "its name must be snake_case (lowercase letters, digits and `_`, starting \
                    with a letter)";
        for (bad, told) in [
            (
                "searchFiles",
                ", and `searchFiles` is not: call it `search_files`",
            ),
            ("Search", ", and `Search` is not: call it `search`"),
            ("read-file", ", and `read-file` is not: call it `read_file`"),
            ("a__b", ", and `a__b` is not: call it `a_b`"),
            ("a_", ", and `a_` is not: call it `a`"),
            ("_a", ", and `_a` is not: call it `a`"),
            ("2a", ", and `2a` is not"),
            ("", ", and `` is not"),
        ] {
            assert_eq!(problem(bad), Some(format!("{rule}{told}")), "{bad}");
        }
        let long = "a".repeat(MAX_NAME_LEN + 1);
        assert_eq!(problem(&long[..MAX_NAME_LEN]), None);
        assert_eq!(
            problem(&long),
            Some(format!(
                "a tool's name has at most 128 characters, and `{long}` has 129: shorten it"
            ))
        );
        assert_eq!(to_snake_case("searchFiles"), "search_files");
        assert_eq!(to_snake_case("read-file"), "read_file");
        assert_eq!(to_snake_case("a__b_"), "a_b");
        // Acronyms are one word, as the attribute's suggestion has them.
        assert_eq!(to_snake_case("HTTPServer"), "http_server");
        assert_eq!(to_snake_case("parseURLQuery2"), "parse_url_query2");
        // No suggestion that would itself be refused.
        assert_eq!(to_snake_case("Ünïcode"), "");
        assert_eq!(to_snake_case("9lives"), "");
    }

    #[test]
    fn foreign_names_follow_the_specification() {
        for good in ["get-sum", "echo", "a.b_C-9"] {
            assert_eq!(foreign_problem(good), None, "{good}");
        }
        for bad in ["", "has space", "slash/ed", &"a".repeat(MAX_NAME_LEN + 1)] {
            assert!(foreign_problem(bad).is_some(), "{bad}");
        }
    }
}
