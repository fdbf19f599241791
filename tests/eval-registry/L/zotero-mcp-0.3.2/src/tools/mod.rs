pub mod attachments;
pub mod citations;
pub mod enrichment;
pub mod search;
pub mod writes;
