--- Editor context: one snapshot of where the person is working, for the engine.
---
--- The MCP server gathers the whole snapshot with ONE `exec_lua` request:
---   require('simple_brief.context').snapshot({ known_tick = { [buf] = tick } })
--- It holds the code buffer's path, filetype, size, modified flag and changedtick, the
--- cursor and the selection (1-based lines and 1-based character columns, not bytes),
--- and the buffer's text only when the caller's cached copy is stale.
---
--- When the current window is a terminal or another non-file window (buftype ~= '',
--- floating windows included), the snapshot is of the last code window the person used,
--- found by cheap WinEnter/BufEnter/ModeChanged autocmds. The selection is the live one
--- in Visual or Select mode, else the last one made in that buffer, else nil.
local M = {}

local H = {}

---@class simple_brief.Position
---@field line integer 1-based line.
---@field character integer 1-based character (code point) column.

---@class simple_brief.Selection
---@field mode 'v'|'V'|'\22' Charwise, linewise or blockwise.
---@field start simple_brief.Position First selected character (upper left for a block).
---@field ['end'] simple_brief.Position Last selected character, inclusive (lower right).
---@field text string The selected text, lines joined with '\n' (as getregion() gives them).
---@field live boolean Visual or Select mode is active now (false: the last selection made).

---@class simple_brief.Snapshot
---@field buf integer Buffer number.
---@field path string Absolute path of the buffer.
---@field filetype string
---@field line_count integer
---@field modified boolean Unsaved changes.
---@field changedtick integer b:changedtick; the caller's cache key for `lines`.
---@field cursor simple_brief.Position
---@field mode string nvim_get_mode().mode, e.g. 'n', 'i', 'v', 't'.
---@field selection simple_brief.Selection|nil
---@field lines string[]|nil The buffer's lines, only when the caller's known tick is stale.
---@field window integer|nil The window shown; nil when the code buffer is in no window now.
---@field is_terminal_fallback boolean The current window is not a code window (terminal, scratch…).

---@class simple_brief.SnapshotOpts
--- changedtick of the caller's cached lines: one number (compared with whichever buffer
--- is reported; check `buf` too), or a table buffer -> tick. Over RPC the buffer keys must
--- be strings (`{ ['3'] = 41 }`): Neovim's API turns other map keys into ''.
---@field known_tick? integer|table<integer|string, integer>
---@field lines? boolean false: never send the lines.

--- Windows (and their buffers) the person used, most recent first: { win = , buf = }.
H.recent = {}

H.max_recent = 16

--- Last selection made in each buffer: buf -> { mode = 'v'|'V'|'\22', dollar = boolean }.
--- The positions themselves are the buffer's '< and '> marks, which follow edits.
H.selections = {}

--- Visual and Select modes (first character of a mode string) -> selection type.
H.visual = { v = 'v', V = 'V', ['\22'] = '\22', s = 'v', S = 'V', ['\19'] = '\22' }

H.group = nil

--- Whether a buffer holds a named file: what the engine can read and outline.
---@param buf integer
---@return boolean
function H.is_code_buf(buf)
  return vim.api.nvim_buf_is_loaded(buf)
    and vim.api.nvim_get_option_value('buftype', { buf = buf }) == ''
    and vim.api.nvim_buf_get_name(buf) ~= ''
end

--- Whether a window is an ordinary (not floating) window showing a code buffer.
---@param win integer
---@return boolean
function H.is_code_win(win)
  return vim.api.nvim_win_is_valid(win)
    and vim.api.nvim_win_get_config(win).relative == ''
    and H.is_code_buf(vim.api.nvim_win_get_buf(win))
end

--- Put a code window at the front of the recent list.
---@param win integer
function H.touch(win)
  local recent = H.recent
  for i = #recent, 1, -1 do
    if recent[i].win == win then
      table.remove(recent, i)
    end
  end
  table.insert(recent, 1, { win = win, buf = vim.api.nvim_win_get_buf(win) })
  recent[H.max_recent + 1] = nil
end

