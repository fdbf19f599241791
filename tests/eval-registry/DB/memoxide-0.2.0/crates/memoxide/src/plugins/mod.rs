//! Memory forensics analysis plugins.
//!
//! Each plugin reads specific kernel structures from memory using
//! ISF symbol definitions and the StructReader API.

pub mod cmdline;
pub mod cmdscan;
pub mod dlllist;
pub mod malfind;
pub mod memsearch;
pub mod netscan;
pub mod pslist;
pub mod psscan;
