pub mod account;
pub mod market;
pub mod trading;
pub mod transfer;
pub mod vault;
