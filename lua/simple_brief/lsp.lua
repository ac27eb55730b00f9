--- The simple-brief language server: where it runs, starting it, finding its client.
---
--- Two modes (`:checkhealth simple_brief` says which is active):
---   rplugin  Neovim's Python host runs the engine (rplugin/python3/simple_brief_host.py)
---            and serves the LSP on a loopback port; the client connects with
---            vim.lsp.rpc.connect. One process, one parse cache.
---   child    `simple-brief lsp` (or `python3 -m simple_brief lsp`) as a child process.
local config = require('simple_brief.config')

local M = {}

M.name = 'simple-brief'

--- The mode the server runs in now: 'rplugin', 'child', or 'unavailable' (with a reason).
---@return 'rplugin'|'child'|'unavailable', string|nil
function M.mode()
  local host = config.options.host
  -- The remote-plugin manifest defines the function lazily (FuncUndefined) until its first call.
  local has_host = vim.fn.exists('*SimpleBriefLspPort') == 1 or vim.fn.exists('#FuncUndefined#SimpleBriefLspPort') == 1
  if host ~= 'child' and has_host then
    return 'rplugin'
  end
  if host == 'rplugin' then
    return 'unavailable',
      'host = "rplugin" but the remote plugin is not registered; run :UpdateRemotePlugins and restart Neovim'
  end
  return 'child'
end

--- The child-process command: config.cmd, else the engine :SimpleBriefInstall put in
--- Neovim's data folder, else `simple-brief lsp` on PATH, else python3 -m.
---@return string[]
function M.child_cmd()
  if config.options.cmd then
    return config.options.cmd
  end
  local installed = require('simple_brief.install').engine_exe()
  if installed then
    return { installed, 'lsp' }
  end
  if vim.fn.executable('simple-brief') == 1 then
    return { 'simple-brief', 'lsp' }
  end
  local py = vim.g.python3_host_prog
  if type(py) ~= 'string' or py == '' then
    py = 'python3'
  end
  return { vim.fn.expand(py), '-m', 'simple_brief', 'lsp' }
end

--- The `cmd` for vim.lsp.start in the current mode.
---@return string[]|fun(dispatchers: vim.lsp.rpc.Dispatchers): vim.lsp.rpc.PublicClient
function M.cmd()
  local mode, why = M.mode()
  if mode == 'unavailable' then
    error('simple-brief: ' .. why, 0)
  end
  if mode == 'rplugin' then
    -- Asked every time: pygls serves one connection per port, and the host starts a new
    -- server once the previous client has stopped.
    return vim.lsp.rpc.connect('127.0.0.1', vim.fn.SimpleBriefLspPort())
  end
  return M.child_cmd()
end

--- The project root of a buffer (where .git or a project file is), else the cwd.
---@param buf integer
---@return string
function M.root(buf)
  return vim.fs.root(buf, { '.simple-brief.toml', '.git', 'pyproject.toml', 'package.json', 'Cargo.toml', 'go.mod' })
    or vim.fn.getcwd()
end

--- The simple-brief client attached to `buf`, if any.
---@param buf integer
---@return vim.lsp.Client|nil
function M.client(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = M.name })[1]
end

--- Start (or reuse) the server for `buf`. One client serves every buffer: one parse cache.
---@param buf integer
---@return integer|nil client_id
function M.start(buf)
  return vim.lsp.start({
    name = M.name,
    cmd = M.cmd(),
    root_dir = M.root(buf),
  }, {
    bufnr = buf,
    reuse_client = function(client, conf)
      return client.name == conf.name
    end,
  })
end

--- Start the server for `buf` if needed and wait (bounded) until it is attached and initialized.
---@param buf integer
---@param timeout_ms integer|nil
---@return vim.lsp.Client|nil client, string|nil why_not
function M.ensure(buf, timeout_ms)
  local ok, id = pcall(M.start, buf)
  if not ok then
    -- A host error arrives with pynvim's traceback: its last line is the sentence.
    local lines = vim.split(vim.trim(tostring(id)), '\n', { plain = true })
    return nil, lines[#lines]
  end
  if not id then
    return nil, 'the language server did not start; run :checkhealth simple_brief'
  end
  local attached = vim.wait(timeout_ms or config.options.attach_timeout_ms, function()
    local c = vim.lsp.get_client_by_id(id)
    if c == nil or c:is_stopped() then
      return true -- it exited: say so now, not after the timeout
    end
    return c.initialized and vim.lsp.buf_is_attached(buf, id)
  end, 10)
  local client = vim.lsp.get_client_by_id(id)
  if client == nil or client:is_stopped() then
    return nil, M.exit_reason()
  end
  if not attached then
    return nil, 'the language server did not answer in time; run :checkhealth simple_brief'
  end
  return client
end

--- Why the child server exited at once: its command run again with `--version` (bounded),
--- the last line it printed, and what to do.
---@return string
function M.exit_reason()
  local mode = M.mode()
  local cmd = mode == 'child' and vim.deepcopy(M.child_cmd()) or nil
  local said = ''
  if cmd and cmd[#cmd] == 'lsp' then
    cmd[#cmd] = '--version'
    local ok, job = pcall(vim.system, cmd, { text = true })
    local done = ok and job:wait(3000) or nil
    if done and done.code ~= 0 then
      local lines = vim.split(vim.trim((done.stderr or '') .. '\n' .. (done.stdout or '')), '\n', { trimempty = true })
      said = lines[#lines] or ''
    elseif not ok then
      said = tostring(job)
    end
  end
  local fix = 'run :SimpleBriefInstall (:help simple-brief-install)'
  if said ~= '' then
    return ('the language server exited at once (%s); %s'):format(vim.trim(said), fix)
  end
  return 'the language server exited at once; ' .. fix
end

--- Start the server automatically for the configured filetypes (setup() calls this).
function M.enable()
  local group = vim.api.nvim_create_augroup('simple_brief_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.options.filetypes,
    callback = function(ev)
      if vim.bo[ev.buf].buftype == '' then
        pcall(M.start, ev.buf)
      end
    end,
  })
end

--- A synchronous request to our client only (never to other servers), bounded.
---@param buf integer
---@param method string
---@param params table
---@param timeout_ms integer|nil
---@return any result, string|nil err
function M.request_sync(buf, method, params, timeout_ms)
  local client = M.client(buf)
  if not client then
    return nil, 'simple-brief is not attached to this buffer'
  end
  local resp, err = client:request_sync(method, params, timeout_ms or 2000, buf)
  if not resp then
    return nil, err or 'no answer'
  end
  if resp.err then
    return nil, resp.err.message
  end
  return resp.result
end

return M
