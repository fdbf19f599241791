//! Forensic analyzers — correlate plugin outputs to detect anomalies.

pub mod command_analyzer;
pub mod full_triage;
pub mod network_analyzer;
pub mod process_anomalies;
