//! The tools, split by subject. Each file has its own `#[tool_router]`; the
//! server adds the routers together.

pub mod berths;
pub mod calls;
