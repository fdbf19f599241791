//! Different types of memory systems

pub mod episodic;
pub mod history;
pub mod procedural;
pub mod semantic;

pub use episodic::*;
pub use history::*;
pub use procedural::*;
pub use semantic::*;
