//! IRC framing, wire representation, discovery, and correlation.

pub mod batch;
pub mod capabilities;
pub mod codec;
pub mod commands;
pub mod correlation;
pub mod history;
pub mod isupport;
pub mod registration;
pub mod semantic;
pub mod target;
pub mod wire;
