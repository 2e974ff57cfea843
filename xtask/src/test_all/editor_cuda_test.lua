-- Run by `cargo xtask test` (xtask/src/test_all/editor.rs) in a headless
-- Neovim: `ptx lsp` and clangd both attached to one CUDA C++ buffer, the
-- way a kernel author works. Waits until both have published diagnostics
-- into the buffer, asks `ptx lsp` for a hover inside an `asm` string, and
-- writes what came back to $PTX_OUT ("diagnostic SOURCE CODE LINE COL
-- MESSAGE" lines, a "hover" line). Uses the API of Neovim 0.7
-- (vim.lsp.start_client and buf_attach_client), which later ones keep.
local ptx = os.getenv("PTX_BIN")
local clangd = os.getenv("CLANGD_BIN")
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
local root = vim.fn.fnamemodify(file, ":h")
local published = {}
local function client(name, cmd)
  return vim.lsp.start_client({
    name = name,
    cmd = cmd,
    root_dir = root,
    handlers = {
      ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
        vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
        if result and result.diagnostics and #result.diagnostics > 0 then
          published[name] = true
        end
      end,
    },
  })
end
local ptx_id = client("ptx", { ptx, "lsp" })
local clangd_id = client("clangd", { clangd })
if not ptx_id or not clangd_id then
  finish("fail", { "a client did not start (ptx " .. tostring(ptx_id) .. ", clangd " .. tostring(clangd_id) .. ")" })
  return
end
vim.lsp.buf_attach_client(buf, ptx_id)
vim.lsp.buf_attach_client(buf, clangd_id)

if not vim.wait(60000, function() return published.ptx and published.clangd end, 50) then
  finish("fail", { "diagnostics within 60 s: ptx " .. tostring(published.ptx) .. ", clangd " .. tostring(published.clangd) })
  return
end
local lines = { "filetype " .. vim.bo[buf].filetype }
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  table.insert(lines, "diagnostic " .. tostring(d.source) .. " " .. code .. " " .. d.lnum .. " " .. d.col
    .. " " .. d.message:gsub("\n", " "))
end

local hover = nil
vim.lsp.get_client_by_id(ptx_id).request("textDocument/hover", {
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
vim.lsp.stop_client({ ptx_id, clangd_id })
finish("ok", lines)
