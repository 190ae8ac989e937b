//! The faults of one call's arguments: each names its path and what was expected,
//! never the value that was sent (it may be a secret).

/// One fault of the arguments of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    Missing(String),
    Unknown {
        name: String,
        suggestion: Option<String>,
    },
    Invalid {
        path: String,
        expected: String,
    },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Missing(path) => write!(f, "missing argument `{}`", Clipped(path)),
            Fault::Unknown {
                name,
                suggestion: Some(suggestion),
            } => write!(
                f,
                "unknown argument `{}` (did you mean `{suggestion}`?)",
                Clipped(name)
            ),
            Fault::Unknown {
                name,
                suggestion: None,
            } => write!(f, "unknown argument `{}`", Clipped(name)),
            Fault::Invalid { path, expected } => {
                write!(f, "`{}`: expected {expected}", Clipped(path))
            }
        }
    }
}

/// Every fault of one call's arguments.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentErrors {
    faults: Vec<Fault>,
}

impl ArgumentErrors {
    pub(crate) fn new(faults: Vec<Fault>) -> Self {
        Self { faults }
    }
}

/// The most faults one message lists; the rest are counted.
const SHOWN_FAULTS: usize = 20;

impl std::fmt::Display for ArgumentErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, fault) in self.faults.iter().take(SHOWN_FAULTS).enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{fault}")?;
        }
        if let Some(more) = self
            .faults
            .len()
            .checked_sub(SHOWN_FAULTS)
            .filter(|&n| n > 0)
        {
            write!(f, "; and {more} more")?;
        }
        Ok(())
    }
}

/// The longest argument name or path echoed whole: names and map keys are the
/// client's text, which may be any length.
const SHOWN_CHARS: usize = 64;

/// Text the client chose, cut at [`SHOWN_CHARS`] characters (with `…`).
struct Clipped<'a>(&'a str);

impl std::fmt::Display for Clipped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.char_indices().nth(SHOWN_CHARS) {
            Some((end, _)) => write!(f, "{}…", &self.0[..end]),
            None => f.write_str(self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(name: &str) -> Fault {
        Fault::Unknown {
            name: name.to_owned(),
            suggestion: None,
        }
    }

    #[test]
    fn a_long_name_is_clipped_where_it_is_echoed() {
        let long = "é".repeat(1 << 20);
        let shown = unknown(&long).to_string();
        assert_eq!(shown, format!("unknown argument `{}…`", "é".repeat(64)));
        assert_eq!(
            unknown(&"x".repeat(64)).to_string().len(),
            "unknown argument ``".len() + 64
        );
    }

    #[test]
    fn many_faults_are_listed_up_to_a_bound_and_counted() {
        let faults = (0..1000).map(|i| unknown(&format!("k{i}"))).collect();
        let shown = ArgumentErrors::new(faults).to_string();
        let listed: Vec<String> = (0..20)
            .map(|i| format!("unknown argument `k{i}`"))
            .collect();
        assert_eq!(shown, format!("{}; and 980 more", listed.join("; ")));
    }
}
