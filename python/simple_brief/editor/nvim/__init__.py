"""The Neovim adapter (pynvim): the live-editor backend (`backend`), what Neovim sends about
its buffers (`buffers`), LSP requests to Neovim's attached clients (`intel`), which Neovim to
attach to (`attach`), the instances each Neovim registers (`instances`), and the Lua it
installs in Neovim (`rpc.lua`; `context.lua` is the plugin's own, linked here for wheels)."""
