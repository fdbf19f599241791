mod formatters;
mod params;

pub use formatters::*;
pub use params::*;
