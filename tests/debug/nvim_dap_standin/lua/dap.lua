-- A stand-in for nvim-dap (github.com/mfussenegger/nvim-dap) in the tests.
--
-- WHY: nvim-dap is installed from git by plugin managers; it is not on PyPI, Debian or npm,
-- and the tests install nothing else (no network at test time). So this file gives the
-- subset of nvim-dap's API simple-brief's driver uses, behaving the way nvim-dap's own
-- lua/dap.lua and lua/dap/session.lua do: `dap.run` spawns the adapter detached with
-- `vim.uv.spawn` (`options.env` handed over as is), sends `initialize`, then the config as
-- the `launch` request; on the `initialized` event it sends every buffer's breakpoints of
-- `dap.breakpoints`, the exception filters of `dap.defaults[type]`, then
-- `configurationDone`; `listeners.before/after` are called around its own handling of
-- every event and response; a session closes when the adapter's output ends, and
-- `listeners.on_session` hears of it. The adapter is real (debugpy), so everything the
-- driver asks goes to a real debug adapter and back.
local uv = vim.uv or vim.loop
local M = {}

local function autovivify()
  return setmetatable({}, {
    __index = function(tbl, key)
      rawset(tbl, key, {})
      return rawget(tbl, key)
    end,
  })
end

M.listeners = { before = autovivify(), after = autovivify(), on_config = {}, on_session = {} }
M.adapters = {}
M.configurations = {}
M.defaults = setmetatable({ fallback = { exception_breakpoints = 'default' } }, {
  __index = function(tbl, key)
    rawset(tbl, key, setmetatable({}, { __index = tbl.fallback }))
    return rawget(tbl, key)
  end,
})

local sessions = {}
local current = nil
local next_id = 1

--- Counted by the tests: what the stand-in sent to adapters, by command.
M.sent = {}

local Session = {}
Session.__index = Session

local function set_session(new)
  local old = current
  if not new then
    local _, any = next(sessions)
    new = any
  end
  current = new
  for _, on_session in pairs(M.listeners.on_session) do
    on_session(old, new)
  end
end

