--- :SimpleBrief — fold a window down to its outline, and restore it.
---
--- With the simple-brief server attached: foldmethod=expr, foldexpr=vim.lsp.foldexpr(),
--- a fold text showing the block-mark line, the line count and diagnostic counts, and
--- every body closed except containers (config.keep_open). Without it: Neovim's
--- tree-sitter folds, else indent folds. :SimpleBrief! restores the saved options.
local config = require('simple_brief.config')
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

--- Window options :SimpleBrief changes and :SimpleBrief! restores.
H.options = { 'foldmethod', 'foldexpr', 'foldtext', 'foldlevel', 'foldenable', 'foldminlines', 'foldnestmax' }

H.severity_letters = { 'E', 'W', 'I', 'H' }

--- Diagnostic counts between two 1-based lines: `E2 W1`, or ''.
---@param buf integer
---@param first integer
---@param last integer
---@return string
function M.diagnostic_counts(buf, first, last)
  local counts = { 0, 0, 0, 0 }
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum >= first - 1 and d.lnum <= last - 1 then
      counts[d.severity] = counts[d.severity] + 1
    end
  end
  local parts = {}
  for sev, n in ipairs(counts) do
    if n > 0 then
      parts[#parts + 1] = H.severity_letters[sev] .. n
    end
  end
  return table.concat(parts, ' ')
end

--- The fold text: indentation, the block-mark line (the server's collapsedText), the
--- line count, and the fold's diagnostic counts.
---@return string
function M.foldtext()
  local first, last = vim.v.foldstart, vim.v.foldend
  local buf = vim.api.nvim_get_current_buf()
  local line = vim.fn.getline(first)
  local indent = line:match('^%s*'):gsub('\t', string.rep(' ', vim.bo[buf].tabstop))
  local text
  local ok, lsp_text = pcall(vim.lsp.foldtext)
  if ok and type(lsp_text) == 'string' and lsp_text ~= '' then
    text = lsp_text
  else
    text = vim.trim(line)
  end
  local counts = M.diagnostic_counts(buf, first, last)
  return ('%s%s  [%d lines]%s'):format(indent, text, last - first + 1, counts ~= '' and ('  ' .. counts) or '')
end

--- Whether :SimpleBrief is active in a window.
---@param win integer
---@return boolean
function M.active(win)
  return vim.w[win].simple_brief_saved ~= nil
end

function H.save(win)
  if vim.w[win].simple_brief_saved then
    return
  end
  local saved = {}
  for _, name in ipairs(H.options) do
    saved[name] = vim.api.nvim_get_option_value(name, { win = win, scope = 'local' })
  end
  vim.w[win].simple_brief_saved = saved
end

--- Restore the options saved by the first :SimpleBrief in this window.
---@param win integer|nil
---@return boolean restored
function M.restore(win)
  win = win or vim.api.nvim_get_current_win()
  local saved = vim.w[win].simple_brief_saved
  if not saved then
    return false
  end
  for _, name in ipairs(H.options) do
    vim.api.nvim_set_option_value(name, saved[name], { win = win, scope = 'local' })
  end
  if saved.foldmethod == 'manual' then
    -- Back to manual, the expr folds would stay as manual ones, closed: the person's own
    -- manual folds went when the method changed, so none of these are theirs.
    vim.api.nvim_win_call(win, function()
      vim.cmd('silent! normal! zE')
    end)
  end
  vim.w[win].simple_brief_saved = nil
  return true
end

--- Block-mark letter of a fold's collapsed text (`F`, `C`, `S`, `E`), or nil.
function H.mark(range)
  local text = range.collapsedText or ''
  return text:match('^([FCSE])[>_] ')
end

--- Close the fold that starts on 1-based line `first` and ends on `last`: `:foldclose`
--- closes the innermost open fold there, so close again while the closed fold starts on
--- that line and ends short of `last` (another client's range starting on the same
--- line); a closed fold reaching above `first` is an enclosing one and opens again.
function H.close_fold(first, last)
  for _ = 1, 10 do
    local start = vim.fn.foldclosed(first)
    if start ~= -1 and start < first then
      vim.cmd(('silent! %dfoldopen'):format(first))
      return
    end
    local stop = vim.fn.foldclosedend(first)
    if start == first and stop >= last then
      return
    end
    vim.cmd(('silent! %dfoldclose'):format(first))
    if vim.fn.foldclosed(first) == start and vim.fn.foldclosedend(first) == stop then
      return
    end
  end
end

--- Close the folds an outline shows closed: every body but containers; Markdown sections
--- below the top level; import and comment blocks, docstrings, multi-line values. Only
--- outermost ones: inner folds of a closed fold stay as they are. `inside`: the ranges lie
--- inside a fold :ExpandAt opened to reveal a symbol: all of them close, containers and
--- sections too, so only the symbol's own lines come into view.
---@param win integer
---@param ranges lsp.FoldingRange[]
---@param inside boolean|nil
function M.close_to_outline(win, ranges, inside)
  table.sort(ranges, function(a, b)
    if a.startLine ~= b.startLine then
      return a.startLine < b.startLine
    end
    return a.endLine > b.endLine
  end)
  local keep = {}
  for _, letter in ipairs(config.options.keep_open) do
    keep[letter] = true
  end
  local closed_until, open_stack = -1, {}
  -- Sections are Markdown's region folds without a block mark; elsewhere such a fold is a
  -- multi-line value (a long literal list), which closes.
  local sections = vim.bo[vim.api.nvim_win_get_buf(win)].filetype == 'markdown'
  vim.api.nvim_win_call(win, function()
    for _, r in ipairs(ranges) do
      while #open_stack > 0 and open_stack[#open_stack] < r.startLine do
        table.remove(open_stack)
      end
      if r.startLine > closed_until then
        local letter = H.mark(r)
        local is_heading = sections and r.kind == 'region' and not letter
        local stays_open = not inside and ((letter and keep[letter]) or (is_heading and #open_stack == 0))
        if stays_open then
          open_stack[#open_stack + 1] = r.endLine
        else
          H.close_fold(r.startLine + 1, r.endLine + 1)
          closed_until = r.endLine
        end
      end
    end
  end)
end

--- Neovim's own folds when the server is not there: tree-sitter, else indent.
---@return string method
function H.fallback(win, buf)
  local ok, parser = pcall(vim.treesitter.get_parser, buf)
  local has_parser = ok and parser ~= nil
  local wo = vim.wo[win][0]
  if has_parser then
    wo.foldmethod = 'expr'
    wo.foldexpr = 'v:lua.vim.treesitter.foldexpr()'
  else
    wo.foldmethod = 'indent'
  end
  wo.foldtext = "v:lua.require'simple_brief.brief'.foldtext()"
  wo.foldenable = true
  wo.foldminlines = 0
  -- Without the server there is no telling containers from bodies: fold to the top level.
  wo.foldlevel = 0
  return has_parser and 'tree-sitter' or 'indent'
end

--- Fold a window to its outline. Returns how: 'lsp', 'tree-sitter' or 'indent'.
---@param win integer|nil
---@return string how, string|nil why_fallback
function M.enable(win)
  win = win or vim.api.nvim_get_current_win()
  local buf = vim.api.nvim_win_get_buf(win)
  H.save(win)
  local client, why = lsp.ensure(buf)
  if not client or not client:supports_method('textDocument/foldingRange') then
    return H.fallback(win, buf), why or 'the server does not offer folding ranges'
  end
  local wo = vim.wo[win][0]
  wo.foldmethod = 'expr'
  wo.foldexpr = 'v:lua.vim.lsp.foldexpr()'
  wo.foldtext = "v:lua.require'simple_brief.brief'.foldtext()"
  wo.foldenable = true
  wo.foldminlines = 0
  wo.foldlevel = 99
  local ranges, err = lsp.request_sync(buf, 'textDocument/foldingRange', {
    textDocument = vim.lsp.util.make_text_document_params(buf),
  }, config.options.attach_timeout_ms)
  if not ranges then
    return H.fallback(win, buf), err
  end
  if #ranges == 0 then
    return 'lsp'
  end
  -- vim.lsp.foldexpr fetches its own copy of the ranges; wait (bounded) until it has them.
  local probe = ranges[1].startLine + 1
  vim.wait(config.options.attach_timeout_ms, function()
    return vim.api.nvim_win_call(win, function()
      return vim.fn.foldlevel(probe) > 0
    end)
  end, 10)
  M.close_to_outline(win, ranges)
  return 'lsp'
end

return M
