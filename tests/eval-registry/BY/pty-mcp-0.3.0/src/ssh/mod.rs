pub mod capability_probe;
pub mod guard;
pub mod model;
pub mod policy;
pub mod registry;
pub mod runtime;

pub use capability_probe::SshCapabilityProbe;
pub use guard::SshGuard;
pub use model::{
    MacFuseCapability, SshAuthKind, SshBinaryCapability, SshCapabilityView, SshConnectionId,
    SshConnectionStatus, SshConnectionSummary, SshMountBackend, SshMountId, SshMountStatus,
    SshMountSummary, SshTarget, SshTunnelId, SshTunnelKind, SshTunnelStatus, SshTunnelSummary,
};
pub use policy::SshPolicy;
pub use registry::{SshConnectionRelations, SshConnectionResourceCounts, SshRegistry};
pub use runtime::SshRuntime;
