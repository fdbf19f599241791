// SPDX-License-Identifier: Apache-2.0
//! Library re-exports for execkit-mcp

pub mod audit;
pub mod paths;
pub mod policy;
pub mod retention;
pub mod sshconfig;
pub mod watch;
