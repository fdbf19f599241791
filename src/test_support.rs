//! Helpers shared by the unit tests.

use std::path::Path;

/// Write `text` to `dir/rel`, creating parent directories.
pub fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("has parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}
