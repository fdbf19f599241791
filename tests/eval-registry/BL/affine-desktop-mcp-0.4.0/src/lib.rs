pub mod canvas;
pub mod documents;
pub mod drawing;
pub mod media;
pub mod organization;
pub mod server;
pub mod storage;
pub mod workspaces;
