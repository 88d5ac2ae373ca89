" Vim/Neovim syntax for ludic's .game files (filetype `game`): the regex fallback of
" grammar/ludic.tmLanguage.json. Its word lists are ludic::language_words(), checked by
" tests/textmate.rs. Set-up: README.md, "Editor set-up".
if exists("b:current_syntax")
  finish
endif

syn iskeyword @,48-57,_
" the words of the language: reserved ones, the others (names wherever a name is expected),
" and the builtins
syn keyword gameReserved and else false if in not or then true where
syn keyword gameKeyword about again aliases another area as at backward between board capture
syn keyword gameKeyword carry choose condition die direction directions do draw drops end ends exists
syn keyword gameKeyword faces first for forall forget forward from game give keep kind labels
syn keyword gameKeyword lap leaving limit line lines links ludic maximum minimum move moves
syn keyword gameKeyword number off on onto opposite orders origin otherwise owner per pieces
syn keyword gameKeyword place player players points position positions random relay require ring round
syn keyword gameKeyword rounds row send set side sides skip some source sow sower start summary
syn keyword gameKeyword through throw to token tokens total toward turn turned turns value when
syn keyword gameKeyword while winner with
syn keyword gameBuiltin abs all area between bottom captured cell count first_player hole jumps
syn keyword gameBuiltin kind max min mover neighbours next none opponent opposite original_owner
syn keyword gameBuiltin owner point pos repeated round run score side site size sown store top
syn keyword gameBuiltin track_end track_pos track_site void x y site_at ray rays steps connected repetitions

syn match gameNumber "\<\d\+\>"
syn match gameOperator "==\|!=\|<=\|>=\|\.\.\|[-+*/%<>=:]"
" the name a declaration gives (`def total(p)`, `region row`, `let value`): after these words
syn keyword gameDeclWord def action region site track let option tally dice variant nextgroup=gameDeclName skipwhite
syn match gameDeclName "\(from\>\|as\>\)\@!\h\w*" contained
syn region gameString start=/"/ end=/"\|$/ oneline
syn region gameString start=/"""/ end=/"""/
syn match gameComment "#.*$" contains=@Spell

hi def link gameReserved Conditional
hi def link gameKeyword Keyword
hi def link gameBuiltin Function
hi def link gameNumber Number
hi def link gameOperator Operator
hi def link gameDeclWord Keyword
hi def link gameDeclName Identifier
hi def link gameString String
hi def link gameComment Comment

let b:current_syntax = "game"
