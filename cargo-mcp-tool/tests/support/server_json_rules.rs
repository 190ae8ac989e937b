//! The rules of the MCP registry's server.json schema, version 2025-12-11
//! (`https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json`), in our
//! own words: `check` returns every problem they find in a document.

use serde_json::{Map, Value};

pub(crate) struct Problems(pub(crate) Vec<String>);

impl Problems {
    fn say(&mut self, at: &str, what: impl std::fmt::Display) {
        self.0.push(format!("{at}: {what}"));
    }

    fn object<'a>(&mut self, at: &str, value: &'a Value) -> Option<&'a Map<String, Value>> {
        let object = value.as_object();
        if object.is_none() {
            self.say(at, "is not an object");
        }
        object
    }

    fn required(&mut self, at: &str, object: &Map<String, Value>, keys: &[&str]) {
        for key in keys {
            if !object.contains_key(*key) {
                self.say(at, format!("lacks `{key}`, which is required"));
            }
        }
    }

    /// A string, its length in characters within `min..=max` where they are given.
    fn string(&mut self, at: &str, value: Option<&Value>, min: usize, max: Option<usize>) {
        let Some(value) = value else { return };
        let Some(text) = value.as_str() else {
            return self.say(at, "is not a string");
        };
        let length = text.chars().count();
        if length < min || max.is_some_and(|max| length > max) {
            self.say(
                at,
                format!("has {length} characters, outside {min}..={max:?}"),
            );
        }
    }

    fn boolean(&mut self, at: &str, value: Option<&Value>) {
        if value.is_some_and(|value| !value.is_boolean()) {
            self.say(at, "is not true or false");
        }
    }

    fn one_of(&mut self, at: &str, value: Option<&Value>, allowed: &[&str]) {
        self.string(at, value, 0, None);
        if let Some(text) = value.and_then(Value::as_str)
            && !allowed.contains(&text)
        {
            self.say(at, format!("is `{text}`, not one of {allowed:?}"));
        }
    }

    /// An absolute URI: a scheme, a colon, and no whitespace.
    fn uri(&mut self, at: &str, value: Option<&Value>) {
        self.string(at, value, 0, None);
        if let Some(text) = value.and_then(Value::as_str)
            && !is_uri(text)
        {
            self.say(at, format!("`{text}` is not an absolute URI"));
        }
    }

    /// An array whose every item passes `item`.
    fn array(&mut self, at: &str, value: Option<&Value>, item: fn(&mut Self, &str, &Value)) {
        let Some(value) = value else { return };
        let Some(items) = value.as_array() else {
            return self.say(at, "is not an array");
        };
        for (index, value) in items.iter().enumerate() {
            item(self, &format!("{at}[{index}]"), value);
        }
    }
}

fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut letters = scheme.chars();
    letters.next().is_some_and(|c| c.is_ascii_alphabetic())
        && letters.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !text.chars().any(char::is_whitespace)
}

