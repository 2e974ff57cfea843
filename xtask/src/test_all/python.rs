//! The Python package's suite (issue #29): not built yet.

use super::Outcome;
use std::path::Path;

/// Builds the Python package into a virtual environment and runs pytest.
pub fn run(root: &Path) -> Outcome {
    if !root.join("crates/ptxkit-py/pyproject.toml").exists() {
        return Outcome::Passed;
    }
    Outcome::Skipped("the Python suite runner is not written yet".into())
}
