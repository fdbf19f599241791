//! Template engine for seedfaker configs.

pub mod column;
pub mod compile;
pub mod parse;
pub mod render;

pub use column::{parse_aggr_spec, resolve_column, Column, ExprOp, ExprResultType};
pub use render::RenderCtx;
