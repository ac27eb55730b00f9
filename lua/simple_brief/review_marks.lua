--- How a review's hunks look and where they are (review.lua holds the proposals): an
--- extmark tracks each hunk's lines as the person types, and others draw it: the removed
--- lines highlighted, the added ones as virtual lines, one sign and a label.
local M = {}

local H = {}

M.ns = vim.api.nvim_create_namespace('simple_brief_review')

M.highlights = {
  SimpleBriefReviewAdd = 'DiffAdd',
  SimpleBriefReviewDelete = 'DiffDelete',
  SimpleBriefReviewChange = 'DiffChange',
  SimpleBriefReviewConflict = 'DiffText',
  SimpleBriefReviewLabel = 'Comment',
}

--- Link the review's highlight groups to the diff groups, unless the person set them.
function M.define_highlights()
  for name, link in pairs(M.highlights) do
    vim.api.nvim_set_hl(0, name, { link = link, default = true })
  end
end

-- Default links outlive :colorscheme (its :hi clear restores them): set once.
M.define_highlights()

--- 0-based first and last row of a hunk's lines now (last < first for an insertion), or nil
--- when its mark is gone.
---@param buf integer
---@param hunk simple_brief.ReviewHunk
---@return integer|nil first, integer|nil last
function M.rows(buf, hunk)
  if not hunk.track then
    return nil, nil
  end
  local mark = vim.api.nvim_buf_get_extmark_by_id(buf, M.ns, hunk.track, { details = true })
  if not mark[1] then
    return nil, nil
  end
  if #hunk.old == 0 then
    return mark[1], mark[1] - 1
  end
  -- Lines replaced whole can push the start past the end: the rows between are the hunk's.
  return math.min(mark[1], mark[3].end_row), math.max(mark[1], mark[3].end_row)
end

--- Whether the buffer's lines at the hunk's rows are exactly `lines`.
---@param buf integer
---@param hunk simple_brief.ReviewHunk
---@param lines string[]
---@return boolean
function M.lines_equal(buf, hunk, lines)
  local first, last = M.rows(buf, hunk)
  if not first then
    return false
  end
  if #lines == 0 then
    return true
  end
  local now = vim.api.nvim_buf_get_lines(buf, first, last + 1, false)
  return vim.deep_equal(now, lines)
end

--- Remove a hunk's sign, label and virtual lines (its tracking mark stays).
---@param buf integer
---@param hunk simple_brief.ReviewHunk
function M.clear_decor(buf, hunk)
  for _, id in ipairs(hunk.decor or {}) do
    pcall(vim.api.nvim_buf_del_extmark, buf, M.ns, id)
  end
  hunk.decor = {}
end

--- Remove every mark of a hunk, the tracking one too.
---@param buf integer
---@param hunk simple_brief.ReviewHunk
function M.clear(buf, hunk)
  M.clear_decor(buf, hunk)
  if hunk.track then
    pcall(vim.api.nvim_buf_del_extmark, buf, M.ns, hunk.track)
    hunk.track = nil
  end
end

--- Virtual lines for `lines`, padded so the highlight reaches the window's edge.
function H.virt_lines(buf, lines, group)
  -- In a window: from its left edge, with `+` in the sign column, as a diff reads.
  local win = vim.fn.bufwinid(buf)
  local textoff = win ~= -1 and vim.fn.getwininfo(win)[1].textoff or 0
  local gutter = textoff > 0 and ('+' .. string.rep(' ', textoff - 1)) or ''
  local width = vim.o.columns
  local tab = string.rep(' ', vim.bo[buf].tabstop)
  local out = {}
  for _, line in ipairs(lines) do
    local text = gutter .. line:gsub('\t', tab)
    local pad = math.max(0, width - vim.fn.strdisplaywidth(text))
    out[#out + 1] = { { text .. string.rep(' ', pad), group } }
  end
  return out, textoff > 0
end

--- (Re)draw a hunk's sign, label and virtual lines at its tracked rows.
---@param p simple_brief.Proposal
---@param hunk simple_brief.ReviewHunk
function M.draw(p, hunk)
  local buf = p.buf
  M.clear_decor(buf, hunk)
  local first, last = M.rows(buf, hunk)
  if not first or (hunk.state ~= 'pending' and hunk.state ~= 'conflict') then
    return
  end
  local conflict = hunk.state == 'conflict'
  local sign, sign_group
  if conflict then
    sign, sign_group = '!', 'SimpleBriefReviewConflict'
  elseif #hunk.old == 0 then
    sign, sign_group = '+', 'SimpleBriefReviewAdd'
  elseif #hunk.new == 0 then
    sign, sign_group = '-', 'SimpleBriefReviewDelete'
  else
    sign, sign_group = '~', 'SimpleBriefReviewChange'
  end
  local label = ('%s hunk %d/%d%s%s'):format(
    p.id,
    hunk.n,
    #p.hunks,
    hunk.symbol ~= '' and (' in ' .. hunk.symbol) or '',
    conflict and (' CONFLICT: ' .. (hunk.reason or 'your lines differ')) or ''
  )
  local decor = {}
  decor[#decor + 1] = vim.api.nvim_buf_set_extmark(buf, M.ns, first, 0, {
    sign_text = sign,
    sign_hl_group = sign_group,
    virt_text = { { ' ' .. label, 'SimpleBriefReviewLabel' } },
    priority = 200,
  })
  if #hunk.old > 0 then
    decor[#decor + 1] = vim.api.nvim_buf_set_extmark(buf, M.ns, first, 0, {
      end_row = last,
      end_col = 0,
      line_hl_group = conflict and 'SimpleBriefReviewConflict' or 'SimpleBriefReviewDelete',
      priority = 200,
    })
  end
  if #hunk.new > 0 then
    local below = #hunk.old > 0 or hunk.after
    local virt_lines, leftcol = H.virt_lines(buf, hunk.new, 'SimpleBriefReviewAdd')
    decor[#decor + 1] = vim.api.nvim_buf_set_extmark(buf, M.ns, below and math.max(last, first) or first, 0, {
      virt_lines = virt_lines,
      virt_lines_leftcol = leftcol,
      virt_lines_above = not below,
      priority = 200,
    })
  end
  hunk.decor = decor
end

--- The extmark that tracks a hunk's lines: over `old` (a line opened above it pushes its
--- start down; its end stays on the last line's end, so a line opened below stays outside),
--- or a point where an insertion goes (before that line; after the last line when appended).
---@param buf integer
---@param hunk simple_brief.ReviewHunk
---@return integer id, boolean after
function M.track(buf, hunk)
  local count = vim.api.nvim_buf_line_count(buf)
  local row = hunk.start - 1
  if #hunk.old == 0 then
    if row >= count then
      local last = vim.api.nvim_buf_get_lines(buf, count - 1, count, false)[1]
      return vim.api.nvim_buf_set_extmark(buf, M.ns, count - 1, #last, {}), true
    end
    return vim.api.nvim_buf_set_extmark(buf, M.ns, row, 0, {}), false
  end
  local last_row = row + #hunk.old - 1
  local last = vim.api.nvim_buf_get_lines(buf, last_row, last_row + 1, false)[1]
  return vim.api.nvim_buf_set_extmark(buf, M.ns, row, 0, {
    end_row = last_row,
    end_col = #last,
    end_right_gravity = false,
  }),
    false
end

return M
