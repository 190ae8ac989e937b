//! Gemini CLI's folder trust: in a folder that `trustedFolders.json` does not trust, Gemini
//! CLI shows every server of `settings.json` as Disabled, so `install` says how to trust it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config_file::ConfigFile;
use crate::json_text::{self, Dialect};
use crate::paths::Places;

/// What to tell the user when Gemini CLI would not start its servers in `folder`, read from
/// its `settings.json` (`config`) and its trusted folders; `None` when the folder is trusted.
pub(crate) fn gemini_note(places: &Places, config: &ConfigFile, folder: &Path) -> Option<String> {
    if config.setting("/security/folderTrust/enabled") == Some(Value::Bool(false)) {
        return None;
    }
    let rules_file = places
        .env_folder("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .or_else(|| Some(config.path().parent()?.join("trustedFolders.json")))?;
    let rules = read_rules(&rules_file);
    if trusted(&rules, folder) {
        return None;
    }
    let quoted = Value::String(folder.display().to_string());
    Some(format!(
        "Gemini CLI shows its servers as Disabled in a folder it does not trust, and {} is not trusted in {}: \
         start `gemini` there and trust the folder when it asks (or with /permissions), or add {quoted}: \"TRUST_FOLDER\" \
         to that file; each folder you run Gemini CLI in needs the same",
        folder.display(),
        rules_file.display()
    ))
}

/// The rules of `trustedFolders.json`, a path and its trust level each; none when the file
/// is missing or unreadable, as Gemini CLI then trusts no folder.
fn read_rules(path: &Path) -> Vec<(PathBuf, String)> {
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    // Gemini CLI strips comments from this file as from its settings.
    match serde_json::from_str(&json_text::blank(&text, Dialect::Comments)) {
        Ok(Value::Object(rules)) => rules
            .into_iter()
            .filter_map(|(rule, level)| Some((PathBuf::from(rule), level.as_str()?.to_owned())))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether the longest rule that covers `folder` trusts it, as Gemini CLI decides: a
/// `TRUST_PARENT` rule covers its path's parent, and paths compare with links resolved.
fn trusted(rules: &[(PathBuf, String)], folder: &Path) -> bool {
    let folder = real(folder);
    rules
        .iter()
        .filter_map(|(rule, level)| {
            let covered = match level.as_str() {
                "TRUST_PARENT" => rule.parent()?,
                _ => rule.as_path(),
            };
            let length = rule.as_os_str().len();
            folder.starts_with(real(covered)).then_some((length, level))
        })
        .max_by_key(|(length, _)| *length)
        .is_some_and(|(_, level)| matches!(level.as_str(), "TRUST_FOLDER" | "TRUST_PARENT"))
}

fn real(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
