--- Findings of the agent's task runs in the person's buffers: build errors (`build`) and
--- failing tests (`test`), each kind in its own |vim.diagnostic| namespace
--- (`simple-brief.build`, `simple-brief.test`), replaced by the next run of that kind.
---
--- The MCP server calls `show()` through the RPC channel after `build_compile`,
--- `build_check`, `build_clean` and `test_run`; files not open yet get a buffer (not
--- loaded), so the findings are there when the person opens them.
local M = {}

local H = {}

--- The namespace of a kind of findings (created on first use).
---@param kind string
---@return integer
function M.namespace(kind)
  return vim.api.nvim_create_namespace('simple-brief.' .. kind)
end

--- The text of line `lnum` (0-based) of a buffer, or of its file when not loaded.
---@param buf integer
---@param path string
---@param lnum integer
---@return string
function H.line(buf, path, lnum)
  if vim.api.nvim_buf_is_loaded(buf) then
    return vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, false)[1] or ''
  end
  local ok, lines = pcall(vim.fn.readfile, path, '', lnum + 1)
  return ok and lines[lnum + 1] or ''
end

--- A byte column of a code-point column (the engine counts code points).
---@param text string
---@param col integer
---@return integer
function H.byte_col(text, col)
  local ok, byte = pcall(vim.str_byteindex, text, 'utf-32', col, false)
  return ok and byte or col
end

--- Replace the findings of `kind` with `items`.
---@param kind string `build` or `test`
---@param items {path: string, diagnostics: {lnum: integer, col: integer, end_lnum: integer, end_col: integer, severity: integer, message: string, source: string, code: string}[]}[]
---@return {namespace: integer, shown: integer, buffers: integer}
function M.show(kind, items)
  local ns = M.namespace(kind)
  vim.diagnostic.reset(ns)
  local shown, buffers = 0, 0
  for _, item in ipairs(items) do
    local buf = vim.fn.bufadd(item.path)
    local out = {}
    for _, d in ipairs(item.diagnostics) do
      out[#out + 1] = {
        lnum = d.lnum,
        col = H.byte_col(H.line(buf, item.path, d.lnum), d.col),
        end_lnum = d.end_lnum,
        end_col = H.byte_col(H.line(buf, item.path, d.end_lnum), d.end_col),
        severity = d.severity,
        message = d.message,
        source = d.source ~= '' and d.source or 'simple-brief',
        code = d.code ~= '' and d.code or nil,
      }
    end
    vim.diagnostic.set(ns, buf, out)
    shown, buffers = shown + #out, buffers + 1
  end
  return { namespace = ns, shown = shown, buffers = buffers }
end

--- Remove the findings of `kind` (all kinds when nil).
---@param kind string?
function M.clear(kind)
  for _, k in ipairs(kind and { kind } or { 'build', 'test' }) do
    vim.diagnostic.reset(M.namespace(k))
  end
end

return M
