//! Re-export aggregator state from core.

pub use seedfaker_core::eval::AggrState;
