--- :checkhealth simple_brief — is everything simple-brief needs there, and which mode runs.
---
--- Checks, in order: Neovim's version, the mode ('rplugin' or 'child'), Neovim's Python
--- host and pynvim, the engine's import and version, the tree-sitter grammars, that the
--- language server starts and answers, and that the state directory is writable. Every
--- outside process it runs is bounded by a timeout.
local config = require('simple_brief.config')
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

--- Upper bound for each outside process the check runs (python -c, --version).
H.process_timeout_ms = 10000

--- Lists the tree-sitter grammar modules that import and, when the engine imports, whether
--- the grammar of each filetype given as an argument loads: "" when it does, why not when it
--- does not (a bundle grammar, Neovim's own vimdoc parser), null when the engine has no
--- outline for it. Prints JSON.
H.grammar_script = [[
import importlib, json, pkgutil, sys
out = {"modules": {}, "filetypes": None}
for m in pkgutil.iter_modules():
    if m.name.startswith("tree_sitter_") and m.name not in out["modules"]:
        try:
            importlib.import_module(m.name)
            out["modules"][m.name] = ""
        except Exception as e:
            out["modules"][m.name] = type(e).__name__ + ": " + str(e)
try:
    from simple_brief import languages
except Exception:
    pass
else:
    out["filetypes"] = {}
    for ft in sys.argv[1:]:
        spec = languages.by_name(ft)
        if spec and spec.grammar:
            try:
                languages.grammar(spec)
                out["filetypes"][ft] = ""
            except Exception as e:
                out["filetypes"][ft] = spec.grammar + ": " + type(e).__name__ + ": " + str(e)
        else:
            out["filetypes"][ft] = None
print(json.dumps(out))
]]

H.sample = {
  'import os',
  '',
  '',
  'def greet(name):',
  '    return "hello " + name',
}

--- Run a command, bounded. Returns the result, or nil and why it did not run.
---@param cmd string[]
---@return vim.SystemCompleted|nil, string|nil
function H.run(cmd)
  local ok, proc = pcall(vim.system, cmd, { text = true })
  if not ok then
    return nil, tostring(proc)
  end
  local res = proc:wait(H.process_timeout_ms)
  if res.code == 124 and res.signal ~= 0 then
    return nil, ('%s did not finish within %d ms'):format(cmd[1], H.process_timeout_ms)
  end
  return res
end

--- The last non-empty line of an error (pynvim prefixes its own lines; ours is the last).
---@param err any
---@return string
function H.last_line(err)
  local lines = vim.tbl_filter(function(l)
    return vim.trim(l) ~= ''
  end, vim.split(tostring(err), '\n', { plain = true }))
  local line = vim.trim(lines[#lines] or tostring(err))
  return (line:gsub('^[%w_.]*Error: ', ''))
end

--- Whether the remote plugin is registered. The manifest defines its functions lazily
--- (on FuncUndefined), so exists('*Name') is 0 until the first call.
---@return boolean
function M.rplugin_registered()
  return vim.fn.exists('*SimpleBriefLspPort') == 1 or vim.fn.exists('#FuncUndefined#SimpleBriefLspPort') == 1
end

--- The state directory: instances.dir() when that module exists, else the XDG rule.
---@return string
function M.state_dir()
  local ok, instances = pcall(require, 'simple_brief.instances')
  if ok and type(instances) == 'table' and type(instances.dir) == 'function' then
    local got, dir = pcall(instances.dir)
    if got and type(dir) == 'string' and dir ~= '' then
      return dir
    end
  end
  if vim.env.SIMPLE_BRIEF_STATE_DIR and vim.env.SIMPLE_BRIEF_STATE_DIR ~= '' then
    return vim.env.SIMPLE_BRIEF_STATE_DIR
  end
  local xdg = vim.env.XDG_STATE_HOME
  if not xdg or xdg == '' then
    xdg = vim.fs.joinpath(vim.fn.expand('~'), '.local', 'state')
  end
  return vim.fs.joinpath(xdg, 'simple-brief')
end

function H.check_version()
  local v = vim.version()
  local text = ('Neovim %d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    vim.health.ok(text)
  else
    vim.health.error(text .. ': LSP folds (vim.lsp.foldexpr) need Neovim 0.11 or newer', 'Upgrade Neovim to 0.11+.')
  end
end

---@return string mode
function H.check_mode()
  local mode, why = lsp.mode()
  local host = config.options.host
  if mode == 'rplugin' then
    vim.health.ok(
      "mode: rplugin — Neovim's Python host runs the engine; the LSP client connects to it over 127.0.0.1"
    )
  elseif mode == 'child' then
    local cmd = table.concat(lsp.child_cmd(), ' ')
    if host == 'child' then
      vim.health.ok(('mode: child — `%s` runs as a child process of Neovim (host = "child" in setup())'):format(cmd))
    elseif not M.rplugin_registered() then
      vim.health.ok(
        ('mode: child — `%s` runs as a child process of Neovim (no remote plugin registered)'):format(cmd)
      )
    else
      vim.health.warn(
        ('mode: child — `%s` runs as a child process, although the remote plugin is registered'):format(cmd),
        'simple_brief.lsp.mode() did not detect the remote plugin; report this.'
      )
    end
  else
    vim.health.error('mode: unavailable — ' .. (why or 'no way to start the engine'))
  end
  return mode
end

--- The interpreter the Python host uses, or nil and why there is none.
---@return string|nil prog, string|nil why
function H.host_prog()
  local prog = vim.g.python3_host_prog
  if type(prog) == 'string' and prog ~= '' then
    local path = vim.fn.exepath(vim.fn.expand(prog))
    if path == '' then
      return nil, ('g:python3_host_prog = %q is not an executable'):format(prog)
    end
    return path
  end
  -- Neovim's own search (python3, python3.13, ... with pynvim), as its provider does it.
  local ok, provider = pcall(require, 'vim.provider.python')
  if not ok then
    return nil, 'g:python3_host_prog is not set'
  end
  local found, err = provider.detect_by_module('neovim')
  if not found then
    return nil, (tostring(err or 'no python3 with pynvim found'):gsub('\n', ' '))
  end
  local path = vim.fn.exepath(found)
  return path ~= '' and path or found
end

--- How to report a missing Python host: an error only when setup() asked for it; with
--- host = "auto" the child mode runs the engine, so the host is an option, not a problem.
---@param msg string
---@param advice string[]
function H.host_problem(msg, advice)
  local host = config.options.host
  if host == 'rplugin' then
    vim.health.error(msg, advice)
  elseif host == 'child' then
    vim.health.info(msg .. ' (not needed: host = "child")')
  else
    vim.health.info(msg .. ' (optional: the child mode runs the engine without it)')
    vim.health.info(advice[1])
  end
end

--- The fix for a missing or old engine: the build step (:help simple-brief-install).
H.install_advice = 'Run :SimpleBriefInstall (the build step: the engine in its own venv in '
  .. "Neovim's data folder; plugin managers run it on install and update)."

--- Advice for rplugin mode: point the Python host at the engine's own venv (it has pynvim).
---@return string[]
function H.host_advice()
  local python = require('simple_brief.install').venv() .. '/bin/python'
  return {
    "For rplugin mode (the editor's Python host runs the engine, one process): after :SimpleBriefInstall, "
      .. ("`let g:python3_host_prog = '%s'`, then :UpdateRemotePlugins and restart Neovim."):format(python),
    'Without it, simple-brief runs `simple-brief lsp` as a child process (child mode).',
  }
end

---@param mode string
function H.check_python_host(mode)
  local setting = vim.g.python3_host_prog
  if type(setting) == 'string' and setting ~= '' then
    vim.health.info('g:python3_host_prog = ' .. setting)
  else
    vim.health.info('g:python3_host_prog is not set (Neovim looks for a python3 with pynvim on PATH)')
  end
  if vim.g.loaded_python3_provider == 0 then
    H.host_problem("Neovim's Python 3 host is disabled (g:loaded_python3_provider = 0)", H.host_advice())
    return
  end
  local prog, why = H.host_prog()
  if not prog or vim.fn.has('python3') == 0 then
    H.host_problem("Neovim's Python 3 host is not available: " .. (why or 'no python3 found'), H.host_advice())
    return
  end
  local res, err = H.run({ prog, '-c', 'import pynvim; print(getattr(pynvim, "__version__", "?"))' })
  if not res or res.code ~= 0 then
    local reason = err or H.last_line(res and res.stderr or '')
    H.host_problem(('pynvim does not import in %s: %s'):format(prog, reason), H.host_advice())
    return
  end
  vim.health.ok(('Python host %s with pynvim %s'):format(prog, vim.trim(res.stdout)))
  if M.rplugin_registered() then
    vim.health.ok('the remote plugin is registered (SimpleBriefLspPort)')
  elseif mode ~= 'rplugin' then
    H.host_problem(
      'the remote plugin is not registered',
      { 'For rplugin mode: run :UpdateRemotePlugins, then restart Neovim.' }
    )
  end
end

--- The Python interpreter that runs a child command, when it can be told.
---@param cmd string[]
---@return string|nil
function H.python_of(cmd)
  if cmd[2] == '-m' then
    return cmd[1]
  end
  local exe = vim.fn.exepath(cmd[1])
  if exe == '' then
    return nil
  end
  local f = io.open(exe, 'r')
  if not f then
    return nil
  end
  local first = f:read('*l') or ''
  f:close()
  local interp = first:match('^#!%s*(%S+)')
  if interp and interp:match('/env$') then
    interp = first:match('^#!%s*%S+%s+(%S+)')
  end
  if interp and interp:match('python') then
    return interp
  end
  return nil
end

--- Engine import and version. Returns the Python that runs the engine, if known.
---@param mode string
---@return string|nil python
function H.check_engine(mode)
  if mode == 'rplugin' then
    local ok, info = pcall(vim.fn.SimpleBriefHostInfo)
    if not ok then
      vim.health.error(H.last_line(info))
      return (H.host_prog())
    end
    vim.health.ok(('engine simple-brief %s in the Python host (%s)'):format(info.engine_version, info.python))
    if info.lsp_port then
      vim.health.info(('the language server listens on 127.0.0.1:%d'):format(info.lsp_port))
    end
    return info.python
  end
  local cmd = vim.deepcopy(lsp.child_cmd())
  if cmd[#cmd] == 'lsp' then
    cmd[#cmd] = '--version'
  else
    cmd[#cmd + 1] = '--version'
  end
  local res, err = H.run(cmd)
  local out = res and vim.trim(res.stdout) or ''
  if not res or res.code ~= 0 or not out:match('^simple%-brief ') then
    vim.health.error(
      ('`%s` failed: %s'):format(
        table.concat(cmd, ' '),
        err or H.last_line(res and res.stderr ~= '' and res.stderr or ('exit code ' .. tostring(res and res.code)))
      ),
      {
        H.install_advice,
        'Or set `cmd` in setup() to a command that runs `simple-brief lsp`.',
      }
    )
    return nil
  end
  vim.health.ok(('engine %s (`%s`)'):format(out, table.concat(cmd, ' ')))
  return H.python_of(cmd)
end

--- What the build step installed, and whether it matches this plugin.
function H.check_install()
  local install = require('simple_brief.install')
  local rec = install.record()
  if not (rec and install.engine_exe()) then
    vim.health.info(('no engine installed in %s yet (:SimpleBriefInstall puts it there)'):format(install.venv()))
    return
  end
  local stale = install.stale()
  if stale then
    vim.health.warn(stale)
  else
    vim.health.ok(('engine %s installed in %s by :SimpleBriefInstall'):format(rec.version, install.venv()))
  end
end

---@param python string|nil
function H.check_grammars(python)
  if not python then
    vim.health.warn('cannot tell which Python runs the engine, so its tree-sitter grammars were not listed')
    return
  end
  local res, err = H.run({ python, '-c', H.grammar_script, unpack(config.options.filetypes) })
  local ok, found = false, nil
  if res and res.code == 0 then
    ok, found = pcall(vim.json.decode, res.stdout)
  end
  if not ok or type(found) ~= 'table' then
    vim.health.error(('could not list the grammars in %s: %s'):format(python, err or H.last_line(res and res.stderr)))
    return
  end
  local present, broken = {}, {}
  for name, problem in pairs(found.modules) do
    if problem == '' then
      present[#present + 1] = (name:gsub('^tree_sitter_', ''))
    else
      broken[#broken + 1] = ('%s (%s)'):format(name, problem)
    end
  end
  table.sort(present)
  if #present == 0 then
    vim.health.error('no tree-sitter grammars import in ' .. python, 'the engine brings them: ' .. H.install_advice)
  else
    vim.health.ok(('grammars in %s: %s'):format(python, table.concat(present, ', ')))
  end
  for _, b in ipairs(broken) do
    vim.health.warn('grammar does not import: ' .. b)
  end
  local missing, unknown = {}, {}
  if type(found.filetypes) == 'table' then
    for _, ft in ipairs(config.options.filetypes) do
      local problem = found.filetypes[ft]
      if type(problem) ~= 'string' then
        unknown[#unknown + 1] = ft
      elseif problem ~= '' then
        missing[#missing + 1] = ('%s (%s)'):format(ft, problem)
      end
    end
  end
  if #missing > 0 then
    vim.health.warn('configured filetypes without a grammar: ' .. table.concat(missing, ', '))
  end
  if #unknown > 0 then
    vim.health.warn(
      'configured filetypes the engine has no tree-sitter outline for: ' .. table.concat(unknown, ', '),
      'Remove them from `filetypes` in setup(); they get Neovim folds instead.'
    )
  end
end

---@param mode string
function H.check_server(mode)
  if mode == 'unavailable' then
    vim.health.error('the language server was not started: no mode is available')
    return
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. '.py')
  vim.bo[buf].filetype = 'python'
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, H.sample)
  local before = vim.lsp.get_clients({ name = lsp.name })[1]
  local started = vim.uv.hrtime()
  local client, why = lsp.ensure(buf, config.options.attach_timeout_ms)
  if not client then
    vim.health.error('the language server did not start: ' .. H.last_line(why))
  else
    local ranges, err = lsp.request_sync(buf, 'textDocument/foldingRange', {
      textDocument = vim.lsp.util.make_text_document_params(buf),
    }, config.options.attach_timeout_ms)
    local ms = (vim.uv.hrtime() - started) / 1e6
    local how = before and 'was running' or 'started'
    if type(ranges) == 'table' and #ranges > 0 then
      vim.health.ok(('the language server %s and answered foldingRange in %d ms (%s mode)'):format(how, ms, mode))
    else
      vim.health.error('the language server started but gave no folding ranges: ' .. tostring(err or 'empty answer'))
    end
  end
  vim.api.nvim_buf_delete(buf, { force = true })
  -- Stop only a client this check started. In rplugin mode the client stays: it is the one
  -- every buffer reuses, and the host's server takes one connection in its lifetime.
  if client and not before and mode == 'child' then
    client:stop(true)
  end
end

function H.check_state_dir()
  local dir = M.state_dir()
  local ok = pcall(vim.fn.mkdir, dir, 'p')
  local probe = vim.fs.joinpath(dir, ('.health-%d'):format(vim.fn.getpid()))
  local f = ok and io.open(probe, 'w') or nil
  if not f then
    vim.health.error(
      ('state directory %s is not writable'):format(dir),
      'simple-brief registers each Neovim there for `simple-brief mcp`; fix its permissions or set $SIMPLE_BRIEF_STATE_DIR.'
    )
    return
  end
  f:close()
  os.remove(probe)
  vim.health.ok(('state directory %s is writable'):format(dir))
end

--- Entry point of :checkhealth simple_brief.
function M.check()
  vim.health.start('simple-brief: Neovim')
  H.check_version()
  vim.health.start('simple-brief: mode')
  local mode = H.check_mode()
  vim.health.start("simple-brief: Neovim's Python host")
  H.check_python_host(mode)
  vim.health.start('simple-brief: engine')
  H.check_install()
  local python = H.check_engine(mode)
  H.check_grammars(python)
  vim.health.start('simple-brief: language server')
  H.check_server(mode)
  vim.health.start('simple-brief: state directory')
  H.check_state_dir()
end

return M
