--- :SimpleBriefInstall — the engine's own virtual environment, in Neovim's data folder.
---
--- The one build step for every plugin manager (lazy.nvim runs the plugin's build.lua,
--- others run :SimpleBriefInstall): it finds a Python >= 3.11, creates
--- `stdpath('data')/simple-brief/venv`, installs the engine (with pynvim) from this plugin's
--- own folder into it, and records what it installed in `engine.json` beside it. Nothing is
--- written inside the plugin's folder: pip builds from a temporary copy of the source.
--- lsp.lua, serve.lua and mcp.lua run the engine from there when it is installed.
---
--- Every process is an argv list (no shell) with a time limit; pip's output goes to
--- `install.log` next to the venv, and a failure names its last line and the log.
local M = {}

local H = {}

M.min_python = { 3, 11 }
--- The engine's extras the build step installs (pyproject.toml): the Neovim client, the debug adapter.
M.extras = { 'nvim', 'debug' }

--- Upper bounds: a Python probe, creating the venv, pip (a first install downloads ~40 wheels).
H.probe_ms = 10000
H.venv_ms = 120000
H.pip_ms = 900000

--- Where the engine lives: `stdpath('data')/simple-brief`.
---@return string
function M.dir()
  return vim.fs.joinpath(vim.fn.stdpath('data'), 'simple-brief')
end

--- The engine's virtual environment.
---@return string
function M.venv()
  return vim.fs.joinpath(M.dir(), 'venv')
end

--- A program inside the venv (bin/ on Unix, Scripts\ on Windows).
---@param name string
---@return string
function H.venv_bin(name)
  if vim.fn.has('win32') == 1 then
    return vim.fs.joinpath(M.venv(), 'Scripts', name .. '.exe')
  end
  return vim.fs.joinpath(M.venv(), 'bin', name)
end

--- The installed engine's `simple-brief` program, when the build step has run.
---@return string|nil
function M.engine_exe()
  local exe = H.venv_bin('simple-brief')
  if vim.fn.executable(exe) == 1 then
    return exe
  end
  return nil
end

--- This plugin's folder (the one holding lua/simple_brief/install.lua).
---@return string
function M.plugin_root()
  local source = debug.getinfo(1, 'S').source:gsub('^@', '')
  return vim.fn.fnamemodify(source, ':p:h:h:h')
end