--- WinEnter / BufEnter / ModeChanged: remember the current window when it shows code.
function H.track()
  local win = vim.api.nvim_get_current_win()
  if H.is_code_win(win) then
    H.touch(win)
  end
end

--- ModeChanged: leaving Visual or Select mode records the selection's type for this buffer.
function H.on_mode_changed()
  local ev = vim.v.event
  local old = H.visual[(ev.old_mode or ''):sub(1, 1)]
  local new = H.visual[(ev.new_mode or ''):sub(1, 1)]
  if old and not new then
    -- A block extended with `$` reaches every line's end; only curswant says so.
    local dollar = old == '\22' and vim.fn.getcurpos()[5] == vim.v.maxcol
    H.selections[vim.api.nvim_get_current_buf()] = { mode = old, dollar = dollar }
  end
  H.track()
end

--- The code window (or hidden code buffer) to report when the current window is not code.
---@return integer|nil win, integer|nil buf
function H.fallback()
  local i = 1
  while i <= #H.recent do
    local entry = H.recent[i]
    if H.is_code_win(entry.win) then
      return entry.win, vim.api.nvim_win_get_buf(entry.win)
    end
    if vim.api.nvim_buf_is_valid(entry.buf) and H.is_code_buf(entry.buf) then
      -- The window now shows something else (`:terminal` in the same window): another
      -- window with the buffer, else the hidden buffer itself.
      for _, win in ipairs(vim.fn.win_findbuf(entry.buf)) do
        if H.is_code_win(win) then
          return win, entry.buf
        end
      end
      return nil, entry.buf
    end
    table.remove(H.recent, i)
  end
  return nil, nil
end

--- 1-based character column of a 1-based byte column in `line` (0 or less: 1; past
--- the end: one more than the character count).
---@param line string
---@param col integer
---@return integer
function H.character(line, col)
  if col <= 1 then
    return 1
  end
  local idx = vim.fn.charidx(line, col - 1, true)
  if idx < 0 then
    idx = vim.fn.strchars(line, true)
  end
  return idx + 1
end

---@param buf integer
---@param lnum integer
---@return string
function H.line(buf, lnum)
  return vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ''
end

