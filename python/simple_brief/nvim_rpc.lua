-- Helpers simple-brief installs once per Neovim connection in `_G.simple_brief_rpc`
-- (python/simple_brief/nvim_backend.py); each call is then one short exec_lua.
local src = ...
if src ~= vim.NIL and src ~= nil then
  package.preload['simple_brief.context'] = assert(loadstring(src, '=simple_brief/context.lua'))
end
local have = pcall(require, 'simple_brief.context')
local M = {}

local function eol(buf)
  local bo = vim.bo[buf]
  return bo.eol or (bo.fixendofline and not bo.binary)
end

function M.snapshot(known, want_lines)
  local snap = require('simple_brief.context').snapshot({ known_tick = known, lines = want_lines })
  if snap then
    snap.eol = eol(snap.buf)
  end
  return snap
end

function M.overlays(known)
  local out = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf)
      and vim.api.nvim_get_option_value('modified', { buf = buf })
      and vim.api.nvim_get_option_value('buftype', { buf = buf }) == ''
    then
      local name = vim.api.nvim_buf_get_name(buf)
      if name ~= '' then
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

-- 0-based byte column -> 0-based character (code point) column.
local function chars(line, col)
  if col <= 0 or not line or not line:find('[\128-\255]') then
    return col
  end
  local ok, idx = pcall(vim.str_utfindex, line, 'utf-32', math.min(col, #line), false)
  return ok and idx or col
end

function M.diagnostics()
  local by_buf, order, ns_names = {}, {}, {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local buf = d.bufnr
    local entry = by_buf[buf]
    if entry == nil then
      local name = vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_get_name(buf) or ''
      entry = name ~= '' and { path = name, items = {}, loaded = vim.api.nvim_buf_is_loaded(buf) } or false
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
        lnum, col, end_lnum, end_col, d.severity or 1, d.message or '', source,
        code ~= nil and tostring(code) or '', data == nil and vim.NIL or data,
      }
    end
  end
  for _, entry in ipairs(order) do
    entry.loaded = nil
  end
  return order
end

-- The loaded buffer of a file, by its name or its resolved name (nil: not loaded).
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

function M.symbols(path, timeout, own)
  local buf = loaded_buf(path)
  if not buf then
    return { status = 'no-buffer' }
  end
  local clients = vim.lsp.get_clients({ bufnr = buf, method = 'textDocument/documentSymbol' })
  table.sort(clients, function(a, b) return a.id < b.id end)
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

-- --- language intelligence (python/simple_brief/nvim_intel.py) -----------------------------

-- The clients of `buf` that support `method`, simple-brief's own (`own`) left out, oldest first.
local function intel_clients(buf, method, own)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    if c.name ~= own and c:supports_method(method, buf) then
      out[#out + 1] = c
    end
  end
  table.sort(out, function(a, b) return a.id < b.id end)
  return out
end

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

-- A copy of `value` with every {line, character} position (code points) in encoding `enc`,
-- measured on the buffer's lines.
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

local function error_text(err)
  if type(err) ~= 'table' then
    return tostring(err)
  end
  local text = tostring(err.message or vim.inspect(err))
  return err.code and (text .. ' (code ' .. tostring(err.code) .. ')') or text
end

-- Send `method` about `path` to every client of its buffer that supports it, at once, and
-- wait up to `timeout` ms for all of them: {name, encoding, result, error} per client.
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

-- The text of the loaded buffers among `paths` (lines sent only when the changedtick is not `known`).
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

-- Apply LSP TextEdits (code points) per file: every buffer is found or loaded (hidden) and
-- checked first, so a refusal applies nothing. Never writes a file.
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
