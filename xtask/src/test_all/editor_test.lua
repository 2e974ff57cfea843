-- Run by `cargo xtask test` (xtask/src/test_all/editor.rs) in a headless
-- Neovim: start `ptx lsp` as a language client the way a user's config
-- would, open a PTX file, wait for its diagnostics to reach Neovim's
-- diagnostic store, ask for a hover, and write what came back to
-- $PTX_OUT for the Rust side to check. Uses the API of Neovim 0.7
-- (vim.lsp.start_client and buf_attach_client).
local ptx = os.getenv("PTX_BIN")
local file = os.getenv("PTX_FILE")
local out = os.getenv("PTX_OUT")
local hover_line = tonumber(os.getenv("PTX_HOVER_LINE"))
local hover_col = tonumber(os.getenv("PTX_HOVER_COL"))

local function finish(status, lines)
  local f = io.open(out, "w")
  f:write(status .. "\n" .. table.concat(lines, "\n") .. "\n")
  f:close()
  vim.cmd("qa!")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local published = false
local client_id = vim.lsp.start_client({
  name = "ptx",
  cmd = { ptx, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      published = true
    end,
  },
})
if not client_id then
  finish("fail", { "the client did not start" })
  return
end
vim.lsp.buf_attach_client(buf, client_id)

if not vim.wait(30000, function() return published end, 20) then
  finish("fail", { "no diagnostics within 30 s" })
  return
end
local lines = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  table.insert(lines, "diagnostic " .. code .. " " .. d.lnum .. " " .. d.message:gsub("\n", " "))
end

local hover = nil
local client = vim.lsp.get_client_by_id(client_id)
client.request("textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = hover_line, character = hover_col },
}, function(err, result)
  hover = (result and result.contents and result.contents.value) or ("none: " .. vim.inspect(err))
end, buf)
if not vim.wait(30000, function() return hover ~= nil end, 20) then
  finish("fail", { "no hover within 30 s" })
  return
end
table.insert(lines, "hover " .. hover:gsub("\n", " "))
client.stop()
finish("ok", lines)
