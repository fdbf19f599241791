pub mod constants;
pub mod string_utils;
pub mod url_utils;

pub use constants::*;
pub use string_utils::{safe_truncate_boundary, safe_truncate_chars};
pub use url_utils::{ensure_domain_gitignore, get_mirror_path, get_uri_from_path, is_valid_url};
