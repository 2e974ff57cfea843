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
    let len = word.chars().count();
    let limit = max_edits(len);
    let mut best: Option<(usize, f64, &'a str)> = None;
    for c in candidates {
        if out_of_reach(len, c.chars().count(), limit) {
            continue;
        }
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

/// Whether a candidate of `c` characters is too far from a word of `w`
/// characters to be suggested, by their lengths alone: more than `limit`
/// edits apart (the distance is at least the difference of the lengths),
/// and less similar than [`THRESHOLD`] (with `w` over 4 times `c`, Jaro's
/// similarity is below (1/4 + 2)/3 = 0.75, and Winkler's prefix bonus of
/// at most 0.4 of the rest keeps it below 0.6 · 0.75 + 0.4 = 0.85). Both
/// distances cost the product of the lengths: a 10 MB word against the
/// catalog's names took 76 s, and is skipped name by name now.
fn out_of_reach(w: usize, c: usize, limit: usize) -> bool {
    w.abs_diff(c) > limit && (w > c.saturating_mul(4) || c > w.saturating_mul(4))
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

    #[test]
    fn a_huge_word_costs_its_length_only() {
        // Both distances cost the product of the lengths: a 10 MB word
        // took 76 s against the catalog (`ptxkit.explain` from Python).
        let word = "a".repeat(2_000_000);
        let ops = opcodes();
        let t = std::time::Instant::now();
        assert_eq!(closest(&word, ops.iter().copied()), None);
        assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
    }

    #[test]
    fn the_length_bound_never_drops_a_suggestion() {
        // Whatever the lengths, a candidate skipped by `out_of_reach`
        // would have been refused by both measures.
        let names = ["a", "ld", "mov", "wgmma", "cp.async", "tensormap"];
        for w in 1..40 {
            for extra in ["", "q", "xyz"] {
                for base in names {
                    let word: String = base.chars().cycle().take(w).chain(extra.chars()).collect();
                    for c in names {
                        let (wl, cl) = (word.chars().count(), c.chars().count());
                        if out_of_reach(wl, cl, max_edits(wl)) {
                            assert!(strsim::osa_distance(&word, c) > max_edits(wl), "{word} {c}");
                            assert!(strsim::jaro_winkler(&word, c) < THRESHOLD, "{word} {c}");
                        }
                    }
                }
            }
        }
    }
}
