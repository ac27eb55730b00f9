--- :SimpleBrief trust / untrust: the person's consent to the workspace's `.simple-brief.toml`.
---
--- A workspace config that names programs (language servers, tasks) or folders is used
--- only once the person trusted that exact content (python/simple_brief/files/trust.py). This
--- records the trust where Neovim's own |:trust| does: |vim.secure.trust()| on a buffer
--- holding the file, into `stdpath('state')/trust`, which simple-brief's Python side reads.
--- Any later change to the file makes it untrusted again (the hash no longer matches).
---
--- The file is the one simple-brief reads: `.simple-brief.toml` in Neovim's current
--- directory, the workspace root of |:SimpleBriefServe| and of the instance files.
local M = {}

local H = {}

M.filename = '.simple-brief.toml'

--- The workspace config of this Neovim's current directory.
---@return string
function M.path()
  return vim.fs.joinpath(vim.fn.getcwd(), M.filename)
end

--- path -> hash (or '!') of a `<hash> <path>` trust database; empty when it is missing.
---@param file string
---@return table<string, string>
function H.entries(file)
  local out = {}
  local f = io.open(file, 'r')
  if f then
    for line in f:lines() do
      local hash, path = line:match('^(%S+) (.+)$')
      if hash then
        out[path] = hash
      end
    end
    f:close()
  end
  return out
end

--- simple-brief's own trust database (`simple-brief trust` writes it).
---@return string
function H.own_database()
  return vim.fs.joinpath(require('simple_brief.instances').dir(), 'trust')
end

--- Drop `path` from simple-brief's own database when `drop` says so of its entry.
---@param path string resolved path
---@param drop fun(hash: string): boolean
---@return boolean dropped, string|nil err
function H.drop_own(path, drop)
  local file = H.own_database()
  local entries = H.entries(file)
  if not entries[path] or not drop(entries[path]) then
    return false
  end
  entries[path] = nil
  local lines = {}
  for p, hash in pairs(entries) do
    lines[#lines + 1] = ('%s %s\n'):format(hash, p)
  end
  table.sort(lines)
  local ok, err = require('simple_brief.instances').write(file, table.concat(lines))
  return ok, err
end

--- The buffer holding `real` (a resolved path), if one is loaded.
---@param real string
---@return integer|nil
function H.loaded(real)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(buf)
    if name ~= '' and vim.api.nvim_buf_is_loaded(buf) and vim.uv.fs_realpath(name) == real then
      return buf
    end
  end
end

--- Load a file into a hidden buffer without autocommands (no filetype, no LSP) or prompts.
---@param path string
---@return integer|nil buf, string|nil err
function H.load(path)
  local buf = vim.fn.bufadd(path)
  local ei, sm = vim.o.eventignore, vim.o.shortmess
  vim.o.eventignore, vim.o.shortmess = 'all', sm .. 'A'
  local ok, err = pcall(vim.fn.bufload, buf)
  vim.o.eventignore, vim.o.shortmess = ei, sm
  if not ok or not vim.api.nvim_buf_is_loaded(buf) then
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
    return nil, tostring(err or 'not loaded')
  end
  return buf
end

--- What |vim.secure.trust()| hashes for a buffer: its lines with its line ends.
---@param buf integer
---@return string
function H.hashed_text(buf)
  local newline = vim.bo[buf].fileformat == 'unix' and '\n' or '\r\n'
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), newline)
  return vim.bo[buf].endofline and text .. newline or text
end

--- The config file to act on: its resolved path, or nil and why not.
---@return string|nil real, string|nil why
function H.config()
  local path = M.path()
  local stat = vim.uv.fs_lstat(path)
  if not stat then
    return nil,
      ('there is no %s in %s; create it there first (see :help simple-brief-workspace-toml)'):format(
        M.filename,
        vim.fn.getcwd()
      )
  end
  if stat.type ~= 'file' then
    local what = stat.type == 'link' and 'a symlink' or ('a ' .. stat.type)
    return nil, ('%s is %s, which simple-brief never reads; make it a plain file'):format(path, what)
  end
  return vim.uv.fs_realpath(path)
end

--- Trust the workspace config as it is now.
---@return string|nil message, string|nil err One line each.
function M.trust()
  local real, why = H.config()
  if not real then
    return nil, why
  end
  local f = io.open(real, 'rb')
  if not f then
    return nil, ('%s cannot be read; check its permissions'):format(real)
  end
  local bytes = f:read('*a')
  f:close()
  if bytes == '' then
    return nil, ('%s is empty, so there is nothing to trust'):format(real)
  end
  local buf, created = H.loaded(real), false
  if buf and vim.bo[buf].modified then
    return nil, ('%s has unsaved changes; write it first, since simple-brief reads the file'):format(real)
  end
  if not buf then
    local err
    buf, err = H.load(real)
    if not buf then
      return nil, ('%s could not be loaded (%s)'):format(real, err)
    end
    created = true
  end
  local same = H.hashed_text(buf) == bytes
  local ok, result = true, nil
  if same then
    ok, result = vim.secure.trust({ action = 'allow', bufnr = buf })
  end
  if created then
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
  end
  if not same then
    return nil,
      ('%s reads differently in a buffer than on disk (a byte-order mark, another encoding or mixed line ends), '):format(
        real
      ) .. 'so a trust would not match the file; save it as plain UTF-8 and retry'
  end
  if not ok then
    return nil, ('%s could not be trusted: %s'):format(real, result)
  end
  -- A refusal recorded with `simple-brief trust --deny` would still win: the person changed their mind.
  H.drop_own(real, function(hash)
    return hash == '!'
  end)
  return ('trusted %s as it is now (sha256 %s…); its servers and tasks are used until the file changes'):format(
    real,
    vim.fn.sha256(bytes):sub(1, 12)
  )
end

--- Forget the trust in the workspace config (Neovim's database and simple-brief's own).
---@return string|nil message, string|nil err One line each.
function M.untrust()
  local real, why = H.config()
  if not real then
    return nil, why
  end
  local was = H.entries(vim.fn.stdpath('state') .. '/trust')[real] ~= nil
  local ok, result = vim.secure.trust({ action = 'remove', path = real })
  if not ok then
    return nil, ('%s could not be untrusted: %s'):format(real, result)
  end
  local dropped, err = H.drop_own(real, function()
    return true
  end)
  if err then
    return nil, ('%s is untrusted in Neovim, but %s could not be written (%s)'):format(real, H.own_database(), err)
  end
  if not (was or dropped) then
    return ('%s was not trusted; nothing changed'):format(real)
  end
  return ('%s is no longer trusted; its servers and tasks are ignored until you trust it again'):format(real)
end

return M
