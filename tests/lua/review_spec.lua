--- review.lua in the Neovim that runs the specs: proposals on real files (temporary ones),
--- hand-built as the engine sends them (issue 29's contract).

local review = require('simple_brief.review')
local ns = review.ns

--- A fresh copy of the module: no proposals from the specs before.
local function fresh()
  package.loaded['simple_brief.review'] = nil
  review = require('simple_brief.review')
end

local FILE = {
  'def a():',
  '    return 1',
  '',
  'def b():',
  '    return 2',
  '',
  'def c():',
  '    return 3',
}

local counter = 0

--- A real file with FILE's lines, not loaded in any buffer yet. Returns its path.
local function file(lines)
  counter = counter + 1
  local path = vim.fn.tempname() .. '_' .. counter .. '.py'
  vim.fn.writefile(lines or FILE, path)
  return path
end

local function buf_of(path)
  return vim.fn.bufnr(path)
end

local function lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

--- Two hunks: hunk 1 changes a()'s body, hunk 2 deletes c()'s body line and adds two.
local function two_hunks(path, id, tick)
  return {
    id = id or 'r1',
    path = path,
    title = 'return more',
    tick = tick,
    hunks = {
      { n = 1, start = 2, old = { '    return 1' }, new = { '    x = 1', '    return x' }, symbol = 'Function:a' },
      { n = 2, start = 8, old = { '    return 3' }, new = { '    return 30', '    # done' }, symbol = 'Function:c' },
    },
  }
end

local function marks(buf)
  return vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })
end

