//! Quantum state simulation for local operations

use super::entanglement::EntanglementLink;

/// Quantum state for cognitive operations
#[derive(Debug, Clone)]
pub struct QuantumState {
    pub coherence_level: f64,
    pub entanglement_links: Vec<EntanglementLink>,
    pub measurement_count: u32,
}

impl QuantumState {
    pub fn new() -> Self {
        Self {
            coherence_level: 1.0,
            entanglement_links: Vec::new(),
            measurement_count: 0,
        }
    }

    pub fn add_entanglement(&mut self, link: EntanglementLink) {
        self.entanglement_links.push(link);
    }

    pub fn measure(&mut self) -> f64 {
        self.measurement_count += 1;
        self.coherence_level *= 0.95; // Decoherence simulation
        self.coherence_level
    }
}

impl Default for QuantumState {
    fn default() -> Self {
        Self::new()
    }
}
