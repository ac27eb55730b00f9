-- The build step: creates the engine's virtual environment in Neovim's data folder
-- (stdpath('data')/simple-brief/venv) and installs the engine from this folder into it.
-- lazy.nvim runs this file on install and update by itself; elsewhere run it with
-- `nvim -l build.lua` or `:SimpleBriefInstall` (:help simple-brief-install).
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h')
local install = dofile(vim.fs.joinpath(here, 'lua', 'simple_brief', 'install.lua'))
local exe, why = install.run()
if not exe then
  error('simple-brief: ' .. why, 0)
end
for _, line in ipairs(install.done_lines(exe)) do
  if coroutine.isyieldable() then
    coroutine.yield(line)
  else
    print('simple-brief: ' .. line)
  end
end
