pub mod model;
pub mod registry;

pub use model::{
    BufferStats, ExitInfo, Pagination, ReadView, SessionId, SessionStatus, SessionSummary,
    SessionTransport, SignalKind,
};
pub use registry::{SessionKillResult, SessionRegistry, SessionWaitResult, SessionWriteResult};
