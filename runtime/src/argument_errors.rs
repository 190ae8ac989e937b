//! The faults of one call's arguments: each names its path and what was expected,
//! never the value that was sent (it may be a secret).

/// One fault of the arguments of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    Missing(String),
    Unknown {
        name: String,
        suggestion: Option<&'static str>,
    },
    Invalid {
        path: String,
        expected: String,
    },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Missing(path) => write!(f, "missing argument `{path}`"),
            Fault::Unknown {
                name,
                suggestion: Some(suggestion),
            } => write!(
                f,
                "unknown argument `{name}` (did you mean `{suggestion}`?)"
            ),
            Fault::Unknown {
                name,
                suggestion: None,
            } => write!(f, "unknown argument `{name}`"),
            Fault::Invalid { path, expected } => write!(f, "`{path}`: expected {expected}"),
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

impl std::fmt::Display for ArgumentErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, fault) in self.faults.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{fault}")?;
        }
        Ok(())
    }
}
