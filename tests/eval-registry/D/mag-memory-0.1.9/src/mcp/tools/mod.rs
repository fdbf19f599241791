pub(crate) mod facades;
pub(crate) mod lifecycle;
pub(crate) mod relations;
pub(crate) mod search;
pub(crate) mod session;
pub(crate) mod storage;
