pub mod stdio;
pub mod sse;
