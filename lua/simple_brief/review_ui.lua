--- The person's side of a review: `:SimpleBriefReview` (the quickfix list of the pending
--- hunks, accept|reject [all]) and `]h`/`[h`. The proposals live in review.lua.
local M = {}

local H = {}

--- review.lua, asked each time (a spec may load a fresh copy of it).
local function review()
  return require('simple_brief.review')
end

--- Move the cursor to the next (`dir` 1) or previous (-1) open hunk of the current buffer.
---@param dir 1|-1
---@return boolean moved
function M.jump(dir)
  local buf = vim.api.nvim_get_current_buf()
  local _, hunks = review().open_hunks(buf)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local target
  for i = dir == 1 and 1 or #hunks, dir == 1 and #hunks or 1, dir do
    local first = hunks[i].first
    if (dir == 1 and first > row) or (dir == -1 and first < row) then
      target = first
      break
    end
  end
  if not target then
    return false
  end
  vim.cmd("normal! m'")
  vim.api.nvim_win_set_cursor(0, { target + 1, 0 })
  return true
end

--- The open hunk under the cursor of the current window (its lines, or its anchor line).
---@return simple_brief.Proposal|nil, simple_brief.ReviewHunk|nil
function M.hunk_at_cursor()
  local buf = vim.api.nvim_get_current_buf()
  local p, hunks = review().open_hunks(buf)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, item in ipairs(hunks) do
    if row >= item.first and row <= item.last then
      return p, item.hunk
    end
  end
  return p, nil
end

H.qf_title = 'simple-brief review'

--- The quickfix items of the pending hunks, in proposal and line order.
---@return table[]
function H.qf_items()
  local items = {}
  for _, entry in ipairs(review().list()) do
    local p = review().proposal(entry.id)
    local _, hunks = review().open_hunks(p.buf)
    for _, item in ipairs(hunks) do
      local h = item.hunk
      items[#items + 1] = {
        bufnr = p.buf,
        lnum = item.first + 1,
        text = ('%s hunk %d/%d %s%s%s'):format(
          p.id,
          h.n,
          #p.hunks,
          h.state,
          h.symbol ~= '' and (' in ' .. h.symbol) or '',
          p.title and (' — ' .. p.title) or ''
        ),
      }
    end
  end
  return items
end

--- Put the pending hunks in the quickfix list and open it (<CR> jumps to a hunk).
---@return integer entries
function M.quickfix()
  local items = H.qf_items()
  vim.fn.setqflist({}, ' ', { title = H.qf_title, items = items })
  if #items > 0 then
    vim.cmd('copen')
  end
  return #items
end

--- When the current quickfix list is the review's, bring it up to date (hunks decided,
--- proposals come or gone).
function M.refresh_quickfix()
  local info = vim.fn.getqflist({ title = 0, id = 0 })
  if info.title == H.qf_title then
    pcall(vim.fn.setqflist, {}, 'r', { id = info.id, title = H.qf_title, items = H.qf_items() })
  end
end

--- :SimpleBriefReview [accept|reject [all]]
---@param args {fargs: string[]}
function M.command(args)
  local action, scope = args.fargs[1], args.fargs[2]
  local function say(message, level)
    vim.notify('simple-brief: ' .. message, level or vim.log.levels.INFO)
  end
  if action == nil then
    if M.quickfix() == 0 then
      say('no pending review')
    end
    return
  end
  if (action ~= 'accept' and action ~= 'reject') or (scope ~= nil and scope ~= 'all') or #args.fargs > 2 then
    say(
      'use :SimpleBriefReview, :SimpleBriefReview accept [all] or :SimpleBriefReview reject [all]',
      vim.log.levels.ERROR
    )
    return
  end
  local p, hunk = M.hunk_at_cursor()
  if not p then
    say('no pending review in this buffer; :SimpleBriefReview lists them', vim.log.levels.WARN)
    return
  end
  if scope ~= 'all' and not hunk then
    say(('no hunk of %s under the cursor; ]h and [h move between them, or add "all"'):format(p.id), vim.log.levels.WARN)
    return
  end
  local ok, message = review()[action](p.id, scope ~= 'all' and hunk and hunk.n or nil)
  if not ok then
    say(message, vim.log.levels.WARN)
  end
end

return M
