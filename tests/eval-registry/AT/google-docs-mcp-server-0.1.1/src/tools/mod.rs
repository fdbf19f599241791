mod documents;

pub use documents::*;
