//! Profile detection — auto-detect Windows version and kernel parameters.

pub mod detector;
pub mod kuser;
pub mod kdbg;
pub mod pdbconv;
pub mod rsds;
pub mod symserver;