--- A whole file's text, or nil when it cannot be read.
---@param path string
---@return string|nil
function H.read(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local text = f:read('*a')
  f:close()
  return text
end

--- The engine version this plugin's source holds (`__version__` in python/simple_brief/__init__.py).
---@return string|nil
function M.plugin_version()
  local text = H.read(vim.fs.joinpath(M.plugin_root(), 'python', 'simple_brief', '__init__.py'))
  return text and text:match('__version__%s*=%s*["\']([^"\']+)["\']')
end

--- A fingerprint of the source's packaging (pyproject.toml: dependencies, grammars), so a
--- plugin update that adds a dependency is noticed although the version did not change.
---@return string|nil
function H.source_stamp()
  local text = H.read(vim.fs.joinpath(M.plugin_root(), 'pyproject.toml'))
  return text and vim.fn.sha256(text)
end

--- What the last successful build step recorded, or nil.
---@return {version: string, stamp: string, python: string, source: string}|nil
function M.record()
  local text = H.read(vim.fs.joinpath(M.dir(), 'engine.json'))
  if not text then
    return nil
  end
  local ok, data = pcall(vim.json.decode, text)
  if not ok or type(data) ~= 'table' or type(data.version) ~= 'string' then
    return nil
  end
  return data
end

--- Why the installed engine does not match this plugin (older, or built from other
--- packaging), with the command that fixes it; nil when it matches or none is installed.
---@return string|nil
function M.stale()
  local rec = M.record()
  if not rec or not M.engine_exe() then
    return nil
  end
  local want = M.plugin_version()
  local ok_have, have = pcall(vim.version.parse, rec.version)
  local ok_want, wanted = pcall(vim.version.parse, want or '')
  if ok_have and ok_want and have and wanted and vim.version.lt(have, wanted) then
    return ('the engine in %s is %s, older than the plugin (%s); run :SimpleBriefInstall'):format(
      M.venv(),
      rec.version,
      want
    )
  end
  local stamp = H.source_stamp()
  if stamp and rec.stamp and rec.stamp ~= stamp then
    return ("the plugin's engine changed since it was installed in %s; run :SimpleBriefInstall"):format(M.venv())
  end
  return nil
end

--- Report a step: to lazy.nvim's build task (coroutine.yield), to stdout when headless
--- (`nvim -l build.lua`, `nvim --headless +SimpleBriefInstall`), else on the command line.
---@param msg string
function H.report(msg)
  if coroutine.isyieldable() then
    coroutine.yield(msg)
  elseif H.terminal_only() then
    io.stdout:write('simple-brief: ' .. msg .. '\n')
  else
    vim.api.nvim_echo({ { 'simple-brief: ' .. msg } }, true, {})
    vim.cmd.redraw()
  end
end

--- Neovim runs with no UI and its stdout is a terminal or pipe (`nvim -l`, `--headless`),
--- not an RPC channel (`--embed`).
---@return boolean
function H.terminal_only()
  return #vim.api.nvim_list_uis() == 0 and not vim.tbl_contains(vim.v.argv, '--embed')
end

--- Run `cmd` (bounded); its output is appended to the install log.
---@param cmd string[]
---@param timeout_ms integer
---@return vim.SystemCompleted|nil res, string|nil why_not
function H.run(cmd, timeout_ms)
  local ok, proc = pcall(vim.system, cmd, { text = true })
  if not ok then
    return nil, ('cannot run %s: %s'):format(cmd[1], proc)
  end
  local res = proc:wait(timeout_ms)
  local log = io.open(vim.fs.joinpath(M.dir(), 'install.log'), 'a')
  if log then
    log:write(('$ %s\n%s%s[exit %d]\n'):format(table.concat(cmd, ' '), res.stdout or '', res.stderr or '', res.code))
    log:close()
  end
  if res.signal ~= 0 and res.code == 124 then
    return nil, ('%s did not finish within %d s'):format(table.concat(cmd, ' '), timeout_ms / 1000)
  end
  return res
end

--- The last meaningful line a failed process printed.
---@param res vim.SystemCompleted
---@return string
function H.last_line(res)
  local lines = vim.split(vim.trim((res.stderr or '') .. '\n' .. (res.stdout or '')), '\n', { trimempty = true })
  for i = #lines, 1, -1 do
    local line = vim.trim(lines[i])
    if line ~= '' and not line:match('^WARNING: Location') and not line:match('^%[notice%]') then
      return line
    end
  end
  return ('exit code %d'):format(res.code)
end

--- The Python version `prog` runs, as {major, minor}, or nil.
---@param prog string
---@return integer[]|nil
function H.python_version(prog)
  local res = H.run({ prog, '-c', 'import sys, venv; print("%d.%d" % sys.version_info[:2])' }, H.probe_ms)
  if not res or res.code ~= 0 then
    return nil
  end
  local major, minor = vim.trim(res.stdout):match('^(%d+)%.(%d+)$')
  if not major then
    return nil
  end
  return { tonumber(major), tonumber(minor) }
end

---@param v integer[]
---@return boolean
function H.new_enough(v)
  return v[1] > M.min_python[1] or (v[1] == M.min_python[1] and v[2] >= M.min_python[2])
end

--- The first Python >= 3.11 (with its venv module), outside the engine's venv: `python`
--- when given, else g:python3_host_prog, python3, python3.14 … python3.11, python.
---@param python string|nil
---@return string|nil prog, string|nil why_not
function M.find_python(python)
  local names = python and { python }
    or { vim.g.python3_host_prog, 'python3', 'python3.14', 'python3.13', 'python3.12', 'python3.11', 'python' }
  local seen = {}
  for _, name in pairs(names) do
    if type(name) == 'string' and name ~= '' then
      local exe = vim.fn.exepath(vim.fn.expand(name))
      -- The engine's own venv (g:python3_host_prog after the rplugin advice) cannot build itself.
      local own = vim.startswith(vim.fs.normalize(exe), vim.fs.normalize(M.venv()) .. '/')
      if exe ~= '' and not seen[exe] and not own then
        seen[exe] = true
        local v = H.python_version(exe)
        if v and H.new_enough(v) then
          return exe
        end
      end
    end
  end
  if python then
    return nil, ('%s is not a Python %d.%d or newer with its venv module'):format(python, unpack(M.min_python))
  end
  return nil,
    ('no Python %d.%d or newer with its venv module was found on PATH; install one (Debian: apt install python3 python3-venv), or name it: :SimpleBriefInstall /path/to/python3'):format(
      unpack(M.min_python)
    )
end

--- Copy the engine's source (pyproject.toml, README.md, LICENSE, python/simple_brief) to a
--- temporary folder, so pip's build files (build/, *.egg-info) land there, not in the plugin.
---@return string|nil folder, string|nil why_not
function H.copy_source()
  local root = M.plugin_root()
  local tmp = vim.fn.tempname() .. '-simple-brief-src'
  local function copy(rel)
    local to = vim.fs.joinpath(tmp, rel)
    vim.fn.mkdir(vim.fs.dirname(to), 'p')
    local ok, err = vim.uv.fs_copyfile(vim.fs.joinpath(root, rel), to)
    return ok, err
  end
  for _, rel in ipairs({ 'pyproject.toml', 'README.md' }) do
    local ok, err = copy(rel)
    if not ok then
      return nil, ('cannot copy %s from %s: %s'):format(rel, root, err)
    end
  end
  for _, rel in ipairs({ 'LICENSE', 'LICENSE.md' }) do
    if vim.uv.fs_stat(vim.fs.joinpath(root, rel)) then
      copy(rel)
    end
  end
  local package = vim.fs.joinpath(root, 'python', 'simple_brief')
  for name, kind in vim.fs.dir(package, { depth = 20 }) do
    local skip = name:match('__pycache__') or name:match('%.pyc$')
    if kind == 'file' and not skip then
      local ok, err = copy(vim.fs.joinpath('python', 'simple_brief', name))
      if not ok then
        return nil, ('cannot copy %s: %s'):format(name, err)
      end
    end
  end
  return tmp
end

--- Write engine.json: what was installed, from where.
---@param version string
---@param python string
function H.write_record(version, python)
  local data = {
    version = version,
    stamp = H.source_stamp(),
    python = python,
    source = M.plugin_root(),
    installed = os.time(),
  }
  local f = io.open(vim.fs.joinpath(M.dir(), 'engine.json'), 'w')
  if f then
    f:write(vim.json.encode(data))
    f:close()
  end
end

---@class simple_brief.InstallOpts
---@field python? string The Python to build the venv with (default: the first >= 3.11 found).
---@field fresh? boolean Recreate the venv from scratch.

--- Create (or update) the engine's venv and install the engine into it.
---@param opts simple_brief.InstallOpts|nil
---@return string|nil exe the installed `simple-brief`, string|nil why_not
function M.run(opts)
  opts = opts or {}
  vim.fn.mkdir(M.dir(), 'p')
  local log = io.open(vim.fs.joinpath(M.dir(), 'install.log'), 'w') -- this run's log only
  if log then
    log:close()
  end
  local venv_python = H.venv_bin('python')
  local need_venv = opts.fresh or vim.fn.executable(venv_python) == 0
  if not need_venv then
    local v = H.python_version(venv_python)
    need_venv = not (v and H.new_enough(v))
  end
  local base
  if need_venv or opts.python then
    local why
    base, why = M.find_python(opts.python)
    if not base then
      return nil, why
    end
    H.report(('creating %s with %s'):format(M.venv(), base))
    local res, err = H.run({ base, '-m', 'venv', '--clear', M.venv() }, H.venv_ms)
    if not res or res.code ~= 0 then
      local line = err or H.last_line(res --[[@as vim.SystemCompleted]])
      if line:match('ensurepip') then
        line = line .. ' (Debian: apt install python3-venv)'
      end
      return nil, ('could not create %s: %s'):format(M.venv(), line)
    end
  end
  local src, why = H.copy_source()
  if not src then
    return nil, why
  end
  H.report('installing the engine, pynvim and debugpy with pip (the first time takes a minute or two)')
  local res, err = H.run({
    venv_python,
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '--no-input',
    src .. '[' .. table.concat(M.extras, ',') .. ']',
  }, H.pip_ms)
  vim.fn.delete(src, 'rf')
  if not res or res.code ~= 0 then
    return nil,
      ('pip could not install the engine: %s (full log: %s)'):format(
        err or H.last_line(res --[[@as vim.SystemCompleted]]),
        vim.fs.joinpath(M.dir(), 'install.log')
      )
  end
  local exe = M.engine_exe()
  local check = exe and H.run({ exe, '--version' }, H.probe_ms) or nil
  local version = check and check.code == 0 and vim.trim(check.stdout):match('^simple%-brief (%S+)')
  if not exe or not version then
    return nil,
      ('the engine was installed but `%s --version` failed (full log: %s)'):format(
        exe or H.venv_bin('simple-brief'),
        vim.fs.joinpath(M.dir(), 'install.log')
      )
  end
  H.write_record(version, venv_python)
  return exe
end

--- The lines shown when the step succeeds.
---@param exe string
---@return string[]
function M.done_lines(exe)
  return {
    ('engine installed: %s'):format(exe),
    ('MCP command for agents: %s mcp (:SimpleBrief mcp prints the registration lines)'):format(exe),
    ('to run simple-brief from a shell: ln -s %s ~/.local/bin/simple-brief'):format(exe),
  }
end

--- :SimpleBriefInstall[!] [python]: `!` recreates the venv; `python` names the interpreter.
---@param args {bang: boolean, fargs: string[]}
function M.command(args)
  local exe, why = M.run({ fresh = args.bang, python = args.fargs[1] })
  if not exe then
    if H.terminal_only() then
      io.stderr:write('simple-brief: ' .. why .. '\n')
    else
      vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
    end
    return
  end
  for _, line in ipairs(M.done_lines(exe)) do
    H.report(line)
  end
  if vim.lsp.get_clients({ name = 'simple-brief' })[1] then
    H.report('restart Neovim to use the new engine in this session')
  end
end

return M
