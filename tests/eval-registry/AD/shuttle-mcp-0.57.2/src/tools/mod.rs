pub mod deployment;
pub mod docs;
pub mod logs;
pub mod project;
