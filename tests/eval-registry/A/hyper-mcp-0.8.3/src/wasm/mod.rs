pub mod cache;
pub mod http;
pub mod locks;
pub mod oci;
pub mod retry;
pub mod s3;
