//! What a target is fed from `fuzz/`: its seeds, its corpus and its dictionary.
//! Takes a target's name; gives bytes. Imports nothing of this crate.

use std::fs;
use std::path::{Path, PathBuf};

/// The `fuzz/` folder of the repository: the seeds, corpus and dictionaries `run.sh` uses.
pub(crate) fn fuzz_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    // Canonical, so that the paths a failure names read well.
    dir.canonicalize().unwrap_or(dir)
}

/// Every file of `dir`, by name; none when `dir` does not exist (the corpus of a target
/// that was never fuzzed).
pub(crate) fn files(dir: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_file() {
            let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push((path, bytes));
        }
    }
    files.sort();
    Ok(files)
}

/// The tokens of a libFuzzer dictionary (`"token"` or `name="token"` a line, `\\`, `\"`
/// and `\xAB` escapes, `#` comments); none when there is no such file.
pub(crate) fn dictionary(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let Ok(text) = fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    text.lines()
        .enumerate()
        .map(|(number, line)| (number + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(number, line)| {
            token(line).ok_or_else(|| {
                format!(
                    "{}:{number}: not a libFuzzer dictionary entry: {line}",
                    path.display()
                )
            })
        })
        .collect()
}

fn token(line: &str) -> Option<Vec<u8>> {
    let quoted = &line[line.find('"')?..];
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::with_capacity(inner.len());
    let mut rest = inner.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        rest = tail;
        if byte != b'\\' {
            bytes.push(byte);
            continue;
        }
        match rest {
            [b'\\' | b'"', ..] => {
                bytes.push(rest[0]);
                rest = &rest[1..];
            }
            [b'x', high, low, ..] => {
                let hex = std::str::from_utf8(&[*high, *low]).ok()?.to_owned();
                bytes.push(u8::from_str_radix(&hex, 16).ok()?);
                rest = &rest[3..];
            }
            _ => return None,
        }
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::token;

    #[test]
    fn tokens_are_unescaped_as_libfuzzer_does() {
        assert_eq!(token(r#""password""#).unwrap(), b"password");
        assert_eq!(token(r#"kw1="Cookie: ""#).unwrap(), b"Cookie: ");
        assert_eq!(
            token(r#""\\\\server\\share\\""#).unwrap(),
            br"\\server\share\"
        );
        assert_eq!(token(r#""\"\xc3\xa9""#).unwrap(), "\"é".as_bytes());
        assert_eq!(token(r#""\q""#), None);
        assert_eq!(token("password"), None);
    }
}