function Session:send(message)
  local body = vim.json.encode(message)
  self.stdin:write('Content-Length: ' .. #body .. '\r\n\r\n' .. body)
end

function Session:request(command, arguments, on_result)
  local seq = self.seq
  self.seq = seq + 1
  self.callbacks[seq] = on_result or function() end
  self.requests[seq] = arguments
  M.sent[command] = (M.sent[command] or 0) + 1
  self:send({ seq = seq, type = 'request', command = command, arguments = arguments })
end

function Session:set_breakpoints(by_buf, on_done)
  local pending = 0
  local function one_done()
    pending = pending - 1
    if pending == 0 and on_done then
      on_done()
    end
  end
  local bps = require('dap.breakpoints')
  for buf, list in pairs(by_buf) do
    pending = pending + 1
    local path = vim.api.nvim_buf_get_name(buf)
    local wanted = {}
    for _, bp in ipairs(list) do
      table.insert(
        wanted,
        { line = bp.line, condition = bp.condition, hitCondition = bp.hitCondition, logMessage = bp.logMessage }
      )
    end
    self:request('setBreakpoints', {
      source = { path = path, name = vim.fs.basename(path) },
      breakpoints = wanted,
      lines = vim.tbl_map(function(b)
        return b.line
      end, wanted),
    }, function(err, result)
      if not err then
        for _, state in ipairs(result.breakpoints or {}) do
          if state.line then
            bps.set_state(buf, state)
          end
        end
      end
      one_done()
    end)
  end
  if pending == 0 and on_done then
    on_done()
  end
end

function Session:event_initialized()
  local bps = require('dap.breakpoints')
  self:set_breakpoints(bps.get(), function()
    local filters = M.defaults[self.config.type].exception_breakpoints
    if filters == 'default' then
      filters = {}
      for _, f in ipairs(self.capabilities.exceptionBreakpointFilters or {}) do
        if f.default then
          table.insert(filters, f.filter)
        end
      end
    end
    self:request('setExceptionBreakpoints', { filters = filters }, function()
      if self.capabilities.supportsConfigurationDoneRequest then
        self:request('configurationDone', vim.empty_dict(), function() end)
      end
    end)
  end)
end

function Session:event_stopped(body)
  self.stopped_thread_id = body.threadId
end

function Session:event_continued()
  self.stopped_thread_id = nil
end

function Session:handle(message)
  if message.type == 'event' then
    local name = 'event_' .. message.event
    local body = message.body or {}
    for _, listener in pairs(M.listeners.before[name]) do
      listener(self, body)
    end
    if Session[name] then
      Session[name](self, body)
    end
    for _, listener in pairs(M.listeners.after[name]) do
      listener(self, body)
    end
  elseif message.type == 'response' then
    local callback = self.callbacks[message.request_seq]
    local arguments = self.requests[message.request_seq]
    self.callbacks[message.request_seq] = nil
    local err = nil
    if not message.success then
      err = { message = message.message or 'failed', body = message.body }
      setmetatable(err, {
        __tostring = function(e)
          return e.message
        end,
      })
    end
    for _, listener in pairs(M.listeners.before[message.command]) do
      listener(self, err, message.body, arguments, message.request_seq)
    end
    if callback then
      callback(err, message.body)
    end
    for _, listener in pairs(M.listeners.after[message.command]) do
      listener(self, err, message.body, arguments, message.request_seq)
    end
  elseif message.type == 'request' then
    self:send({
      seq = 0,
      type = 'response',
      request_seq = message.seq,
      command = message.command,
      success = false,
      message = 'not supported by the stand-in',
    })
  end
end

function Session:read(chunk)
  self.buffer = self.buffer .. chunk
  while true do
    local header_end = self.buffer:find('\r\n\r\n', 1, true)
    if not header_end then
      return
    end
    local length = tonumber(self.buffer:sub(1, header_end):match('Content%-Length: *(%d+)'))
    if not length or #self.buffer < header_end + 3 + length then
      return
    end
    local body = self.buffer:sub(header_end + 4, header_end + 3 + length)
    self.buffer = self.buffer:sub(header_end + 4 + length)
    local message = vim.json.decode(body, { luanil = { object = true, array = true } })
    vim.schedule(function()
      self:handle(message)
    end)
  end
end

function Session:close()
  if self.closed then
    return
  end
  self.closed = true
  sessions[self.id] = nil
  if current == self then
    set_session(nil)
  end
end

local function spawn(adapter, config)
  local options = adapter.options or {}
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local session = setmetatable({
    id = next_id,
    config = config,
    adapter = adapter,
    seq = 1,
    callbacks = {},
    requests = {},
    buffer = '',
    capabilities = {},
    closed = false,
    stdin = stdin,
  }, Session)
  next_id = next_id + 1
  local handle = uv.spawn(adapter.command, {
    args = adapter.args,
    stdio = { stdin, stdout, stderr },
    cwd = options.cwd,
    env = options.env,
    detached = options.detached == nil and true or options.detached,
  }, function()
    vim.schedule(function()
      session:close()
    end)
  end)
  if not handle then
    return nil
  end
  stdout:read_start(function(_, chunk)
    if chunk then
      session:read(chunk)
    end
  end)
  stderr:read_start(function() end)
  return session
end

function M.run(config, opts)
  local adapter = M.adapters[config.type]
  assert(type(adapter) == 'table', 'the stand-in takes adapter tables only')
  local session = spawn(adapter, config)
  if not session then
    return
  end
  sessions[session.id] = session
  set_session(session)
  session:request(
    'initialize',
    { clientID = 'neovim', adapterID = 'nvim-dap', linesStartAt1 = true, columnsStartAt1 = true, pathFormat = 'path' },
    function(err, result)
      if err then
        return
      end
      session.capabilities = vim.tbl_extend('force', session.capabilities, result or {})
      session:request(config.request, config, function(launch_err)
        if launch_err then
          session:close()
        end
      end)
    end
  )
end

function M.session()
  return current
end

function M.sessions()
  return sessions
end

return M
