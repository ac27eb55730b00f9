--- Debug sessions of the agent driven through the person's nvim-dap, when they have it.
---
--- The MCP server (python/simple_brief/debug/nvim_dap.py) calls these functions through the
--- RPC channel. A session is known here by its `key`; its adapter is registered as
--- `dap.adapters['simple-brief:KEY']` and started with `dap.run`, so nvim-dap's own UI (its
--- signs, the stopped line, the REPL, nvim-dap-ui) shows it like any session the person
--- starts. The agent's breakpoints go into nvim-dap's breakpoint store
--- (`require('dap.breakpoints')`), so they show as nvim-dap's signs and nvim-dap sends
--- them with the person's own. Requests wait here (`vim.wait`) for nvim-dap's callback, at
--- most `timeout_ms`; events of the session are queued until the server takes them, with
--- every answer.
---
--- nvim-dap API used (its :help dap-api, dap-session:request(), dap-extensions):
--- `dap.adapters`, `dap.defaults[type].exception_breakpoints`, `dap.run`, `dap.sessions`,
--- `dap.listeners.{before,after}`, `dap.listeners.on_session`, `session:request`,
--- `session:set_breakpoints`, and `dap.breakpoints.{set,get,remove}` (as breakpoint
--- extensions use it).
local M = {}

local H = {}

--- The sessions by key: the adapter's type name, the agent's breakpoints by file, the
--- queued events, the nvim-dap session once it exists, why it ended.
---@type table<string, {type: string, breakpoints: table<string, integer[]>, events: table[], session: table?, ended: string?, exceptions: string}>
M.keys = {}

--- Whether nvim-dap is there and has what driving a session needs.
---@return boolean
function M.available()
  local ok, dap = pcall(require, 'dap')
  return ok
    and type(dap) == 'table'
    and type(dap.run) == 'function'
    and type(dap.sessions) == 'function'
    and type(dap.listeners) == 'table'
    and (pcall(require, 'dap.breakpoints'))
end

---@param key string
function H.entry(key)
  local entry = M.keys[key]
  if not entry then
    error('simple-brief: no nvim-dap session ' .. tostring(key))
  end
  return entry
end

--- The key of an nvim-dap session started by simple-brief, or nil.
---@param session table
---@return string?
function H.key_of(session)
  local type_name = session and session.config and session.config.type
  for key, entry in pairs(M.keys) do
    if entry.type == type_name then
      return key
    end
  end
  return nil
end

--- A file's buffer, loaded (nvim-dap's breakpoints are signs of a buffer).
---@param path string
---@return integer
function H.buffer(path)
  local buf = vim.fn.bufadd(path)
  vim.fn.bufload(buf)
  return buf
end

---@param message any
---@return string
function H.text(message)
  if type(message) == 'table' then
    return tostring(
      message.message or (message.body and message.body.error and message.body.error.format) or vim.inspect(message)
    )
  end
  return tostring(message)
end

local EVENTS = { 'initialized', 'stopped', 'continued', 'output', 'exited', 'terminated', 'breakpoint' }

function H.listen()
  if H.listening then
    return
  end
  H.listening = true
  local dap = require('dap')
  for _, event in ipairs(EVENTS) do
    dap.listeners.after['event_' .. event]['simple-brief'] = function(session, body)
      local key = H.key_of(session)
      if key then
        M.keys[key].session = session
        table.insert(M.keys[key].events, { event = event, body = body or vim.empty_dict() })
        if event == 'terminated' then
          H.drop_breakpoints(key)
        end
      end
    end
  end
  dap.listeners.after.event_initialized['simple-brief:configured'] = function(session)
    local key = H.key_of(session)
    if key and (session.capabilities or {}).supportsConfigurationDoneRequest == false then
      M.keys[key].configured = true -- nvim-dap sends no configurationDone to such an adapter
    end
  end
  dap.listeners.before.event_initialized['simple-brief'] = function(session)
    local key = H.key_of(session)
    if key and M.keys[key].exceptions == 'raised' then
      local filters = {}
      for _, f in ipairs((session.capabilities or {}).exceptionBreakpointFilters or {}) do
        table.insert(filters, f.filter)
      end
      dap.defaults[M.keys[key].type].exception_breakpoints = filters
    end
  end
  dap.listeners.after.launch['simple-brief'] = function(session, err)
    local key = H.key_of(session)
    if key and err then
      M.keys[key].ended = 'the launch failed: ' .. H.text(err)
    end
  end
  dap.listeners.after.configurationDone['simple-brief'] = function(session, err)
    local key = H.key_of(session)
    if key then
      M.keys[key].configured = err and H.text(err) or true
    end
  end
  dap.listeners.on_session['simple-brief'] = function(old)
    local key = old and old.closed and H.key_of(old)
    if key and not M.keys[key].ended then
      M.keys[key].ended = 'nvim-dap closed the session'
      H.drop_breakpoints(key)
    end
  end
