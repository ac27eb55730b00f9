-- A recording double of the Neovim side of the issue-29 contract (BRIEF29_CONTRACT.md), for
-- the engine's tests only: it records every `propose(p)` / `show(s)` the engine sends so the
-- test checks them field by field, and answers as the contract says (`stale` when the
-- buffer's changedtick moved, `waiting` in insert mode). The person's decisions are set by
-- the test (`decide`). The real lua/simple_brief/review.lua and show.lua are driven by
-- tests/mcp/test_review_round.py, once they are on the branch.
local M = { proposals = {}, sent = {}, shows = {}, status_calls = 0, stale_once = false }

local function buffer_of(path)
  local buf = vim.fn.bufadd(path)
  vim.fn.bufload(buf)
  return buf
end

M.review = {
  propose = function(p)
    table.insert(M.sent, vim.deepcopy(p))
    local buf = buffer_of(p.path)
    local tick = vim.api.nvim_buf_get_changedtick(buf)
    if M.stale_once or (p.tick ~= nil and p.tick ~= vim.NIL and p.tick ~= tick) then
      M.stale_once = false
      return { ok = false, stale = true, tick = tick }
    end
    local states = {}
    for _, h in ipairs(p.hunks) do
      states[h.n] = h.conflict and 'conflict' or 'pending'
    end
    M.proposals[p.id] = { p = p, buf = buf, states = states }
    return { ok = true, buf = buf }
  end,
  status = function(id)
    M.status_calls = M.status_calls + 1
    if M.busy_once then -- Neovim busy past the engine's deadline, once
      M.busy_once = false
      vim.uv.sleep(M.busy_ms)
    end
    local found = M.proposals[id]
    if not found then
      return nil
    end
    local hunks = {}
    for n = 1, #found.p.hunks do
      table.insert(hunks, { n = n, state = found.states[n] })
    end
    return {
      id = id,
      path = found.p.path,
      hunks = hunks,
      lines = vim.api.nvim_buf_get_lines(found.buf, 0, -1, false),
      eol = vim.bo[found.buf].eol,
      tick = vim.api.nvim_buf_get_changedtick(found.buf),
    }
  end,
  withdraw = function(id)
    local had = M.proposals[id] ~= nil
    M.proposals[id] = nil
    return had
  end,
}

--- The person's decision on hunk `n` of proposal `id` (the test plays the person).
function M.decide(id, n, state)
  M.proposals[id].states[n] = state
end

M.show = {
  show = function(s)
    local mode = vim.api.nvim_get_mode().mode
    if mode:find('^[iR]') then
      return { shown = false, waiting = true }
    end
    table.insert(M.shows, vim.deepcopy(s))
    return { shown = true }
  end,
}

package.loaded['simple_brief.review'] = M.review
package.loaded['simple_brief.show'] = M.show
_G.review_double = M
return M
