mod client;

pub use client::*;
