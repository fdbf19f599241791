return vim.json.encode(vim.lsp.util.make_text_document_params(...))
