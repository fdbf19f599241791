pub mod process;
pub mod window;
pub mod input;
pub mod debug;
pub mod ipc;