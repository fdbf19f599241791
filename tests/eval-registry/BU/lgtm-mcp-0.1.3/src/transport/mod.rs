pub mod stdio;
