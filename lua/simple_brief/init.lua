--- simple-brief: a brief, live view of code.
---
--- require('simple_brief').setup(opts)   -- optional; safe to call twice
--- :SimpleBrief[!] [outline|compact]       -- fold to the outline / restore / open a view split
--- :SimpleBrief mcp                         -- how to register the MCP server with agents
--- :SimpleBrief trust|untrust               -- consent to the workspace's .simple-brief.toml
--- :SimpleBriefReview [accept|reject [all]]  -- the agent's proposed edits, hunk by hunk
--- :SimpleBriefInstall[!] [python]          -- the build step: the engine's venv in stdpath('data')
--- :ExpandAt [name|Class.method|line:N] [body|signature|all]
local M = {}

--- Apply options, start the server automatically for the configured filetypes, track the
--- editor context, and register this Neovim so `simple-brief mcp` can find it.
---@param opts simple_brief.SetupOpts|nil
function M.setup(opts)
  require('simple_brief.config').set(opts)
  require('simple_brief.lsp').enable()
  require('simple_brief.context').setup()
  require('simple_brief.reload').setup()
  local _, err = require('simple_brief.instances').register()
  if err then
    vim.notify('simple-brief: ' .. err, vim.log.levels.WARN)
  end
  local stale = require('simple_brief.install').stale()
  if stale then
    vim.notify('simple-brief: ' .. stale, vim.log.levels.WARN)
  end
end

--- :SimpleBrief handler.
---@param args {bang: boolean, fargs: string[]}
function M.command(args)
  local sub = args.fargs[1]
  if args.bang then
    local had_note = require('simple_brief.show').clear()
    if not require('simple_brief.brief').restore() and not had_note then
      vim.notify('simple-brief: this window has no :SimpleBrief folds to restore', vim.log.levels.INFO)
    end
    return
  end
  if sub == 'outline' or sub == 'compact' then
    local view, why = require('simple_brief.view').open(sub)
    if not view then
      vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
    end
    return
  end
  if sub == 'mcp' then
    local ok, why = require('simple_brief.mcp').show()
    if not ok then
      vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
    end
    return
  end
  if sub == 'trust' or sub == 'untrust' then
    local message, why = require('simple_brief.trust')[sub]()
    if message then
      vim.notify('simple-brief: ' .. message, vim.log.levels.INFO)
    else
      vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
    end
    return
  end
  if sub ~= nil then
    vim.notify(
      ('simple-brief: unknown argument %q; use :SimpleBrief, :SimpleBrief outline, compact, mcp, trust or untrust'):format(
        sub
      ),
      vim.log.levels.ERROR
    )
    return
  end
  local how, why = require('simple_brief.brief').enable()
  if how ~= 'lsp' then
    vim.notify(('simple-brief: using %s folds (%s)'):format(how, why or 'no server'), vim.log.levels.WARN)
  end
end

--- :ExpandAt handler.
---@param args {fargs: string[]}
function M.expand_command(args)
  local sym, why = require('simple_brief.expand').expand_at(args.fargs[1], args.fargs[2])
  if not sym then
    vim.notify('simple-brief: ' .. why, vim.log.levels.ERROR)
  end
end

return M
