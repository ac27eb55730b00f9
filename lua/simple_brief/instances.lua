--- Neovim instances: each Neovim writes `<state>/instances/<pid>.json` so that
--- `simple-brief mcp` (python/simple_brief/editor/nvim/instances.py) can find the one to attach to.
---
--- `<state>` follows platformdirs' user_state_dir('simple-brief', appauthor=False):
---   $SIMPLE_BRIEF_STATE_DIR                       when set
---   %LOCALAPPDATA%\simple-brief                   Windows
---   $XDG_STATE_HOME/simple-brief                  when it is an absolute path (Linux, macOS)
---   ~/Library/Application Support/simple-brief    macOS
---   ~/.local/state/simple-brief                   Linux and other Unix
--- Files are written with mode 0600 (the server address lets anyone drive this Neovim).
local M = {}

local H = {}

M.version = '0.1.0'

---@class simple_brief.Instance
---@field servername string v:servername: the address `simple-brief mcp` connects to.
---@field cwd string Neovim's current directory, updated on DirChanged.
---@field pid integer
---@field started integer Unix time of the first registration.
---@field used number|nil Unix time (fractional) the person last used this Neovim: focus, typing,
---   moving, entering a buffer or the command line. Absent until then (readers fall back to
---   `started`).
---@field file string|nil The file of the last code window the person used, when it has one.
---@field version string

H.group_name = 'simple_brief_instances'

--- Unix time this instance first registered (kept when the file is rewritten).
H.started = nil

--- Unix time (fractional) of the person's last use of this Neovim, nil before any.
H.used = nil

--- The file of the last code window used ('' for none).
H.file = ''

--- Events that mean the person uses this Neovim (FocusGained is written at once, these at
--- most once per `M.write_interval_ms`).
H.use_events = {
  'BufEnter',
  'WinEnter',
  'CursorMoved',
  'CursorMovedI',
  'InsertEnter',
  'TextChanged',
  'TextChangedI',
  'CmdlineEnter',
  'TermEnter',
}

--- At most one write of the instance file per this many milliseconds while the person types
--- or moves; the last use inside that time is written once it is over (one one-shot timer).
M.write_interval_ms = 1000

--- When the file was last written (vim.uv.hrtime() nanoseconds), nil before the first write.
H.written_at = nil

--- The pending one-shot timer of a throttled write, or nil.
H.timer = nil

--- Whether this instance is registered (its file is kept current).
H.registered = false

--- The state directory (see the module help for the rule).
---@return string
function M.dir()
  local override = vim.env.SIMPLE_BRIEF_STATE_DIR
  if override and override ~= '' then
    return override
  end
  local sysname = vim.uv.os_uname().sysname
  local home = vim.uv.os_homedir() or ''
  if sysname == 'Windows_NT' then
    local base = vim.env.LOCALAPPDATA
    if not base or base == '' then
      base = home .. '\\AppData\\Local'
    end
    return base .. '\\simple-brief'
  end
  local xdg = vim.env.XDG_STATE_HOME
  if xdg and xdg:sub(1, 1) == '/' then
    return vim.fs.joinpath(vim.fs.normalize(xdg), 'simple-brief')
  end
  if sysname == 'Darwin' then
    return vim.fs.joinpath(home, 'Library', 'Application Support', 'simple-brief')
  end
  return vim.fs.joinpath(home, '.local', 'state', 'simple-brief')
end

--- The folder of the instance files.
---@return string
function H.instances_dir()
  return M.dir() .. '/instances'
end

--- This instance's file: `<state>/instances/<pid>.json`.
---@return string
function M.path()
  return ('%s/%d.json'):format(H.instances_dir(), vim.uv.os_getpid())
end

--- What this instance's file holds now.
---@return simple_brief.Instance
function H.entry()
  H.started = H.started or os.time()
  return {
    servername = vim.v.servername,
    cwd = vim.fn.getcwd(),
    pid = vim.uv.os_getpid(),
    started = H.started,
    used = H.used,
    file = H.file ~= '' and H.file or nil,
    version = M.version,
  }