fn all_in(text: &str, extra: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// The server's name: reverse-DNS namespace, one slash, the name; 3 to 200 characters.
fn name(problems: &mut Problems, value: Option<&Value>) {
    problems.string("name", value, 3, Some(200));
    let Some(text) = value.and_then(Value::as_str) else {
        return;
    };
    let fits = text
        .split_once('/')
        .is_some_and(|(namespace, name)| all_in(namespace, ".-") && all_in(name, "._-"));
    if !fits {
        problems.say(
            "name",
            format!("`{text}` is not NAMESPACE/NAME of the allowed characters"),
        );
    }
}

/// A version is one version, not a range nor `latest`.
fn specific_version(problems: &mut Problems, at: &str, value: Option<&Value>) {
    let Some(text) = value.and_then(Value::as_str) else {
        return;
    };
    let range = text.starts_with(['^', '~', '>', '<', '='])
        || text.contains(['*', ' ', '|'])
        || text
            .split(['.', '-', '+'])
            .any(|part| part == "x" || part == "X");
    if range || text == "latest" {
        problems.say(
            at,
            format!("`{text}` is a range or `latest`, not one version"),
        );
    }
}

/// The fields every input has (arguments, environment variables, headers, variables).
fn input(problems: &mut Problems, at: &str, object: &Map<String, Value>) {
    for key in ["description", "value", "default", "placeholder"] {
        problems.string(&format!("{at}.{key}"), object.get(key), 0, None);
    }
    problems.boolean(&format!("{at}.isRequired"), object.get("isRequired"));
    problems.boolean(&format!("{at}.isSecret"), object.get("isSecret"));
    let formats = ["string", "number", "boolean", "filepath"];
    problems.one_of(&format!("{at}.format"), object.get("format"), &formats);
    problems.array(
        &format!("{at}.choices"),
        object.get("choices"),
        |p, at, v| p.string(at, Some(v), 0, None),
    );
}

fn plain_input(problems: &mut Problems, at: &str, value: &Value) {
    if let Some(object) = problems.object(at, value) {
        input(problems, at, object);
    }
}

fn variables(problems: &mut Problems, at: &str, value: Option<&Value>) {
    let Some(value) = value else { return };
    if let Some(map) = problems.object(at, value) {
        for (key, value) in map {
            plain_input(problems, &format!("{at}.{key}"), value);
        }
    }
}

/// An environment variable or a header: an input with variables, and a name.
fn key_value(problems: &mut Problems, at: &str, value: &Value) {
    let Some(object) = problems.object(at, value) else {
        return;
    };
    input(problems, at, object);
    variables(
        problems,
        &format!("{at}.variables"),
        object.get("variables"),
    );
    problems.required(at, object, &["name"]);
    problems.string(&format!("{at}.name"), object.get("name"), 0, None);
}

/// A positional argument (with a valueHint or a value) or a named one (with a name).
fn argument(problems: &mut Problems, at: &str, value: &Value) {
    let Some(object) = problems.object(at, value) else {
        return;
    };
    input(problems, at, object);
    variables(
        problems,
        &format!("{at}.variables"),
        object.get("variables"),
    );
    problems.boolean(&format!("{at}.isRepeated"), object.get("isRepeated"));
    problems.required(at, object, &["type"]);
    match object.get("type").and_then(Value::as_str) {
        Some("positional") => {
            problems.string(&format!("{at}.valueHint"), object.get("valueHint"), 0, None);
            if !object.contains_key("valueHint") && !object.contains_key("value") {
                problems.say(at, "a positional argument needs `valueHint` or `value`");
            }
        }
        Some("named") => {
            problems.required(at, object, &["name"]);
            problems.string(&format!("{at}.name"), object.get("name"), 0, None);
        }
        _ => problems.say(at, "`type` is neither `positional` nor `named`"),
    }
}

/// A transport: stdio (packages only), or streamable-http or sse with an http(s) URL.
fn transport(problems: &mut Problems, at: &str, value: &Value, stdio: bool) {
    let Some(object) = problems.object(at, value) else {
        return;
    };
    problems.required(at, object, &["type"]);
    let kinds: &[&str] = if stdio {
        &["stdio", "streamable-http", "sse"]
    } else {
        &["streamable-http", "sse"]
    };
    problems.one_of(&format!("{at}.type"), object.get("type"), kinds);
    if object.get("type").and_then(Value::as_str) == Some("stdio") {
        return;
    }
    problems.required(at, object, &["url"]);
    if let Some(url) = object.get("url").and_then(Value::as_str) {
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"));
        if rest.is_none_or(|rest| rest.is_empty() || rest.contains(char::is_whitespace)) {
            problems.say(&format!("{at}.url"), "is not an http(s) URL without spaces");
        }
    }
    problems.array(&format!("{at}.headers"), object.get("headers"), key_value);
}

fn package(problems: &mut Problems, at: &str, value: &Value) {
    let Some(object) = problems.object(at, value) else {
        return;
    };
    problems.required(at, object, &["registryType", "identifier", "transport"]);
    for key in ["registryType", "identifier", "runtimeHint"] {
        problems.string(&format!("{at}.{key}"), object.get(key), 0, None);
    }
    let version = format!("{at}.version");
    problems.string(&version, object.get("version"), 1, None);
    specific_version(problems, &version, object.get("version"));
    problems.uri(
        &format!("{at}.registryBaseUrl"),
        object.get("registryBaseUrl"),
    );
    if let Some(hash) = object.get("fileSha256") {
        let text = hash.as_str().unwrap_or_default();
        if text.len() != 64 || !text.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')) {
            problems.say(
                &format!("{at}.fileSha256"),
                "is not 64 lower-case hex digits",
            );
        }
    }
    if let Some(value) = object.get("transport") {
        transport(problems, &format!("{at}.transport"), value, true);
    }
    problems.array(
        &format!("{at}.runtimeArguments"),
        object.get("runtimeArguments"),
        argument,
    );
    problems.array(
        &format!("{at}.packageArguments"),
        object.get("packageArguments"),
        argument,
    );
    let variables = object.get("environmentVariables");
    problems.array(&format!("{at}.environmentVariables"), variables, key_value);
}

