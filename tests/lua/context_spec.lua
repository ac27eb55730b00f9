--- context.snapshot on scratch buffers, in the Neovim that runs the specs.

--- A fresh copy of the module: no remembered windows or selections.
local function fresh()
  package.loaded['simple_brief.context'] = nil
  return require('simple_brief.context')
end

--- A listed buffer with a file name (nothing written to disk) and `lines`, shown in the
--- current window.
local function code_buffer(lines)
  local buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. '.lua')
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].filetype = 'lua'
  vim.api.nvim_set_current_buf(buf)
  return buf
end

--- A scratch (buftype=nofile) buffer shown in the current window.
local function scratch_buffer()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_set_current_buf(buf)
  return buf
end

describe('context.snapshot', function()
  before_each(function()
    vim.cmd('silent! only')
    scratch_buffer()
  end)

  after_each(function()
    vim.cmd('silent! only')
    scratch_buffer()
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if buf ~= vim.api.nvim_get_current_buf() then
        pcall(vim.api.nvim_buf_delete, buf, { force = true })
      end
    end
  end)

  it('is nil when no code window was ever used', function()
    local context = fresh()
    context.setup()
    assert.is_nil(context.snapshot())
  end)

  it('describes the current code buffer', function()
    local context = fresh()
    context.setup()
    local buf = code_buffer({ 'local x = 1', 'return x' })
    local snap = context.snapshot()
    assert.are.equal(buf, snap.buf)
    assert.are.equal(vim.api.nvim_buf_get_name(buf), snap.path)
    assert.are.equal('/', snap.path:sub(1, 1))
    assert.are.equal('lua', snap.filetype)
    assert.are.equal(2, snap.line_count)
    assert.is_true(snap.modified)
    assert.are.equal(vim.b[buf].changedtick, snap.changedtick)
    assert.are.same({ line = 1, character = 1 }, snap.cursor)
    assert.are.equal('n', snap.mode)
    assert.is_nil(snap.selection)
    assert.are.equal(vim.api.nvim_get_current_win(), snap.window)
    assert.is_false(snap.is_terminal_fallback)
    assert.are.same({ 'local x = 1', 'return x' }, snap.lines)
  end)

  it('sends the lines only when the known changedtick is stale', function()
    local context = fresh()
    local buf = code_buffer({ 'a', 'b' })
    local tick = vim.b[buf].changedtick
    assert.is_nil(context.snapshot({ known_tick = tick }).lines)
    assert.is_nil(context.snapshot({ known_tick = { [buf] = tick } }).lines)
    assert.are.same({ 'a', 'b' }, context.snapshot({ known_tick = tick - 1 }).lines)
    assert.are.same({ 'a', 'b' }, context.snapshot({ known_tick = { [buf + 1] = tick } }).lines)
    assert.is_nil(context.snapshot({ lines = false }).lines)
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, { 'changed' })
    local snap = context.snapshot({ known_tick = { [buf] = tick } })
    assert.are.same({ 'changed', 'b' }, snap.lines)
    assert.is_true(snap.changedtick > tick)
  end)

  it('counts the cursor column in characters, not bytes', function()
    local context = fresh()
    code_buffer({ 'x = "é😀z"' })
    vim.api.nvim_win_set_cursor(0, { 1, #'x = "é😀' })
    assert.are.same({ line = 1, character = 8 }, context.snapshot().cursor)
  end)

  it('reports the last selection made in the buffer', function()
    local context = fresh()
    context.setup()
    code_buffer({ 'one', 'twö three', 'four' })
    -- From the space after `twö` (virtual column 4) to `u` of `four`.
    vim.cmd('normal! 2G4|vjh\27')
    local sel = context.snapshot().selection
    assert.are.same({
      mode = 'v',
      start = { line = 2, character = 4 },
      ['end'] = { line = 3, character = 3 },
      text = ' three\nfou',
      live = false,
    }, sel)
    vim.cmd('normal! 1GVj\27')
    sel = context.snapshot().selection
    assert.are.equal('V', sel.mode)
    assert.are.equal('one\ntwö three', sel.text)
    assert.are.same({ line = 2, character = 9 }, sel['end'])
  end)

  it('falls back to the last code window from a scratch window', function()
    local context = fresh()
    context.setup()
    local buf = code_buffer({ 'alpha', 'beta' })
    local code_win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_cursor(code_win, { 2, 2 })
    vim.cmd('normal! 1G0vl\27')
    vim.api.nvim_win_set_cursor(code_win, { 2, 2 })
    vim.cmd('split')
    scratch_buffer()
    local snap = context.snapshot()
    assert.are.equal(buf, snap.buf)
    assert.are.equal(code_win, snap.window)
    assert.is_true(snap.is_terminal_fallback)
    assert.are.same({ line = 2, character = 3 }, snap.cursor)
    assert.are.equal('al', snap.selection.text)
  end)

  it('does not report a selection from another buffer', function()
    local context = fresh()
    context.setup()
    code_buffer({ 'first' })
    vim.cmd('normal! v$\27')
    code_buffer({ 'second' })
    assert.is_nil(context.snapshot().selection)
  end)
end)
