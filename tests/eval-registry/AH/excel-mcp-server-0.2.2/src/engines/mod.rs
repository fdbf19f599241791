pub mod zavora;
