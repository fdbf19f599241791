pub mod official;
pub mod session;