--- The rows (0-based) that carry a sign of the review, in order (a sign on a mark that
--- spans rows shows on each of them).
local function sign_rows(buf)
  local rows = {}
  for _, m in ipairs(marks(buf)) do
    if m[4].sign_text then
      for row = m[2], m[4].end_row or m[2] do
        rows[#rows + 1] = row
      end
    end
  end
  table.sort(rows)
  return rows
end

local function virt_lines_text(buf)
  local out = {}
  for _, m in ipairs(marks(buf)) do
    for _, vl in ipairs(m[4].virt_lines or {}) do
      out[#out + 1] = { row = m[2], text = vim.trim(vl[1][1]), group = vl[1][2], above = m[4].virt_lines_above }
    end
  end
  return out
end

local function show(buf)
  vim.api.nvim_set_current_buf(buf)
end

--- What `fn` said through vim.notify, in order.
local function messages(fn)
  local said, notify = {}, vim.notify
  vim.notify = function(message)
    said[#said + 1] = message
  end
  local ok, err = pcall(fn)
  vim.notify = notify
  assert(ok, err)
  return said
end

describe('review.propose', function()
  before_each(function()
    fresh()
    vim.cmd('silent! only')
    vim.cmd('enew!')
  end)

  after_each(function()
    for _, p in ipairs(review.list()) do
      review.withdraw(p.id)
    end
    vim.cmd('enew!')
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if buf ~= vim.api.nvim_get_current_buf() then
        pcall(vim.api.nvim_buf_delete, buf, { force = true })
      end
    end
  end)

  it(
    'shows each hunk inline without changing the text: removed lines highlighted, added ones virtual, one sign per hunk',
    function()
      local path = file()
      local res = review.propose(two_hunks(path))
      assert.is_true(res.ok)
      local buf = res.buf
      assert.are.equal(buf_of(path), buf)
      assert.are.same(FILE, lines(buf))
      assert.is_false(vim.bo[buf].modified)
      assert.are.same({ 1, 7 }, sign_rows(buf))
      local removed = {}
      for _, m in ipairs(marks(buf)) do
        if m[4].line_hl_group then
          removed[#removed + 1] = { m[2], m[4].end_row, m[4].line_hl_group }
        end
      end
      assert.are.same({ { 1, 1, 'SimpleBriefReviewDelete' }, { 7, 7, 'SimpleBriefReviewDelete' } }, removed)
      assert.are.same({
        { row = 1, text = 'x = 1', group = 'SimpleBriefReviewAdd', above = false },
        { row = 1, text = 'return x', group = 'SimpleBriefReviewAdd', above = false },
        { row = 7, text = 'return 30', group = 'SimpleBriefReviewAdd', above = false },
        { row = 7, text = '# done', group = 'SimpleBriefReviewAdd', above = false },
      }, virt_lines_text(buf))
      local hl = vim.api.nvim_get_hl(0, { name = 'SimpleBriefReviewAdd' })
      assert.are.equal('DiffAdd', hl.link)
      assert.are.same(
        { { id = 'r1', path = path, title = 'return more', hunks = 2, pending = 2, conflicts = 0 } },
        review.list()
      )
    end
  )

  it('puts one sign on a hunk of several lines, and highlights each of its lines', function()
    local path = file()
    local buf = review.propose({
      id = 'r1',
      path = path,
      hunks = { { n = 1, start = 4, old = { 'def b():', '    return 2', '' }, new = { 'def b(): return 2' } } },
    }).buf
    assert.are.same({ 3 }, sign_rows(buf))
    local hl = vim.tbl_filter(function(m)
      return m[4].line_hl_group ~= nil
    end, marks(buf))
    assert.are.same({ { 3, 5 } }, { { hl[1][2], hl[1][4].end_row } })
  end)

  it('accepting hunk 1 puts its lines in the buffer and leaves the file on disk as it was', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    assert.is_true(review.accept('r1', 1))
    local want = vim.deepcopy(FILE)
    table.remove(want, 2)
    table.insert(want, 2, '    x = 1')
    table.insert(want, 3, '    return x')
    assert.are.same(want, lines(buf))
    assert.is_true(vim.bo[buf].modified)
    assert.are.same(FILE, vim.fn.readfile(path))
    -- Hunk 2 still shows, one line lower.
    assert.are.same({ 8 }, sign_rows(buf))
    local st = review.status('r1')
    assert.are.same({ 'accepted', 'pending' }, { st.hunks[1].state, st.hunks[2].state })
  end)

  it('rejecting hunk 2 removes its marks and keeps its text', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    assert.is_true(review.reject('r1', 2))
    assert.are.same(FILE, lines(buf))
    assert.are.same({ 1 }, sign_rows(buf))
    for _, m in ipairs(marks(buf)) do
      assert.is_true(m[2] < 3, 'a mark is left at row ' .. m[2])
    end
    assert.are.equal('rejected', review.status('r1').hunks[2].state)
  end)

  it("moves a hunk with the person's typing above it, and applies it where it went", function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    vim.api.nvim_buf_set_lines(buf, 0, 0, false, { 'import os', 'import sys' })
    assert.are.same({ 3, 9 }, sign_rows(buf))
    assert.is_true(review.accept('r1', 2))
    local got = lines(buf)
    assert.are.same({ '    return 30', '    # done' }, { got[10], got[11] })
    assert.are.equal('    return 1', got[4])
  end)

  it('makes a hunk whose lines the person changed a conflict on accept, not applied', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    vim.api.nvim_buf_set_lines(buf, 1, 2, false, { '    return 100' })
    local ok, message = review.accept('r1', 1)
    assert.is_false(ok)
    assert.truthy(message:find('conflict', 1, true), message)
    assert.are.equal('    return 100', lines(buf)[2])
    local st = review.status('r1')
    assert.are.equal('conflict', st.hunks[1].state)
    -- Still reviewable: the sign says conflict; rejecting ends it with the person's text.
    assert.are.same({ 1, 7 }, sign_rows(buf))
    assert.is_true(review.reject('r1', 1))
    assert.are.equal('    return 100', lines(buf)[2])
  end)

  it('status returns the hunk states, the buffer lines, eol and the changedtick', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    review.accept('r1', 1)
    review.reject('r1', 2)
    local st = review.status('r1')
    assert.are.equal('r1', st.id)
    assert.are.equal(path, st.path)
    assert.are.same({ { n = 1, state = 'accepted' }, { n = 2, state = 'rejected' } }, {
      { n = st.hunks[1].n, state = st.hunks[1].state },
      { n = st.hunks[2].n, state = st.hunks[2].state },
    })
    assert.are.same(lines(buf), st.lines)
    assert.is_true(st.eol)
    assert.are.equal(vim.b[buf].changedtick, st.tick)
    assert.is_nil(review.status('r404'))
    assert.are.same({}, review.list())
  end)

  it('answers stale with the tick now when the buffer changed since the engine read it', function()
    local path = file()
    local buf = vim.fn.bufadd(path)
    vim.fn.bufload(buf)
    local tick = vim.b[buf].changedtick
    vim.api.nvim_buf_set_lines(buf, 2, 3, false, { '# the person typed' })
    local res = review.propose(two_hunks(path, 'r1', tick))
    assert.are.same({ ok = false, stale = true, tick = vim.b[buf].changedtick }, res)
    assert.are.same({}, marks(buf))
    assert.is_nil(review.status('r1'))
    -- With the tick of now it shows.
    assert.is_true(review.propose(two_hunks(path, 'r1', vim.b[buf].changedtick)).ok)
  end)

  it('answers stale when the file was read from disk but the buffer has unsaved changes', function()
    local path = file()
    local buf = vim.fn.bufadd(path)
    vim.fn.bufload(buf)
    vim.api.nvim_buf_set_lines(buf, 2, 3, false, { '# unsaved' })
    assert.is_true(review.propose(two_hunks(path)).stale)
  end)

  it('has ]h and [h in the buffer only while a review is pending there', function()
    local path = file()
    local other = vim.api.nvim_get_current_buf()
    local buf = review.propose(two_hunks(path)).buf
    show(buf)
    assert.are.equal(1, vim.fn.maparg(']h', 'n', false, true).buffer)
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.cmd('normal ]h')
    assert.are.equal(2, vim.fn.line('.'))
    vim.cmd('normal ]h')
    assert.are.equal(8, vim.fn.line('.'))
    vim.cmd('normal [h')
    assert.are.equal(2, vim.fn.line('.'))
    show(other)
    assert.are.same({}, vim.fn.maparg(']h', 'n', false, true))
    review.accept('r1', 1)
    review.reject('r1', 2)
    show(buf)
    assert.are.same({}, vim.fn.maparg(']h', 'n', false, true))
    assert.are.same({}, vim.fn.maparg('[h', 'n', false, true))
  end)

  it("gives back the person's own buffer-local ]h after the review", function()
    local path = file()
    local buf = vim.fn.bufadd(path)
    vim.fn.bufload(buf)
    show(buf)
    vim.keymap.set('n', ']h', '<Cmd>let g:mine = 1<CR>', { buffer = buf })
    review.propose(two_hunks(path))
    assert.are.equal('simple-brief: next hunk of the pending review', vim.fn.maparg(']h', 'n', false, true).desc)
    review.withdraw('r1')
    assert.are.equal('<Cmd>let g:mine = 1<CR>', vim.fn.maparg(']h', 'n', false, true).rhs)
  end)

  it('refuses to accept a conflict hunk until the person edits it; then accept keeps their edit', function()
    local path = file()
    local p = two_hunks(path)
    p.hunks[1].conflict = true
    local buf = review.propose(p).buf
    assert.are.equal('conflict', review.status('r1').hunks[1].state)
    local ok, message = review.accept('r1', 1)
    assert.is_false(ok)
    assert.truthy(message:find('edit its lines by hand', 1, true), message)
    assert.are.same(FILE, lines(buf))
    vim.api.nvim_buf_set_lines(buf, 1, 2, false, { '    return 11' })
    assert.is_true(review.accept('r1', 1))
    local st = review.status('r1')
    assert.are.equal('accepted', st.hunks[1].state)
    assert.are.equal('resolved by hand', st.hunks[1].reason)
    assert.are.equal('    return 11', st.lines[2])
  end)

  it('replaces a pending proposal for the same file: the old one is superseded', function()
    local path = file()
    local buf = review.propose(two_hunks(path, 'r1')).buf
    local p2 = two_hunks(path, 'r2')
    table.remove(p2.hunks, 1)
    assert.is_true(review.propose(p2).ok)
    local st = review.status('r1')
    assert.are.same({ 'rejected', 'rejected' }, { st.hunks[1].state, st.hunks[2].state })
    assert.are.equal('superseded', st.hunks[1].reason)
    assert.are.same({ 7 }, sign_rows(buf))
    assert.are.same(
      { 'r2' },
      vim.tbl_map(function(e)
        return e.id
      end, review.list())
    )
  end)

  it('withdraw removes the marks and leaves the text', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    assert.is_true(review.withdraw('r1'))
    assert.are.same({}, marks(buf))
    assert.are.same(FILE, lines(buf))
    assert.is_false(review.withdraw('r1'))
    assert.is_false(review.withdraw('nope'))
    assert.are.equal('withdrawn', review.status('r1').hunks[1].reason)
  end)

  it('ends the review when the buffer is unloaded, its text as it was', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    vim.api.nvim_buf_call(buf, function()
      vim.cmd('edit!')
    end)
    local st = review.status('r1')
    assert.are.same({ 'rejected', 'rejected' }, { st.hunks[1].state, st.hunks[2].state })
    assert.truthy(st.hunks[1].reason:find('unloaded', 1, true), st.hunks[1].reason)
    assert.are.same({}, review.list())
    assert.are.same(FILE, st.lines)
  end)

  it('inserts before line start, and after the last line when start is the line count + 1', function()
    local path = file()
    local buf = review.propose({
      id = 'r1',
      path = path,
      hunks = {
        { n = 1, start = 1, old = {}, new = { 'import os' }, symbol = '' },
        { n = 2, start = 9, old = {}, new = { '', 'def d():', '    return 4' }, symbol = '' },
      },
    }).buf
    local vl = virt_lines_text(buf)
    assert.are.same({ 0, true }, { vl[1].row, vl[1].above })
    assert.are.same({ 7, false }, { vl[2].row, vl[2].above })
    assert.is_true(review.accept('r1'))
    local want = vim.list_extend({ 'import os' }, FILE)
    vim.list_extend(want, { '', 'def d():', '    return 4' })
    assert.are.same(want, lines(buf))
  end)

  it("draws the added lines from a window's left edge with + in the sign column, once shown there", function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    assert.are.equal('x = 1', virt_lines_text(buf)[1].text)
    vim.wo.number = true
    vim.wo.signcolumn = 'yes'
    show(buf)
    local textoff = vim.fn.getwininfo(vim.api.nvim_get_current_win())[1].textoff
    local mark = vim.tbl_filter(function(m)
      return m[4].virt_lines ~= nil
    end, marks(buf))[1]
    assert.is_true(mark[4].virt_lines_leftcol)
    local text = mark[4].virt_lines[1][1][1]
    assert.are.equal('+' .. string.rep(' ', textoff - 1) .. '    x = 1', text:sub(1, textoff + 9))
  end)

  it("keeps its highlight links through a colorscheme, and the person's own links", function()
    vim.cmd.colorscheme('default')
    assert.are.equal('DiffAdd', vim.api.nvim_get_hl(0, { name = 'SimpleBriefReviewAdd' }).link)
    vim.api.nvim_set_hl(0, 'SimpleBriefReviewDelete', { link = 'ErrorMsg' })
    require('simple_brief.review_marks').define_highlights()
    assert.are.equal('ErrorMsg', vim.api.nvim_get_hl(0, { name = 'SimpleBriefReviewDelete' }).link)
    vim.cmd.colorscheme('default')
  end)

  it('tells of a proposal in one screen line (no hit-enter prompt while the person works)', function()
    local columns = vim.o.columns
    vim.o.columns = 60
    local room = vim.v.echospace
    local ok, err
    local said = messages(function()
      ok, err = pcall(review.propose, two_hunks(file()))
    end)
    vim.o.columns = columns
    assert.is_true(ok, err)
    assert.are.equal(1, #said)
    assert.is_true(vim.fn.strdisplaywidth(said[1]) <= room, said[1])
    assert.truthy(said[1]:find('^simple%-brief: r1 proposes 2 hunks'), said[1])
  end)

  it('fills an empty file with the lines of its one hunk (no empty line left after them)', function()
    for _, path in ipairs({ file({}), vim.fn.tempname() .. '_new.py' }) do
      local buf = review.propose({
        id = 'r1',
        path = path,
        hunks = { { n = 1, start = 1, old = {}, new = { 'x = 1', 'y = 2' } } },
      }).buf
      assert.is_true(review.accept('r1'))
      assert.are.same({ 'x = 1', 'y = 2' }, lines(buf))
    end
  end)

  it("says so when the buffer is not 'modifiable', and the hunk stays to accept later", function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    vim.bo[buf].modifiable = false
    local ok, message = review.accept('r1', 1)
    assert.is_false(ok)
    assert.truthy(message:find("not 'modifiable'", 1, true), message)
    assert.are.equal('pending', review.status('r1').hunks[1].state)
    vim.bo[buf].modifiable = true
    assert.is_true(review.accept('r1', 1))
  end)

  it('says in one sentence what is wrong with a bad proposal', function()
    local cases = {
      { nil, 'takes a table' },
      { { id = 'r1', path = 'rel.py', hunks = {} }, 'absolute path' },
      { { id = 'r1', path = '/x.py', hunks = {} }, 'non-empty list' },
      { { id = 'r1', path = vim.fn.tempname():match('^(.*)/'), hunks = {} }, 'is a directory' },
      { { id = 'r1', path = '/x.py', hunks = { { start = 0, old = {}, new = { 'a' } } } }, 'start line' },
      { { id = 'r1', path = '/x.py', hunks = { { start = 1, old = { 'a\nb' }, new = {} } } }, 'without newlines' },
      {
        {
          id = 'r1',
          path = '/x.py',
          hunks = { { start = 3, old = { 'a', 'b' }, new = {} }, { start = 4, old = { 'b' }, new = {} } },
        },
        'overlaps',
      },
    }
    for _, case in ipairs(cases) do
      local res = review.propose(case[1])
      assert.is_false(res.ok)
      assert.truthy(res.error:find(case[2], 1, true), res.error)
    end
    assert.are.same({ false, 'no proposal "r9"' }, { review.accept('r9') })
  end)
end)

describe(':SimpleBriefReview', function()
  setup(function()
    if vim.fn.exists(':SimpleBriefReview') ~= 2 then
      vim.cmd.runtime('plugin/simple_brief.lua')
    end
  end)

  before_each(fresh)

  after_each(function()
    for _, p in ipairs(review.list()) do
      review.withdraw(p.id)
    end
    vim.cmd('cclose')
    vim.cmd('enew!')
  end)

  it('accepts the hunk under the cursor, then rejects all', function()
    local path = file()
    local buf = review.propose(two_hunks(path)).buf
    show(buf)
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    vim.cmd('SimpleBriefReview accept')
    assert.are.equal('    x = 1', lines(buf)[2])
    vim.cmd('SimpleBriefReview reject all')
    local st = review.status('r1')
    assert.are.same({ 'accepted', 'rejected' }, { st.hunks[1].state, st.hunks[2].state })
  end)

  it('completes accept|reject, then all', function()
    assert.are.same({ 'accept', 'reject' }, vim.fn.getcompletion('SimpleBriefReview ', 'cmdline'))
    assert.are.same({ 'reject' }, vim.fn.getcompletion('SimpleBriefReview re', 'cmdline'))
    assert.are.same({ 'all' }, vim.fn.getcompletion('SimpleBriefReview accept ', 'cmdline'))
  end)

  it('says how to use it when the words are wrong, and changes nothing', function()
    local buf
    local said = messages(function()
      buf = review.propose(two_hunks(file())).buf
      show(buf)
      vim.api.nvim_win_set_cursor(0, { 2, 0 })
      vim.cmd('SimpleBriefReview acept')
      vim.api.nvim_win_set_cursor(0, { 4, 0 })
      vim.cmd('SimpleBriefReview accept')
    end)
    assert.truthy(said[2]:find('use :SimpleBriefReview, :SimpleBriefReview accept [all]', 1, true), said[2])
    assert.truthy(said[3]:find('no hunk of r1 under the cursor', 1, true), said[3])
    assert.are.same(FILE, lines(buf))
  end)

  it('lists the pending hunks in the quickfix list', function()
    local path = file()
    review.propose(two_hunks(path))
    vim.cmd('SimpleBriefReview')
    local qf = vim.fn.getqflist({ title = 1, items = 1 })
    assert.are.equal('simple-brief review', qf.title)
    assert.are.same({ 2, 8 }, { qf.items[1].lnum, qf.items[2].lnum })
    assert.are.equal('r1 hunk 1/2 pending in Function:a — return more', qf.items[1].text)
    -- Deciding a hunk updates the list; another list of the person's is left alone.
    review.accept('r1', 1)
    assert.are.same(
      { 9 },
      vim.tbl_map(function(i)
        return i.lnum
      end, vim.fn.getqflist())
    )
    vim.fn.setqflist({}, ' ', { title = 'grep', items = { { filename = 'x', lnum = 1, text = 'mine' } } })
    review.reject('r1', 2)
    assert.are.equal('mine', vim.fn.getqflist()[1].text)
  end)
end)
