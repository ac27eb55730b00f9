--- Configuration: defaults, validation, and the resolved config.
---
--- Errors name the key (`simple_brief.setup: filetypes must be a list of strings`) so a
--- typo in a user's config is found at once.
local M = {}

---@class simple_brief.Config
---@field filetypes string[] Filetypes the language server starts for.
---@field cmd string[]|nil Command of the language server child process; nil = found automatically.
---@field host 'auto'|'rplugin'|'child' Where the engine runs: Neovim's Python host, a child process, or auto.
---@field attach_timeout_ms integer How long :SimpleBrief waits for the server and its folds.
---@field view_debounce_ms integer Delay before the outline split refreshes after an edit.
---@field keep_open string[] Block marks whose folds :SimpleBrief leaves open (containers).
---@field reload boolean Files changed on disk: reload unmodified buffers, flag modified ones.
---@field checktime_ms integer How often (Normal mode) files are checked for changes on disk; 0 = only on events.

---@class simple_brief.SetupOpts
---@field filetypes? string[]
---@field cmd? string[]
---@field host? 'auto'|'rplugin'|'child'
---@field attach_timeout_ms? integer
---@field view_debounce_ms? integer
---@field keep_open? string[]
---@field reload? boolean
---@field checktime_ms? integer

---@type simple_brief.Config
M.defaults = {
  -- Filetypes with a tree-sitter outline in the engine (generated from its language units).
  filetypes = vim.deepcopy(require('simple_brief.filetypes')),
  -- nil: `simple-brief lsp` from PATH, else `python3 -m simple_brief lsp`.
  cmd = nil,
  -- auto: the Python host when the remote plugin is registered, else a child process.
  host = 'auto',
  attach_timeout_ms = 10000,
  view_debounce_ms = 150,
  -- Classes (C>) stay open so their methods show; functions, structs, enums fold.
  keep_open = { 'C' },
  -- An agent wrote a file: reload the buffers without unsaved changes, flag the others.
  reload = true,
  -- Besides focus, BufEnter, CursorHold and TermLeave: look for such changes every second.
  checktime_ms = 1000,
}

---@type simple_brief.Config
M.options = vim.deepcopy(M.defaults)

local function is_list_of_strings(v)
  if type(v) ~= 'table' then
    return false
  end
  for _, item in ipairs(v) do
    if type(item) ~= 'string' then
      return false
    end
  end
  return #v == vim.tbl_count(v)
end

local checks = {
  filetypes = { is_list_of_strings, 'a list of strings' },
  cmd = {
    function(v)
      return v == nil or (is_list_of_strings(v) and #v > 0)
    end,
    'nil or a non-empty list of strings',
  },
  host = {
    function(v)
      return v == 'auto' or v == 'rplugin' or v == 'child'
    end,
    "'auto', 'rplugin' or 'child'",
  },
  attach_timeout_ms = {
    function(v)
      return type(v) == 'number' and v > 0 and v % 1 == 0
    end,
    'a positive whole number',
  },
  view_debounce_ms = {
    function(v)
      return type(v) == 'number' and v >= 0 and v % 1 == 0
    end,
    'a whole number >= 0',
  },
  keep_open = {
    function(v)
      if not is_list_of_strings(v) then
        return false
      end
      for _, mark in ipairs(v) do
        if not ({ F = true, C = true, S = true, E = true })[mark] then
          return false
        end
      end
      return true
    end,
    "a list of block marks among 'F', 'C', 'S', 'E'",
  },
  reload = {
    function(v)
      return type(v) == 'boolean'
    end,
    'true or false',
  },
  checktime_ms = {
    function(v)
      return type(v) == 'number' and v >= 0 and v % 1 == 0
    end,
    'a whole number >= 0 (0: only on focus, BufEnter, CursorHold and TermLeave)',
  },
}

--- Validate user options and merge them over the defaults.
---@param opts simple_brief.SetupOpts|nil
---@return simple_brief.Config
function M.resolve(opts)
  opts = opts or {}
  if type(opts) ~= 'table' then
    error('simple_brief.setup: expected a table of options, got ' .. type(opts), 0)
  end
  for key, value in pairs(opts) do
    local check = checks[key]
    if not check then
      local known = vim.tbl_keys(checks)
      table.sort(known)
      error(('simple_brief.setup: unknown option %q; the options are: %s'):format(key, table.concat(known, ', ')), 0)
    end
    if not check[1](value) then
      error(('simple_brief.setup: %s must be %s, got %s'):format(key, check[2], vim.inspect(value)), 0)
    end
  end
  local resolved = vim.tbl_extend('force', vim.deepcopy(M.defaults), opts)
  return resolved
end

--- Apply options (safe to call again: later calls replace earlier ones).
---@param opts simple_brief.SetupOpts|nil
function M.set(opts)
  M.options = M.resolve(opts)
end

return M
