//! Did-you-mean: the closest known name to a misspelt one.

/// The candidate closest to `name`, if one is close enough to be a likely
/// typo (edit distance at most a third of the name's length, and at least 1).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            (
                strsim::damerau_levenshtein(&name.to_lowercase(), &c.to_lowercase()),
                c,
            )
        })
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos_and_ignores_strangers() {
        let names = ["magic_resistance", "physical_resistance", "movement"];
        assert_eq!(closest("magic_resistence", names), Some("magic_resistance"));
        assert_eq!(closest("movment", names), Some("movement"));
        assert_eq!(closest("colour", names), None);
        assert_eq!(closest("ab", ["ac", "zz"]), Some("ac"));
    }
}
