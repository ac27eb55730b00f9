--- :SimpleBrief mcp — the lines that register `simple-brief mcp` (stdio) with agents:
--- Claude Code, Codex and a JSON config (Claude Desktop, Cursor, a project's .mcp.json),
--- and Claude Code's hook (`simple-brief hook claude`, the `hooks` block of
--- ~/.claude/settings.json), with the real, absolute command of the engine this Neovim
--- runs, so nobody edits a path.
local lsp = require('simple_brief.lsp')

local M = {}

local H = {}

--- Upper bound for the `--version` check of the command.
H.check_ms = 10000

--- The absolute argv that starts the MCP server over stdio: the language server's command
--- (setup's `cmd`, the installed engine, `simple-brief` on PATH, or python -m) with `lsp`
--- swapped for `mcp`.
---@return string[]|nil, string|nil why_not
function M.cmd()
  local cmd = vim.deepcopy(lsp.child_cmd())
  if cmd[#cmd] ~= 'lsp' then
    return nil, "the cmd option must end in 'lsp' (e.g. { 'simple-brief', 'lsp' }) to derive the MCP command"
  end
  cmd[#cmd] = 'mcp'
  local exe = vim.fn.exepath(vim.fn.expand(cmd[1]))
  if exe == '' then
    return nil, ('%s is not an executable; run :SimpleBriefInstall'):format(cmd[1])
  end
  cmd[1] = exe
  return cmd
end

--- The command, checked: it must answer `--version` as simple-brief.
---@return string[]|nil, string|nil why_not
function M.checked_cmd()
  local cmd, why = M.cmd()
  if not cmd then
    return nil, why
  end
  local probe = vim.deepcopy(cmd)
  probe[#probe] = '--version'
  local ok, job = pcall(vim.system, probe, { text = true })
  local res = ok and job:wait(H.check_ms) or nil
  if not res or res.code ~= 0 or not vim.startswith(vim.trim(res.stdout or ''), 'simple-brief ') then
    local said = res and vim.trim((res.stderr or '') ~= '' and res.stderr or (res.stdout or '')) or tostring(job)
    local last = vim.split(said, '\n', { trimempty = true })
    return nil,
      ('`%s` does not run the engine (%s); run :SimpleBriefInstall'):format(
        table.concat(probe, ' '),
        last[#last] or 'no output'
      )
  end
  return cmd
end

--- A word for a shell line: quoted only when it needs it.
---@param word string
---@return string
function H.word(word)
  if word:match('^[%w%-%./_:=@+]+$') then
    return word
  end
  return vim.fn.shellescape(word)
end

--- The `hooks` block of ~/.claude/settings.json that runs `simple-brief hook claude`: the
--- same text as HOOK_SETTINGS in python/simple_brief/defaults.py.
---@param cmd string[] the MCP command (its last word `mcp`)
---@return string[]
function M.hook_lines(cmd)
  local hook = vim.list_slice(cmd, 1, #cmd - 1)
  vim.list_extend(hook, { 'hook', 'claude' })
  local command = vim.json.encode(table.concat(vim.tbl_map(H.word, hook), ' '))
  local entry = '[{ "type": "command", "command": ' .. command .. ' }] }'
  return {
    '{',
    '  "hooks": {',
    '    "PreToolUse": [',
    '      { "matcher": "Read", "hooks": ' .. entry,
    '    ],',
    '    "PostToolUse": [',
    '      { "matcher": "Edit|Write|MultiEdit", "hooks": ' .. entry,
    '    ]',
    '  }',
    '}',
  }
end

--- The registration lines for `cmd`.
---@param cmd string[]
---@return string[]
function M.lines(cmd)
  local shell = table.concat(vim.tbl_map(H.word, cmd), ' ')
  local json = vim.json.encode({
    mcpServers = { ['simple-brief'] = { command = cmd[1], args = vim.list_slice(cmd, 2) } },
  })
  return vim.list_extend({
    'simple-brief MCP over stdio: ' .. shell,
    'Claude Code: claude mcp add simple-brief -- ' .. shell,
    'Codex: codex mcp add simple-brief -- ' .. shell,
    'JSON (Claude Desktop, Cursor, .mcp.json): ' .. json,
    'It reads this Neovim while it runs (or the files on disk); over HTTP instead: :SimpleBriefServe',
    '',
    'Claude Code hook (a long source file read whole gets its outline once per session; an edit, its errors):',
    'merge into ~/.claude/settings.json:',
  }, M.hook_lines(cmd))
end

--- :SimpleBrief mcp handler: the lines in a scratch split to copy from.
---@return boolean ok, string|nil why_not
function M.show()
  local cmd, why = M.checked_cmd()
  if not cmd then
    return false, why
  end
  require('simple_brief.view').show_lines('simple-brief://mcp', M.lines(cmd))
  return true
end

return M
