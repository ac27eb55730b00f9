-- The stand-in's breakpoint store (see ../dap.lua for why nvim-dap is stood in for): like
-- nvim-dap's lua/dap/breakpoints.lua, breakpoints are signs in the `dap_breakpoints` sign
-- group of a buffer, with their condition, hit condition, log message and the adapter's
-- `state`; `get` groups them by buffer.
local M = {}
local ns = 'dap_breakpoints'
local by_sign_by_buf = {}

for name, text in pairs({
  DapBreakpoint = 'B',
  DapBreakpointCondition = 'C',
  DapLogPoint = 'L',
  DapBreakpointRejected = 'R',
}) do
  vim.fn.sign_define(name, { text = text })
end

local function sign_name(bp)
  if bp.state and bp.state.verified == false then
    return 'DapBreakpointRejected'
  elseif bp.condition and bp.condition ~= '' then
    return 'DapBreakpointCondition'
  elseif bp.logMessage and bp.logMessage ~= '' then
    return 'DapLogPoint'
  end
  return 'DapBreakpoint'
end

function M.remove(bufnr, lnum)
  local placed = vim.fn.sign_getplaced(bufnr, { group = ns, lnum = lnum })[1].signs
  for _, sign in ipairs(placed or {}) do
    vim.fn.sign_unplace(ns, { buffer = bufnr, id = sign.id })
    by_sign_by_buf[bufnr][sign.id] = nil
  end
  return placed ~= nil and #placed > 0
end

function M.set(opts, bufnr, lnum)
  opts = opts or {}
  M.remove(bufnr, lnum)
  local bp = {
    buf = bufnr,
    line = lnum,
    condition = opts.condition,
    logMessage = opts.log_message,
    hitCondition = opts.hit_condition,
  }
  local id = vim.fn.sign_place(0, ns, sign_name(bp), bufnr, { lnum = lnum, priority = 21 })
  if id ~= -1 then
    by_sign_by_buf[bufnr] = by_sign_by_buf[bufnr] or {}
    by_sign_by_buf[bufnr][id] = bp
  end
end

function M.set_state(bufnr, state)
  local placed = vim.fn.sign_getplaced(bufnr, { group = ns, lnum = state.line })[1].signs
  for _, sign in ipairs(placed or {}) do
    local bp = (by_sign_by_buf[bufnr] or {})[sign.id]
    if bp then
      bp.state = state
    end
  end
end

function M.get(bufexpr)
  local result = {}
  local placed = bufexpr and vim.fn.sign_getplaced(bufexpr, { group = ns }) or vim.fn.sign_getplaced()
  for _, buf_signs in ipairs(placed) do
    local signs = vim.fn.sign_getplaced(buf_signs.bufnr, { group = ns })[1].signs
    if #signs > 0 then
      local list = {}
      result[buf_signs.bufnr] = list
      for _, sign in ipairs(signs) do
        local entry = (by_sign_by_buf[buf_signs.bufnr] or {})[sign.id] or {}
        table.insert(list, {
          buf = buf_signs.bufnr,
          line = sign.lnum,
          condition = entry.condition,
          hitCondition = entry.hitCondition,
          logMessage = entry.logMessage,
          state = entry.state,
        })
      end
    end
  end
  return result
end

return M
