-- Compiles the Lua text on stdin with LuaJIT's loadstring (runs none of it): exit 0 when
-- it compiles, else its error on stdout and exit 1 (simple_brief.intel.checkers, `nvim-lua`).
local fn, err = loadstring(io.read('*a'), '=stdin')
if fn then
  os.exit(0)
end
io.stdout:write(err, '\n')
os.exit(1)
