//! Extensions module for non-generatable API methods
//!
//! This module contains API methods that cannot be generated from Swagger,
//! such as:
//! - AI streaming endpoints (SSE)
//! - Custom pagination helpers
//! - Methods with complex business logic
//! - Endpoints present in full swagger but missing from `_live-swagger.json`（e.g. `gpg_keys`）

pub mod ai;
pub mod gpg_keys;
pub mod pagination;

pub use ai::CnbClientExt as CnbClientAiExt;
pub use gpg_keys::{AddGpgKeyForm, CnbClientExt as CnbClientGpgExt};
pub use pagination::CnbClientExt as CnbClientPaginationExt;
