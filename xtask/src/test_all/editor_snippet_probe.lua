-- Run by `cargo xtask test` (xtask/src/test_all/editor_snippets.rs) after
-- Neovim has read a documented configuration (`-u init.lua`, the snippet
-- as written) and opened a file: wait until `ptx lsp`, started by that
-- configuration alone, has published diagnostics into the buffer, and
-- write the buffer's filetype, the attached clients and the diagnostics
-- to $PTX_OUT.
local out = os.getenv("PTX_OUT")
local function finish(status, lines)
  local f = io.open(out, "w")
  f:write(status .. "\n" .. table.concat(lines, "\n") .. "\n")
  f:close()
  vim.cmd("qa!")
end
local buf = vim.api.nvim_get_current_buf()
local got = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local lines = { "filetype " .. vim.bo[buf].filetype }
local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
for _, c in pairs(clients) do
  table.insert(lines, "client " .. c.name)
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  table.insert(lines, "diagnostic " .. code .. " " .. d.lnum .. " " .. d.message:gsub("\n", " "))
end
finish(got and "ok" or "fail", lines)
