//! Poller module for background news fetching
//!
//! Provides background polling mechanism for refreshing news cache.

mod news_poller;

pub use news_poller::*;