end

--- Put the agent's breakpoints of one file into nvim-dap's store, replacing the ones it set
--- there before.
---@param key string
---@param path string
---@param wanted {line: integer, condition: string?, hitCondition: string?, logMessage: string?}[]
---@return integer buf
function H.store(key, path, wanted)
  local breakpoints = require('dap.breakpoints')
  local entry = H.entry(key)
  local buf = H.buffer(path)
  for _, line in ipairs(entry.breakpoints[path] or {}) do
    breakpoints.remove(buf, line)
  end
  entry.breakpoints[path] = {}
  for _, bp in ipairs(wanted) do
    breakpoints.set({
      condition = bp.condition ~= '' and bp.condition or nil,
      hit_condition = bp.hitCondition ~= '' and bp.hitCondition or nil,
      log_message = bp.logMessage ~= '' and bp.logMessage or nil,
    }, buf, bp.line)
    table.insert(entry.breakpoints[path], bp.line)
  end
  return buf
end

--- What the adapter made of the agent's breakpoints of `path` (nvim-dap keeps it as each
--- breakpoint's `state`), in the order of `lines`.
---@param buf integer
---@param lines integer[]
---@return table[]
function H.states(buf, lines)
  local by_line = {}
  for _, bp in ipairs((require('dap.breakpoints').get(buf) or {})[buf] or {}) do
    by_line[bp.line] = bp.state or vim.empty_dict()
  end
  local out = {}
  for _, line in ipairs(lines) do
    table.insert(out, by_line[line] or vim.empty_dict())
  end
  return out
end

function H.drop_breakpoints(key)
  local entry = M.keys[key]
  if not entry then
    return
  end
  local breakpoints = require('dap.breakpoints')
  for path, lines in pairs(entry.breakpoints) do
    local buf = vim.fn.bufnr(path)
    if buf ~= -1 then
      for _, line in ipairs(lines) do
        pcall(breakpoints.remove, buf, line)
      end
    end
  end
  entry.breakpoints = {}
end

---@param key string
---@return table[]
function M.take(key)
  local entry = M.keys[key]
  if not entry then
    return {}
  end
  local events = entry.events
  entry.events = {}
  return events
end

