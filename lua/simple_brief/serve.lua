--- :SimpleBriefServe — serve the MCP tools over HTTP on 127.0.0.1 for agents, reading this
--- Neovim's live state, and print the lines that register it with Claude Code and Codex.
---
--- In rplugin mode Neovim's Python host serves it (one process with the engine); else a
--- child `simple-brief mcp --http --nvim <v:servername>`. The URL and a random token are
--- written (mode 0600) to <state dir>/servers/<pid>.json.
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

---@class simple_brief.ServeInfo
---@field url string
---@field token string
---@field file string

---@type simple_brief.ServeInfo|nil
H.info = nil

function H.state_dir()
  local ok, instances = pcall(require, 'simple_brief.instances')
  if ok then
    return instances.dir()
  end
  local base = vim.env.XDG_STATE_HOME or (vim.env.HOME .. '/.local/state')
  return vim.env.SIMPLE_BRIEF_STATE_DIR or (base .. '/simple-brief')
end

--- Start a child server and wait (bounded) for the file it advertises itself in.
---@return simple_brief.ServeInfo|nil, string|nil
function H.start_child(root, address)
  local cmd, why = require('simple_brief.mcp').cmd()
  if not cmd then
    return nil, why
  end
  vim.list_extend(cmd, { '--http', '--nvim', address, '--root', root })
  local ok, job = pcall(vim.system, cmd, { text = true })
  if not ok then
    return nil, ('cannot start %s: %s'):format(cmd[1], job)
  end
  local file = ('%s/servers/%d.json'):format(H.state_dir(), job.pid)
  local ready = vim.wait(20000, function()
    return vim.uv.fs_stat(file) ~= nil or job:is_closing()
  end, 20)
  if not ready or not vim.uv.fs_stat(file) then
    pcall(job.kill, job, 15)
    return nil, 'the MCP server did not start; run :checkhealth simple_brief'
  end
  local data = vim.json.decode(table.concat(vim.fn.readfile(file), '\n'))
  H.job = job
  vim.api.nvim_create_autocmd('VimLeavePre', {
    group = vim.api.nvim_create_augroup('simple_brief_serve', { clear = true }),
    callback = function()
      pcall(job.kill, job, 15)
    end,
  })
  return { url = data.url, token = data.token, file = file }
end

--- Start the server once (later calls return the running one).
---@return simple_brief.ServeInfo|nil, string|nil
function M.serve()
  if H.info then
    return H.info
  end
  local address = vim.v.servername
  if address == '' then
    address = vim.fn.serverstart()
  end
  local root = vim.fn.getcwd()
  local info, why
  if lsp.mode() == 'rplugin' then
    local ok, result = pcall(vim.fn.SimpleBriefMcpServe, root, address)
    if ok then
      info = result
    else
      local lines = vim.split(vim.trim(tostring(result)), '\n', { plain = true })
      why = lines[#lines]
    end
  else
    info, why = H.start_child(root, address)
  end
  if info then
    H.remove_on_exit(info.file)
  end
  H.info = info
  return info, why
end

--- The lines that register the server with agents.
---@param info simple_brief.ServeInfo
---@return string[]
function M.lines(info)
  return {
    ('simple-brief MCP: %s (token in %s)'):format(info.url, info.file),
    ('Claude Code: claude mcp add --transport http simple-brief %s --header "Authorization: Bearer %s"'):format(
      info.url,
      info.token
    ),
    ('Codex: export SIMPLE_BRIEF_TOKEN=%s && codex mcp add simple-brief --url %s --bearer-token-env-var SIMPLE_BRIEF_TOKEN'):format(
      info.token,
      info.url
    ),
  }
end

--- :SimpleBriefServe handler: start (or show) the server; its registration lines (they
--- hold the token) go into a scratch split to copy from, not into :messages, and the one
--- line echoed says where it serves, without a hit-enter prompt.
function M.command()
  local info, why = M.serve()
  if not info then
    vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
    return
  end
  require('simple_brief.view').show_lines('simple-brief://serve', M.lines(info))
  vim.api.nvim_echo({ { ('simple-brief MCP: %s (registration lines in the split)'):format(info.url) } }, false, {})
end

--- Forget the state file when Neovim exits: a Python host killed by :qa! cannot remove it.
---@param file string
function H.remove_on_exit(file)
  vim.api.nvim_create_autocmd('VimLeavePre', {
    group = vim.api.nvim_create_augroup('simple_brief_serve_file', { clear = true }),
    callback = function()
      os.remove(file)
    end,
  })
end

return M
