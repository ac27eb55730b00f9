--- reload.setup in the Neovim that runs the specs: what `reload` and `checktime_ms` install.

local config = require('simple_brief.config')
local reload = require('simple_brief.reload')

local function handlers()
  return #vim.api.nvim_get_autocmds({ group = 'simple_brief_reload', event = 'FileChangedShell' })
end

describe('reload.setup', function()
  after_each(function()
    config.set({ reload = false })
    reload.setup()
    config.set()
  end)

  it('decides for Neovim when a file changed on disk, by default', function()
    config.set()
    reload.setup()
    assert.are.equal(1, handlers())
    local checks = vim.api.nvim_get_autocmds({ group = 'simple_brief_reload', event = 'FocusGained' })
    assert.are.equal(1, #checks)
  end)

  it('installs its handler once however often setup runs, and none with reload = false', function()
    config.set()
    reload.setup()
    reload.setup()
    assert.are.equal(1, handlers())
    config.set({ reload = false })
    reload.setup()
    assert.are.equal(0, handlers())
  end)

  it('says what to do in one sentence', function()
    local buf = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. '/app.py')
    assert.truthy(
      reload.message(buf, 'conflict'):find('app.py changed on disk while you have unsaved changes', 1, true)
    )
    assert.truthy(reload.message(buf, 'deleted'):find('app.py was deleted on disk; your buffer is kept', 1, true))
  end)
end)
