//! Stable MCP service, tool schemas, and resource URI templates.

pub mod activity;
pub mod attention;
pub mod authorization;
pub mod confirm_action;
pub mod connect_nickname;
pub mod conversation;
pub mod dcc_accept;
pub mod envelope;
pub mod join_key;
pub mod mrtr;
pub mod progress;
pub mod request_profile;
pub mod resources;
pub mod service;
pub mod tasks;
pub mod tools;
pub mod watch;