--- The selection in the current window's buffer. Runs in that window's context.
---@param live_mode string|nil selection type when Visual/Select mode is active now
---@return simple_brief.Selection|nil
function H.selection_here(live_mode)
  local buf = vim.api.nvim_get_current_buf()
  local mode, dollar, p1, p2
  if live_mode then
    mode = live_mode
    dollar = mode == '\22' and vim.fn.getcurpos()[5] == vim.v.maxcol
    p1, p2 = vim.fn.getpos('v'), vim.fn.getpos('.')
  else
    local last = H.selections[buf]
    if not last then
      return nil
    end
    mode, dollar = last.mode, last.dollar
    p1, p2 = vim.fn.getpos("'<"), vim.fn.getpos("'>")
    local count = vim.api.nvim_buf_line_count(buf)
    if p1[2] < 1 or p2[2] < 1 or p1[2] > count or p2[2] > count then
      return nil
    end
  end
  local segments = vim.fn.getregionpos(p1, p2, { type = mode })
  if #segments == 0 then
    return nil
  end
  local first, last = segments[1][1], segments[#segments][2]
  local text, last_line
  if dollar then
    -- getregion() ignores `$`: cut each line from the block's left edge to its end.
    local lines = vim.api.nvim_buf_get_lines(buf, first[2] - 1, last[2], false)
    local parts = {}
    for i, seg in ipairs(segments) do
      local col = seg[1][3]
      parts[i] = col > 0 and lines[i]:sub(col) or ''
    end
    text = table.concat(parts, '\n')
    last_line = lines[#lines]
  else
    text = table.concat(vim.fn.getregion(p1, p2, { type = mode }), '\n')
  end
  local end_char
  if dollar then
    end_char = math.max(1, vim.fn.strchars(last_line, true))
  else
    end_char = H.character(H.line(buf, last[2]), last[3])
  end
  return {
    mode = mode,
    start = { line = first[2], character = H.character(H.line(buf, first[2]), first[3]) },
    ['end'] = { line = last[2], character = end_char },
    text = text,
    live = live_mode ~= nil,
  }
end

--- The selection of `buf` as shown in `win` (nil: the buffer is in no window).
---@return simple_brief.Selection|nil
function H.selection(win, buf, live_mode)
  local ok, sel
  if win == vim.api.nvim_get_current_win() then
    ok, sel = pcall(H.selection_here, live_mode)
  elseif win then
    ok, sel = pcall(vim.api.nvim_win_call, win, H.selection_here)
  else
    ok, sel = pcall(vim.api.nvim_buf_call, buf, H.selection_here)
  end
  -- A mark left behind by an edit must not break the whole snapshot: no selection then.
  return ok and sel or nil
end

---@param known integer|table|nil
---@param buf integer
---@return integer|nil
function H.known_tick(known, buf)
  if type(known) == 'number' then
    return known
  end
  if type(known) == 'table' then
    return known[buf] or known[tostring(buf)]
  end
  return nil
end

--- Create the tracking autocmds (safe to call again: the augroup is cleared, the
--- remembered windows and selections are kept).
function M.setup()
  local group = vim.api.nvim_create_augroup('simple_brief_context', { clear = true })
  H.group = group
  vim.api.nvim_create_autocmd({ 'WinEnter', 'BufEnter' }, {
    group = group,
    desc = 'simple-brief: remember the last code window',
    callback = function()
      H.track()
    end,
  })
  vim.api.nvim_create_autocmd('ModeChanged', {
    group = group,
    desc = 'simple-brief: remember the last selection of each buffer',
    callback = function()
      H.on_mode_changed()
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', {
    group = group,
    desc = 'simple-brief: forget a wiped buffer',
    callback = function(ev)
      H.selections[ev.buf] = nil
    end,
  })
  -- Started late (first snapshot from a terminal): the current or the previous window.
  H.track()
  if #H.recent == 0 then
    local prev = vim.fn.win_getid(vim.fn.winnr('#'))
    if prev ~= 0 and H.is_code_win(prev) then
      H.touch(prev)
    end
  end
  local entry = H.recent[1]
  if entry and not H.selections[entry.buf] then
    local mark = vim.api.nvim_buf_get_mark(entry.buf, '<')
    local kind = H.visual[vim.fn.visualmode()]
    if mark[1] > 0 and kind then
      H.selections[entry.buf] = { mode = kind, dollar = false }
    end
  end
end

--- The editor state the engine needs, in one call. nil when no code window was ever used.
---@param opts simple_brief.SnapshotOpts|nil
---@return simple_brief.Snapshot|nil
function M.snapshot(opts)
  opts = opts or {}
  if not H.group then
    M.setup()
  end
  local current = vim.api.nvim_get_current_win()
  local mode = vim.api.nvim_get_mode().mode
  local win, buf, fallback = current, nil, false
  if H.is_code_win(current) then
    H.touch(current)
    buf = vim.api.nvim_win_get_buf(current)
  else
    fallback = true
    win, buf = H.fallback()
    if not buf then
      return nil
    end
  end

  local row, col
  if win then
    local pos = vim.api.nvim_win_get_cursor(win)
    row, col = pos[1], pos[2]
  else
    local mark = vim.api.nvim_buf_get_mark(buf, '"')
    row, col = math.max(mark[1], 1), mark[2]
  end
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  local live_mode = not fallback and H.visual[mode:sub(1, 1)] or nil

  ---@type simple_brief.Snapshot
  local snap = {
    buf = buf,
    path = vim.api.nvim_buf_get_name(buf),
    filetype = vim.api.nvim_get_option_value('filetype', { buf = buf }),
    line_count = vim.api.nvim_buf_line_count(buf),
    modified = vim.api.nvim_get_option_value('modified', { buf = buf }),
    changedtick = tick,
    cursor = { line = row, character = H.character(H.line(buf, row), col + 1) },
    mode = mode,
    selection = H.selection(win, buf, live_mode),
    window = win,
    is_terminal_fallback = fallback,
  }
  if opts.lines ~= false and H.known_tick(opts.known_tick, buf) ~= tick then
    snap.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  end
  return snap
end

return M
