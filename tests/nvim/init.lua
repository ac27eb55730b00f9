-- Minimal init for tests: this repository on the runtimepath, nothing of the user's.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h')
vim.opt.runtimepath:prepend(root)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
if vim.env.SIMPLE_BRIEF_TEST_HOST ~= 'rplugin' then
  vim.g.loaded_python3_provider = 0
end
local python = vim.env.SIMPLE_BRIEF_TEST_PYTHON
if python and python ~= '' then
  require('simple_brief').setup({ cmd = { python, '-m', 'simple_brief', 'lsp' }, host = 'child' })
end
