//! Validation rules module
//!
//! This module contains default command validation rules and rule
//! registration functions.

pub mod defaults;

pub use defaults::register_default_rules;
