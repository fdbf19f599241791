// SPDX-License-Identifier: MIT OR Apache-2.0
pub mod protocol;
pub mod server;
