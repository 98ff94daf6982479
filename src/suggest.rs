//! Did-you-mean: the closest known name to a misspelt one, and a valid
//! name made from free text.

/// The candidate closest to `name`, if one is close enough to be a likely
/// typo (edit distance at most a third of the name's length, rounded to the
/// nearest so that a five-letter `flair` finds `flare`, and at least 1).
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = ((name.chars().count() + 1) / 3).max(1);
    let lower = name.to_lowercase();
    let length = lower.chars().count();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .filter_map(|c| {
            let other = c.to_lowercase();
            // Two names whose lengths differ by more than the limit are
            // at least that far apart: no distance to compute (a deck of
            // thousands of unknown ids asks this once per line).
            if length.abs_diff(other.chars().count()) > limit {
                return None;
            }
            Some((strsim::damerau_levenshtein(&lower, &other), c))
        })
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

/// The one candidate `name` shortens, if only one: a name whose every
/// word begins a word of the candidate's, in order, with words left out
/// (`Monge do Mosteiro` and `monge mosteiro` for `Monge do Mosteiro
/// Branco`). Words are runs of letters and digits, compared in lower
/// case. Two or more candidates that fit, or none: `None` (a shortening
/// that fits many names names none of them).
pub(crate) fn shortened<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let wanted = words(name);
    if wanted.is_empty() {
        return None;
    }
    let mut found: Option<&'a str> = None;
    for c in candidates {
        let have = words(c);
        if have.len() <= wanted.len() || !in_order(&wanted, &have) {
            continue;
        }
        match found {
            Some(f) if f != c => return None,
            _ => found = Some(c),
        }
    }
    found
}

/// The words of `text` in lower case: its runs of letters and digits.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether each of `short` begins one of `long`, in order.
fn in_order(short: &[String], long: &[String]) -> bool {
    let mut rest = long.iter();
    short
        .iter()
        .all(|w| rest.by_ref().any(|l| l.starts_with(w.as_str())))
}

/// The help line for an unknown `name`: "did you mean `x`?" for the
/// closest candidate, or else `intro` and every candidate, so the reader
/// always learns what is allowed.
pub(crate) fn help<'a, I>(name: &str, candidates: I, intro: &str) -> String
where
    I: IntoIterator<Item = &'a str>,
    I::IntoIter: Clone,
{
    let all = candidates.into_iter();
    match closest(name, all.clone()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("{intro}: {}", all.collect::<Vec<_>>().join(", ")),
    }
}

/// `text` as a kebab-case name: lower-case ASCII letters and digits,
/// accents dropped, every other run of characters one dash (`Fúria de
/// Áries` → `furia-de-aries`), at most `max` characters. Empty when
/// nothing is left.
pub(crate) fn slug(text: &str, max: usize) -> String {
    let mut out = String::new();
    for c in text.chars().map(unaccent).flat_map(char::to_lowercase) {
        if out.len() >= max {
            break;
        }
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// A Latin letter without its accent (others as they are).
fn unaccent(c: char) -> char {
    const FROM: &str = "áàâãäåçéèêëíìîïñóòôõöúùûüýÿÁÀÂÃÄÅÇÉÈÊËÍÌÎÏÑÓÒÔÕÖÚÙÛÜÝ";
    const TO: &str = "aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUY";
    FROM.chars()
        .position(|f| f == c)
        .and_then(|i| TO.chars().nth(i))
        .unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::{closest, help, shortened};
    use proptest::prelude::*;

    /// [`closest`] without its shortcut: every candidate's distance.
    fn closest_plainly<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let limit = ((name.chars().count() + 1) / 3).max(1);
        candidates
            .iter()
            .filter(|c| **c != name)
            .map(|c| {
                let d = strsim::damerau_levenshtein(&name.to_lowercase(), &c.to_lowercase());
                (d, *c)
            })
            .filter(|(d, _)| *d <= limit)
            .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
            .map(|(_, c)| c)
    }

    proptest! {
        /// Skipping the candidates whose length is too far off never
        /// changes the answer (letters whose lower case is longer, such
        /// as `İ`, included).
        #[test]
        fn the_length_shortcut_answers_as_every_distance_does(
            name in "[a-cİß-]{0,9}",
            candidates in proptest::collection::vec("[a-cA-Cİß-]{0,12}", 0..12),
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            prop_assert_eq!(
                closest(&name, candidates.iter().copied()),
                closest_plainly(&name, &candidates)
            );
        }
    }

    #[test]
    fn help_suggests_or_lists() {
        assert_eq!(
            help("mian", ["main", "team"], "zones"),
            "did you mean `main`?"
        );
        assert_eq!(help("zzz", ["main", "team"], "zones"), "zones: main, team");
    }

    #[test]
    fn finds_typos_and_ignores_strangers() {
        let names = ["magic_resistance", "physical_resistance", "movement"];
        assert_eq!(closest("magic_resistence", names), Some("magic_resistance"));
        assert_eq!(closest("movment", names), Some("movement"));
        assert_eq!(closest("colour", names), None);
        assert_eq!(closest("ab", ["ac", "zz"]), Some("ac"));
        assert_eq!(closest("flair", ["flare", "frost"]), Some("flare"));
        assert_eq!(closest("fire", ["flare", "ice"]), None);
    }

    #[test]
    fn a_shortened_name_finds_the_one_name_it_shortens() {
        let names = [
            "monge-do-mosteiro-branco",
            "mago-monge-ladino",
            "soldado-de-valaria",
            "soldado-de-arkon",
        ];
        assert_eq!(
            shortened("monge-do-mosteiro", names),
            Some("monge-do-mosteiro-branco")
        );
        assert_eq!(
            shortened("Monge Mosteiro", names),
            Some("monge-do-mosteiro-branco")
        );
        assert_eq!(
            shortened("soldado valar", names),
            Some("soldado-de-valaria")
        );
        // Words out of order, a name that fits two, or a longer name: none.
        assert_eq!(shortened("mosteiro monge", names), None);
        assert_eq!(shortened("soldado", names), None);
        assert_eq!(shortened("monge do mosteiro branco velho", names), None);
        assert_eq!(shortened("", names), None);
    }
}
