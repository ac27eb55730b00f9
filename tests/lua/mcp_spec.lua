local mcp = require('simple_brief.mcp')

describe('mcp.hook_lines', function()
  it('holds the hook command as one JSON string, quoted for the shell that runs it', function()
    local engine = '/tmp/my "odd" dir\\simple-brief'
    local settings = vim.json.decode(table.concat(mcp.hook_lines({ engine, 'mcp' }), '\n'))
    local pre, post = settings.hooks.PreToolUse[1], settings.hooks.PostToolUse[1]
    assert.are.equal(vim.fn.shellescape(engine) .. ' hook claude', pre.hooks[1].command)
    assert.are.equal(pre.hooks[1].command, post.hooks[1].command)
    assert.are.equal('Read', pre.matcher)
    assert.are.equal('Edit|Write|MultiEdit', post.matcher)
  end)

  it('keeps the words before mcp (python -m simple_brief) and writes no escaped slashes', function()
    local lines = mcp.hook_lines({ '/usr/bin/python3', '-m', 'simple_brief', 'mcp' })
    local text = table.concat(lines, '\n')
    assert.is_truthy(text:find('"command": "/usr/bin/python3 -m simple_brief hook claude"', 1, true))
  end)
end)