fn remote(problems: &mut Problems, at: &str, value: &Value) {
    transport(problems, at, value, false);
    if let Some(object) = value.as_object() {
        variables(
            problems,
            &format!("{at}.variables"),
            object.get("variables"),
        );
    }
}

fn icon(problems: &mut Problems, at: &str, value: &Value) {
    let Some(object) = problems.object(at, value) else {
        return;
    };
    problems.required(at, object, &["src"]);
    problems.uri(&format!("{at}.src"), object.get("src"));
    problems.string(&format!("{at}.src"), object.get("src"), 0, Some(255));
    let types = [
        "image/png",
        "image/jpeg",
        "image/jpg",
        "image/svg+xml",
        "image/webp",
    ];
    problems.one_of(&format!("{at}.mimeType"), object.get("mimeType"), &types);
    problems.one_of(
        &format!("{at}.theme"),
        object.get("theme"),
        &["light", "dark"],
    );
    problems.array(&format!("{at}.sizes"), object.get("sizes"), |p, at, v| {
        let text = v.as_str().unwrap_or_default();
        let sized = text.split_once('x').is_some_and(|(w, h)| {
            [w, h]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
        if text != "any" && !sized {
            p.say(at, format!("`{text}` is neither WxH nor `any`"));
        }
    });
}

fn repository(problems: &mut Problems, value: Option<&Value>) {
    let Some(value) = value else { return };
    let Some(object) = problems.object("repository", value) else {
        return;
    };
    problems.required("repository", object, &["url", "source"]);
    problems.uri("repository.url", object.get("url"));
    for key in ["source", "id", "subfolder"] {
        problems.string(&format!("repository.{key}"), object.get(key), 0, None);
    }
    if let Some(folder) = object.get("subfolder").and_then(Value::as_str)
        && (folder.starts_with('/') || folder.split('/').any(|part| part == ".."))
    {
        problems.say("repository.subfolder", "is not a clean relative path");
    }
}

/// Every problem the schema's rules find in `document`.
pub(crate) fn check(document: &Value) -> Vec<String> {
    let mut problems = Problems(Vec::new());
    let Some(object) = problems.object("server.json", document) else {
        return problems.0;
    };
    problems.required("server.json", object, &["name", "description", "version"]);
    problems.uri("$schema", object.get("$schema"));
    name(&mut problems, object.get("name"));
    problems.string("description", object.get("description"), 1, Some(100));
    problems.string("title", object.get("title"), 1, Some(100));
    problems.string("version", object.get("version"), 0, Some(255));
    specific_version(&mut problems, "version", object.get("version"));
    problems.uri("websiteUrl", object.get("websiteUrl"));
    repository(&mut problems, object.get("repository"));
    problems.array("icons", object.get("icons"), icon);
    problems.array("packages", object.get("packages"), package);
    problems.array("remotes", object.get("remotes"), remote);
    if let Some(meta) = object.get("_meta") {
        problems.object("_meta", meta);
    }
    problems.0
}
