pub mod image_embedding;
pub mod text_embedding;
pub mod text_to_image;
pub mod text_to_text;
pub mod vision;

pub use image_embedding::image_embedding_pool;
pub use text_embedding::text_embedding_pool;
pub use text_to_image::text_to_image_pool;
pub use text_to_text::text_to_text_pool;
pub use vision::vision_pool;