end

--- Unix time now, with microseconds.
---@return number
function H.now()
  local sec, usec = vim.uv.gettimeofday()
  return sec + usec / 1e6
end

--- Rewrite this instance's file (the time of the write is kept for the throttle).
function H.flush()
  H.stop_timer()
  H.written_at = vim.uv.hrtime()
  M.write(M.path(), vim.json.encode(H.entry()))
end

function H.stop_timer()
  local timer = H.timer
  H.timer = nil
  if timer and not timer:is_closing() then
    timer:stop()
    timer:close()
  end
end

--- The person used this Neovim now: record it, and write it at once (`now`, e.g. on
--- FocusGained) or at most once per `M.write_interval_ms` (typing, moving).
---@param now boolean|nil
function M.touch(now)
  if not H.registered then
    return
  end
  H.used = H.now()
  if vim.bo.buftype == '' then
    local name = vim.api.nvim_buf_get_name(0)
    if name ~= '' then
      H.file = name
    end
  end
  local interval = M.write_interval_ms * 1e6
  local since = H.written_at and (vim.uv.hrtime() - H.written_at) or math.huge
  if now or since >= interval then
    H.flush()
    return
  end
  if H.timer then
    return -- the pending write will carry this use
  end
  local timer = vim.uv.new_timer()
  if not timer then
    return
  end
  H.timer = timer
  timer:start(
    math.ceil((interval - since) / 1e6),
    0,
    vim.schedule_wrap(function()
      if H.timer == timer then
        H.flush()
      end
    end)
  )
end

--- Whether a throttled write is waiting for its time (tests).
---@return boolean
function M.pending()
  return H.timer ~= nil
end

--- Write `text` to `path` with mode 0600, atomically (a reader never sees half a file);
--- the state directory's files (instances, simple-brief's own trust database) use it.
---@param path string
---@param text string
---@return boolean ok, string|nil err
function M.write(path, text)
  local tmp = path .. '.tmp'
  local fd, err = vim.uv.fs_open(tmp, 'w', 384)
  if not fd then
    return false, err
  end
  -- An old temporary file keeps its mode through O_TRUNC: set it again.
  vim.uv.fs_fchmod(fd, 384)
  local written, werr = vim.uv.fs_write(fd, text)
  vim.uv.fs_close(fd)
  if not written then
    vim.uv.fs_unlink(tmp)
    return false, werr
  end
  local renamed, rerr = vim.uv.fs_rename(tmp, path)
  if not renamed then
    vim.uv.fs_unlink(tmp)
    return false, rerr
  end
  return true
end

--- Whether a process is running (EPERM: it is, under another user).
---@param pid integer
---@return boolean
function H.alive(pid)
  if pid == vim.uv.os_getpid() then
    return true
  end
  local ok, _, name = vim.uv.kill(pid, 0)
  return ok == 0 or name == 'EPERM'
end

