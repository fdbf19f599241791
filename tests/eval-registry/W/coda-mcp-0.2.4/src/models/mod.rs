pub mod column;
pub mod control;
pub mod doc;
pub mod formula;
pub mod page;
pub mod row;
pub mod table;

pub use column::*;
pub use control::*;
pub use doc::*;
pub use formula::*;
pub use page::*;
pub use row::*;
pub use table::*;
