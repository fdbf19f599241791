//! The ids the model's tables are indexed by. A file and an item are numbered below the model
//! (by the file list and by the resolver), so they are re-exported here rather than defined:
//! this module is where model code takes all three from.

pub use crate::resolve::ItemId;
pub use crate::source::FileId;

/// Index of a body (a fn, a closure registered as a tool, a const initialiser) in the model's
/// body list: fns first, in index order, then const initialisers, then closures as the walk
/// finds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(pub usize);
