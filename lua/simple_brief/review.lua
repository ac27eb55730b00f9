--- Review an agent's proposed edit hunk by hunk, inline in the buffer (`edit_propose`).
---
--- The buffer's text does not change until a hunk is accepted: the lines a hunk would
--- remove are highlighted in place (SimpleBriefReviewDelete), the lines it would add are
--- virtual lines below them (SimpleBriefReviewAdd), and each hunk has one sign. Every hunk is
--- anchored by an extmark over its lines, so it moves with the person's typing; a hunk whose
--- lines the person changed is a conflict on accept, never applied. Nothing here writes a file:
--- accepted hunks change the buffer and the person saves.
---
--- The engine calls propose/status/withdraw through exec_lua (docs/mcp.md, issue 29's
--- contract); the person uses list/accept/reject, and `:SimpleBriefReview` and `]h`/`[h`
--- (review_ui.lua). review_marks.lua draws and tracks the hunks.
local marks = require('simple_brief.review_marks')

local M = {}

local H = {}

M.ns = marks.ns

---@class simple_brief.ReviewHunk
---@field n integer 1-based number within the proposal
---@field start integer first line of `old` (1-based) when proposed
---@field old string[] lines the hunk removes (for a conflict: the person's lines)
---@field new string[] lines the hunk adds (for a conflict: the agent's)
---@field symbol string enclosing symbol, '' at top level
---@field state 'pending'|'accepted'|'rejected'|'conflict'
---@field reason string|nil why it is rejected or a conflict
---@field seen string[]|nil a conflict's lines when it became one (accept waits for an edit)
---@field track integer|nil extmark id over the hunk's lines (a point for an insertion)
---@field after boolean|nil an insertion after the last line (else before the mark's line)
---@field decor integer[] extmark ids of the sign, label and virtual lines

---@class simple_brief.Proposal
---@field id string
---@field path string
---@field title string|nil
---@field buf integer
---@field hunks simple_brief.ReviewHunk[]

---@type table<string, simple_brief.Proposal>
H.proposals = {}
--- The id of the proposal a buffer shows, while one is open there.
---@type table<integer, string>
H.by_buf = {}
--- Buffer-local ]h / [h mappings the person had before a review, restored after it.
---@type table<integer, table<string, table>>
H.saved_maps = {}

---@param hunk simple_brief.ReviewHunk
---@return boolean
function H.open(hunk)
  return hunk.state == 'pending' or hunk.state == 'conflict'
end

--- `v` with msgpack's nil (vim.NIL, Python's None over exec_lua) as Lua's nil, in tables too.
function H.without_nil(v)
  if v == vim.NIL then
    return nil
  end
  if type(v) ~= 'table' then
    return v
  end
  local out = {}
  for k, item in pairs(v) do
    out[k] = H.without_nil(item)
  end
  return out
end

--- A message the person did not ask for (the agent's doing), cut to one screen line so it
--- never stops them with a hit-enter prompt.
---@param message string
---@param level integer|nil
function M.tell(message, level)
  local room = math.max(20, vim.v.echospace)
  if vim.fn.strdisplaywidth(message) > room then
    message = vim.fn.strcharpart(message, 0, room - 1) .. '…'
  end
  vim.notify(message, level or vim.log.levels.INFO)
end

--- Whether `v` is a list of strings.
function H.is_lines(v)
  if type(v) ~= 'table' then
    return false
  end
  for i, s in ipairs(v) do
    if type(s) ~= 'string' or s:find('\n', 1, true) then
      return false, i
    end
  end
  return #v == vim.tbl_count(v)
end

--- One sentence on what is wrong with a proposal table, or nil.
---@return string|nil
function H.invalid(p)
  if type(p) ~= 'table' then
    return 'propose() takes a table {id, path, hunks}, got ' .. type(p)
  end
  if type(p.id) ~= 'string' or p.id == '' then
    return 'the proposal has no id (a string such as "r1")'
  end
  if type(p.path) ~= 'string' or not vim.startswith(p.path, '/') then
    return ('proposal %s: path must be an absolute path, got %s'):format(p.id, vim.inspect(p.path))
  end
  if vim.fn.isdirectory(p.path) == 1 then
    return ('proposal %s: %s is a directory, not a file'):format(p.id, p.path)
  end
  if type(p.hunks) ~= 'table' or #p.hunks == 0 then
    return ('proposal %s: hunks must be a non-empty list'):format(p.id)
  end
  local prev_end = 0
  for i, h in ipairs(p.hunks) do
    if type(h) ~= 'table' or type(h.start) ~= 'number' or h.start < 1 or h.start % 1 ~= 0 then
      return ('proposal %s: hunk %d needs a whole start line >= 1'):format(p.id, i)
    end
    if not H.is_lines(h.old or {}) or not H.is_lines(h.new or {}) then
      return ('proposal %s: hunk %d: old and new must be lists of lines without newlines'):format(p.id, i)
    end
    if #(h.old or {}) == 0 and #(h.new or {}) == 0 then
      return ('proposal %s: hunk %d changes nothing (old and new are both empty)'):format(p.id, i)
    end
    if h.start < prev_end then
      return ('proposal %s: hunk %d overlaps the one before it (hunks must be in line order)'):format(p.id, i)
    end
    prev_end = h.start + #(h.old or {})
  end
end

--- Whether the buffer's text is what the engine diffed against: the same changedtick, or
--- (read from disk, tick nil) a buffer that was not loaded or holds the file unmodified;
--- and every hunk's old lines where it says.
function H.current(buf, p, was_loaded)
  if p.tick ~= nil and p.tick ~= vim.b[buf].changedtick then
    return false
  end
  if p.tick == nil and was_loaded and vim.bo[buf].modified then
    return false
  end
  local count = vim.api.nvim_buf_line_count(buf)
  for _, h in ipairs(p.hunks) do
    local old = h.old or {}
    if h.start - 1 + #old > count or (#old == 0 and h.start > count + 1) then
      return false
    end
    if
      #old > 0 and not vim.deep_equal(vim.api.nvim_buf_get_lines(buf, h.start - 1, h.start - 1 + #old, false), old)
    then
      return false
    end
  end
  return true
end

--- Show a proposal in its file's buffer (loaded if needed, never written).
--- Returns `{ok=true, buf=N}`, `{ok=false, stale=true, tick=N}` when the buffer changed since
--- the engine read it (the engine re-reads and proposes again), or `{ok=false, error=...}`.
---@param p {id: string, path: string, title: string|nil, tick: integer|nil, hunks: table[]}
---@return table
function M.propose(p)
  p = H.without_nil(p)
  local why = H.invalid(p)
  if why then
    return { ok = false, error = why }
  end
  local buf = vim.fn.bufadd(p.path)
  local was_loaded = vim.api.nvim_buf_is_loaded(buf)
  if not was_loaded then
    local ok, err = pcall(vim.fn.bufload, buf)
    if not ok then
      return { ok = false, error = ('could not load %s: %s'):format(p.path, err) }
    end
    vim.bo[buf].buflisted = true
  end
  if not H.current(buf, p, was_loaded) then
    return { ok = false, stale = true, tick = vim.b[buf].changedtick }
  end
  local previous = H.by_buf[buf]
  if previous then
    H.finish(H.proposals[previous], 'superseded')
  end
  if H.proposals[p.id] and H.proposals[p.id].buf ~= buf then
    H.finish(H.proposals[p.id], 'superseded')
  end
  ---@type simple_brief.Proposal
  local proposal = { id = p.id, path = p.path, title = p.title, buf = buf, hunks = {} }
  for i, h in ipairs(p.hunks) do
    local hunk = {
      n = h.n or i,
      start = h.start,
      old = vim.deepcopy(h.old or {}),
      new = vim.deepcopy(h.new or {}),
      symbol = type(h.symbol) == 'string' and h.symbol or '',
      state = h.conflict and 'conflict' or 'pending',
      reason = h.conflict and 'your lines and the agent’s differ' or nil,
      decor = {},
    }
    if h.conflict then
      hunk.seen = vim.deepcopy(hunk.old)
    end
    hunk.track, hunk.after = marks.track(buf, hunk)
    proposal.hunks[#proposal.hunks + 1] = hunk
  end
  H.proposals[p.id] = proposal
  H.by_buf[buf] = p.id
  for _, hunk in ipairs(proposal.hunks) do
    marks.draw(proposal, hunk)
  end
  H.attach(buf)
  require('simple_brief.review_ui').refresh_quickfix()
  M.tell(
    ('simple-brief: %s proposes %d hunk%s in %s (:SimpleBriefReview)'):format(
      p.id,
      #proposal.hunks,
      #proposal.hunks == 1 and '' or 's',
      vim.fn.fnamemodify(p.path, ':t')
    )
  )
  return { ok = true, buf = buf }
end

--- End a proposal's review: its open hunks become rejected with `reason`, marks removed.
---@param p simple_brief.Proposal|nil
---@param reason string
function H.finish(p, reason)
  if not p then
    return
  end
  for _, hunk in ipairs(p.hunks) do
    if H.open(hunk) then
      hunk.state, hunk.reason = 'rejected', reason
    end
  end
  H.settle(p)
  require('simple_brief.review_ui').refresh_quickfix()
end

--- After a change of states: remove the marks of closed hunks, redraw the open ones, and
--- drop the buffer's keymaps when nothing is left to review.
---@param p simple_brief.Proposal
function H.settle(p)
  local open = false
  for _, hunk in ipairs(p.hunks) do
    if H.open(hunk) then
      open = true
      marks.draw(p, hunk)
    elseif hunk.track then
      marks.clear(p.buf, hunk)
    end
  end
  if not open and H.by_buf[p.buf] == p.id then
    H.by_buf[p.buf] = nil
    H.detach(p.buf)
  end
end

--- ]h / [h in the buffer while a review is pending there (the person's own mappings of
--- those keys come back afterwards).
function H.attach(buf)
  if H.saved_maps[buf] then
    return
  end
  local saved = {}
  for _, lhs in ipairs({ ']h', '[h' }) do
    local m = vim.fn.maparg(lhs, 'n', false, true)
    if m.buffer == 1 then
      saved[lhs] = m
    end
  end
  H.saved_maps[buf] = saved
  vim.keymap.set('n', ']h', function()
    require('simple_brief.review_ui').jump(1)
  end, { buffer = buf, desc = 'simple-brief: next hunk of the pending review' })
  vim.keymap.set('n', '[h', function()
    require('simple_brief.review_ui').jump(-1)
  end, { buffer = buf, desc = 'simple-brief: previous hunk of the pending review' })
end

function H.detach(buf)
  local saved = H.saved_maps[buf]
  H.saved_maps[buf] = nil
  if not saved or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  for _, lhs in ipairs({ ']h', '[h' }) do
    pcall(vim.keymap.del, 'n', lhs, { buffer = buf })
    if saved[lhs] then
      vim.api.nvim_buf_call(buf, function()
        vim.fn.mapset('n', false, saved[lhs])
      end)
    end
  end
end

H.group = vim.api.nvim_create_augroup('simple_brief_review', { clear = true })

--- A buffer unloaded (`:bd`, `:e!`) takes its marks with it: its review ends.
vim.api.nvim_create_autocmd('BufUnload', {
  group = H.group,
  callback = function(args)
    local id = H.by_buf[args.buf]
    if id then
      H.finish(H.proposals[id], 'buffer unloaded (:bdelete, :edit!)')
    end
  end,
})

--- Shown in a window (first, or another one): the virtual lines take that window's gutter.
vim.api.nvim_create_autocmd('BufWinEnter', {
  group = H.group,
  callback = function(args)
    local p = H.proposals[H.by_buf[args.buf] or '']
    if p then
      H.settle(p)
    end
  end,
})

--- Whether the buffer stands for an empty file: one empty line, and the file empty or missing.
---@param p simple_brief.Proposal
function H.empty(p)
  local buf = p.buf
  return vim.api.nvim_buf_line_count(buf) == 1
    and vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == ''
    and vim.fn.getfsize(p.path) <= 0
end

--- Apply one pending hunk (its lines must still be `old`), or mark it a conflict.
---@param p simple_brief.Proposal
---@param hunk simple_brief.ReviewHunk
---@return boolean applied, string|nil message
function H.accept_hunk(p, hunk)
  local buf = p.buf
  if hunk.state == 'conflict' then
    if marks.lines_equal(buf, hunk, hunk.seen or hunk.old) then
      return false,
        ('hunk %d is a conflict: edit its lines by hand to resolve it, then accept (keeps your edit) or reject'):format(
          hunk.n
        )
    end
    hunk.state, hunk.reason = 'accepted', 'resolved by hand'
    return true
  end
  local first, last = marks.rows(buf, hunk)
  if not first or not marks.lines_equal(buf, hunk, hunk.old) then
    local now = first and last >= first and vim.api.nvim_buf_get_lines(buf, first, last + 1, false) or {}
    hunk.state, hunk.reason, hunk.seen = 'conflict', 'you changed these lines since the proposal', now
    return false,
      ('hunk %d: you changed its lines since the proposal; it is now a conflict (not applied)'):format(hunk.n)
  end
  if not vim.bo[buf].modifiable then
    return false, ("hunk %d: the buffer is not 'modifiable'; :setlocal modifiable, then accept again"):format(hunk.n)
  end
  marks.clear(buf, hunk)
  if H.empty(p) then
    -- An empty (or new) file is one empty line in a buffer: the lines replace it.
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, hunk.new)
  elseif #hunk.old == 0 then
    local row = hunk.after and first + 1 or first
    vim.api.nvim_buf_set_lines(buf, row, row, false, hunk.new)
  else
    vim.api.nvim_buf_set_lines(buf, first, last + 1, false, hunk.new)
  end
  hunk.state = 'accepted'
  return true
end

--- The proposal `id` (its hunks and buffer), or nil.
---@param id string
---@return simple_brief.Proposal|nil
function M.proposal(id)
  return H.proposals[id]
end

--- The proposal `id`, or nil and a sentence.
function H.get(id)
  local p = H.proposals[id]
  if not p then
    return nil, ('no proposal %s'):format(vim.inspect(id))
  end
  return p
end

--- The hunks `hunk` names: that one, or every open one when nil.
---@return simple_brief.ReviewHunk[]|nil, string|nil
function H.select(p, hunk)
  if hunk == nil then
    return vim.tbl_filter(H.open, p.hunks)
  end
  for _, h in ipairs(p.hunks) do
    if h.n == hunk then
      if not H.open(h) then
        return nil, ('%s hunk %d is already %s'):format(p.id, hunk, h.state)
      end
      return { h }
    end
  end
  return nil, ('%s has no hunk %s (it has %d)'):format(p.id, vim.inspect(hunk), #p.hunks)
end

--- Decide hunk `hunk` of proposal `id` (nil: every open hunk) with `decide(p, h)`, which
--- returns false and a sentence when it could not; then redraw.
---@param decide fun(p: simple_brief.Proposal, h: simple_brief.ReviewHunk): boolean, string|nil
---@return boolean ok, string|nil message
function H.decide(id, hunk, decide)
  local p, why = H.get(id)
  if not p then
    return false, why
  end
  local hunks, err = H.select(p, hunk)
  if not hunks then
    return false, err
  end
  local problems = {}
  for _, h in ipairs(hunks) do
    local ok, message = decide(p, h)
    if not ok then
      problems[#problems + 1] = message
    end
  end
  H.settle(p)
  require('simple_brief.review_ui').refresh_quickfix()
  if #problems > 0 then
    return false, table.concat(problems, '; ')
  end
  return true
end

--- Accept hunk `hunk` of proposal `id` (nil: every open hunk): its new lines go into the
--- buffer (not saved). A hunk whose lines changed becomes a conflict instead.
---@param id string
---@param hunk integer|nil
---@return boolean ok, string|nil message
function M.accept(id, hunk)
  return H.decide(id, hunk, H.accept_hunk)
end

--- Reject hunk `hunk` of proposal `id` (nil: every open hunk): its marks go, the text stays.
---@param id string
---@param hunk integer|nil
---@return boolean ok, string|nil message
function M.reject(id, hunk)
  return H.decide(id, hunk, function(_, h)
    h.state, h.reason = 'rejected', nil
    return true
  end)
end

--- The engine's cancel: remove the proposal's marks, leave the text. False when unknown or
--- already over.
---@param id string
---@return boolean
function M.withdraw(id)
  local p = H.proposals[id]
  if not p or #vim.tbl_filter(H.open, p.hunks) == 0 then
    return false
  end
  H.finish(p, 'withdrawn')
  return true
end

--- A proposal's hunk states and the buffer's text now, or nil when `id` is unknown.
---@param id string
---@return table|nil
function M.status(id)
  local p = H.proposals[id]
  if not p then
    return nil
  end
  if not vim.api.nvim_buf_is_valid(p.buf) then
    p.buf = vim.fn.bufadd(p.path)
  end
  local buf = p.buf
  if not vim.api.nvim_buf_is_loaded(buf) then
    pcall(vim.fn.bufload, buf)
  end
  local hunks = {}
  for _, h in ipairs(p.hunks) do
    hunks[#hunks + 1] = { n = h.n, state = h.state, reason = h.reason, symbol = h.symbol }
  end
  return {
    id = p.id,
    path = p.path,
    title = p.title,
    hunks = hunks,
    lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
    eol = vim.bo[buf].eol or vim.bo[buf].fixeol,
    tick = vim.b[buf].changedtick,
  }
end

--- Proposals with hunks still to decide (pending or conflict), oldest id first.
---@return {id: string, path: string, title: string|nil, hunks: integer, pending: integer, conflicts: integer}[]
function M.list()
  local out = {}
  for _, p in pairs(H.proposals) do
    local pending, conflicts = 0, 0
    for _, h in ipairs(p.hunks) do
      pending = pending + (h.state == 'pending' and 1 or 0)
      conflicts = conflicts + (h.state == 'conflict' and 1 or 0)
    end
    if pending + conflicts > 0 then
      out[#out + 1] =
        { id = p.id, path = p.path, title = p.title, hunks = #p.hunks, pending = pending, conflicts = conflicts }
    end
  end
  table.sort(out, function(a, b)
    local na, nb = tonumber(a.id:match('%d+$')), tonumber(b.id:match('%d+$'))
    if na and nb and na ~= nb then
      return na < nb
    end
    return a.id < b.id
  end)
  return out
end

--- The open hunks of the buffer's proposal, in line order, with their rows.
---@return simple_brief.Proposal|nil, {hunk: simple_brief.ReviewHunk, first: integer, last: integer}[]
function M.open_hunks(buf)
  local p = H.proposals[H.by_buf[buf] or '']
  local out = {}
  if not p then
    return nil, out
  end
  for _, h in ipairs(p.hunks) do
    local first, last = marks.rows(buf, h)
    if H.open(h) and first then
      out[#out + 1] = { hunk = h, first = first, last = math.max(first, last) }
    end
  end
  table.sort(out, function(a, b)
    return a.first < b.first
  end)
  return p, out
end

return M
