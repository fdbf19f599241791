pub mod banner;
pub mod entrypoint;
pub mod options;
pub mod paths;
pub mod runtime;
