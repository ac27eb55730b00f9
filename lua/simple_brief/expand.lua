--- :ExpandAt {name | Class.method | line:N} [body|signature|all] — open one symbol's folds.
---
--- Symbols come from the simple-brief server (textDocument/documentSymbol), so names
--- and ranges are the ones the outline shows. Only the folds around and of the chosen
--- symbol change; every other fold stays as it was.
local brief = require('simple_brief.brief')
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

M.whats = { 'all', 'body', 'signature' }

--- Flattened symbols with dotted qualified names, in document order.
---@param buf integer
---@return {name: string, qualified: string, start: integer, stop: integer, sel: integer}[]|nil, string|nil
function M.symbols(buf)
  local result, err = lsp.request_sync(buf, 'textDocument/documentSymbol', {
    textDocument = vim.lsp.util.make_text_document_params(buf),
  })
  if not result then
    return nil, err
  end
  local out = {}
  local function walk(items, prefix)
    for _, s in ipairs(items) do
      local qualified = prefix and (prefix .. '.' .. s.name) or s.name
      out[#out + 1] = {
        name = s.name,
        qualified = qualified,
        kind = s.kind,
        start = s.range.start.line + 1,
        stop = s.range['end'].line + 1,
        sel = s.selectionRange.start.line + 1,
        block = s.children ~= nil or (s.range['end'].line > s.range.start.line),
      }
      walk(s.children or {}, qualified)
    end
  end
  walk(result, nil)
  table.sort(out, function(a, b)
    return a.start < b.start
  end)
  return out
end

--- The symbol a selector names, or nil and one sentence saying why.
---@param symbols table[]
---@param selector string|nil nil = the symbol under the cursor
---@param cursor_line integer
function M.find(symbols, selector, cursor_line)
  local line = selector and tonumber(selector:match('^line:(%d+)$'))
  if not selector or line then
    line = line or cursor_line
    local best
    for _, s in ipairs(symbols) do
      if s.start <= line and line <= s.stop and s.block then
        best = s -- document order: a later enclosing match is more inner
      end
    end
    if not best then
      return nil, ('no definition contains line %d'):format(line)
    end
    return best
  end
  -- A full name wins: `run` is the top-level run even when Job.run exists.
  local matches = {}
  for _, s in ipairs(symbols) do
    if s.qualified == selector then
      matches[#matches + 1] = s
    end
  end
  if #matches == 0 then
    for _, s in ipairs(symbols) do
      if s.name == selector or vim.endswith(s.qualified, '.' .. selector) then
        matches[#matches + 1] = s
      end
    end
  end
  if #matches == 1 then
    return matches[1]
  end
  if #matches > 1 then
    local names = {}
    for _, s in ipairs(matches) do
      names[#names + 1] = ('%s (line:%d)'):format(s.qualified, s.start)
    end
    return nil, ('%s names %d symbols: %s; ask for one of those'):format(selector, #matches, table.concat(names, ', '))
  end
  return nil, ('no symbol %s here; press <Tab> after :ExpandAt for the names'):format(selector)
end

--- Open the folds that hide a symbol, then its own as `what` asks.
function H.open(win, sym, what)
  vim.api.nvim_win_call(win, function()
    local s = sym.start
    -- Enclosing folds that start above the symbol: open them, outermost first.
    for _ = 1, 100 do
      local closed = vim.fn.foldclosed(s)
      if closed == -1 or closed >= s then
        break
      end
      vim.cmd(('silent! %dfoldopen'):format(s))
    end
    if what == 'signature' then
      if vim.fn.foldclosed(s) == -1 and vim.fn.foldlevel(s) > 0 then
        vim.cmd(('silent! %dfoldclose'):format(s))
      end
    elseif what == 'body' then
      if vim.fn.foldclosed(s) == s then
        vim.cmd(('silent! %dfoldopen'):format(s))
      end
    else
      vim.cmd(('silent! %d,%dfoldopen!'):format(s, sym.stop))
    end
    vim.api.nvim_win_set_cursor(win, { sym.sel, 0 })
  end)
end

--- :ExpandAt. Returns the symbol opened, or nil and the reason (also shown to the user).
---@param selector string|nil
---@param what string|nil
---@return table|nil, string|nil
function M.expand_at(selector, what)
  what = what or 'all'
  if not vim.tbl_contains(M.whats, what) then
    return nil, ('%s is not one of body, signature, all'):format(what)
  end
  local win = vim.api.nvim_get_current_win()
  local buf = vim.api.nvim_win_get_buf(win)
  if not brief.active(win) then
    brief.enable(win)
  end
  local symbols, err = M.symbols(buf)
  if not symbols then
    return nil, ('ExpandAt needs the simple-brief server (%s); see :checkhealth simple_brief'):format(err)
  end
  local sym, why = M.find(symbols, selector, vim.api.nvim_win_get_cursor(win)[1])
  if not sym then
    return nil, why
  end
  H.open(win, sym, what)
  return sym
end

--- Command-line completion: symbol names and dotted paths, then the `what` words.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local args = vim.split(vim.trim(cmdline), '%s+')
  local nargs = #args - (arglead == '' and 0 or 1)
  if nargs >= 2 then
    return vim.tbl_filter(function(w)
      return vim.startswith(w, arglead)
    end, M.whats)
  end
  local buf = vim.api.nvim_get_current_buf()
  local symbols = M.symbols(buf) or {}
  local seen, out = {}, {}
  for _, s in ipairs(symbols) do
    for _, name in ipairs({ s.name, s.qualified }) do
      if not seen[name] and vim.startswith(name, arglead) then
        seen[name] = true
        out[#out + 1] = name
      end
    end
  end
  return out
end

return M
