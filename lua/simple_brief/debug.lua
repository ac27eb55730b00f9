--- The agent's debug sessions in the person's Neovim: its breakpoints as signs and the line a
--- session is stopped at highlighted, in the `simple-brief.debug` extmark namespace.
---
--- The MCP server calls `show(view)` through the RPC channel after every debug tool
--- (simple_brief.tools.debug); a view replaces that session's marks, an ended session's are
--- removed. Files not loaded yet get their marks when they are read (BufReadPost). These
--- marks are for sessions simple-brief's own DAP client drives; sessions the person's
--- nvim-dap drives (lua/simple_brief/nvim_dap.lua) show with nvim-dap's own signs.
local M = {}

local H = {}

--- The views by session id (see `show`).
---@type table<string, {session: string, ended: boolean, stopped: {path: string, line: integer}?, breakpoints: {path: string, line: integer, number: integer, verified: boolean, condition: string}[]}>
M.sessions = {}

--- The namespace of the marks.
---@return integer
function M.namespace()
  return vim.api.nvim_create_namespace('simple-brief.debug')
end

function H.highlights()
  vim.api.nvim_set_hl(0, 'SimpleBriefDebugBreakpoint', { default = true, link = 'DiagnosticError' })
  vim.api.nvim_set_hl(0, 'SimpleBriefDebugStoppedSign', { default = true, link = 'DiagnosticWarn' })
  vim.api.nvim_set_hl(0, 'SimpleBriefDebugStopped', { default = true, link = 'Visual' })
end

--- A file's name as buffers know it (absolute, links resolved).
---@param path string
---@return string
function H.normal(path)
  return vim.fn.resolve(vim.fn.fnamemodify(path, ':p'))
end

--- Draw every session's marks that belong to `buf` (a loaded buffer).
---@return integer marks
---@param buf integer
function H.draw(buf)
  local ns = M.namespace()
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  local name = vim.api.nvim_buf_get_name(buf)
  if name == '' then
    return 0
  end
  name = H.normal(name)
  local count = vim.api.nvim_buf_line_count(buf)
  local drawn = 0
  for _, view in pairs(M.sessions) do
    for _, bp in ipairs(view.breakpoints) do
      if H.normal(bp.path) == name and bp.line >= 1 and bp.line <= count then
        local text = bp.condition ~= '' and '◆' or (bp.verified and '●' or '○')
        vim.api.nvim_buf_set_extmark(buf, ns, bp.line - 1, 0, {
          sign_text = text,
          sign_hl_group = 'SimpleBriefDebugBreakpoint',
          priority = 20,
        })
        drawn = drawn + 1
      end
    end
    local stopped = view.stopped
    if stopped and H.normal(stopped.path) == name and stopped.line >= 1 and stopped.line <= count then
      vim.api.nvim_buf_set_extmark(buf, ns, stopped.line - 1, 0, {
        sign_text = '→',
        sign_hl_group = 'SimpleBriefDebugStoppedSign',
        line_hl_group = 'SimpleBriefDebugStopped',
        priority = 30,
      })
      drawn = drawn + 1
    end
  end
  return drawn
end

--- Redraw every loaded buffer.
---@return integer marks
function H.redraw()
  local drawn = 0
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) then
      drawn = drawn + H.draw(buf)
    end
  end
  return drawn
end

function H.autocmd()
  if H.group then
    return
  end
  H.group = vim.api.nvim_create_augroup('simple-brief.debug', { clear = true })
  vim.api.nvim_create_autocmd('BufReadPost', {
    group = H.group,
    callback = function(args)
      if next(M.sessions) ~= nil then
        H.draw(args.buf)
      end
    end,
  })
end

--- Show one session's breakpoints and stopped line, replacing what it showed before.
---@param view {session: string, ended: boolean, stopped: {path: string, line: integer}?, breakpoints: {path: string, line: integer, number: integer, verified: boolean, condition: string}[]}
---@return {shown: integer, sessions: integer, nvim_dap: boolean}
function M.show(view)
  H.highlights()
  H.autocmd()
  if view.ended then
    M.sessions[view.session] = nil
  else
    if view.stopped == vim.NIL then
      view.stopped = nil
    end
    M.sessions[view.session] = view
  end
  local shown = H.redraw()
  return { shown = shown, sessions = vim.tbl_count(M.sessions), nvim_dap = (pcall(require, 'dap')) }
end

--- Remove every session's marks.
function M.clear()
  M.sessions = {}
  H.redraw()
end

return M
