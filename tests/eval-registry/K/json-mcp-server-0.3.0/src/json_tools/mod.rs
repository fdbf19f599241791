// SPDX-License-Identifier: MIT OR Apache-2.0
pub mod handler;
pub mod operations;
pub mod query;
pub mod streaming;

pub use handler::JsonToolsHandler;
