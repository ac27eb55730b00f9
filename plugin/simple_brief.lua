-- simple-brief: commands only; every module loads on first use.
if vim.g.loaded_simple_brief then
  return
end
vim.g.loaded_simple_brief = true

vim.api.nvim_create_user_command('SimpleBrief', function(args)
  require('simple_brief').command(args)
end, {
  bang = true,
  nargs = '?',
  complete = function(arglead)
    return vim.tbl_filter(function(w)
      return vim.startswith(w, arglead)
    end, { 'outline', 'compact', 'mcp', 'trust', 'untrust' })
  end,
  desc = "Fold to the outline (! restores); outline|compact opens the agent view; mcp shows how to register the MCP server; trust|untrust the workspace's config",
})

vim.api.nvim_create_user_command('ExpandAt', function(args)
  require('simple_brief.expand').command(args)
end, {
  nargs = '*',
  complete = function(arglead, cmdline)
    return require('simple_brief.expand').complete(arglead, cmdline)
  end,
  desc = 'Open one symbol: name, Class.method, line:N or a Markdown heading, then body|signature|all',
})

vim.api.nvim_create_user_command('SimpleBriefServe', function()
  require('simple_brief.serve').command()
end, { desc = 'Serve the MCP tools over HTTP on 127.0.0.1 and print how to add them to an agent' })

vim.api.nvim_create_user_command('SimpleBriefInstall', function(args)
  require('simple_brief.install').command(args)
end, {
  bang = true,
  nargs = '?',
  complete = 'shellcmd',
  desc = "Install the engine into its own venv in Neovim's data folder (! recreates it; optional: the python to use)",
})

vim.api.nvim_create_user_command('SimpleBriefReview', function(args)
  require('simple_brief.review_ui').command(args)
end, {
  nargs = '*',
  complete = function(arglead, cmdline)
    local words = vim.split(vim.trim(cmdline), '%s+')
    local choices = (#words > 2 or (#words == 2 and arglead == '')) and { 'all' } or { 'accept', 'reject' }
    return vim.tbl_filter(function(w)
      return vim.startswith(w, arglead)
    end, choices)
  end,
  desc = "List the agent's pending proposals (<CR> jumps); accept|reject [all] the hunk under the cursor or all",
})
