--- The agent points the person at code (`editor_show`): the file in the current window,
--- folded with :SimpleBrief and only the listed ranges open, the cursor on the line and a
--- note above it. Never while the person is typing: in insert, replace or command-line mode
--- it waits until they leave it, with a notification.
local M = {}

local H = {}

M.ns = vim.api.nvim_create_namespace('simple_brief_show')

vim.api.nvim_set_hl(0, 'SimpleBriefShowNote', { link = 'DiagnosticVirtualTextHint', default = true })

--- The request waiting for the person to leave insert mode (only the latest one counts).
---@type table|nil
H.waiting = nil

---@class simple_brief.ShowRequest
---@field path string absolute path
---@field line integer 1-based line for the cursor and the note
---@field open {[1]: integer, [2]: integer}[]|nil 1-based inclusive line ranges to leave open
---@field note string|nil

--- One sentence on what is wrong with a request, or nil.
function H.invalid(s)
  if type(s) ~= 'table' then
    return 'show() takes a table {path, line, open, note}, got ' .. type(s)
  end
  if type(s.path) ~= 'string' or not vim.startswith(s.path, '/') then
    return 'show(): path must be an absolute path, got ' .. vim.inspect(s.path)
  end
  if type(s.line) ~= 'number' or s.line < 1 or s.line % 1 ~= 0 then
    return 'show(): line must be a whole number >= 1, got ' .. vim.inspect(s.line)
  end
  if s.note ~= nil and type(s.note) ~= 'string' then
    return 'show(): note must be a string'
  end
  for _, r in ipairs(s.open or {}) do
    if type(r) ~= 'table' or type(r[1]) ~= 'number' or type(r[2]) ~= 'number' or r[2] < r[1] then
      return 'show(): open must be a list of {start, end} line pairs, got ' .. vim.inspect(s.open)
    end
  end
end

--- Whether the person is typing: insert, replace, or a command line.
function H.busy()
  local mode = vim.api.nvim_get_mode().mode
  return mode:match('^[iRc]') ~= nil
end

--- The window to show in: the current one unless it holds a special buffer (quickfix, a view).
function H.window()
  local cur = vim.api.nvim_get_current_win()
  if vim.bo[vim.api.nvim_win_get_buf(cur)].buftype == '' then
    return cur
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.bo[vim.api.nvim_win_get_buf(win)].buftype == '' and vim.api.nvim_win_get_config(win).relative == '' then
      return win
    end
  end
  return cur
end

