pub mod runtime;

pub use runtime::{
    PtyOutputReceiver, PtyRuntime, PtySessionHandle, PtySpawnRequest, PtySpawnResult,
    RuntimeExitStatus,
};
