//! cnb-rs 核心业务逻辑
//!
//! 提供配置管理、认证、Git 操作、运行上下文等核心功能。

pub mod auth;
pub mod config;
pub mod context;
pub mod credential_store;
pub mod git;
pub mod hint;
pub mod jq;
pub mod oauth;
pub mod time;
pub mod upload;