--- Remove the note from every buffer (or only `buf`). Returns whether there was one.
---@param buf integer|nil
---@return boolean
function M.clear(buf)
  local had = false
  for _, b in ipairs(buf and { buf } or vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      if #vim.api.nvim_buf_get_extmarks(b, M.ns, 0, -1, { limit = 1 }) > 0 then
        had = true
        vim.api.nvim_buf_clear_namespace(b, M.ns, 0, -1)
      end
    end
  end
  return had
end

--- Fold the window with :SimpleBrief, open the listed ranges, and bring the line into view
--- (unless the person moved away meanwhile).
---@param win integer
---@param buf integer
---@param s simple_brief.ShowRequest
---@param line integer
---@return string how
function H.fold(win, buf, s, line)
  if not vim.api.nvim_win_is_valid(win) or vim.api.nvim_win_get_buf(win) ~= buf then
    return 'none'
  end
  local how = require('simple_brief.brief').enable(win)
  vim.api.nvim_win_call(win, function()
    local count = vim.api.nvim_buf_line_count(buf)
    for _, r in ipairs(s.open or {}) do
      local first = math.max(1, math.min(r[1], count))
      local last = math.max(first, math.min(r[2], count))
      vim.cmd(('silent! %d,%dfoldopen!'):format(first, last))
    end
    if vim.api.nvim_win_get_cursor(win)[1] == line then
      vim.cmd('silent! normal! zv')
    end
  end)
  return how
end

--- How long show() waits for the simple-brief server before it answers and folds right
--- after: the engine waits 2 s for an answer, and a server starting takes longer.
M.server_wait_ms = 1500

--- Whether the simple-brief server is attached to `buf` and ready (started if needed,
--- waited for at most `server_wait_ms`): folding then takes milliseconds.
function H.server_ready(buf)
  local lsp = require('simple_brief.lsp')
  local function ready()
    local client = lsp.client(buf)
    return client ~= nil and client.initialized == true and not client:is_stopped()
  end
  if ready() then
    return true
  end
  if not pcall(lsp.start, buf) then
    return false
  end
  return vim.wait(M.server_wait_ms, ready, 20)
end

---@param s simple_brief.ShowRequest
---@return string folds 'lsp', 'tree-sitter', 'indent', or 'pending' (folding right after)
function H.show_now(s)
  local win = H.window()
  local buf = vim.fn.bufadd(s.path)
  vim.fn.bufload(buf)
  vim.bo[buf].buflisted = true
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_buf(win, buf)
  local line = math.min(s.line, vim.api.nvim_buf_line_count(buf))
  vim.api.nvim_win_set_cursor(win, { line, 0 })
  M.clear()
  if s.note and s.note ~= '' then
    vim.api.nvim_buf_set_extmark(buf, M.ns, line - 1, 0, {
      virt_lines = { { { '▶ ' .. s.note, 'SimpleBriefShowNote' } } },
      virt_lines_above = true,
    })
  end
  local how = 'pending'
  if H.server_ready(buf) then
    how = H.fold(win, buf, s, line)
  else
    vim.schedule(function()
      H.fold(win, buf, s, line)
      H.top_note(win, line)
    end)
  end
  H.top_note(win, line)
  return how
end

--- A virtual line above the first line shows only as filler at the window's top.
function H.top_note(win, line)
  if line == 1 and vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_win_call(win, function()
      vim.fn.winrestview({ topline = 1, topfill = 1 })
    end)
  end
end

--- Show `s` now, or (the person typing) at InsertLeave / after the command line, once.
---@param s simple_brief.ShowRequest
--- `folds` says how the window folds; 'pending' when the server was not ready yet: the
--- answer comes at once and the folds right after (starting the server takes seconds).
---@return {shown: boolean, waiting: boolean|nil, folds: string|nil, error: string|nil}
function M.show(s)
  if type(s) == 'table' then
    s = vim.tbl_map(function(v)
      return v ~= vim.NIL and v or nil
    end, s)
  end
  local why = H.invalid(s)
  if why then
    return { shown = false, error = why }
  end
  if H.busy() then
    local first = H.waiting == nil
    H.waiting = s
    if first then
      local event = vim.api.nvim_get_mode().mode:match('^c') and 'CmdlineLeave' or 'InsertLeave'
      vim.api.nvim_create_autocmd(event, {
        once = true,
        group = vim.api.nvim_create_augroup('simple_brief_show', { clear = true }),
        callback = function()
          vim.schedule(function()
            local pending = H.waiting
            H.waiting = nil
            if pending then
              local ok, err = pcall(H.show_now, pending)
              if not ok then
                vim.notify('simple-brief: could not show ' .. pending.path .. ': ' .. err, vim.log.levels.WARN)
              end
            end
          end)
        end,
      })
    end
    require('simple_brief.review').tell(
      ('simple-brief: the agent points at %s:%d, shown when you leave %s'):format(
        vim.fn.fnamemodify(s.path, ':t'),
        s.line,
        vim.api.nvim_get_mode().mode:match('^c') and 'the command line' or 'insert mode'
      )
    )
    return { shown = false, waiting = true }
  end
  local ok, how = pcall(H.show_now, s)
  if not ok then
    return { shown = false, error = ('could not show %s: %s'):format(s.path, how) }
  end
  return { shown = true, folds = how }
end

return M
