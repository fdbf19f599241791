mod dom_walker;
pub mod element_handler;
mod html_escape;
pub(crate) mod node_util;
pub mod options;
pub(crate) mod text_util;

use std::rc::Rc;

use dom_walker::walk_node;
use element_handler::{ElementHandler, ElementHandlers};
use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{Attribute, ParseOpts, parse_document};
use markup5ever_rcdom::{Node, RcDom};
use options::Options;

use self::element_handler::Handlers;

/// Convert HTML to Markdown.
///
/// # Example
///
/// ```
/// use kodegen_tools_citescrape::content_saver::markdown_converter::htmd::convert;
///
/// let html = "<h1>Hello</h1>";
/// let md = convert(html).unwrap();
/// assert_eq!("# Hello", md.trim());
/// ```
pub fn convert(html: &str) -> Result<String, std::io::Error> {
    HtmlToMarkdown::new().convert(html)
}

/// The DOM element.
pub struct Element<'a> {
    /// The html5ever node of the element.
    pub node: &'a Rc<Node>,
    /// The tag name.
    pub tag: &'a str,
    /// The attribute list.
    pub attrs: &'a [Attribute],
    /// When true, this element's children were all translated using Markdown,
    /// not HTML. This is only needed in faithful translation mode (see the
    /// `Options`): for code blocks, translating a `<pre><code>` sequence to
    /// Markdown, not HTML, requires a Markdown translated `<code>` block;
    /// likewise, translating lists ((`<ol>`/`<ul>`)`<li>`) to Markdown requires
    /// all `<li>` elements are translated to Markdown.
    pub markdown_translated: bool,
    /// The number of handlers to skip for this element.
    pub(crate) skipped_handlers: usize,
    /// Whether this element is inside a <pre> or <code> block.
    /// Used for preserving whitespace and preventing markdown escaping.
    pub is_pre: bool,
}

/// The html-to-markdown converter.
///
/// # Example
/// ```
/// use kodegen_tools_citescrape::content_saver::markdown_converter::htmd::HtmlToMarkdown;
///
/// // One-liner
/// let md = HtmlToMarkdown::new().convert("<h1>Hello</h1>").unwrap();
/// assert_eq!("# Hello", md);
///
/// // Or use the builder pattern
/// let converter = HtmlToMarkdown::builder()
///     .skip_tags(vec!["img"])
///     .build();
/// let md = converter.convert("<img src=\"https://example.com\">").unwrap();
/// // img is ignored
/// assert_eq!("", md);
/// ```
pub struct HtmlToMarkdown {
    handlers: ElementHandlers,
    scripting_enabled: bool,
}

impl Default for HtmlToMarkdown {
    fn default() -> Self {
        Self::new()
    }
}

impl HtmlToMarkdown {
    /// Create a new converter.
    pub fn new() -> Self {
        let options = Options::default();
        let handlers = ElementHandlers::new(options);
        Self {
            handlers,
            scripting_enabled: true,
        }
    }

    pub(crate) fn from_params(handlers: ElementHandlers, scripting_enabled: bool) -> Self {
        Self {
            handlers,
            scripting_enabled,
        }
    }

    /// Create a new [HtmlToMarkdownBuilder].
    pub fn builder() -> HtmlToMarkdownBuilder {
        HtmlToMarkdownBuilder::new()
    }

    /// Convert HTML to Markdown.
    pub fn convert(&self, html: &str) -> std::io::Result<String> {
        let dom = parse_document(
            RcDom::default(),
            ParseOpts {
                tree_builder: TreeBuilderOpts {
                    scripting_enabled: self.scripting_enabled,
                    ..Default::default()
                },
                ..Default::default()
            },
        )
        .from_utf8()
        .read_from(&mut html.as_bytes())?;

        // Pre-allocate based on HTML size (markdown is typically 75% of HTML)
        let estimated_capacity = html.len() * 3 / 4;
        let mut buffer = String::with_capacity(estimated_capacity);

        walk_node(
            &dom.document,
            &mut buffer,
            &self.handlers,
            None,
            true,
            false,
        );

        // Trim leading newlines in-place
        let start = buffer.find(|c: char| c != '\n').unwrap_or(0);
        if start > 0 {
            buffer.drain(..start);
        }

        // Trim trailing newlines in-place
        let end = buffer
            .char_indices()
            .rev()
            .find(|(_, c)| *c != '\n')
            .map(|(i, c)| i + c.len_utf8())
            .unwrap_or(buffer.len());
        if end < buffer.len() {
            buffer.truncate(end);
        }

        let mut content = buffer;

        let mut append = String::new();
        for handler in &self.handlers.handlers {
            let Some(append_content) = handler.append() else {
                continue;
            };
            append.push_str(&append_content);
        }

        content.push_str(append.trim_end_matches('\n'));

        Ok(content)
    }
}

/// The [HtmlToMarkdown] builder for advanced configurations.
pub struct HtmlToMarkdownBuilder {
    handlers: ElementHandlers,
    scripting_enabled: bool,
}

impl Default for HtmlToMarkdownBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl HtmlToMarkdownBuilder {
    /// Create a new builder.
    pub fn new() -> Self {
        let options = Options::default();
        let handlers = ElementHandlers::new(options);
        Self {
            handlers,
            scripting_enabled: true,
        }
    }

    /// Set converting options.
    pub fn options(mut self, options: Options) -> Self {
        self.handlers.options = options;
        self
    }

    /// Skip a group of tags when converting.
    pub fn skip_tags(self, tags: Vec<&'static str>) -> Self {
        self.add_handler(tags, |_: &dyn Handlers, _: Element| None)
    }

    /// Apply a custom element handler for a group of tags.
    ///
    /// # Example
    ///
    /// ```
    /// use kodegen_tools_citescrape::content_saver::markdown_converter::htmd::{
    ///     HtmlToMarkdownBuilder, Element, element_handler::Handlers
    /// };
    ///
    /// // Build a converter with custom handlers
    /// let converter = HtmlToMarkdownBuilder::new()
    ///     .add_handler(vec!["img"], |_: &dyn Handlers, _: Element| {
    ///         // Skip img tags entirely
    ///         None
    ///     })
    ///     .add_handler(vec!["video"], |_: &dyn Handlers, _: Element| {
    ///         // Replace video tags with placeholder text
    ///         Some("[video]".into())
    ///     })
    ///     .build();
    ///
    /// // Test the custom handlers
    /// let html = "<p>Text</p><img src='test.jpg'><video></video>";
    /// let markdown = converter.convert(html).unwrap();
    ///
    /// assert!(markdown.contains("Text"));
    /// assert!(markdown.contains("[video]"));
    /// assert!(!markdown.contains("img")); // img was skipped
    /// ```
    pub fn add_handler<Handler>(mut self, tags: Vec<&'static str>, handler: Handler) -> Self
    where
        Handler: ElementHandler + 'static,
    {
        self.handlers.add_handler(tags, handler);
        self
    }

    /// Option for html5ever parsing. If true, the content of <noscript> tags will be converted to raw text.
    /// If false, the content of <noscript> tags will be parsed as normal DOM.
    pub fn scripting_enabled(mut self, enabled: bool) -> Self {
        self.scripting_enabled = enabled;
        self
    }

    /// Create a new [HtmlToMarkdown].
    pub fn build(self) -> HtmlToMarkdown {
        HtmlToMarkdown::from_params(self.handlers, self.scripting_enabled)
    }
}
