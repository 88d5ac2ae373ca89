-- A real client of `ludic lsp`: Neovim, headless, opens a game file, starts the server as an
-- editor's configuration would, and writes what it gets to a file tests/lsp.rs reads, a
-- `key=value` per line. Run by tests/lsp.rs:
--   LUDIC_BIN=… LUDIC_GAME=… LUDIC_OUT=… nvim --headless --clean -c 'luafile tests/lsp/client.lua'
local out = {}
local function say(key, value)
  table.insert(out, key .. '=' .. tostring(value):gsub('\n', '\\n'))
end
local function finish()
  vim.fn.writefile(out, os.getenv('LUDIC_OUT'))
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('LUDIC_GAME')))
  local buf = vim.api.nvim_get_current_buf()
  local config = { name = 'ludic', cmd = { os.getenv('LUDIC_BIN'), 'lsp' }, root_dir = vim.fn.getcwd() }
  local id
  if vim.lsp.start then -- Neovim 0.8 and later
    id = vim.lsp.start(config)
  else -- Neovim 0.7 (Debian 12's)
    id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, id)
  end
  say('started', id ~= nil)

  -- the diagnostics the server publishes on open
  vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    say('diagnostic', (d.lnum + 1) .. ':' .. d.severity .. ':' .. d.message)
  end

  -- the position of the first `word` on a line that contains `context` (0-based)
  local function find(context, word)
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local at = line:find(context, 1, true)
      if at then
        local col = line:find(word, at, true)
        return { line = i - 1, character = col - 1 }
      end
    end
  end
  local function ask(method, pos, extra)
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos }
    for k, v in pairs(extra or {}) do params[k] = v end
    local answers = vim.lsp.buf_request_sync(buf, method, params, 5000) or {}
    for _, a in pairs(answers) do
      if a.result then return a.result end
    end
  end

  local hover = ask('textDocument/hover', find('if not exists', 'controls'))
  say('hover', hover and hover.contents.value or 'none')
  local kw = ask('textDocument/hover', find('throw grain', 'throw'))
  say('keyword', kw and kw.contents.value or 'none')

  -- a definition jump: the cursor moves to the def
  local use = find('if not exists', 'controls')
  vim.api.nvim_win_set_cursor(0, { use.line + 1, use.character })
  vim.lsp.buf.definition()
  vim.wait(5000, function() return vim.api.nvim_win_get_cursor(0)[1] ~= use.line + 1 end, 20)
  local cur = vim.api.nvim_win_get_cursor(0)
  say('jump', cur[1] .. ':' .. vim.api.nvim_get_current_line())

  local items = ask('textDocument/completion', find('if not exists', 'controls'))
  items = items and (items.items or items) or {}
  local labels = {}
  for _, i in ipairs(items) do table.insert(labels, i.label) end
  say('completion', table.concat(labels, ' '))
end)
if not ok then say('error', err) end
finish()
