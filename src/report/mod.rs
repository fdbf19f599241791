//! Reporters: turn the sorted [`lints::FileReport`]s into human, concise or JSON output.

pub mod human;
