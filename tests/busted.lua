-- Lua specs under Neovim's LuaJIT: nvim -l tests/busted.lua tests/lua
-- Needs busted for Lua 5.1 (Debian: apt-get install lua-busted). Exits non-zero when a spec fails.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')

-- This repository first, so `require('simple_brief.config')` loads the working copy.
vim.opt.runtimepath:prepend(root)
package.path = table.concat({ root .. '/lua/?.lua', root .. '/lua/?/init.lua', package.path }, ';')

-- busted and its C modules (lfs, term, system) as Debian or luarocks install them for 5.1.
local lua_dirs, c_dirs = {}, {}
for _, prefix in ipairs({ '/usr/local/share/lua/5.1', '/usr/share/lua/5.1' }) do
  lua_dirs[#lua_dirs + 1] = prefix .. '/?.lua;' .. prefix .. '/?/init.lua'
end
local arch_dirs = vim.fn.glob('/usr/lib/*/lua/5.1', false, true)
for _, dir in ipairs({ '/usr/local/lib/lua/5.1', unpack(arch_dirs) }) do
  c_dirs[#c_dirs + 1] = dir .. '/?.so'
end
c_dirs[#c_dirs + 1] = '/usr/lib/lua/5.1/?.so'
package.path = package.path .. ';' .. table.concat(lua_dirs, ';')
package.cpath = table.concat(c_dirs, ';') .. ';' .. package.cpath

if not pcall(require, 'busted.runner') then
  io.stderr:write('busted is not installed for Lua 5.1 (Debian: apt-get install lua-busted)\n')
  os.exit(2)
end
-- Called from a chunk without a file name, busted exits with os.exit(code) on failure
-- instead of raising a bare error() (which nvim -l reports as "E5113 … [NULL]").
assert(load("require('busted.runner')({ standalone = false })", '=busted'))()
