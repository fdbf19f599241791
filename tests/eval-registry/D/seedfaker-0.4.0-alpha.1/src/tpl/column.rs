//! Re-export column types and functions from core.

pub use seedfaker_core::eval::{
    parse_aggr_spec, resolve_column, Column, ColumnGen, ExprOp, ExprResultType, FkDistribution,
    ParentCtx,
};
