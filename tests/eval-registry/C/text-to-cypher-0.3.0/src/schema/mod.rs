pub mod attribute;
pub mod discovery;
pub mod entity;
pub mod relation;
