mod controller;
pub use controller::*;
pub use controller::{FirecrawlMCP, IntoFirecrawlMCP};
pub use firecrawl_sdk::FirecrawlApp;
