" ludic's .game files (grammar/vim/syntax/game.vim)
autocmd BufRead,BufNewFile *.game setfiletype game
