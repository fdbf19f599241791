function hello()
    vim.print("Hello, world!")

    local a = 1
    a = "1"
end
