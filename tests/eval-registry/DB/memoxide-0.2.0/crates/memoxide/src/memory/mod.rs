#[allow(dead_code)]
pub mod error;
pub mod image;
#[allow(dead_code)]
pub mod layers;
#[allow(dead_code)]
pub mod scanners;
#[allow(dead_code)]
pub mod traits;
#[allow(dead_code)]
pub mod translators;
pub mod virtual_memory;
