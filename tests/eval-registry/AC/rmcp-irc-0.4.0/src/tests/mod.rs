//! Cross-module white-box tests for the binary crate.

mod activity_hints;
mod fake_ergo;
mod foundation;
mod gateway_integration;
mod irc_protocol;
mod output_schema;
mod streamable_http;
mod subscriptions;
