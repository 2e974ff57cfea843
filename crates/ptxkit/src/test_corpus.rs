//! The shared corpus for the crate's unit tests (`../shared/corpus`, or
//! `$PTXKIT_SHARED/corpus`). Tests that need it skip, with a printed note,
//! when it is absent.

/// Every `.ptx` file of the corpus with its bytes, or `None` (and a printed
/// note naming `what` is skipped) when the corpus is absent.
pub(crate) fn files(what: &str) -> Option<Vec<(std::path::PathBuf, Vec<u8>)>> {
    let dir = std::env::var_os("PTXKIT_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("corpus");
    if !dir.is_dir() {
        eprintln!("note: {} is absent; {what} skipped", dir.display());
        return None;
    }
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "ptx") {
                if let Ok(src) = std::fs::read(&path) {
                    out.push((path, src));
                }
            }
        }
    }
    Some(out)
}