--- A decoded instance file, or nil when it is not one.
---@param path string
---@return simple_brief.Instance|nil
function H.read(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local text = f:read('*a')
  f:close()
  local ok, e = pcall(vim.json.decode, text)
  if not ok or type(e) ~= 'table' then
    return nil
  end
  if
    type(e.pid) ~= 'number'
    or e.pid <= 0
    or e.pid % 1 ~= 0
    or type(e.servername) ~= 'string'
    or e.servername == ''
    or type(e.cwd) ~= 'string'
    or type(e.started) ~= 'number'
  then
    return nil
  end
  if type(e.version) ~= 'string' then
    e.version = ''
  end
  return e
end

--- Paths and entries of the instance files (valid ones only), dead or alive.
---@return {path: string, entry: simple_brief.Instance}[]
function H.scan()
  local dir = H.instances_dir()
  local out = {}
  local ok = pcall(function()
    for name, kind in vim.fs.dir(dir) do
      if kind == 'file' and name:match('^%d+%.json$') then
        local path = dir .. '/' .. name
        local entry = H.read(path)
        if entry then
          out[#out + 1] = { path = path, entry = entry }
        end
      end
    end
  end)
  return ok and out or {}
end

--- Whether a registered instance can still be reached: its process runs and, for a
--- Unix socket address, the socket is still there (a reused pid is not enough).
---@param e simple_brief.Instance
---@return boolean
function H.live(e)
  if not H.alive(e.pid) then
    return false
  end
  if e.servername:sub(1, 1) == '/' and not vim.uv.fs_stat(e.servername) then
    return false
  end
  return true
end

--- When an instance was last used: `used`, else `started`.
---@param e simple_brief.Instance
---@return number
function H.last_use(e)
  return type(e.used) == 'number' and e.used or e.started
end

--- Live registered instances, the one used last first (then the newest).
---@return simple_brief.Instance[]
function M.list()
  local out = {}
  for _, item in ipairs(H.scan()) do
    if H.live(item.entry) then
      out[#out + 1] = item.entry
    end
  end
  table.sort(out, function(a, b)
    local ua, ub = H.last_use(a), H.last_use(b)
    if ua ~= ub then
      return ua > ub
    end
    if a.started ~= b.started then
      return a.started > b.started
    end
    return a.pid > b.pid
  end)
  return out
end

--- Remove the files of instances whose process is gone (Neovim killed before VimLeavePre).
function H.prune()
  for _, item in ipairs(H.scan()) do
    if not H.alive(item.entry.pid) then
      vim.uv.fs_unlink(item.path)
    end
  end
end

--- Write this instance's file and keep it current: cwd on DirChanged, the person's last
--- use (`used`) on FocusGained at once and on typing, moving and entering buffers at most
--- once a second; removed on VimLeavePre. Starts a server first when Neovim has none.
--- Safe to call again.
---@return string|nil path, string|nil err
function M.register()
  if vim.v.servername == '' then
    local ok, err = pcall(vim.fn.serverstart)
    if not ok then
      return nil, ('could not start a server for simple-brief mcp: %s'):format(err)
    end
  end
  local dir = H.instances_dir()
  if vim.fn.isdirectory(dir) == 0 and vim.fn.mkdir(dir, 'p', 448) == 0 then
    return nil, ('could not create %s'):format(dir)
  end
  H.prune()
  local path = M.path()
  H.written_at = vim.uv.hrtime()
  local ok, err = M.write(path, vim.json.encode(H.entry()))
  if not ok then
    return nil, ('could not write %s: %s'):format(path, err)
  end
  H.registered = true
  local group = vim.api.nvim_create_augroup(H.group_name, { clear = true })
  vim.api.nvim_create_autocmd('DirChanged', {
    group = group,
    desc = 'simple-brief: record the new cwd in its instance file',
    callback = function()
      H.flush()
    end,
  })
  vim.api.nvim_create_autocmd('FocusGained', {
    group = group,
    desc = 'simple-brief: record that the person uses this Neovim now',
    callback = function()
      M.touch(true)
    end,
  })
  vim.api.nvim_create_autocmd(H.use_events, {
    group = group,
    desc = 'simple-brief: record that the person uses this Neovim (at most one write a second)',
    callback = function()
      M.touch(false)
    end,
  })
  vim.api.nvim_create_autocmd('VimLeavePre', {
    group = group,
    desc = 'simple-brief: remove this instance file',
    callback = function()
      M.unregister()
    end,
  })
  return path
end

--- Remove this instance's file and stop updating it.
function M.unregister()
  pcall(vim.api.nvim_del_augroup_by_name, H.group_name)
  H.registered = false
  H.stop_timer()
  vim.uv.fs_unlink(M.path())
end

return M
