--- Helpers simple-brief installs once per Neovim connection in `_G.simple_brief_rpc`
--- (python/simple_brief/editor/nvim/backend.py); each call is then one short exec_lua.
---
--- The chunk's one argument is the source of lua/simple_brief/context.lua (or nil when
--- the plugin is on 'runtimepath'); it returns a simple_brief.rpc.Installed.

---@class simple_brief.rpc.Installed
---@field context boolean require('simple_brief.context') works (the plugin or the sent source).
---@field pid integer Neovim's process id.
---@field servername string v:servername ('' when Neovim listens on nothing).

---@class simple_brief.SecretRules
--- The secrets rules in force (python/simple_brief/files/secret_files.py), sent with every call
--- that walks the buffers.
---@field root? string The workspace root (absolute).
---@field deny? string[] Globs of the files never sent.
---@field allow? string[] Globs that win over `deny`.

---@class simple_brief.rpc.Glob
--- A glob compiled as pathspec normalizes it: `all` for a glob that matches every path (or
--- none), else one anchored Lua pattern per name, ANY / REST for `**`.
---@field all? boolean
---@field parts? (string|integer)[]
---@field glob? string The glob as written (set on the compiled rules).

---@class simple_brief.rpc.CompiledRules
---@field key string|nil The rules these were compiled from.
---@field deny? simple_brief.rpc.Glob[]
---@field allow? simple_brief.rpc.Glob[]

---@class simple_brief.rpc.Snapshot: simple_brief.Snapshot
---@field withheld? string The secrets glob the file matches: no `lines`, no selection text.
---@field eol? boolean The file ends with a newline when written ('eol' / 'fixendofline').

---@class simple_brief.rpc.BufferText
---@field buf integer
---@field path string The buffer's name (overlays) or the path asked for (buffer_texts).
---@field tick integer b:changedtick.
---@field eol boolean The file ends with a newline when written.
---@field lines? string[] Only when `tick` is not the caller's known one.

--- One diagnostic: 0-based line and character (code point) columns of start and end,
--- severity, message, source, code ('' when none), the LSP `data` (vim.NIL when none).
---@alias simple_brief.rpc.DiagnosticRow [integer, integer, integer, integer, integer, string, string, string, any]

---@class simple_brief.rpc.FileDiagnostics
---@field path string
---@field items simple_brief.rpc.DiagnosticRow[]
---@field loaded? boolean Only while gathering: the buffer is loaded (columns can be converted).

---@class simple_brief.rpc.Symbols
---@field status 'ok'|'no-buffer'|'no-client'|'error'
---@field client? string The language server asked.
---@field error? string
---@field result? table DocumentSymbol[] or SymbolInformation[], positions in code points.

---@class simple_brief.rpc.IntelReply
---@field name string The client's name.
---@field encoding string Its position encoding ('utf-8', 'utf-16', 'utf-32').
---@field result? any The server's answer, positions as it sent them.
---@field error? string

---@class simple_brief.rpc.FileEdits
---@field path string
---@field edits lsp.TextEdit[] Positions in code points (utf-32).

---@class simple_brief.rpc.ApplyResult
---@field changed? string[] The paths whose buffers changed.
---@field error? 'load'|'nomodifiable'|'apply' Why nothing (or, for 'apply', not everything) was applied.
---@field path? string The file refused.
---@field message? string

local src = ...
if src ~= vim.NIL and src ~= nil then
  package.preload['simple_brief.context'] = assert(loadstring(src, '=simple_brief/context.lua'))
end
local have = pcall(require, 'simple_brief.context')
local M = {}

--- Whether `buf`'s file ends with a newline when written.
---@param buf integer
---@return boolean
local function eol(buf)
  local bo = vim.bo[buf]
  return bo.eol or (bo.fixendofline and not bo.binary)
end

