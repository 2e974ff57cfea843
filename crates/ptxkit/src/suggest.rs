//! "Did you mean": the known name closest to a mistyped one (an opcode, a
//! target, a subcommand), by edit distance with transpositions and
//! Jaro-Winkler similarity (the `strsim` crate, as clap uses for its own
//! suggestions).

/// Names at least this similar (0 to 1) are suggested whatever their edit
/// distance.
const THRESHOLD: f64 = 0.85;

/// The largest edit distance suggested for a word of `len` characters.
fn max_edits(len: usize) -> usize {
    match len {
        0..=3 => 1,
        4..=6 => 2,
        _ => 3,
    }
}

/// The candidate most like `word`, if one is close enough: fewest edits
/// (a swap of neighbours is one), then the most similar. Ties go to the
/// earliest candidate.
///
/// ```
/// let ops = ["ld", "st", "mov", "mma"];
/// assert_eq!(ptxkit::suggest::closest("mvo", ops), Some("mov"));
/// assert_eq!(ptxkit::suggest::closest("banana", ops), None);
/// ```
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = max_edits(word.chars().count());
    let mut best: Option<(usize, f64, &'a str)> = None;
    for c in candidates {
        let edits = strsim::osa_distance(word, c);
        let similar = strsim::jaro_winkler(word, c);
        if edits > limit && similar < THRESHOLD {
            continue;
        }
        let better = best.is_none_or(|(e, s, _)| edits < e || (edits == e && similar > s));
        if better {
            best = Some((edits, similar, c));
        }
    }
    best.map(|(_, _, c)| c)
}

/// `" (did you mean `X`?)"` when a candidate is close to `word`, else "".
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// The catalog's opcode names (`ld`, `cp`, `wgmma`), for suggestions.
pub fn opcodes() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = crate::isa::catalog()
        .opcodes()
        .map(|(_, o)| o.name)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_catalog_opcodes() {
        let ops = opcodes();
        assert!(ops.len() > 100);
        assert_eq!(closest("wgmm", ops.iter().copied()), Some("wgmma"));
        assert_eq!(closest("ldd", ops.iter().copied()), Some("ld"));
        assert_eq!(closest("xyzzyq", ops.iter().copied()), None);
        assert_eq!(
            did_you_mean("movv", ops.iter().copied()),
            "; did you mean `mov`?"
        );
    }
}
