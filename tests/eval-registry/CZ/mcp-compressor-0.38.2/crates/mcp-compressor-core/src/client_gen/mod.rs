pub mod cli;
pub mod generator;
pub mod python;
pub mod typescript;

pub use generator::{artifact_map, write_artifacts, ClientGenerator, GeneratedArtifact, GeneratorConfig};
