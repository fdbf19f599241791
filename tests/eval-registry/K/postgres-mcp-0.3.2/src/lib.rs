mod mcp;
mod pg;

pub use pg::{Conns, PgMcp};