-- --- secrets files (python/simple_brief/files/secret_files.py) ------------------------------------
-- Python sends the rules in force, { root = , deny = {globs}, allow = {globs} }, with every
-- call that walks the buffers; a buffer whose file matches is never sent: not its lines,
-- its selection's text, nor its diagnostics. The globs are matched here as pathspec's
-- GitIgnoreSpecPattern (git's rules) matches them on the Python side: a glob without `/`
-- matches a name at any depth, one with `/` the path from the root, and a match on a
-- folder covers everything in it.

--- One character of a name (UTF-8), for `?`.
local CHAR = '[\1-\127\194-\244][\128-\191]*'
--- Segments of a compiled glob that are `**`: any number of names (inner or leading), or at
--- least one more (trailing).
local ANY, REST = 1, 2

--- One character as a Lua pattern that matches only it.
---@param c string
---@return string
local function literal(c)
  if c:find('^%w$') or c:byte() >= 128 then
    return c
  end
  return '%' .. c
end

--- The bracket expression at seg[i] ('['): a Lua set and the index after its ']', or nil
--- when it is not closed (git then drops the whole glob).
---@param seg string
---@param i integer
---@return string|nil set, integer|nil after
local function bracket(seg, i)
  local j = i + 1
  if seg:sub(j, j) == '!' or seg:sub(j, j) == '^' then
    j = j + 1
  end
  if seg:sub(j, j) == ']' then
    j = j + 1
  end
  local close = seg:find(']', j, true)
  if not close then
    return nil
  end
  local k, negate = i + 1, false
  if seg:sub(k, k) == '!' or seg:sub(k, k) == '^' then
    k, negate = k + 1, true
  end
  local body, items, p = seg:sub(k, close - 1), {}, 1
  while p <= #body do
    if p + 2 <= #body and body:sub(p + 1, p + 1) == '-' then
      for b = body:byte(p), body:byte(p + 2) do
        items[#items + 1] = literal(string.char(b))
      end
      p = p + 3
    else
      items[#items + 1] = literal(body:sub(p, p))
      p = p + 1
    end
  end
  if #items == 0 then
    return nil -- a reversed range ([z-a]) matches nothing
  end
  if negate then
    return '[^' .. table.concat(items) .. '][\128-\191]*', close + 1
  end
  return '[' .. table.concat(items) .. ']', close + 1
end

--- One segment of a glob (no '/') as an anchored Lua pattern; nil when git would drop it.
---@param seg string
---@return string|nil
local function segment(seg)
  if seg == '*' then
    return '^.+$'
  end
  local out, i = { '^' }, 1
  while i <= #seg do
    local c = seg:sub(i, i)
    if c == '\\' then
      if i == #seg then
        return nil
      end
      out[#out + 1] = literal(seg:sub(i + 1, i + 1))
      i = i + 2
    elseif c == '*' then
      out[#out + 1] = '.*'
      i = i + 1
    elseif c == '?' then
      out[#out + 1] = CHAR
      i = i + 1
    elseif c == '[' then
      local set, after = bracket(seg, i)
      if not set then
        return nil
      end
      out[#out + 1], i = set, after
    else
      out[#out + 1] = literal(c)
      i = i + 1
    end
  end
  out[#out + 1] = '$'
  return table.concat(out)
end

--- A glob compiled as pathspec normalizes it: { all = true|false } or { parts = {...} }; nil
--- for what matches nothing (blank, comment, negation, a broken bracket).
---@param glob string
---@return simple_brief.rpc.Glob|nil
local function compile(glob)
  if glob:sub(-2) ~= '\\ ' then
    glob = glob:gsub('%s+$', '')
  end
  local first = glob:sub(1, 1)
  if glob == '' or glob == '/' or first == '#' or first == '!' then
    return nil
  end
  local segs = vim.split(glob, '/', { plain = true })
  local dir = segs[#segs] == ''
  if segs[1] == '' then
    table.remove(segs, 1)
  elseif (#segs == 1 or (#segs == 2 and segs[2] == '')) and segs[1] ~= '**' then
    table.insert(segs, 1, '**')
  end
  if #segs == 0 then
    return nil
  end
  if segs[#segs] == '' then
    segs[#segs] = '**'
  end
  for i = #segs, 2, -1 do
    if segs[i - 1] == '**' and segs[i] == '**' then
      table.remove(segs, i)
    end
  end
  local n = #segs
  if n == 1 and segs[1] == '**' then
    return { all = not dir }
  elseif n == 2 and segs[1] == '**' and segs[2] == '*' then
    return { all = true }
  elseif n == 3 and segs[1] == '**' and segs[2] == '*' and segs[3] == '**' then
    return { all = false }
  end
  local parts = {}
  for i, seg in ipairs(segs) do
    if seg == '**' then
      parts[i] = i == n and REST or ANY
    else
      parts[i] = segment(seg)
      if not parts[i] then
        return nil
      end
    end
  end
  return { parts = parts }
end

--- Whether names[ni..] match parts[pi..] (backtracking over ANY).
---@param parts (string|integer)[]
---@param names string[]
---@param pi integer
---@param ni integer
---@return boolean
local function match_parts(parts, names, pi, ni)
  local part = parts[pi]
  if part == nil then
    return true -- the last segment matched a name: that file, or a folder and all in it
  elseif part == REST then
    return ni <= #names
  elseif part == ANY then
    for k = ni, #names do
      if match_parts(parts, names, pi + 1, k) then
        return true
      end
    end
    return false
  end
  local name = names[ni]
  return name ~= nil and name:find(part) ~= nil and match_parts(parts, names, pi + 1, ni + 1)
end

--- Whether a compiled glob matches a path given as its names.
---@param glob simple_brief.rpc.Glob
---@param names string[]
---@return boolean
local function matches(glob, names)
  if glob.all ~= nil then
    return glob.all
  end
  return match_parts(glob.parts, names, 1, 1)
end

--- The rules last compiled (most calls send the same rules).
---@type simple_brief.rpc.CompiledRules
local compiled = { key = nil }

--- `rules` compiled, from the cache when they are the last ones.
---@param rules simple_brief.SecretRules
---@return simple_brief.rpc.CompiledRules
local function compiled_rules(rules)
  local deny, allow = rules.deny or {}, rules.allow or {}
  local key = table.concat(deny, '\0') .. '\1' .. table.concat(allow, '\0')
  if compiled.key ~= key then
    compiled = { key = key, deny = {}, allow = {} }
    for _, list in ipairs({ 'deny', 'allow' }) do
      for _, glob in ipairs(list == 'deny' and deny or allow) do
        local c = compile(glob)
        if c then
          c.glob = glob
          table.insert(compiled[list], c)
        end
      end
    end
  end
  return compiled
end

--- The deny glob that `rel` (a '/'-separated path from the root) matches, unless allowed.
---@param rules simple_brief.SecretRules
---@param rel string
---@return string|nil
local function rule_for(rules, rel)
  rel = rel:gsub('^/+', ''):gsub('/+$', '')
  if rel == '' or rel == '.' then
    return nil
  end
  local names = vim.split(rel, '/', { plain = true })
  local c = compiled_rules(rules)
  for _, glob in ipairs(c.deny) do
    if matches(glob, names) then
      for _, ok in ipairs(c.allow) do
        if matches(ok, names) then
          return nil
        end
      end
      return glob.glob
    end
  end
  return nil
end

--- The secrets rule a buffer's file matches (its name or the file it leads to), or nil.
--- Inside the root the path from the root counts; outside, the whole path (so a name like
--- `.env` is withheld anywhere).
---@param rules simple_brief.SecretRules|any Anything but a table: no rules.
---@param name string|any The buffer's name.
---@return string|nil glob The deny glob matched.
function M.secret_rule(rules, name)
  if type(rules) ~= 'table' or type(name) ~= 'string' or name == '' then
    return nil
  end
  local root = rules.root or ''
  if root ~= '/' then
    root = root:gsub('/+$', '')
  end
  local prefix = root == '/' and '/' or root .. '/'
  for _, path in ipairs({ vim.fs.normalize(name), vim.uv.fs_realpath(name) }) do
    local rel
    if root ~= '' and path == root then
      rel = ''
    elseif root ~= '' and path:sub(1, #prefix) == prefix then
      rel = path:sub(#prefix + 1)
    else
      rel = path
    end
    local rule = rule_for(rules, rel)
    if rule then
      return rule
    end
  end
  return nil
end

--- The editor context (lua/simple_brief/context.lua), a secrets file's text withheld.
---@param known? integer|table<integer|string, integer> The caller's known changedtick(s).
---@param want_lines? boolean false: never send the lines.
---@param rules? simple_brief.SecretRules
---@return simple_brief.rpc.Snapshot|nil
function M.snapshot(known, want_lines, rules)
  local snap = require('simple_brief.context').snapshot({ known_tick = known, lines = want_lines })
  if snap then
    local rule = M.secret_rule(rules, snap.path)
    if rule then
      -- Where the person is may be named; what the file holds never leaves Neovim.
      snap.lines = nil
      if type(snap.selection) == 'table' then
        snap.selection.text = nil
      end
      snap.withheld = rule
    else
      snap.eol = eol(snap.buf)
    end
  end
  return snap
end

--- The modified file buffers (not secrets files): the editor's unsaved text.
---@param known table<string, integer> Buffer number (as a string) -> the caller's changedtick.
---@param rules? simple_brief.SecretRules
---@return simple_brief.rpc.BufferText[]
function M.overlays(known, rules)
  local out = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if
      vim.api.nvim_buf_is_loaded(buf)
      and vim.api.nvim_get_option_value('modified', { buf = buf })
      and vim.api.nvim_get_option_value('buftype', { buf = buf }) == ''
    then
      local name = vim.api.nvim_buf_get_name(buf)
      if name ~= '' and not M.secret_rule(rules, name) then
        local tick = vim.api.nvim_buf_get_changedtick(buf)
        local item = { buf = buf, path = name, tick = tick, eol = eol(buf) }
        if known[tostring(buf)] ~= tick then
          item.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
        end
        out[#out + 1] = item
      end
    end
  end
  return out
end

--- 0-based byte column -> 0-based character (code point) column.
---@param line string|nil
---@param col integer
---@return integer
local function chars(line, col)
  if col <= 0 or not line or not line:find('[\128-\255]') then
    return col
  end
  local ok, idx = pcall(vim.str_utfindex, line, 'utf-32', math.min(col, #line), false)
  return ok and idx or col
end

--- Every buffer's diagnostics but a secrets file's, columns in code points where loaded.
---@param rules? simple_brief.SecretRules
---@return simple_brief.rpc.FileDiagnostics[]
function M.diagnostics(rules)
  local by_buf, order, ns_names = {}, {}, {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local buf = d.bufnr
    local entry = by_buf[buf]
    if entry == nil then
      local name = vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_get_name(buf) or ''
      -- A secrets file's findings stay here: their messages may quote what it holds.
      local ok = name ~= '' and not M.secret_rule(rules, name)
      entry = ok and { path = name, items = {}, loaded = vim.api.nvim_buf_is_loaded(buf) } or false
      by_buf[buf] = entry
      if entry then
        order[#order + 1] = entry
      end
    end
    if entry then
      local source = d.source
      if source == nil or source == '' then
        local ns = d.namespace
        if ns_names[ns] == nil then
          local info = vim.diagnostic.get_namespace(ns)
          ns_names[ns] = info and info.name or ''
        end
        source = ns_names[ns]
      end
      local lnum, col = d.lnum or 0, d.col or 0
      local end_lnum, end_col = d.end_lnum or lnum, d.end_col or col
      if entry.loaded then
        local first = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, false)[1]
        col = chars(first, col)
        if end_lnum ~= lnum then
          first = vim.api.nvim_buf_get_lines(buf, end_lnum, end_lnum + 1, false)[1]
        end
        end_col = chars(first, end_col)
      end
      local code = d.code
      -- The LSP diagnostic's `data`: its server may need it to offer a fix (python-lsp-ruff).
      local lsp = type(d.user_data) == 'table' and d.user_data.lsp or nil
      local data = type(lsp) == 'table' and lsp.data or nil
      entry.items[#entry.items + 1] = {
        lnum,
        col,
        end_lnum,
        end_col,
        d.severity or 1,
        d.message or '',
        source,
        code ~= nil and tostring(code) or '',
        data == nil and vim.NIL or data,
      }
    end
  end
  for _, entry in ipairs(order) do
    entry.loaded = nil
  end
  return order
end

--- The loaded buffer of a file, by its name or its resolved name (nil: not loaded).
---@param path string
---@return integer|nil
local function loaded_buf(path)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      local name = vim.api.nvim_buf_get_name(b)
      if name ~= '' and (name == path or vim.uv.fs_realpath(name) == path) then
        return b
      end
    end
  end
end

--- textDocument/documentSymbol from the first client of `path`'s buffer (another than
--- `own` when there is one), positions converted to code points.
---@param path string
---@param timeout integer Milliseconds.
---@param own? string simple-brief's own client name.
---@return simple_brief.rpc.Symbols
function M.symbols(path, timeout, own)
  local buf = loaded_buf(path)
  if not buf then
    return { status = 'no-buffer' }
  end
  local clients = vim.lsp.get_clients({ bufnr = buf, method = 'textDocument/documentSymbol' })
  table.sort(clients, function(a, b)
    return a.id < b.id
  end)
  local chosen
  for _, c in ipairs(clients) do
    if c.name ~= own then
      chosen = c
      break
    end
  end
  chosen = chosen or clients[1]
  if not chosen then
    return { status = 'no-client' }
  end
  local params = { textDocument = vim.lsp.util.make_text_document_params(buf) }
  local resp, err = chosen:request_sync('textDocument/documentSymbol', params, timeout, buf)
  if not resp then
    return { status = 'error', client = chosen.name, error = tostring(err or 'no answer') }
  end
  if resp.err then
    return { status = 'error', client = chosen.name, error = tostring(resp.err.message or resp.err) }
  end
  local result = resp.result
  if type(result) ~= 'table' then
    result = {}
  end
  local enc = chosen.offset_encoding or 'utf-16'
  if enc ~= 'utf-32' then
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    local function fix(pos)
      if type(pos) ~= 'table' or type(pos.character) ~= 'number' or pos.character <= 0 then
        return
      end
      local line = lines[(pos.line or 0) + 1]
      if line and line:find('[\128-\255]') then
        local ok, byte = pcall(vim.str_byteindex, line, enc, pos.character, false)
        if ok then
          pos.character = vim.str_utfindex(line, 'utf-32', byte, false)
        end
      end
    end
    local function fix_range(r)
      if type(r) == 'table' then
        fix(r.start)
        fix(r['end'])
      end
    end
    local function walk(items)
      for _, item in ipairs(items) do
        fix_range(item.range)
        fix_range(item.selectionRange)
        if type(item.location) == 'table' then
          fix_range(item.location.range)
        end
        if type(item.children) == 'table' then
          walk(item.children)
        end
      end
    end
    walk(result)
  end
  return { status = 'ok', client = chosen.name, result = result }
end

-- --- language intelligence (python/simple_brief/editor/nvim/intel.py) -----------------------------

--- The clients of `buf` that support `method`, simple-brief's own (`own`) left out, oldest first.
---@param buf integer
---@param method string
---@param own? string
---@return vim.lsp.Client[]
local function intel_clients(buf, method, own)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    if c.name ~= own and c:supports_method(method, buf) then
      out[#out + 1] = c
    end
  end
  table.sort(out, function(a, b)
    return a.id < b.id
  end)
  return out
end

--- The names of the clients of `path`'s buffer that support `method` (none: not loaded).
---@param path string
---@param method string
---@param own? string
---@return string[]
function M.intel_servers(path, method, own)
  local buf = loaded_buf(path)
  if not buf then
    return {}
  end
  local names = {}
  for _, c in ipairs(intel_clients(buf, method, own)) do
    names[#names + 1] = c.name
  end
  return names
end

--- A copy of `value` with every {line, character} position (code points) in encoding `enc`,
--- measured on the buffer's lines.
---@generic T
---@param value T
---@param buf integer
---@param enc string
---@return T
local function encode_positions(value, buf, enc)
  if type(value) ~= 'table' then
    return value
  end
  local copy = {}
  for k, v in pairs(value) do
    copy[k] = encode_positions(v, buf, enc)
  end
  local line, char = copy.line, copy.character
  if enc ~= 'utf-32' and type(line) == 'number' and type(char) == 'number' and char > 0 then
    local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
    if text and text:find('[\128-\255]') then
      local ok, byte = pcall(vim.str_byteindex, text, 'utf-32', char, false)
      if ok then
        copy.character = enc == 'utf-8' and byte or vim.str_utfindex(text, enc, byte, false)
      end
    end
  end
  -- Keeps an empty JSON object an object (vim.empty_dict's metatable).
  return setmetatable(copy, getmetatable(value))
end

--- An LSP error (or anything) as one line of text.
---@param err any
---@return string
local function error_text(err)
  if type(err) ~= 'table' then
    return tostring(err)
  end
  local text = tostring(err.message or vim.inspect(err))
  return err.code and (text .. ' (code ' .. tostring(err.code) .. ')') or text
end

--- Send `method` about `path` to every client of its buffer that supports it, at once, and
--- wait up to `timeout` ms for all of them: {name, encoding, result, error} per client.
---@param path string
---@param method string
---@param params table|any Positions in code points; textDocument is set here.
---@param timeout integer Milliseconds.
---@param own? string
---@return simple_brief.rpc.IntelReply[]
function M.intel_request(path, method, params, timeout, own)
  local buf = loaded_buf(path)
  if not buf then
    return {}
  end
  local clients = intel_clients(buf, method, own)
  local uri = vim.uri_from_bufnr(buf)
  local replies, state = {}, {}
  for i, c in ipairs(clients) do
    local enc = c.offset_encoding or 'utf-16'
    local reply = { name = c.name, encoding = enc }
    local st = { client = c, done = false }
    replies[i], state[i] = reply, st
    local p = encode_positions(type(params) == 'table' and params or {}, buf, enc)
    p.textDocument = { uri = uri }
    local ok, sent, id = pcall(c.request, c, method, p, function(err, result)
      st.done = true
      reply.result = result
      if err then
        reply.error = error_text(err)
      end
    end, buf)
    if not ok then
      st.done, reply.error = true, 'request failed: ' .. tostring(sent)
    elseif not sent then
      st.done, reply.error = true, 'the server is not running'
    else
      st.id = id
    end
  end
  vim.wait(timeout, function()
    for _, st in ipairs(state) do
      if not st.done then
        return false
      end
    end
    return true
  end, 5)
  for i, st in ipairs(state) do
    if not st.done then
      replies[i].error = string.format('no answer within %d ms', timeout)
      if st.id then
        pcall(st.client.cancel_request, st.client, st.id)
      end
    end
  end
  return replies
end

--- The text of the loaded buffers among `paths` (lines sent only when the changedtick is not `known`).
---@param paths string[]
---@param known table<string, integer> Buffer number (as a string) -> the caller's changedtick.
---@return simple_brief.rpc.BufferText[]
function M.buffer_texts(paths, known)
  local out = {}
  for _, path in ipairs(paths) do
    local buf = loaded_buf(path)
    if buf then
      local tick = vim.api.nvim_buf_get_changedtick(buf)
      local item = { path = path, buf = buf, tick = tick, eol = eol(buf) }
      if known[tostring(buf)] ~= tick then
        item.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      end
      out[#out + 1] = item
    end
  end
  return out
end

--- Apply LSP TextEdits (code points) per file: every buffer is found or loaded (hidden) and
--- checked first, so a refusal applies nothing. Never writes a file.
---@param items simple_brief.rpc.FileEdits[]
---@return simple_brief.rpc.ApplyResult
function M.apply_edits(items)
  local plan = {}
  for _, item in ipairs(items) do
    local buf = loaded_buf(item.path)
    if not buf then
      buf = vim.fn.bufadd(item.path)
      -- No ATTENTION prompt for a swap file: there is nobody to answer it.
      local shortmess = vim.o.shortmess
      vim.o.shortmess = shortmess .. 'A'
      local ok, err = pcall(vim.fn.bufload, buf)
      vim.o.shortmess = shortmess
      if not ok or not vim.api.nvim_buf_is_loaded(buf) then
        return { error = 'load', path = item.path, message = tostring(err or 'not loaded') }
      end
    end
    if not vim.bo[buf].modifiable then
      return { error = 'nomodifiable', path = item.path }
    end
    plan[#plan + 1] = { buf = buf, item = item }
  end
  local changed = {}
  for _, step in ipairs(plan) do
    local tick = vim.api.nvim_buf_get_changedtick(step.buf)
    local ok, err = pcall(vim.lsp.util.apply_text_edits, step.item.edits, step.buf, 'utf-32')
    if vim.api.nvim_buf_get_changedtick(step.buf) ~= tick then
      changed[#changed + 1] = step.item.path
    end
    if not ok then
      return { error = 'apply', path = step.item.path, message = tostring(err), changed = changed }
    end
  end
  return { changed = changed }
end

_G.simple_brief_rpc = M
return { context = have, pid = vim.fn.getpid(), servername = vim.v.servername }
