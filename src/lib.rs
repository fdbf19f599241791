//! mcp-lint's front end: CLI, discovery, config, driver and reporters. No analysis here.

pub mod report;
