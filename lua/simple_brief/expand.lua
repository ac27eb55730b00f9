--- :ExpandAt {name | Class.method | line:N | heading} [body|signature|all] — open one symbol's folds.
---
--- Symbols come from the simple-brief server (textDocument/documentSymbol), so names
--- and ranges are the ones the outline shows. Only the folds around and of the chosen
--- symbol change; every other fold stays as it was.
local brief = require('simple_brief.brief')
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

M.whats = { 'all', 'body', 'signature' }

--- SymbolKind String: Markdown headings (`## Usage`), the only symbols of that kind.
M.HEADING = 15

--- A heading's text without its `#`s, spaces collapsed: `## Usage` → `Usage`.
---@param name string
---@return string
function M.heading_text(name)
  local text = vim.trim(name):gsub('^#+%s+', ''):gsub('^#+$', ''):gsub('%s+#+%s*$', '')
  return vim.trim((text:gsub('%s+', ' ')))
end

--- Headings whose path from the top ends with `parts` (exact case, or any case).
function H.heading_hits(symbols, parts, fold)
  local want = {}
  for i, p in ipairs(parts) do
    want[i] = fold and p:lower() or p
  end
  local hits = {}
  for _, s in ipairs(symbols) do
    if s.path and #s.path >= #want then
      local ok = true
      for i = 1, #want do
        local got = s.path[#s.path - #want + i]
        if (fold and got:lower() or got) ~= want[i] then
          ok = false
          break
        end
      end
      if ok then
        hits[#hits + 1] = s
      end
    end
  end
  return hits
end

--- Markdown headings a selector names: the text with or without `#`s, or a path of
--- heading texts `Title > Usage` (then `Title.Usage`).
function H.headings(symbols, selector)
  local function parts(sep)
    if sep and not selector:find(sep, 1, true) then
      return nil
    end
    local out = {}
    for _, p in ipairs(sep and vim.split(selector, sep, { plain = true }) or { selector }) do
      local t = M.heading_text(p)
      if t == '' then
        return nil
      end
      out[#out + 1] = t
    end
    return out
  end
  -- ` > ` first (as completion joins a path), so a `>` inside a heading stays in it.
  local candidates = { parts(nil), parts(' > '), parts('>'), parts('.') }
  for _, fold in ipairs({ false, true }) do
    for i = 1, 4 do
      local p = candidates[i]
      if p then
        local hits = H.heading_hits(symbols, p, fold)
        if #hits > 0 then
          return hits
        end
      end
    end
  end
  return {}
end

--- The name a symbol is shown and completed by: a heading's shortest unambiguous path
--- (`Usage`, `Install > Usage`), else its dotted name; nil when no path is unambiguous.
function H.display(symbols, s)
  if not s.path then
    return s.qualified
  end
  for n = 1, #s.path do
    local parts = vim.list_slice(s.path, #s.path - n + 1)
    local hits = H.heading_hits(symbols, parts, false)
    if #hits == 1 then
      return table.concat(parts, ' > ')
    end
  end
  return nil
end

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
  local function walk(items, prefix, parent)
    for _, s in ipairs(items) do
      local qualified = prefix and (prefix .. '.' .. s.name) or s.name
      local sym = {
        name = s.name,
        qualified = qualified,
        kind = s.kind,
        start = s.range.start.line + 1,
        stop = s.range['end'].line + 1,
        sel = s.selectionRange.start.line + 1,
        block = s.children ~= nil or (s.range['end'].line > s.range.start.line),
        parent = parent,
        children = {},
      }
      if s.kind == M.HEADING then
        sym.heading = M.heading_text(s.name)
        local above = parent and parent.path or {}
        sym.path = vim.list_extend(vim.list_slice(above), { sym.heading })
      end
      if parent then
        parent.children[#parent.children + 1] = sym
      end
      out[#out + 1] = sym
      walk(s.children or {}, qualified, sym)
    end
  end
  walk(result, nil, nil)
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
    -- `line:N` also names a one-line symbol starting on line N (an overload, a prototype:
    -- what only its line tells apart), and first the symbol whose name is on line N (the
    -- fields of one `int a,\n b;` share their start); the cursor names the definition
    -- around it.
    local exact = line ~= nil
    line = line or cursor_line
    local best, named_here
    for _, s in ipairs(symbols) do
      if s.start <= line and line <= s.stop then
        if exact and s.sel == line then
          named_here = s
        elseif s.block or (exact and s.start == line) then
          best = s -- document order: a later match is more inner
        end
      end
    end
    best = named_here or best
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
  if #matches == 0 then
    matches = H.headings(symbols, selector)
  end
  if #matches == 1 then
    return matches[1]
  end
  if #matches > 1 then
    local names = {}
    for _, s in ipairs(matches) do
      -- The name's line, as the engine's answers give it (not the doc comment's above).
      names[#names + 1] = ('%s (line:%d)'):format(H.display(symbols, s) or s.qualified, s.sel or s.start)
    end
    return nil, ('%s names %d symbols: %s; ask for one of those'):format(selector, #matches, table.concat(names, ', '))
  end
  return nil, ('no symbol %s here; press <Tab> after :ExpandAt for the names'):format(selector)
end

--- Open every fold within lines first..last, nested ones too, and none that only
--- encloses them (`:first,lastfoldopen!` also opens every fold of an enclosing one: a
--- class's other methods), nor one that starts inside and runs past `last`: the next
--- definition's, starting on this one's last line (`} function b() {`, `</style><h2>`),
--- whose fold that line is.
function H.open_within(first, last)
  local line = first
  for _ = 1, 100000 do
    if line > last then
      return
    end
    local closed = vim.fn.foldclosed(line)
    if closed == -1 then
      line = line + 1
    else
      local stop = vim.fn.foldclosedend(line)
      if closed > first and stop > last then
        return
      end
      vim.cmd(('silent! %dfoldopen'):format(line))
      if vim.fn.foldclosed(line) == closed and vim.fn.foldclosedend(line) == stop then
        line = stop + 1 -- cannot be opened: step over it
      end
    end
  end
end

--- Close, as :SimpleBrief shows them, the folds inside the folds opened to reveal a
--- symbol, except those holding it: its siblings stay closed.
function H.reclose(win, buf, sym, spans)
  if #spans == 0 then
    return
  end
  local ranges = lsp.request_sync(buf, 'textDocument/foldingRange', {
    textDocument = vim.lsp.util.make_text_document_params(buf),
  })
  local inside = {}
  for _, r in ipairs(ranges or {}) do
    local first, last = r.startLine + 1, r.endLine + 1
    local holds = first <= sym.start and sym.start <= last
    for _, span in ipairs(spans) do
      if not holds and first > span[1] and last <= span[2] then
        inside[#inside + 1] = r
        break
      end
    end
  end
  brief.close_to_outline(win, inside, true)
end

--- Open the folds that hide a symbol, then its own as `what` asks.
function H.open(win, sym, what)
  local buf = vim.api.nvim_win_get_buf(win)
  vim.api.nvim_win_call(win, function()
    local s = sym.start
    -- Enclosing folds that start above the symbol: open them, outermost first; what they
    -- hid besides the symbol closes again as :SimpleBrief shows it (Markdown sections too:
    -- only the chosen heading's own section opens).
    local spans = {}
    for _ = 1, 100 do
      local closed = vim.fn.foldclosed(s)
      if closed == -1 or closed >= s then
        break
      end
      spans[#spans + 1] = { closed, vim.fn.foldclosedend(s) }
      vim.cmd(('silent! %dfoldopen'):format(s))
    end
    H.reclose(win, buf, sym, spans)
    if what == 'signature' then
      if vim.fn.foldclosed(s) == -1 and vim.fn.foldlevel(s) > 0 then
        vim.cmd(('silent! %dfoldclose'):format(s))
      end
    elseif what == 'body' then
      if vim.fn.foldclosed(s) == s then
        vim.cmd(('silent! %dfoldopen'):format(s))
      end
    else
      H.open_within(s, sym.stop)
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

--- A completion word: spaces and backslashes escaped, so it stays one argument.
---@param name string
---@return string
function M.escape(name)
  local word = name:gsub('\\', '\\\\'):gsub(' ', '\\ ')
  -- A leading quote would make the rest a quoted selector: `"tower-http"` is typed `\"tower-http"`.
  return (word:gsub('^(["\'])', '\\%1'))
end

--- Split :ExpandAt's argument line into the selector and `what`. The selector may be
--- quoted (`"## Usage"`) or have escaped spaces (`Getting\ Started`); otherwise the rest
--- of the line is the selector, but a last word body|signature|all is `what`.
---@param line string
---@return string|nil selector, string|nil what, string|nil whole the line with `what` kept, string|nil quoted the quoted selector with its quotes (a TOML key `"tower-http"`)
function M.parse(line)
  line = vim.trim(line or '')
  if line == '' then
    return nil, nil
  end
  local q = line:sub(1, 1)
  if q == '"' or q == "'" then
    local close = line:find(q, 2, true)
    if close then
      local rest = vim.trim(line:sub(close + 1))
      return line:sub(2, close - 1), rest ~= '' and rest or nil, nil, line:sub(1, close)
    end
  end
  local words, word, i = {}, {}, 1
  while i <= #line do
    local c = line:sub(i, i)
    if c == '\\' and i < #line then
      word[#word + 1] = line:sub(i + 1, i + 1)
      i = i + 1
    elseif c:match('%s') then
      if #word > 0 then
        words[#words + 1] = table.concat(word)
        word = {}
      end
    else
      word[#word + 1] = c
    end
    i = i + 1
  end
  if #word > 0 then
    words[#words + 1] = table.concat(word)
  end
  local what, whole
  if #words > 1 and vim.tbl_contains(M.whats, words[#words]) then
    whole = table.concat(words, ' ')
    what = table.remove(words)
  end
  return table.concat(words, ' '), what, whole
end

--- :ExpandAt's handler: `args.args` is the whole argument line.
function M.command(args)
  local selector, what, whole, quoted = M.parse(args.args)
  local sym, why = M.expand_at(selector, what)
  if not sym and quoted then
    -- `"tower-http"` with no symbol `tower-http`: the quotes are part of the name, and
    -- `"quoted" heading` is a name, not a quoted one and `what`.
    sym = M.expand_at(quoted, what)
    if not sym and what then
      local plain, plain_what = M.parse('\\' .. vim.trim(args.args))
      sym = M.expand_at(plain, plain_what)
    end
  end
  if not sym and whole and why and why:match('^no symbol ') then
    -- `Run body` with no heading `Run`: the whole line is the name.
    sym = M.expand_at(whole)
  end
  if not sym then
    vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
  end
end

--- Command-line completion: names (Markdown headings by text or `Parent > Text` path,
--- spaces escaped), then the `what` words.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local rest = cmdline:gsub('^%s*%S+%s*', '', 1)
  local before = rest:sub(1, #rest - #arglead)
  if vim.trim(before) ~= '' then
    return vim.tbl_filter(function(w)
      return vim.startswith(w, arglead)
    end, M.whats)
  end
  local buf = vim.api.nvim_get_current_buf()
  local symbols = M.symbols(buf) or {}
  local seen, out = {}, {}
  for _, s in ipairs(symbols) do
    local names = { s.name, s.qualified }
    if s.path then
      -- Two headings with one path (`# Configuration` twice): line:N tells them apart.
      names = { H.display(symbols, s) or ('line:%d'):format(s.start) }
    end
    for _, name in ipairs(names) do
      name = M.escape(name)
      if not seen[name] and vim.startswith(name, arglead) then
        seen[name] = true
        out[#out + 1] = name
      end
    end
  end
  return out
end

return M
