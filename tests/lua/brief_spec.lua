local brief = require('simple_brief.brief')

describe('brief.diagnostic_counts', function()
  local buf, ns
  local S = vim.diagnostic.severity

  before_each(function()
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(('x\n'):rep(10), '\n'))
    ns = vim.api.nvim_create_namespace('simple_brief_spec')
  end)

  after_each(function()
    vim.diagnostic.reset(ns, buf)
    vim.api.nvim_buf_delete(buf, { force = true })
  end)

  local function set(list)
    local diags = {}
    for i, d in ipairs(list) do
      diags[i] = { lnum = d[1], col = 0, severity = d[2], message = 'm' .. i }
    end
    vim.diagnostic.set(ns, buf, diags)
  end

  it('is empty without diagnostics', function()
    assert.are.equal('', brief.diagnostic_counts(buf, 1, 10))
  end)

  it('counts by severity in E W I H order', function()
    set({ { 0, S.HINT }, { 1, S.ERROR }, { 2, S.WARN }, { 2, S.ERROR }, { 3, S.INFO } })
    assert.are.equal('E2 W1 I1 H1', brief.diagnostic_counts(buf, 1, 4))
  end)

  it('counts only the lines between first and last, both included (1-based)', function()
    set({ { 0, S.ERROR }, { 4, S.WARN }, { 5, S.WARN }, { 6, S.INFO }, { 9, S.ERROR } })
    assert.are.equal('W2 I1', brief.diagnostic_counts(buf, 5, 7))
    assert.are.equal('E1', brief.diagnostic_counts(buf, 1, 1))
    assert.are.equal('E1', brief.diagnostic_counts(buf, 10, 10))
    assert.are.equal('', brief.diagnostic_counts(buf, 2, 4))
  end)

  it('adds up diagnostics from every namespace', function()
    set({ { 1, S.ERROR } })
    local other = vim.api.nvim_create_namespace('simple_brief_spec_other')
    vim.diagnostic.set(other, buf, { { lnum = 1, col = 0, severity = S.ERROR, message = 'o' } })
    assert.are.equal('E2', brief.diagnostic_counts(buf, 1, 3))
    vim.diagnostic.reset(other, buf)
  end)
end)
