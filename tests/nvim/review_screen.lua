-- The pending review of docs/review-screen.txt, made again with:
--   tmux new-session -d -s review -x 100 -y 24 'nvim -u NONE -S tests/nvim/review_screen.lua'
--   sleep 2; tmux capture-pane -p -t review | sed 's/[[:space:]]*$//' > docs/review-screen.txt
--   tmux kill-session -t review
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h')
vim.opt.runtimepath:prepend(root)
vim.cmd.runtime('plugin/simple_brief.lua')
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.swapfile = false

local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local path = dir .. '/app.py'
vim.fn.writefile({
  'import json',
  '',
  '',
  'class App:',
  '    def __init__(self, path):',
  '        self.path = path',
  '',
  '    def run(self):',
  '        data = self.load()',
  '        return len(data)',
  '',
  '    def load(self):',
  '        with open(self.path) as f:',
  '            return json.load(f)',
}, path)
vim.cmd.edit(path)
require('simple_brief.review').propose({
  id = 'r1',
  path = path,
  title = 'count the items, not the keys',
  tick = vim.b.changedtick,
  hunks = {
    {
      n = 1,
      start = 9,
      old = { '        data = self.load()', '        return len(data)' },
      new = { '        items = self.load().get("items", [])', '        return len(items)' },
      symbol = 'Class:App > Method:run',
    },
    {
      n = 2,
      start = 15,
      old = {},
      new = { '', '    def clear(self):', '        self.path = None' },
      symbol = 'Class:App',
    },
  },
})
