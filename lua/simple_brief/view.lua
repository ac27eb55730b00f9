--- :SimpleBrief outline | compact — the agent's block-mark view of the live buffer in a
--- scratch split, refreshed as the buffer (or its diagnostics) changes. <CR> on a mark
--- jumps to its line in the source window.
local config = require('simple_brief.config')
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

M.method = 'simpleBrief/render'

--- Refresh timers by `<source buffer>_<mode>`, so a view opened twice keeps one.
H.timers = {}

--- The editor's diagnostics of a buffer, as the server's render request takes them.
---@param buf integer
---@return table[]
function H.diagnostics(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[#out + 1] = {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      code = d.code and tostring(d.code) or nil,
      source = d.source,
    }
  end
  return out
end

--- Ask the server for the view and put it in the scratch buffer.
function H.refresh(src, view, mode)
  if not vim.api.nvim_buf_is_valid(src) or not vim.api.nvim_buf_is_valid(view) then
    return
  end
  local client = lsp.client(src)
  if not client then
    return
  end
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(src),
    mode = mode,
    diagnostics = H.diagnostics(src),
  }
  client:request(M.method, params, function(err, result)
    if err or not result or not vim.api.nvim_buf_is_valid(view) then
      return
    end
    local lines = vim.split(result.text, '\n', { plain = true })
    vim.bo[view].modifiable = true
    vim.api.nvim_buf_set_lines(view, 0, -1, false, lines)
    vim.bo[view].modifiable = false
    vim.b[view].simple_brief_version = result.version
  end, src)
end

--- Jump from the mark under the cursor to its line in the source window.
function H.jump(src)
  local text = vim.api.nvim_get_current_line()
  local line = tonumber(text:match('%sL(%d+)%-?%d*$') or text:match('^V%* %[%a%]:(%d+)'))
  if not line then
    return
  end
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == src then
      vim.api.nvim_set_current_win(win)
      vim.api.nvim_win_set_cursor(win, { math.min(line, vim.api.nvim_buf_line_count(src)), 0 })
      return
    end
  end
end

--- The view's buffer name: `simple-brief://outline/src/app.py` (the file as `:ls` shows it,
--- relative to the working directory, never `//` after the mode).
---@param mode string
---@param src integer
---@return string
function M.name(mode, src)
  local shown = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(src), ':~:.'):gsub('^/+', '')
  return ('simple-brief://%s/%s'):format(mode, shown)
end

--- The buffer named exactly `name`, or -1 (bufnr() would read the name as a pattern).
---@param name string
---@return integer
function M.find(name)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == name then
      return b
    end
  end
  return -1
end

--- The scratch buffer named `name` (no file, wiped when hidden), created when missing.
---@param name string
---@return integer buf, boolean created
function H.scratch(name)
  local buf = M.find(name)
  if buf ~= -1 then
    return buf, false
  end
  buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, name)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  return buf, true
end

--- Show `lines` in a scratch split named `name` (reused when it is open), to copy from:
--- lines that hold a token or paths stay out of :messages and need no hit-enter.
---@param name string
---@param lines string[]
---@return integer buf
function M.show_lines(name, lines)
  local buf = H.scratch(name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  if vim.fn.bufwinid(buf) == -1 then
    vim.cmd(('botright %dsplit'):format(#lines + 1))
    vim.api.nvim_win_set_buf(0, buf)
    vim.wo.wrap = false
  end
  return buf
end

--- Open (or reuse) the view split of the current buffer. Returns the view buffer.
---@param mode 'outline'|'compact'
---@return integer|nil view, string|nil why_not
function M.open(mode)
  local src = vim.api.nvim_get_current_buf()
  local client, why = lsp.ensure(src)
  if not client then
    return nil, why
  end
  local name = M.name(mode, src)
  local view, created = H.scratch(name)
  if created then
    vim.bo[view].filetype = 'simplebrief'
    vim.keymap.set('n', '<CR>', function()
      H.jump(src)
    end, { buffer = view, desc = 'simple-brief: go to this line in the source' })
  end
  if vim.fn.bufwinid(view) == -1 then
    vim.cmd('botright vsplit')
    vim.api.nvim_win_set_buf(0, view)
    vim.wo.wrap = false
    vim.wo.number = false
    vim.cmd('wincmd p')
  end
  local key = ('%d_%s'):format(src, mode)
  local group = vim.api.nvim_create_augroup('simple_brief_view_' .. key, { clear = true })
  if H.timers[key] then
    -- Opened again: the previous timer's BufWipeout autocmd went with the old augroup.
    H.timers[key]:stop()
    H.timers[key]:close()
  end
  local timer = assert(vim.uv.new_timer())
  H.timers[key] = timer
  local function schedule_refresh()
    timer:stop()
    timer:start(
      config.options.view_debounce_ms,
      0,
      vim.schedule_wrap(function()
        H.refresh(src, view, mode)
      end)
    )
  end
  vim.api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI', 'DiagnosticChanged' }, {
    group = group,
    buffer = src,
    callback = schedule_refresh,
  })
  vim.api.nvim_create_autocmd('BufWipeout', {
    group = group,
    buffer = view,
    callback = function()
      if H.timers[key] == timer then
        H.timers[key] = nil
      end
      timer:stop()
      timer:close()
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
  H.refresh(src, view, mode)
  return view
end

return M
