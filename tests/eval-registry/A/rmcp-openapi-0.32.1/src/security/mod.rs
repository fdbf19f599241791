pub mod observer;

pub use observer::SecurityObserver;
