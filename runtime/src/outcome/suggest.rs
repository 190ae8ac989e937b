//! "Did you mean" for unknown tool and argument names.

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    ranked(name, candidates).into_iter().next()
}

/// Candidates close enough to `name` to suggest, closest first.
pub(crate) fn ranked<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &'a str)> = candidates
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(name, candidate), candidate))
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().map(|(_, candidate)| candidate).collect()
}

/// `; did you mean `a`?` (or `one of` up to three), or nothing without suggestions.
pub(crate) fn did_you_mean(suggestions: &[&str]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!(
            "; did you mean one of {}?",
            many.iter()
                .take(3)
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
