--- Files changed on disk (an agent wrote them): `checktime` semantics without the prompt.
---
--- Unmodified buffers are reloaded; a buffer with unsaved changes is never overwritten: it
--- keeps the person's text, gets `b:simple_brief_disk_changed`, and a message says how to
--- take the disk's version or keep theirs. Every loaded file buffer is checked on
--- FocusGained, BufEnter, CursorHold and TermLeave, and every `checktime_ms` while in Normal
--- mode (config.lua).
local config = require('simple_brief.config')

local M = {}

local H = {}

H.group = nil
---@type uv.uv_timer_t|nil
H.timer = nil

--- One sentence telling the person what happened and what to do.
---@param buf integer
---@param reason string v:fcs_reason: 'conflict' or 'deleted'
---@return string
function M.message(buf, reason)
  local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':~:.')
  if reason == 'deleted' then
    return ('simple-brief: %s was deleted on disk; your buffer is kept (:w writes it again)'):format(name)
  end
  return (
    'simple-brief: %s changed on disk while you have unsaved changes; your text is kept, not reloaded'
    .. ' (:w writes yours over the disk version, :e! takes the disk version and drops yours)'
  ):format(name)
end

--- FileChangedShell: decide for Neovim instead of its prompt (v:fcs_choice).
---@param buf integer
function H.on_changed(buf)
  local reason = vim.v.fcs_reason
  if reason == 'mode' or reason == 'time' then
    vim.v.fcs_choice = ''
    return
  end
  if reason == 'changed' and vim.bo[buf].modified then
    reason = 'conflict'
  end
  if reason == 'changed' then
    -- The person turned 'autoread' off: Neovim asks, as it would without us.
    vim.v.fcs_choice = vim.api.nvim_get_option_value('autoread', { buf = buf }) and 'reload' or 'ask'
    return
  end
  vim.v.fcs_choice = ''
  -- A deleted file is found again on every check: say it once (until the buffer is
  -- written or read again).
  if vim.b[buf].simple_brief_disk_changed == 'deleted' and reason == 'deleted' then
    return
  end
  vim.b[buf].simple_brief_disk_changed = reason
  vim.notify(M.message(buf, reason), vim.log.levels.WARN)
end

--- Check every loaded file buffer now, hidden ones too (a bare `:checktime` looks only at
--- the buffers shown in a window), unless the person is typing or in the command-line window.
function M.check()
  if vim.api.nvim_get_mode().mode ~= 'n' or vim.fn.getcmdwintype() ~= '' then
    return
  end
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == '' and vim.api.nvim_buf_get_name(buf) ~= '' then
      pcall(vim.cmd.checktime, buf)
    end
  end
end

--- Install (or, with `reload = false`, remove) the autocmds and the timer.
function M.setup()
  if H.timer then
    H.timer:stop()
    H.timer:close()
    H.timer = nil
  end
  H.group = vim.api.nvim_create_augroup('simple_brief_reload', { clear = true })
  if not config.options.reload then
    return
  end
  vim.api.nvim_create_autocmd('FileChangedShell', {
    group = H.group,
    callback = function(args)
      H.on_changed(args.buf)
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufWritePost', 'BufReadPost' }, {
    group = H.group,
    callback = function(args)
      vim.b[args.buf].simple_brief_disk_changed = nil
    end,
  })
  vim.api.nvim_create_autocmd({ 'FocusGained', 'BufEnter', 'CursorHold', 'TermLeave' }, {
    group = H.group,
    callback = M.check,
  })
  local interval = config.options.checktime_ms
  if interval > 0 then
    H.timer = assert(vim.uv.new_timer())
    H.timer:start(interval, interval, vim.schedule_wrap(M.check))
  end
end

return M