--- Start a session: register its adapter, store its breakpoints, `dap.run` it, and wait
--- until nvim-dap has configured it (breakpoints sent, `configurationDone` answered), the
--- launch failed, or `timeout_ms` passed.
---@param key string
---@param spec {command: string, args: string[], cwd: string, env: table<string, string>, config: table, exceptions: string, filters: string[]?, breakpoints: {path: string, items: table[]}[]}
---@param timeout_ms integer
---@return {ok: boolean, error: string?, capabilities: table?, breakpoints: table[], events: table[]}
function M.start(key, spec, timeout_ms)
  local dap = require('dap')
  H.listen()
  local type_name = 'simple-brief:' .. key
  M.keys[key] = { type = type_name, breakpoints = {}, events = {}, exceptions = spec.exceptions }
  -- nvim-dap hands `env` to vim.uv.spawn as it is: `NAME=value` strings are what every luv takes.
  local env = {}
  for name, value in pairs(spec.env) do
    table.insert(env, name .. '=' .. value)
  end
  dap.adapters[type_name] = {
    type = 'executable',
    command = spec.command,
    args = spec.args,
    options = { cwd = spec.cwd, env = env, detached = true },
  }
  if spec.exceptions == 'none' then
    dap.defaults[type_name].exception_breakpoints = {}
  elseif spec.filters and spec.filters ~= vim.NIL then
    dap.defaults[type_name].exception_breakpoints = spec.filters
  else
    dap.defaults[type_name].exception_breakpoints = 'default'
  end
  local bufs = {}
  for _, file in ipairs(spec.breakpoints) do
    bufs[file.path] = H.store(key, file.path, file.items)
  end
  local config = vim.tbl_extend('force', spec.config, { type = type_name })
  dap.run(config, { new = true })
  local entry = M.keys[key]
  vim.wait(timeout_ms, function()
    if entry.session == nil then
      for _, s in pairs(dap.sessions()) do
        if s.config and s.config.type == type_name then
          entry.session = s
        end
      end
    end
    return entry.configured ~= nil or entry.ended ~= nil
  end, 10)
  local states = {}
  for _, file in ipairs(spec.breakpoints) do
    local lines = vim.tbl_map(function(bp)
      return bp.line
    end, file.items)
    table.insert(states, { path = file.path, states = H.states(bufs[file.path], lines) })
  end
  local ok = entry.configured == true and entry.ended == nil
  local why = entry.ended or (type(entry.configured) == 'string' and entry.configured)
  if not ok and not why then
    why = entry.session and 'nvim-dap did not configure the session in time'
      or 'nvim-dap did not start the session (see :messages or :DapShowLog)'
  end
  return {
    ok = ok,
    error = why or nil,
    capabilities = entry.session and entry.session.capabilities or vim.empty_dict(),
    breakpoints = states,
    events = M.take(key),
  }
end

--- Send one request through nvim-dap's session and wait for its answer.
---@param key string
---@param command string
---@param arguments table?
---@param timeout_ms integer
---@return {ok: boolean, body: any, error: string?, events: table[]}
function M.request(key, command, arguments, timeout_ms)
  local entry = H.entry(key)
  local session = entry.session
  if not session or session.closed then
    return { ok = false, error = entry.ended or 'the nvim-dap session is closed', events = M.take(key) }
  end
  local done, err, body = false, nil, nil
  session:request(command, arguments ~= vim.NIL and arguments or nil, function(e, result)
    done, err, body = true, e, result
  end)
  vim.wait(timeout_ms, function()
    return done
  end, 5)
  if not done then
    return { ok = false, error = 'nvim-dap got no answer to `' .. command .. '` in time', events = M.take(key) }
  end
  return { ok = err == nil, body = body or vim.empty_dict(), error = err and H.text(err) or nil, events = M.take(key) }
end

--- Replace the agent's breakpoints of one file and have nvim-dap send the file's set (the
--- person's breakpoints there included); what the adapter made of the agent's.
---@param key string
---@param path string
---@param wanted table[]
---@param timeout_ms integer
---@return {ok: boolean, states: table[], error: string?, events: table[]}
function M.set_breakpoints(key, path, wanted, timeout_ms)
  local entry = H.entry(key)
  local buf = H.store(key, path, wanted)
  local session = entry.session
  if not session or session.closed then
    return { ok = false, states = {}, error = entry.ended or 'the nvim-dap session is closed', events = M.take(key) }
  end
  local done = false
  local by_buf = require('dap.breakpoints').get(buf)
  by_buf[buf] = by_buf[buf] or {} -- an empty set clears the file's breakpoints in the adapter
  session:set_breakpoints(by_buf, function()
    done = true
  end)
  vim.wait(timeout_ms, function()
    return done
  end, 5)
  local lines = vim.tbl_map(function(bp)
    return bp.line
  end, wanted)
  return {
    ok = done,
    states = H.states(buf, lines),
    error = not done and 'nvim-dap did not send the breakpoints in time' or nil,
    events = M.take(key),
  }
end

--- Forget a session: its breakpoints leave nvim-dap's store, its adapter's name goes.
---@param key string
function M.forget(key)
  if not M.keys[key] then
    return
  end
  H.drop_breakpoints(key)
  local ok, dap = pcall(require, 'dap')
  if ok then
    dap.adapters[M.keys[key].type] = nil
  end
  M.keys[key] = nil
end

return M
