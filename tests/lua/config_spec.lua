local config = require('simple_brief.config')

--- The error message resolve() raises for `opts`, or nil when it accepts them.
local function error_of(opts)
  local ok, err = pcall(config.resolve, opts)
  return not ok and err or nil
end

describe('config.resolve', function()
  it('returns the defaults for nil and for an empty table', function()
    assert.are.same(config.defaults, config.resolve(nil))
    assert.are.same(config.defaults, config.resolve({}))
  end)

  it('returns a copy: changing it leaves the defaults alone', function()
    local resolved = config.resolve({})
    table.insert(resolved.filetypes, 'cobol')
    resolved.keep_open[1] = 'F'
    assert.is_false(vim.tbl_contains(config.defaults.filetypes, 'cobol'))
    assert.are.same({ 'C' }, config.defaults.keep_open)
  end)

  it('merges valid options over the defaults, lists replacing lists', function()
    local resolved = config.resolve({
      filetypes = { 'python' },
      cmd = { 'simple-brief', 'lsp' },
      host = 'child',
      attach_timeout_ms = 500,
      view_debounce_ms = 0,
      keep_open = {},
    })
    assert.are.same({ 'python' }, resolved.filetypes)
    assert.are.same({ 'simple-brief', 'lsp' }, resolved.cmd)
    assert.are.equal('child', resolved.host)
    assert.are.equal(500, resolved.attach_timeout_ms)
    assert.are.equal(0, resolved.view_debounce_ms)
    assert.are.same({}, resolved.keep_open)
  end)

  local invalid = {
    { 'filetypes', 'python' },
    { 'filetypes', { 'python', 3 } },
    { 'filetypes', { python = true } },
    { 'cmd', {} },
    { 'cmd', 'simple-brief lsp' },
    { 'cmd', { 'simple-brief', false } },
    { 'host', 'remote' },
    { 'host', true },
    { 'attach_timeout_ms', 0 },
    { 'attach_timeout_ms', -5 },
    { 'attach_timeout_ms', 1.5 },
    { 'attach_timeout_ms', '1000' },
    { 'view_debounce_ms', -1 },
    { 'view_debounce_ms', 0.5 },
    { 'view_debounce_ms', '150' },
    { 'keep_open', 'C' },
    { 'keep_open', { 1 } },
    { 'keep_open', { 'class' } },
    { 'reload', 'yes' },
    { 'reload', 1 },
    { 'checktime_ms', -1 },
    { 'checktime_ms', 0.5 },
  }
  for _, case in ipairs(invalid) do
    local key, value = case[1], case[2]
    it(('names the key for %s = %s'):format(key, vim.inspect(value)), function()
      local err = error_of({ [key] = value })
      assert.is_not_nil(err, 'accepted ' .. key .. ' = ' .. vim.inspect(value))
      assert.are.equal(1, select(2, err:gsub('simple_brief%.setup: ' .. key .. ' must be ', '')), err)
      assert.truthy(err:find(vim.inspect(value), 1, true), err)
    end)
  end

  it('refuses an unknown option and lists the known ones', function()
    local err = error_of({ filetype = { 'python' } })
    assert.truthy(err:find('unknown option "filetype"', 1, true), err)
    assert.truthy(
      err:find('attach_timeout_ms, checktime_ms, cmd, filetypes, host, keep_open, reload, view_debounce_ms', 1, true),
      err
    )
  end)

  it('refuses a list passed where the options table belongs', function()
    local err = error_of({ 'python' })
    assert.truthy(err:find('unknown option "1"', 1, true), err)
  end)

  it('refuses options that are not a table', function()
    local err = error_of('python')
    assert.are.equal('simple_brief.setup: expected a table of options, got string', err)
  end)
end)

describe('config.set', function()
  after_each(function()
    config.set(nil)
  end)

  it('replaces the options of an earlier call', function()
    config.set({ host = 'child', view_debounce_ms = 10 })
    config.set({ host = 'rplugin' })
    assert.are.equal('rplugin', config.options.host)
    assert.are.equal(config.defaults.view_debounce_ms, config.options.view_debounce_ms)
  end)

  it('keeps the old options when the new ones are invalid', function()
    config.set({ host = 'child' })
    assert.has_error(function()
      config.set({ host = 'nowhere' })
    end)
    assert.are.equal('child', config.options.host)
  end)
end)
