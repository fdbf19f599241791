pub mod db;
pub mod metrics;
