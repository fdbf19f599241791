pub mod attachments;
pub mod client;
pub mod items;
pub mod notes;
pub mod tags;
