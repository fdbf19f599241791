pub mod store;
pub mod view;

pub use store::{BufferStore, BufferStoreStats};
pub use view::{BufferLine, BufferReadPage, BufferReadRequest, BufferView};
