pub mod semantic_daemon;
