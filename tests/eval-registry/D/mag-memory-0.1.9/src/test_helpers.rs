//! Shared test utilities for modules that need HOME directory isolation.
//!
//! The `with_temp_home` helper serializes access to the `HOME` environment
//! variable so that tool detection, config writer, and setup tests can each
//! manipulate HOME without racing each other.

use std::path::Path;
use std::sync::Mutex;

/// Mutex that serializes all tests which mutate the `HOME` environment variable.
///
/// Rust's test runner uses threads, so concurrent tests that call `set_var("HOME", ...)`
/// would race. Every test that needs a fake HOME must hold this lock.
pub static HOME_MUTEX: Mutex<()> = Mutex::new(());

/// Creates a temporary directory, sets `HOME` to it, runs the closure, then restores `HOME`.
///
/// The closure receives a reference to the temporary home directory path.
/// The temporary directory is cleaned up after the closure returns.
///
/// # Panics
///
/// Panics if the temporary directory cannot be created (test infrastructure failure).
pub fn with_temp_home<F, R>(f: F) -> R
where
    F: FnOnce(&Path) -> R,
{
    let _guard = HOME_MUTEX.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("mag-test-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("failed to create temp home directory for test");
    let prev_home = std::env::var_os("HOME");
    let prev_xdg = std::env::var_os("XDG_CONFIG_HOME");

    let prev_mag_data_root = std::env::var_os("MAG_DATA_ROOT");
    let prev_mag_install_dir = std::env::var_os("MAG_INSTALL_DIR");

    // SAFETY: Tests are serialized by HOME_MUTEX, ensuring no concurrent
    // access to these environment variables. This is required because
    // tool detection resolves paths relative to HOME and XDG_CONFIG_HOME.
    unsafe {
        std::env::set_var("HOME", &dir);
        // Unset XDG_CONFIG_HOME so xdg_config_home() falls back to $HOME/.config,
        // giving tests a predictable path within the temp directory.
        std::env::remove_var("XDG_CONFIG_HOME");
        // Clear MAG_DATA_ROOT so resolve_app_paths() uses HOME-relative defaults,
        // preventing a stale override from a concurrent app_paths test from leaking in.
        std::env::remove_var("MAG_DATA_ROOT");
        // Clear MAG_INSTALL_DIR so resolve_mag_binary() uses HOME-relative defaults.
        std::env::remove_var("MAG_INSTALL_DIR");
    }

    let result = f(&dir);

    // SAFETY: Restoring original values under the same mutex guard.
    unsafe {
        match prev_home {
            Some(val) => std::env::set_var("HOME", val),
            None => std::env::remove_var("HOME"),
        }
        match prev_xdg {
            Some(val) => std::env::set_var("XDG_CONFIG_HOME", val),
            None => std::env::remove_var("XDG_CONFIG_HOME"),
        }
        match prev_mag_data_root {
            Some(val) => std::env::set_var("MAG_DATA_ROOT", val),
            None => std::env::remove_var("MAG_DATA_ROOT"),
        }
        match prev_mag_install_dir {
            Some(val) => std::env::set_var("MAG_INSTALL_DIR", val),
            None => std::env::remove_var("MAG_INSTALL_DIR"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    result
}
